// dixtrix web table: plain JavaScript over the JSON API (docs/server.md).
"use strict";

const $ = (id) => document.getElementById(id);
let GAMES = [];
let current = null;          // the last table payload shown
let busy = false;            // a request is on its way

const SUIT = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) node.append(c);
  return node;
}

function cardLabel(text) {
  const m = /^([2-9TJQKA])([SHDC])$/.exec(text);
  if (m) return { label: (m[1] === "T" ? "10" : m[1]) + SUIT[m[2]], red: m[2] === "H" || m[2] === "D" };
  if (text === "JK") return { label: "Joker", red: false };
  if (/^R\d/.test(text)) return { label: text, red: true };
  return { label: text, red: false };
}

function say(text) { $("message").textContent = text || ""; }

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  for (let attempt = 0; ; attempt++) {
    const resp = await fetch(path, opts);
    if (resp.status === 204) return null;
    const data = await resp.json().catch(() => ({ error: `HTTP ${resp.status}` }));
    if (resp.status === 503 && attempt < 3) {
      const wait = Math.min(10, Number(resp.headers.get("Retry-After") || 1));
      say(`The server is busy; retrying in ${wait} s.`);
      await new Promise((r) => setTimeout(r, wait * 1000));
      continue;
    }
    if (!resp.ok) {
      const err = new Error(data.reason ? `${data.error}` : (data.error || `HTTP ${resp.status}`));
      err.status = resp.status;
      throw err;
    }
    return data;
  }
}

// ---- the new-table form ----------------------------------------------------

function selectedGame() { return GAMES.find((g) => g.name === $("game").value); }

function renderOptions() {
  const game = selectedGame();
  const box = $("options");
  box.replaceChildren(el("legend", { text: "Options" }));
  $("game-doc").textContent = game.description;
  for (const [key, spec] of Object.entries(game.options)) {
    let input;
    if (spec.type === "bool") {
      input = el("input", { type: "checkbox", "data-key": key, checked: spec.default });
    } else if (spec.choices) {
      input = el("select", { "data-key": key });
      for (const c of spec.choices) input.append(el("option", { value: String(c), text: String(c), selected: c === spec.default }));
    } else if (spec.type === "int") {
      input = el("input", { type: "number", "data-key": key, value: spec.default, min: spec.min, max: spec.max });
    } else {
      input = el("input", { type: "text", "data-key": key, value: spec.default });
    }
    input.addEventListener("change", renderSeats);
    box.append(el("label", { title: spec.doc }, el("span", { text: key }), input,
                  el("small", { class: "doc", text: spec.doc })));
  }
  renderSeats();
}

function readOptions() {
  const game = selectedGame();
  const out = {};
  for (const input of $("options").querySelectorAll("[data-key]")) {
    const key = input.dataset.key;
    const spec = game.options[key];
    let value;
    if (spec.type === "bool") value = input.checked;
    else if (spec.type === "int") value = Number(input.value);
    else value = input.value;
    if (spec.choices && spec.type === "int") value = Number(value);
    if (value !== spec.default) out[key] = value;
  }
  return out;
}

function renderSeats() {
  const game = selectedGame();
  const opts = readOptions();
  const n = opts.players || game.players;
  const sel = $("seat");
  const keep = sel.value;
  sel.replaceChildren();
  for (let s = 0; s < n; s++) sel.append(el("option", { value: s, text: `seat ${s}` }));
  if (keep && Number(keep) < n) sel.value = keep;
}

async function startTable(ev) {
  ev.preventDefault();
  say("");
  const game = selectedGame();
  const body = { game: game.name, options: readOptions(), seats: [Number($("seat").value)] };
  const bot = $("bot").value;
  // a game without a rules heuristic gets its default bot instead
  body.bots = bot === "rules" && game.default_bot !== "rules" ? game.default_bot : bot;
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  try {
    $("start").disabled = true;
    const table = await api("POST", "/v1/tables", body);
    location.hash = `table=${table.table}&seat=${table.seat}`;
    show(table);
  } catch (e) {
    say(e.message);
  } finally {
    $("start").disabled = false;
  }
}

