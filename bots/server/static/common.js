// dixtrix pages' shared code: what the table (app.js) and the analysis
// board (analysis.js) both do, written once. Loaded after words.js (the
// words: t(), tn(), pickLang()) and before the page's own script, which
// shares these globals: the DOM helpers, the JSON API, the page's language
// and the games, a game's options as a form, and the cards, seats and
// trick on the felt.
"use strict";

const $ = (id) => document.getElementById(id);
let LANG = "en";
let GAMES = [];          // the games as GET /v1/games gives them

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function say(text) { $("message").textContent = text || ""; }

// ---- the API ---------------------------------------------------------------------

class ApiError extends Error {
  // code, data: the error as data where the server gives it so (a set-up's
  // duplicate card, a hand's size: docs/positions.md), for the page to word
  constructor(message, status, path, code, data) {
    super(message); this.status = status; this.path = path; this.code = code; this.data = data;
  }
}

// what the page does while it waits for a busy server (503) before asking
// again, told the seconds: the table says so (app.js); null, as on the
// board, waits without a word
let onBusy = null;

async function api(method, path, body, auth, signal) {
  const opts = { method, headers: {}, signal };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  if (auth) opts.headers.Authorization = `Bearer ${auth}`;
  const sep = path.includes("?") ? "&" : "?";
  const url = path.startsWith("/v1/i18n") ? path : `${path}${sep}lang=${LANG}`;
  for (let attempt = 0; ; attempt++) {
    const resp = await fetch(url, opts);
    if (resp.status === 204) return null;
    const data = await resp.json().catch(() => ({ error: `HTTP ${resp.status}` }));
    if (resp.status === 503 && attempt < 3) {
      const wait = Math.min(10, Number(resp.headers.get("Retry-After") || 1));
      if (onBusy) onBusy(wait);
      await new Promise((r) => setTimeout(r, wait * 1000));
      continue;
    }
    if (!resp.ok) throw new ApiError(data.error || `HTTP ${resp.status}`, resp.status, data.path, data.code, data.data);
    return data;
  }
}

// a streamed answer read as it comes, cut at sep (a blank line between
// server-sent events, a newline between JSON lines): each piece to
// onPiece, until the body ends (false) or onPiece answers true (true: the
// rest is not read)
async function readPieces(resp, sep, onPiece) {
  const reader = resp.body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return false;
    buf += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buf.indexOf(sep)) >= 0) {
      const piece = buf.slice(0, cut);
      buf = buf.slice(cut + sep.length);
      if (onPiece(piece)) return true;
    }
  }
}

// ---- the page's language and the games -----------------------------------------------

// the page in lang: its catalogue (GET /v1/i18n/<lang>), the document's
// language and direction, the language picker and every element's data-t
// words; the answer, for what the page words itself
async function loadWords(lang) {
  const data = await api("GET", `/v1/i18n/${lang}`);
  setWords(data);
  LANG = lang;
  document.documentElement.lang = lang;
  document.documentElement.dir = data.dir;
  $("lang").value = lang;
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  return data;
}

// a page's start: its words in the reader's language (pickLang), through
// the page's own loadLang, then the games (kept in GAMES); the games'
// answer, or null once the page has said why the server cannot be reached
async function openPage(loadLang) {
  try {
    await loadLang(pickLang());
    const data = await api("GET", "/v1/games");
    GAMES = data.games;
    return data;
  } catch (e) {
    say(t("Cannot reach the server: {why}", { why: e.message }));
    return null;
  }
}

// the language picker: a choice is kept for the next visit, and the page
// opened again in it
function followLangPicker() {
  $("lang").addEventListener("change", async () => {
    localStorage.setItem("dixtrix.lang", $("lang").value);
    const url = new URL(location.href);
    url.searchParams.set("lang", $("lang").value);
    location.replace(url.toString());
  });
}

// a game's name in the reader's language, as the server gives it (/v1/games)
function gameTitle(name) {
  const g = GAMES.find((x) => x.name === name);
  return g && g.title ? g.title : name;
}

// a game as a choice of a list of games: its name and its players
function gameChoice(g) {
  return el("option", { value: g.name, text: tn("{game} ({n} player)", "{game} ({n} players)", g.players, { game: gameTitle(g.name) }) });
}

// a game's options as the inputs of a form (box, under its legend), as
// /v1/games gives them: an input's id is prefix and the option's key, its
// data-key the option's name in the JSON; onChange hears every change
function renderOptionInputs(box, game, prefix, onChange) {
  box.replaceChildren(el("legend", { text: t("Options") }));
  for (const [key, spec] of Object.entries(game.options)) {
    const id = `${prefix}${key}`;
    const said = spec.choice_labels || {};
    let input;
    if (spec.type === "bool") {
      input = el("input", { type: "checkbox", id, "data-key": key, checked: spec.default });
    } else if (spec.choices) {
      input = el("select", { id, "data-key": key });
      for (const c of spec.choices) input.append(el("option", { value: String(c), text: said[String(c)] || String(c), selected: c === spec.default }));
    } else if (spec.type === "int") {
      input = el("input", { type: "number", id, "data-key": key, value: spec.default, min: spec.min, max: spec.max });
    } else {
      input = el("input", { type: "text", id, "data-key": key, value: spec.default });
    }
    input.addEventListener("change", onChange);
    // the option in words
    box.append(el("div", { class: "option" }, el("label", { for: id, text: spec.label || key }), input,
                  el("small", { class: "doc", text: spec.doc || "" })));
  }
}

