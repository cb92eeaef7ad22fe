// dixtrix pages' shared words: the catalogue of the page's language
// (/v1/i18n/<lang>), read by t() for a message and tn() for a count, and
// the language a page starts in.  Loaded first, before common.js (the rest
// both pages share) and app.js or analysis.js, which share these globals.
"use strict";

let MESSAGES = {};
let PLURALS = {};            // singular message id -> its forms in the page's language
let pluralIndex = (n) => (n !== 1 ? 1 : 0);   // the catalogue's Plural-Forms rule

// the catalogue a /v1/i18n/<lang> answer carries
function setWords(data) {
  MESSAGES = data.messages || {};
  PLURALS = data.plurals || {};
  pluralIndex = data.plural && data.plural.expr ? compilePlural(data.plural.expr)
    : (n) => (n !== 1 ? 1 : 0);
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

function t(message, params) {
  return fill(MESSAGES[message] || message, params);
}

// a count in words: the form the catalogue's plural rule gives n ({n} is n)
function tn(singular, plural, n, params) {
  const forms = PLURALS[singular];
  const english = n === 1 ? singular : plural;
  const text = forms ? forms[pluralIndex(n)] || english : english;
  return fill(text, { n, ...(params || {}) });
}

// The Plural-Forms rule of a catalogue (C syntax in n: ?:, ||, &&, ==, !=,
// <, <=, >, >=, %, !, parentheses, integers) as a function, read by a small
// parser rather than eval: the page runs no code it was sent.
function compilePlural(expr) {
  const tokens = expr.match(/\d+|n|\|\||&&|==|!=|<=|>=|[<>%?:()!]/g) || [];
  let i = 0;
  const peek = () => tokens[i];
  const next = () => tokens[i++];
  function primary() {
    const tok = next();
    if (tok === "(") { const e = ternary(); next(); return e; }
    if (tok === "!") { const e = primary(); return (n) => (e(n) ? 0 : 1); }
    if (tok === "n") return (n) => n;
    const v = Number(tok);
    if (!Number.isInteger(v)) throw new Error(`plural rule: ${expr}`);
    return () => v;
  }
  function binary(sub, ops) {
    return () => {
      let left = sub();
      while (ops[peek()]) {
        const op = ops[next()];
        const l = left;
        const r = sub();
        left = (n) => op(l(n), r(n));
      }
      return left;
    };
  }
  const mod = binary(primary, { "%": (a, b) => a % b });
  const rel = binary(mod, { "<": (a, b) => +(a < b), "<=": (a, b) => +(a <= b), ">": (a, b) => +(a > b), ">=": (a, b) => +(a >= b) });
  const eq = binary(rel, { "==": (a, b) => +(a === b), "!=": (a, b) => +(a !== b) });
  const and = binary(eq, { "&&": (a, b) => +(a && b) });
  const or = binary(and, { "||": (a, b) => +(a || b) });
  function ternary() {
    const c = or();
    if (peek() !== "?") return c;
    next();
    const a = ternary();
    next();
    const b = ternary();
    return (n) => (c(n) ? a(n) : b(n));
  }
  const f = ternary();
  return (n) => f(Math.abs(Math.trunc(n)));
}

function pickLang() {
  const q = new URLSearchParams(location.search).get("lang");
  if (["en", "ar", "fr"].includes(q)) return q;
  const saved = localStorage.getItem("dixtrix.lang");
  if (["en", "ar", "fr"].includes(saved)) return saved;
  for (const l of navigator.languages || []) {
    const base = l.slice(0, 2).toLowerCase();
    if (["en", "ar", "fr"].includes(base)) return base;
  }
  return "en";
}