// ---- the table ---------------------------------------------------------------

let poll = null;             // the timer that asks again while a bot is to move

function show(p) {
  current = p;
  clearTimeout(poll);
  if (!p.over && !p.your_turn) {
    // the bots' time in one request ran out: let them go on
    poll = setTimeout(async () => {
      try {
        show(await api("GET", `/v1/tables/${p.table}?seat=${p.seat}`));
      } catch (e) {
        say(e.message);
      }
    }, 200);
  }
  $("setup").hidden = true;
  $("table").hidden = false;
  $("hint-out").replaceChildren();
  const who = p.over ? "The match is over." :
    p.your_turn ? "Your turn." : `${p.names[p.to_move]} to move.`;
  $("status").textContent = `${p.game}, deal ${p.deal + 1}: ${who}`;
  $("status").dataset.over = p.over ? "1" : "0";
  renderCenter(p);
  renderRecent(p);
  renderHand(p);
  renderScores(p);
  $("facts").replaceChildren(...p.facts.map((f) => el("li", { text: f })));
  $("hint").disabled = !p.your_turn;
  // the review of the last finished deal: your own decisions, from your view
  const finished = p.deal_scores.length;
  if ($("review").dataset.deal !== String(finished)) $("review-out").replaceChildren();
  $("review").hidden = finished === 0;
  $("review").dataset.deal = finished;
  $("review").textContent = `Review this deal (deal ${finished})`;
}

function cardNode(text, extra) {
  const c = cardLabel(text);
  return el("span", { class: `card${c.red ? " red" : ""}${extra ? " " + extra : ""}`, text: c.label, "data-card": text });
}

function renderCenter(p) {
  const box = $("center");
  box.replaceChildren();
  const k = p.known || {};
  if (typeof k.layout === "string" && k.layout) {
    const lines = k.layout.split(" ").map((part) => el("div", { text: part }));
    box.append(el("div", { class: "layout" }, el("div", { text: "Layout" }), ...lines));
  }
  if (Array.isArray(k.trick) && Number.isInteger(k.leader)) {
    if (k.trick.length === 0) {
      box.append(el("div", { text: `${p.names[k.leader]} to lead` }));
    }
    k.trick.forEach((card, i) => {
      const seat = (k.leader + i) % p.players;
      box.append(el("div", { class: "played" }, cardNode(card), el("div", { text: p.names[seat] })));
    });
  }
  if (k.card !== undefined && k.card !== null) {
    box.append(el("div", { class: "played" }, cardNode(String(k.card)), el("div", { text: "your card" })));
  }
  if (!box.children.length) box.append(el("div", { text: p.over ? "Match over" : "" }));
}

function renderRecent(p) {
  // the public actions since this seat last acted
  let start = p.log.length;
  for (let i = p.log.length - 1; i >= 0; i--) {
    if (p.log[i].seat === p.seat) break;
    start = i;
  }
  const items = p.log.slice(Math.max(0, start - 1));
  $("recent").textContent = items.length ? "Last: " + items.map((e) => `${e.who} ${e.action}`).join(", ") : "";
}

function renderHand(p) {
  const legal = new Map(p.legal.map((a) => [a.action, a]));
  const hand = $("hand");
  hand.replaceChildren();
  const seen = new Set();
  for (const card of p.hand) {
    const ok = legal.has(card) && legal.get(card).card;
    const c = cardLabel(card);
    seen.add(card);
    hand.append(el("button", {
      type: "button", class: `card${c.red ? " red" : ""} ${ok ? "legal" : "dimmed"}`,
      "data-action": card, disabled: !ok, text: c.label,
      onclick: () => play(card),
    }));
  }
  const actions = $("actions");
  actions.replaceChildren();
  for (const a of p.legal) {
    if (seen.has(a.action)) continue;
    actions.append(el("button", { type: "button", class: "action legal", "data-action": a.action,
                                  text: a.action, onclick: () => play(a.action) }));
  }
}