// the options of a form renderOptionInputs made that differ from their defaults
function readOptionInputs(box, game) {
  const out = {};
  for (const input of box.querySelectorAll("[data-key]")) {
    const key = input.dataset.key;
    const spec = game.options[key];
    let value = spec.type === "bool" ? input.checked : input.value;
    if (spec.type === "int") value = Number(value);
    if (value !== spec.default) out[key] = value;
  }
  return out;
}

// ---- cards, seats and the trick on the felt --------------------------------------------

const SUIT_SIGNS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };

// a card as the answer p describes it (p.cards: its face, name, colour and
// mark), or its id where p does not
function cardInfo(p, id) { return (p.cards || {})[id] || { face: id, name: id, colour: "none" }; }

function cardName(p, id) { return cardInfo(p, id).name; }

function faceOf(c) {
  return [el("span", { class: "face", text: c.face }),
    c.mark ? el("small", { class: "mark", "aria-hidden": "true", text: c.mark }) : null];
}

function cardNode(p, id, extra) {
  const c = cardInfo(p, id);
  return el("span", { class: `card c-${c.colour}${extra ? " " + extra : ""}`, "data-card": id,
                      role: "img", "aria-label": c.name, title: c.name }, ...faceOf(c));
}

// where seat s sits round a table of n seats seen from seat me (at the
// bottom), then the next seats to the left, the top, the right: percents of
// the felt
function seatPlace(n, me, s) {
  const k = (s - me + n) % n;
  const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
  return { x: 50 + 42 * Math.cos(angle), y: 50 + 40 * Math.sin(angle) };
}

// the line under a seat that its game words (board.seat_notes: its tricks,
// its tokens), or nothing
function seatExtra(notes, s) {
  const text = Array.isArray(notes) ? notes[s] : "";
  return text ? el("div", { class: "seat-extra", text }) : null;
}

// the panels a game words of its board (board.panels, solver/front.py's
// Front.panels), into box: each a heading and rows of words, of words and
// cards drawn small, or a numbered list; p names the cards
function drawPanels(box, p, panels) {
  for (const panel of panels || []) {
    const node = el("div", { class: "panel", "data-panel": panel.id },
      panel.title ? el("h3", { text: panel.title }) : null);
    for (const row of panel.rows) {
      if (row.items) node.append(el("ol", { class: "chain" }, ...row.items.map((x) => el("li", { text: x }))));
      else if (row.cards) node.append(el("p", { text: row.text }), el("div", { class: "cards-row" }, ...row.cards.map((c) => cardNode(p, c, "small"))));
      else node.append(el("p", { text: row.text }));
    }
    box.append(node);
  }
}

// the trick in play on the felt (box), each card toward its player's seat
// as seen from seat me; none played yet, the last trick, marked so: b holds
// trick and last_trick (the table's board, the board's step); the last
// trick shown, or false
function drawTrick(box, p, b, me) {
  const trick = b.trick && b.trick.length ? b.trick : (b.last_trick ? b.last_trick.cards : []);
  const last = !(b.trick && b.trick.length) && b.last_trick;
  for (const play of trick) {
    const place = seatPlace(p.players, me, play.seat);
    const node = cardNode(p, play.card, "played" + (last ? " last" : ""));
    node.style.left = `${50 + (place.x - 50) * 0.38}%`;
    node.style.top = `${50 + (place.y - 50) * 0.42}%`;
    node.dataset.seat = play.seat;
    node.setAttribute("aria-label", t("{name} played the {card}", { name: p.names[play.seat], card: cardName(p, play.card) }));
    box.append(node);
  }
  return last;
}

// the notes beside the trick: who took the last trick (last, drawTrick's),
// the trumps, the turned-up card, the stock left
function trickNotes(p, b, last) {
  const notes = [];
  if (last) notes.push(t("Last trick, taken by {name}", { name: p.names[b.last_trick.winner] }));
  if (b.trumps) notes.push(t("Trumps: {suit}", { suit: `${b.trumps.sign || ""} ${b.trumps.name}`.trim() }));
  if (b.turn_up) notes.push(t("Turn-up: {card}", { card: cardName(p, b.turn_up) }));
  if (b.stock_left !== undefined) notes.push(tn("Stock: {n} card", "Stock: {n} cards", b.stock_left));
  return notes;
}