function fmt(v) { return Number.isInteger(v) ? String(v) : v.toFixed(2); }

function shortNames(names) {
  // "partner (2 to the left)" -> "partner 2", "seat 3 (3 to the left)" -> "seat 3"
  return names.map((n, s) => {
    const base = n.split(" (")[0];
    return base !== n && !/^seat /.test(base) ? `${base} ${s}` : base;
  });
}

function renderScores(p) {
  const t = $("scores");
  t.replaceChildren();
  t.append(el("tr", {}, el("th", { text: "" }), ...shortNames(p.names).map((n) => el("th", { text: n }))));
  p.deal_scores.forEach((row, i) => {
    t.append(el("tr", { class: "deal", "data-deal": i }, el("td", { text: `Deal ${i + 1}` }),
      ...row.map((v, s) => el("td", { "data-seat": s, text: fmt(v) }))));
  });
  const totals = p.over && p.returns ? p.returns : p.totals;
  if (Array.isArray(totals)) {
    const label = p.over ? "Match result" : "Match score";
    if (totals.length === p.players) {
      t.append(el("tr", { class: "match" }, el("td", { text: label }),
        ...totals.map((v, s) => el("td", { "data-seat": s, text: fmt(v) }))));
    } else {
      // dixie-rook keeps team totals as (the team of seat 0, the team of seat 1)
      const mine = p.seat % 2;
      const text = `your team ${fmt(totals[mine])}, the other team ${fmt(totals[1 - mine])}`;
      t.append(el("tr", { class: "match" }, el("td", { text: label }),
        el("td", { colspan: p.players, class: "teams", text })));
    }
  }
  $("unit").textContent = `Deals in ${p.unit}.`;
}

async function play(action) {
  if (busy || !current) return;
  busy = true;
  document.body.dataset.busy = "1";
  say("");
  for (const b of document.querySelectorAll("#hand button, #actions button")) b.disabled = true;
  try {
    show(await api("POST", `/v1/tables/${current.table}/actions`, { seat: current.seat, action }));
  } catch (e) {
    say(e.message);
    if (current) show(current);
  } finally {
    busy = false;
    document.body.dataset.busy = "0";
  }
}

async function hint() {
  if (!current || !current.your_turn) return;
  const out = $("hint-out");
  out.replaceChildren(el("p", { text: "Searching..." }));
  $("hint").disabled = true;
  try {
    const h = await api("POST", `/v1/tables/${current.table}/hint`, { seat: current.seat });
    const rows = [];
    const notes = [];
    // every face lists the actions in the advice's order (h.ranking): the
    // advised action first, and says why one below it has a higher mean
    if (h.exact) {
      const ex = h.exact;
      for (const a of ex.ranking) {
        const v = ex.values[a];
        rows.push(el("tr", { class: a === h.action ? "best" : "" }, el("td", { text: a }),
          el("td", { text: v === undefined ? "" : (v > 0 ? "+" : "") + v }),
          el("td", { text: ex.forced ? "the only legal action" : ex.best.includes(a) ? "best (exact)" : "exact" })));
      }
      out.replaceChildren(el("p", { text: ex.forced ? "One legal action." : `Exact values (every card known). Unit: ${ex.unit}.` }));
    } else {
      const s = h.search;
      const per = s.bot === "pimc" ? "worlds" : "visits";
      for (const a of s.ranking) {
        const v = s.values[a];
        const ci = s.ci95[a];
        // equivalent cards (the same card here) are named after the first of their class
        const twin = (s.same || []).find((m) => m.includes(a) && m[0] !== a);
        const mark = a === s.action ? "advised" : twin ? `= ${twin[0]}` : s.equal.includes(a) ? "as good" : "";
        rows.push(el("tr", { class: a === s.action ? "best" : "" }, el("td", { text: a }),
          el("td", { text: v === undefined ? "n/a" : (v >= 0 ? "+" : "") + v.toFixed(2) }),
          el("td", { text: ci === null || ci === undefined ? "n/a" : "\u00b1" + ci.toFixed(2) }),
          el("td", { text: `${(s[per] || {})[a] || 0} ${per}` }),
          el("td", { class: "doc", text: mark })));
      }
      for (const [a, why] of Object.entries(s.reasons || {})) notes.push(el("p", { class: "doc", text: `${a} has a higher mean than ${s.action}: ${why}.` }));
      out.replaceChildren(el("p", { text: `${s.bot}, ${s.iterations} ${s.bot === "pimc" ? "worlds" : "iterations"}. Unit: ${s.unit}; mean \u00b1 95% interval; the advice first.` }));
    }
    out.append(el("table", {}, ...rows), ...notes, el("p", { class: "advice", text: h.advice }));
  } catch (e) {
    out.replaceChildren(el("p", { text: e.message }));
  } finally {
    $("hint").disabled = !(current && current.your_turn);
  }
}

async function review() {
  if (!current || !current.deal_scores.length) return;
  const deal = Number($("review").dataset.deal);
  const out = $("review-out");
  out.replaceChildren(el("p", { text: `Reviewing deal ${deal}: every decision of yours searched again...` }));
  $("review").disabled = true;
  try {
    // the seat's own view: its decisions judged from what it knew, no hidden card sent
    const r = await api("POST", "/v1/review", { position: current.view, deal, limit: { time: 0.2 } });
    const s = r.summary[0];
    const fmt2 = (v) => (v === null || v === undefined ? "n/a" : Number(v).toFixed(1));
    const m = s.mistakes;
    out.replaceChildren(el("p", { text: `Deal ${deal}: ${s.decisions} decisions with a choice, expected loss ${fmt2(s.loss)} (${r.unit}); ` +
      `${m.blunder} blunders (>= ${fmt2(r.thresholds.blunder)}), ${m.mistake} mistakes (>= ${fmt2(r.thresholds.mistake)}), ${m.inaccuracy} inaccuracies.` }));
    const rows = s.biggest.map((b) => el("tr", {}, el("td", { text: b.trick ? `trick ${b.trick}` : b.kind }),
      el("td", { text: `played ${b.played}` }), el("td", { text: `better ${b.best}` }),
      el("td", { text: `-${fmt2(b.loss)}${b.size ? " " + b.size : ""}` })));
    if (rows.length) out.append(el("table", {}, ...rows));
    else out.append(el("p", { class: "advice", text: "No mistake found: every action as good as the search's advice." }));
  } catch (e) {
    out.replaceChildren(el("p", { text: e.message }));
  } finally {
    $("review").disabled = false;
  }
}

function leave() {
  current = null;
  clearTimeout(poll);
  history.replaceState(null, "", location.pathname);
  $("table").hidden = true;
  $("setup").hidden = false;
}

async function resume() {
  const m = /table=([A-Za-z0-9_-]+)&seat=(\d+)/.exec(location.hash);
  if (!m) return;
  try {
    show(await api("GET", `/v1/tables/${m[1]}?seat=${m[2]}`));
  } catch (e) {
    say(`That table is gone (${e.message}). Start a new one.`);
    leave();
  }
}

async function init() {
  try {
    const data = await api("GET", "/v1/games");
    GAMES = data.games;
  } catch (e) {
    say(`Cannot reach the server: ${e.message}`);
    return;
  }
  for (const g of GAMES) $("game").append(el("option", { value: g.name, text: `${g.name} (${g.players} players)` }));
  $("game").addEventListener("change", renderOptions);
  $("new-form").addEventListener("submit", startTable);
  $("hint").addEventListener("click", hint);
  $("review").addEventListener("click", review);
  $("leave").addEventListener("click", leave);
  renderOptions();
  document.body.dataset.ready = "1";
  await resume();
}

init();
