// dixtrix analysis board: plain JavaScript over the JSON API (docs/server.md,
// "The analysis board"). A deal or a position is opened as a line of moves
// (POST /v1/analysis/open); each step is drawn (POST /v1/analysis/step) and
// valued (POST /v1/analysis/values, read as JSON lines while it computes);
// a variation hangs beside the main line at one step; the review
// (POST /v1/review) gives the graph and its mistakes; the whole state
// travels in the link's fragment, compressed (#b=...). Every word a person
// reads goes through t() (/v1/i18n/<lang>) or comes from the server in words.
"use strict";

let DIR = "ltr";
let BOARD = null;        // the answer of /v1/analysis/open
let POS = null;          // the position as opened (canonical)
let STEP = null;         // the answer of /v1/analysis/step shown
let REVIEW = null;       // the last review answer (its deal)
// the place shown (the node's, placeOf), the seat shown, the kind of exact value
let cur = { at: 0, variation: [], show: "all", kind: null };
let words = {};          // action -> words (the line's, the variation's)
let valuesCtrl = null;   // the values request running (AbortController)
let stepSeq = 0;         // the newest step asked (older answers are dropped)
let setupState = null;   // the deal being set up by hand
let checkTimer = null;

// ---- words ---------------------------------------------------------------------

async function loadLang(lang) {
  DIR = (await loadWords(lang)).dir;
  document.title = t("dixtrix analysis board");
  $("center").setAttribute("aria-label", t("The table"));
  $("moves").setAttribute("aria-label", t("Moves"));
}


function num(v, digits) {
  if (v === null || v === undefined) return "";
  const s = Number.isInteger(v) ? String(v) : Number(v).toFixed(digits === undefined ? 2 : digits);
  return v > 0 ? "+" + s : s;
}

// ---- the API (common.js) ----------------------------------------------------------

function errorText(e) {
  return e.path ? `${e.path}: ${e.message}` : e.message;
}

// ---- the link: the state as deflated JSON in base64url ------------------------------

function toBase64url(bytes) {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

async function pack(obj) {
  const stream = new Blob([JSON.stringify(obj)]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return toBase64url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

async function unpack(text) {
  const stream = new Blob([fromBase64url(text)]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return JSON.parse(await new Response(stream).text());
}

function linkState() {
  // t: every line's end (the tree, in its order); a, v: the place shown;
  // c: the comments
  return { p: POS, a: cur.at, v: cur.variation, s: cur.show, k: cur.kind, t: leaves(), c: comments() };
}

// ---- comments, and the record with its lines and comments as a file -----------------

// the longest comment kept (a link must stay a link)
const MAX_COMMENT = 500;

// every comment of the tree: [at, variation, text], its node's place
function comments() {
  const out = [];
  const todo = [ROOT];
  while (todo.length) {
    const x = todo.pop();
    if (x.comment) {
      const p = placeOf(x);
      out.push([p.at, p.variation, x.comment]);
    }
    todo.push(...x.children);
  }
  return out.sort((a, b) => a[0] - b[0] || a[1].length - b[1].length);
}

function restoreComments(list, n) {
  for (const c of Array.isArray(list) ? list : []) {
    if (!Array.isArray(c) || !Number.isInteger(c[0]) || c[0] < 0 || c[0] > n || !Array.isArray(c[1]) ||
        typeof c[2] !== "string") continue;
    nodeOf(c[0], c[1].map(String)).comment = c[2].slice(0, MAX_COMMENT);
  }
}

function renderComment() {
  $("c-text").value = NODE.comment || "";
}

// kept as it is typed (the link follows); the move list shows it once
// the field is left (re-drawn while typing, the list would lose its place)
function editComment(done) {
  const text = $("c-text").value.slice(0, MAX_COMMENT).trim();
  if (text) NODE.comment = text;
  else delete NODE.comment;
  if (done) renderMoves();
  remember();
}

// the record as opened, with the board's lines, comments and place under
// "board" (the page reads it back from a paste or a file: openDoc)
function exportRecord() {
  const doc = Object.assign({}, POS, { board: { a: cur.at, v: cur.variation, t: leaves(), c: comments(), k: cur.kind } });
  const blob = new Blob([JSON.stringify(doc, null, 1)], { type: "application/json" });
  const link = $("b-export-link");
  if (link.href) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(blob);
  link.download = `dixtrix-${BOARD.game}-analysis.json`;
  link.click();
}

// a pasted or picked document: a record or a seat view, with the board's
// lines and comments where it was exported from a board
function openDoc(doc) {
  if (doc && typeof doc === "object" && doc.board && typeof doc.board === "object") {
    const where = doc.board;
    const position = Object.assign({}, doc);
    delete position.board;
    return openBoard(position, where);
  }
  return openBoard(doc);
}

async function linkURL() {
  const url = new URL(location.href);
  url.search = `?lang=${LANG}`;
  url.hash = `b=${await pack(linkState())}`;
  return url.toString();
}

async function remember() {
  // the address bar always restores this board (a reload, a bookmark)
  const board = BOARD;
  try {
    const url = await linkURL();
    if (board === BOARD) history.replaceState(null, "", url);   // not a board left meanwhile
  } catch (e) {
    // a browser without CompressionStream: the board works, without links
  }
}

// ---- opening a board ---------------------------------------------------------------

async function openBoard(position, where) {
  say("");
  let opened;
  try {
    opened = await api("POST", "/v1/analysis/open", { position });
  } catch (e) {
    say(t("This deal cannot be opened: {why}", { why: errorText(e) }));
    return false;
  }
  BOARD = opened;
  POS = opened.position;
  REVIEW = null;
  words = Object.assign({}, opened.labels);
  const w = where || {};
  const n = opened.moves.length;
  // a position opens where it was saved (a seat view, a game not over: its
  // last step); a finished game at its start, to be stepped through
  const saved = opened.kind === "view" || !opened.over ? n : 0;
  const at = Number.isInteger(w.a) && w.a >= 0 && w.a <= n ? w.a : saved;
  cur = { at, variation: [], show: opened.seat !== null ? opened.seat : "all", kind: null };
  if (typeof w.k === "string" && (opened.kinds || []).some((k) => k.kind === w.k)) cur.kind = w.k;
  buildTree();
  restoreTree(Array.isArray(w.t) ? w.t : [], n);
  restoreComments(w.c, n);
  if (Array.isArray(w.v) && w.v.length && Number.isInteger(w.b) && !w.t) {
    // a link of the one-variation board: its variation from step b, l of it shown
    const end = nodeOf(w.b, w.v.map(String));
    NODE = recordNode(at);
    const l = Number.isInteger(w.l) ? Math.max(0, Math.min(w.l, w.v.length)) : 0;
    if (l > 0) NODE = pathOf(end)[w.b + l - 1];
  } else {
    NODE = Array.isArray(w.v) && w.v.length ? nodeOf(at, w.v.map(String)) : recordNode(at);
  }
  if (w.s === "all" || Number.isInteger(w.s)) cur.show = opened.seat !== null ? opened.seat : w.s;
  $("open").hidden = true;
  $("b-view").hidden = false;
  $("graph").replaceChildren();
  $("r-list").replaceChildren();
  $("r-accuracy").replaceChildren();
  $("r-accuracy").hidden = true;
  $("r-note").textContent = "";
  $("b-link-out").value = "";
  renderShowChoices();
  renderKindChoices();
  renderDealChoices();
  await go();
  return true;
}

// the kinds of exact value the solver has for this game (the open answer's
// kinds, the game's own first): a choice where there are several (trix,
// tricks without partners: paranoid or max^n), on a record (only a record
// is solved exactly)
function renderKindChoices() {
  const kinds = BOARD.kinds || [];
  const sel = $("v-kind");
  sel.replaceChildren(...kinds.map((k) => el("option", { value: k.kind, text: k.label, title: k.words })));
  $("v-kind-box").hidden = BOARD.kind !== "record" || kinds.length < 2;
  sel.value = cur.kind || (kinds[0] ? kinds[0].kind : "");
}

// a kind of exact value in the reader's words: the answer's own, else the
// board's list (a streamed report carries the kind only)
function kindOf(ex) {
  if (!ex || !ex.kind) return null;
  if (ex.kind_words) return ex.kind_words;
  return (BOARD.kinds || []).find((k) => k.kind === ex.kind) || { kind: ex.kind, label: ex.kind, words: ex.kind };
}

function renderShowChoices() {
  const sel = $("b-show");
  sel.replaceChildren();
  if (BOARD.kind === "record") sel.append(el("option", { value: "all", text: t("Every card") }));
  for (let s = 0; s < BOARD.players; s++) {
    if (BOARD.seat !== null && s !== BOARD.seat) continue;
    // the seat by its number, as the set-up and a record's names count
    // them (the names of a seat view are its own seat's words: "You")
    sel.append(el("option", { value: String(s), text: t("As Seat {n} sees it", { n: s + 1 }) }));
  }
  sel.value = String(cur.show);
}

// ---- the tree of lines: the record's line, and any number of variations -----------

// A node is a position reached by an action: { action, seat, rec (its index
// in the record's moves, -1 for a variation's), parent, children }. The
// first child of a node is its main continuation: the main line follows
// first children from the start, as lichess does; "promote" puts a line
// first at every node it leaves from, "delete" cuts a variation's node and
// all after it. The server is asked about a node by its path: the record's
// steps it shares (at) and the actions after them (variation).
let ROOT = null;         // the start: { children: [...] }
let NODE = null;         // the node shown
let RECORD = [];         // the record's nodes, RECORD[i] after i + 1 actions

function newNode(parent, action, seat, rec) {
  const node = { action, seat, rec, parent, children: [] };
  if (parent) parent.children.push(node);
  return node;
}

function buildTree() {
  ROOT = newNode(null, null, null, -1);
  RECORD = [];
  let at = ROOT;
  for (const m of BOARD.moves) {
    at = newNode(at, m.action, m.seat, m.index);
    RECORD.push(at);
  }
  NODE = ROOT;
}

function recordNode(at) { return at <= 0 ? ROOT : RECORD[Math.min(at, RECORD.length) - 1]; }

function pathOf(node) {
  const out = [];
  for (let x = node; x && x !== ROOT; x = x.parent) out.push(x);
  return out.reverse();
}

// a node in the server's terms: the record's steps its path shares, then
// the actions after them
function placeOf(node) {
  const path = pathOf(node);
  let at = 0;
  while (at < path.length && path[at].rec === at) at += 1;
  return { at, variation: path.slice(at).map((x) => x.action) };
}

// the node of a place (at, variation), made where the tree lacks it
function nodeOf(at, variation, seats) {
  let node = recordNode(at);
  variation.forEach((a, i) => {
    node = node.children.find((c) => c.rec < 0 && c.action === a) || newNode(node, a, seats ? seats[i] : null, -1);
  });
  return node;
}

// the tree of a link: every line's end (leaves), in the order a walk met
// them; each node's children put back in the order the walk first went
// through them (a promoted line before the record's own move)
function restoreTree(ends, n) {
  const seen = new Map();
  const mark = (x) => { if (!seen.has(x)) seen.set(x, seen.size); };
  for (const leaf of ends) {
    if (!Array.isArray(leaf) || !Number.isInteger(leaf[0]) || leaf[0] < 0 || leaf[0] > n || !Array.isArray(leaf[1])) continue;
    for (let i = 0; i < leaf[0]; i++) mark(RECORD[i]);
    let node = recordNode(leaf[0]);
    const seats = Array.isArray(leaf[2]) ? leaf[2] : [];
    for (const [i, a] of leaf[1].map(String).entries()) {
      node = node.children.find((c) => c.rec < 0 && c.action === a) || newNode(node, a, Number.isInteger(seats[i]) ? seats[i] : null, -1);
      mark(node);
    }
  }
  const order = (x) => (seen.has(x) ? seen.get(x) : Infinity);
  const todo = [ROOT];
  while (todo.length) {
    const x = todo.pop();
    x.children.sort((a, b) => order(a) - order(b));
    todo.push(...x.children);
  }
}

function onMain(node) {
  for (let x = node; x && x.parent; x = x.parent) if (x.parent.children[0] !== x) return false;
  return true;
}

function mainLength() {
  let n = 0;
  for (let x = ROOT; x.children.length; x = x.children[0]) n += 1;
  return n;
}

// every line's end in the order a walk of the tree meets them (first
// children first): a link rebuilds the same tree, children in the same order
function leaves() {
  const out = [];
  const walk = (node) => {
    if (!node.children.length) {
      const p = placeOf(node);
      out.push([p.at, p.variation, pathOf(node).slice(p.at).map((x) => x.seat)]);
    }
    for (const c of node.children) walk(c);
  };
  walk(ROOT);
  return out;
}

function variationNow() { return placeOf(NODE).variation; }

function back() {
  if (!NODE.parent) return;
  NODE = NODE.parent;
  go();
}

function forward() {
  if (!NODE.children.length) return;
  NODE = NODE.children[0];
  go();
}

function toLineEnd() {
  let x = NODE;
  while (x.children.length) x = x.children[0];
  NODE = x;
  go();
}

// a step of the record (the review's graph and mistakes, the arrow keys' Home)
function goTo(at) {
  NODE = recordNode(Math.max(0, at));
  go();
}

function goNode(node) {
  NODE = node;
  go();
}

// an action tried at the node shown: a continuation it already has is
// followed, else it is a new line from here (the lines before it are kept)
function tryAction(action) {
  const mover = STEP ? STEP.to_move : null;
  NODE = NODE.children.find((c) => c.action === action) || newNode(NODE, action, mover, -1);
  go();
}

// the line of the node shown made the main line: first at every node it
// leaves from
function promoteLine() {
  for (let x = NODE; x.parent; x = x.parent) {
    const kids = x.parent.children;
    kids.splice(kids.indexOf(x), 1);
    kids.unshift(x);
  }
  go();
}

// the node shown and all after it cut from the tree: a variation's only
// (the record's moves stay)
function deleteLine() {
  if (NODE.rec >= 0 || !NODE.parent) return;
  const parent = NODE.parent;
  parent.children.splice(parent.children.indexOf(NODE), 1);
  NODE = parent;
  go();
}

async function go() {
  const seq = ++stepSeq;
  stopValues();
  const place = placeOf(NODE);
  cur.at = place.at;
  cur.variation = place.variation;
  renderMoves();
  renderControls();
  renderComment();
  remember();
  let step;
  try {
    step = await api("POST", "/v1/analysis/step", { position: POS, at: cur.at, variation: variationNow(), show: cur.show });
  } catch (e) {
    if (seq === stepSeq) say(errorText(e));
    return;
  }
  if (seq !== stepSeq) return;
  STEP = step;
  for (const a of step.legal || []) words[a.action] = a.label;
  say("");
  renderStep(step);
  renderGraphCursor();
  $("v-table").replaceChildren();
  $("v-note").textContent = "";
  $("l-out").replaceChildren();
  if ($("v-auto").checked && !step.over) analyse();
  document.body.dataset.step = `${cur.at}:${cur.variation.length}`;
}

function renderControls() {
  $("b-first").disabled = NODE === ROOT;
  $("b-prev").disabled = NODE === ROOT;
  $("b-next").disabled = !NODE.children.length;
  $("b-last").disabled = !NODE.children.length;
  $("v-promote").hidden = onMain(NODE);
  $("v-delete").hidden = NODE.rec >= 0 || NODE === ROOT;
}

// ---- the move list: the main line, each variation under the move it leaves from ----------

function moveText(m, names) {
  const who = m.seat === null || m.seat === undefined ? "" : (names[m.seat] || t("Seat {n}", { n: m.seat + 1 })) + ": ";
  const hidden = t("a hidden action");
  return who + (words[m.action] || (m.action === "?" ? hidden : m.action));
}

function moveButton(node, names, extra) {
  const attrs = { type: "button", class: `move${node.rec < 0 ? " var" : ""}`, text: moveText(node, names),
                  onclick: () => goNode(node) };
  // a record's move keeps its step (after it) as the page's tests and links count
  if (node.rec >= 0) attrs["data-at"] = node.rec + 1;
  const b = el("button", Object.assign(attrs, extra || {}));
  const m = node.rec >= 0 ? BOARD.moves[node.rec] : null;
  if (m && m.trick) b.dataset.trick = m.trick;
  if (node === NODE) b.setAttribute("aria-current", "step");
  if (!node.comment) return b;
  const frag = document.createDocumentFragment();
  frag.append(b, el("span", { class: "comment", dir: "auto", text: node.comment }));
  return frag;
}

// the variations that leave from node (its children but the first), each
// an ol.variation of its own line, nested variations inside
function variationsOf(node, names) {
  return node.children.slice(1).map((c) => lineList(c, names));
}

function lineList(first, names) {
  // numbered as the main line is: the first move's number is its depth
  const list = el("ol", { class: "variation", "aria-label": t("Variation"), start: pathOf(first).length });
  for (let x = first; x; x = x.children[0]) {
    const item = el("li", {}, moveButton(x, names));
    for (const v of variationsOf(x, names)) item.append(v);
    list.append(item);
  }
  return list;
}

// the deal a node is in, as the move list and the deal picker show it: its
// main continuation's where the record goes on, else its own record
// move's (a variation's: the record move it leaves from)
function dealOf(node) {
  const next = node.children[0];
  if (next && next.rec >= 0) return BOARD.moves[next.rec].deal;
  for (let x = node; x && x !== ROOT; x = x.parent) if (x.rec >= 0) return BOARD.moves[x.rec].deal;
  return BOARD.moves.length ? BOARD.moves[0].deal : 1;
}

// the deal picker: a match of many deals (a tricks match is 1,001 actions)
// is listed a deal at a time, a deal chosen going to its start
function renderDealChoices() {
  const deals = BOARD.deals || [];
  const sel = $("b-deal");
  sel.replaceChildren(...deals.map((d) => el("option", { value: String(d.deal), text: t("Deal {n}", { n: d.deal }) })));
  $("b-deal-box").hidden = deals.length < 2;
}

function pickDeal() {
  const d = (BOARD.deals || []).find((x) => String(x.deal) === $("b-deal").value);
  if (d) goTo(d.first);
}

function renderMoves() {
  const box = $("moves");
  box.replaceChildren();
  const names = BOARD.names;
  let list = null;
  let deal = null;
  // only the deal shown's moves: a long match is not one list of a thousand
  const shown = dealOf(NODE);
  if ((BOARD.deals || []).length > 1) $("b-deal").value = String(shown);
  const first = BOARD.moves.length ? BOARD.moves[0].deal : 1;
  const start = el("button", { type: "button", class: "move start", "data-at": 0, text: t("The start"),
                               onclick: () => goNode(ROOT) });
  if (NODE === ROOT) start.setAttribute("aria-current", "step");
  if (shown === first) {
    box.append(start);
    if (ROOT.comment) box.append(el("span", { class: "comment", dir: "auto", text: ROOT.comment }));
    box.append(...variationsOf(ROOT, names));
  }
  let index = 0;
  for (let x = ROOT.children[0]; x; x = x.children[0], index += 1) {
    const d = x.rec >= 0 ? BOARD.moves[x.rec].deal : deal;
    if (d !== shown) { deal = d; continue; }
    if (d !== deal || !list) {
      deal = d;
      box.append(el("h4", { text: t("Deal {n}", { n: d }) }));
      list = el("ol", { class: "line", start: index + 1 });
      box.append(list);
    }
    const item = el("li", {}, moveButton(x, names));
    for (const v of variationsOf(x, names)) item.append(v);
    list.append(item);
  }
  const now = box.querySelector("[aria-current='step']");
  if (now && typeof now.scrollIntoView === "function") now.scrollIntoView({ block: "nearest" });
}

// ---- the position ------------------------------------------------------------------

// the seat the felt is seen from (at the bottom): the seat shown, else seat 0
function viewer(p) { return p.show === "all" ? 0 : p.show; }

function renderStep(p) {
  if (NODE.rec < 0 && p.last) NODE.seat = p.last.seat;
  const where = cur.variation.length
    ? t("Variation: {n} actions from step {at}", { n: cur.variation.length, at: cur.at })
    : t("Step {at} of {n}", { at: cur.at, n: BOARD.moves.length });
  const who = p.over ? t("The game is over.") : p.to_move !== null ? t("{name} to play.", { name: p.names[p.to_move] }) : "";
  const deal = t("{game}, deal {n}:", { game: gameTitle(BOARD.game), n: p.deal });
  $("b-status").textContent = [deal, where + ".", who].filter(Boolean).join(" ");
  renderSeats(p);
  renderCenter(p);
  renderHands(p);
  renderInfo(p);
  renderMoves();
  renderControls();
}

// where a seat sits on a felt laid out as a grid (a layout on the table:
// the seats round it, in the order seatPlace goes round: the shown seat at
// the bottom, then left, top, right), so no row of the layout can cover a
// seat's box at any width (issue #51: the Jacks' hearts row over Seat 2's)
const GRID_AREAS = ["bottom", "left", "top", "right"];

function gridFelt(p) { return Boolean(p.layout) && p.players === GRID_AREAS.length; }

function renderSeats(p) {
  const box = $("seats");
  box.replaceChildren();
  const grid = gridFelt(p);
  $("felt").classList.toggle("grid", grid);
  const me = viewer(p);
  for (const seat of p.seats) {
    const place = seatPlace(p.players, me, seat.seat);
    const style = grid ? `grid-area:${GRID_AREAS[(seat.seat - me + p.players) % p.players]}`
      : `left:${place.x}%;top:${place.y}%`;
    box.append(el("div", { class: `seat${seat.to_move ? " to-move" : ""}${p.show === seat.seat ? " you" : ""}`,
                           "data-seat": seat.seat, style },
      el("div", { class: "seat-name", text: seat.name }),
      el("div", { class: "seat-count", text: tn("{n} card", "{n} cards", seat.cards) }),
      seatExtra(p.seat_notes, seat.seat),
      seat.to_move ? el("div", { class: "seat-extra", text: t("to play") }) : null));
  }
}

function renderCenter(p) {
  const box = $("center");
  box.replaceChildren();
  const notes = trickNotes(p, p, drawTrick(box, p, p, viewer(p)));
  notes.push(...(p.notes || []));     // the game's own, in its words (Front.notes)
  // the notes go under the felt: on the board the trick and the last trick
  // fill its middle
  $("notes").replaceChildren(...notes.map((n) => el("span", { text: n })));
  box.classList.toggle("has-layout", Boolean(p.layout));
  if (p.layout) {
    const rows = el("div", { class: "layout", role: "group", "aria-label": t("The layout") });
    for (const suit of ["S", "H", "D", "C"]) {
      const ranks = p.layout[suit] || [];
      // each row opens with its suit's sign (the cards' names say it to a
      // screen reader), a long one fanned so that 13 cards fit a phone
      const row = el("div", { class: `layout-row${ranks.length > 7 ? " long" : ""}`, "data-suit": suit },
        el("span", { class: `suit-sign${suit === "H" || suit === "D" ? " c-red" : ""}`, "aria-hidden": "true", text: SUIT_SIGNS[suit] }));
      if (!ranks.length) row.append(el("span", { class: "empty", text: "\u2013" }));
      for (const r of ranks) row.append(cardNode(p, r + suit, "small"));
      rows.append(row);
    }
    box.append(rows);
  }
}

function renderHands(p) {
  const box = $("hands");
  box.replaceChildren();
  const legal = new Map((p.legal || []).map((a) => [a.action, a]));
  const seen = new Set();
  for (const seat of p.seats) {
    if (!seat.hand) continue;
    const row = el("div", { class: "hand-row", role: "group", "aria-label": t("{name}'s hand", { name: seat.name }), "data-seat": seat.seat });
    row.append(el("span", { class: "hand-name", text: seat.name }));
    const cards = el("div", { class: "cards-row" });
    for (const c of seat.hand) {
      const a = seat.to_move ? legal.get(c) : null;
      if (a && a.card) {
        seen.add(c);
        const info = cardInfo(p, c);
        cards.append(el("button", { type: "button", class: `card c-${info.colour} legal`, "data-action": c,
                                    "aria-label": t("Try the {card}", { card: info.name }), title: info.name,
                                    onclick: () => tryAction(c) }, ...faceOf(info)));
      } else {
        cards.append(cardNode(p, c, ""));
      }
    }
    if (!seat.hand.length) cards.append(el("span", { class: "doc", text: t("no cards") }));
    row.append(cards);
    box.append(row);
  }
  const actions = $("b-actions");
  actions.replaceChildren();
  actions.setAttribute("aria-label", t("Other actions to try"));
  for (const a of p.legal || []) {
    if (seen.has(a.action)) continue;
    actions.append(el("button", { type: "button", class: "action legal", "data-action": a.action, text: a.label,
                                  onclick: () => tryAction(a.action) }));
  }
}

function renderInfo(p) {
  const box = $("info");
  box.replaceChildren();
  drawPanels(box, p, p.panels);       // the game's, in its words (common.js)
  if (p.scores.length || p.returns) {
    const tab = el("table", { class: "scores" });
    tab.append(el("tr", {}, el("th", { scope: "col", text: t("Deal") }), ...p.names.map((n) => el("th", { scope: "col", text: n }))));
    p.scores.forEach((row, i) => tab.append(el("tr", {}, el("th", { scope: "row", text: t("Deal {n}", { n: i + 1 }) }),
      ...row.map((v) => el("td", { text: num(v) })))));
    if (p.returns) {
      tab.append(el("tr", { class: "match" }, el("th", { scope: "row", text: t("Match result") }),
        ...(p.returns.length === p.players ? p.returns.map((v) => el("td", { text: num(v) }))
          : [el("td", { colspan: p.players, text: p.returns.map((v) => num(v)).join(" / ") })])));
    }
    box.append(el("div", { class: "panel" }, el("h3", { text: t("Scores") }), el("div", { class: "scroll" }, tab),
      el("p", { class: "doc", text: t("Deal results in: {unit}", { unit: p.unit }) })));
  }
}

// ---- every legal action's value ------------------------------------------------------

function stopValues() {
  if (valuesCtrl) { valuesCtrl.abort(); valuesCtrl = null; }
  $("v-stop").disabled = true;
  $("v-go").disabled = false;
  $("v-progress").hidden = true;
}

async function analyse() {
  if (!BOARD || !STEP || STEP.over) return;
  stopValues();
  const ctrl = new AbortController();
  valuesCtrl = ctrl;
  const seq = stepSeq;
  $("v-stop").disabled = false;
  $("v-go").disabled = true;
  $("v-progress").hidden = false;
  $("v-progress").removeAttribute("value");
  $("v-note").textContent = t("Computing...");
  $("values-box").dataset.state = "running";
  let exact = null;
  let result = null;
  try {
    const resp = await fetch(`/v1/analysis/values?lang=${LANG}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, signal: ctrl.signal,
      body: JSON.stringify(Object.assign({ position: POS, at: cur.at, variation: variationNow(), stream: true },
                                         cur.kind ? { kind: cur.kind } : {})) });
    if (!resp.ok || !resp.body) {
      const data = await resp.json().catch(() => ({ error: `HTTP ${resp.status}` }));
      throw new ApiError(data.error || `HTTP ${resp.status}`, resp.status, data.path);
    }
    await readPieces(resp, "\n", (piece) => {
      const line = piece.trim();
      if (!line || seq !== stepSeq) return false;
      const msg = JSON.parse(line);
      if (msg.error) throw new ApiError(msg.error, msg.status, msg.path);
      if (msg.result) result = msg.result;
      else if (msg.progress && "exact" in msg.progress) {
        exact = msg.progress.exact;
        renderValues({ exact, search: null, legal: (STEP.legal || []).map((a) => a.action), labels: {} }, true);
      } else if (msg.progress) {
        const p = msg.progress;
        if (typeof p.seconds === "number") {
          $("v-progress").max = 1;
          $("v-progress").value = Math.min(1, p.seconds);
        }
        $("v-note").textContent = t("Searching: {n} iterations, best so far {action}.", {
          n: p.iterations || 0, action: words[p.best] || p.best || "" });
      }
      return false;
    });
    if (result && seq === stepSeq) {
      Object.assign(words, result.labels || {});
      renderValues(result, false);
    }
  } catch (e) {
    if (ctrl.signal.aborted) {
      if (seq === stepSeq) $("v-note").textContent = t("Stopped.");
    } else if (seq === stepSeq) {
      $("v-note").textContent = errorText(e);
    }
  } finally {
    if (valuesCtrl === ctrl) valuesCtrl = null;
    if (seq === stepSeq) {
      $("v-stop").disabled = true;
      $("v-go").disabled = false;
      $("v-progress").hidden = true;
      $("values-box").dataset.state = result ? "done" : "stopped";
    }
  }
}

function exactOf(r) {
  if (r.exact && r.exact.finished) return r.exact;
  if (r.search && r.search.exact) return r.search.exact;
  return null;
}

function renderValues(r, partial) {
  const ex = exactOf(r);
  const s = r.search && r.search.search ? r.search.search : null;
  if (r.hidden) {
    // another seat of a seat view to move: its cards, hence its actions,
    // are unknown (the answer has no legal list): nothing to value
    $("v-table").replaceChildren();
    $("v-note").textContent = t("Another seat is to move: its cards are not known on this board.");
    return;
  }
  const order = ex && ex.ranking ? ex.ranking : s ? s.ranking : r.legal || [];
  const best = ex ? new Set(ex.best || []) : new Set();
  // an exact solve stopped at its budget: what it proved of each action's
  // value ("between -25 and 0"), narrowing as a streamed solve goes on
  const proved = !ex && r.exact && r.exact.finished === false && r.exact.words ? r.exact : null;
  const provedMark = proved ? " " + t("(proved, {kind})", { kind: (kindOf(proved) || { label: "" }).label }) : "";
  const rows = [el("tr", {}, el("th", { scope: "col", text: t("Action") }), el("th", { scope: "col", text: t("Exact") }),
    el("th", { scope: "col", text: t("Searched") }), el("th", { scope: "col", text: t("Interval") }))];
  for (const a of order) {
    const ev = ex && ex.values ? ex.values[a] : undefined;
    const sv = s ? s.values[a] : undefined;
    const ci = s ? s.ci95[a] : undefined;
    const advised = s && s.action === a;
    // the kind of value beside every exact one (issue #51: "+50 best, exact"
    // said nothing of the other seats' play it assumed)
    const kind = kindOf(ex);
    const mark = ev === undefined ? "" : best.has(a) ? t("best, exact ({kind})", { kind: kind ? kind.label : "" })
      : t("exact ({kind})", { kind: kind ? kind.label : "" });
    rows.push(el("tr", { "data-action": a, class: [best.has(a) ? "best" : "", advised ? "advised" : ""].join(" ").trim() },
      el("th", { scope: "row" }, el("button", { type: "button", class: "try", text: words[a] || a,
                                                "aria-label": t("Try: {action}", { action: words[a] || a }), onclick: () => tryAction(a) })),
      ev === undefined && proved && proved.words[a] !== undefined
        ? el("td", { class: "bracket", "data-lo": proved.brackets[a][0], "data-hi": proved.brackets[a][1], text: proved.words[a] + provedMark })
        : el("td", { class: ev === undefined ? "" : "exact", text: ev === undefined ? "" : `${num(ev)} ${mark}` }),
      el("td", {}, sv === undefined || sv === null ? "" : num(sv), advised ? el("small", { class: "advised-mark", text: " " + t("(advised)") }) : null),
      el("td", { text: ci === undefined || ci === null ? "" : "\u00b1" + Number(ci).toFixed(2) })));
  }
  $("v-table").replaceChildren(...rows);
  const notes = [];
  if (ex) {
    const kind = kindOf(ex);
    notes.push(kind ? t("Exact: every card known, solved to the end ({unit}); {kind}.", { unit: ex.unit || BOARD.unit, kind: kind.words })
      : t("Exact: every card known, solved to the end ({unit}).", { unit: ex.unit || BOARD.unit }));
  }
  else if (proved && Object.keys(proved.words).length) {
    notes.push(t("The exact solve did not finish within {nodes} nodes: each action's value ({unit}) is proved to lie in the interval shown; {kind}.", {
      nodes: Number(proved.budget || proved.nodes || 0).toLocaleString("en"), unit: proved.unit || BOARD.unit,
      kind: (kindOf(proved) || { words: "" }).words }));
  }
  else if (r.exact && r.exact.finished === false) notes.push(t("The exact solve did not finish within its budget."));
  if (s) notes.push(t("Searched from the view of the seat to move: mean and 95% interval, {n} iterations.", { n: s.iterations }));
  if (partial) notes.push(t("Computing..."));
  $("v-note").textContent = notes.join(" ");
}

// ---- the engine's line -------------------------------------------------------------

async function engineLine() {
  const out = $("l-out");
  out.replaceChildren(el("p", { text: t("Computing...") }));
  try {
    const r = await api("POST", "/v1/analysis/line", Object.assign({ position: POS, at: cur.at, variation: variationNow(), plies: 8 },
                                                                   cur.kind ? { kind: cur.kind } : {}));
    Object.assign(words, r.labels || {});
    const names = STEP ? STEP.names : BOARD.names;
    const exactWord = (s) => (s.kind_words ? t("exact ({kind})", { kind: s.kind_words.label }) : t("exact"));
    const items = r.line.map((s) => el("li", { text: names[s.seat] + ": " + (words[s.action] || s.action) + " (" + num(s.value) + (s.exact ? ", " + exactWord(s) : "") + ")" }));
    const play = el("button", { type: "button", id: "l-play", text: t("Play this line as a variation"), onclick: () => {
      // the line as a variation from here (the moves it shares with a
      // line already there are followed)
      for (const s of r.line) NODE = NODE.children.find((c) => c.action === s.action) || newNode(NODE, s.action, s.seat, -1);
      go();
    } });
    out.replaceChildren(items.length ? el("ol", { class: "engine-line" }, ...items) : el("p", { text: t("No line from here.") }),
      items.length ? play : null);
  } catch (e) {
    out.replaceChildren(el("p", { text: errorText(e) }));
  }
}

// ---- the review: the graph of the deal's values, its mistakes marked ----------------------

async function review() {
  if (!BOARD || !STEP) return;
  const deal = STEP.deal;
  $("r-go").disabled = true;
  $("r-note").textContent = t("Reviewing deal {n}: every decision searched again...", { n: deal });
  try {
    const time = Number($("r-time").value);
    REVIEW = await api("POST", "/v1/review", { position: POS, deal, limit: { time } });
    renderGraph();
  } catch (e) {
    $("r-note").textContent = errorText(e);
  } finally {
    $("r-go").disabled = false;
  }
}

const SEAT_COLOURS = ["#1f5fae", "#b3121f", "#11692f", "#7a4a00", "#6a2c91", "#00707a", "#555", "#a0522d",
                      "#2e4d7b", "#8b1a4a", "#3a6b00", "#5c5c00"];
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null) node.setAttribute(k, v);
  }
  for (const c of children) if (c) node.append(c);
  return node;
}

// the graph's frame (SVG units): the plot area is [L, W - R] x [T, H - B],
// the axes' numbers and titles outside it
const GRAPH = { W: 600, H: 250, L: 58, R: 12, T: 12, B: 44 };

// the graph's scale of the deal reviewed: step -> x, value -> y, and back
function graphScale(d, lo, hi) {
  const { W, H, L, R, T, B } = GRAPH;
  const x0 = d.first;
  const x1 = Math.max(d.last + 1, x0 + 1);
  return {
    x0, x1, lo, hi,
    X: (i) => L + ((Math.max(x0, Math.min(x1, i)) - x0) / (x1 - x0)) * (W - L - R),
    Y: (v) => T + ((hi - v) / (hi - lo)) * (H - T - B),
    step: (x) => Math.round(x0 + ((x - L) / (W - L - R)) * (x1 - x0)),
  };
}

// round numbers between lo and hi for the value axis (about five)
function niceTicks(lo, hi) {
  const raw = (hi - lo) / 5;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((k) => k * mag).find((s) => s >= raw) || raw;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

function renderGraph() {
  const r = REVIEW;
  const box = $("graph");
  box.replaceChildren();
  const list = $("r-list");
  list.replaceChildren();
  if (!r || !r.deals || !r.deals.length) return;
  const d = r.deals[0];
  const names = BOARD.names;
  const points = d.points || [];
  const values = [];
  for (const p of points) for (const v of (p.exact || []).concat(p.searched || [])) if (typeof v === "number") values.push(v);
  let lo = Math.min(0, ...values);
  let hi = Math.max(0, ...values);
  if (hi - lo < 1e-9) { lo -= 1; hi += 1; }
  const pad = (hi - lo) * 0.06;
  lo -= pad;
  hi += pad;
  const { W, H, L, R, T, B } = GRAPH;
  const sc = graphScale(d, lo, hi);
  const { X, Y } = sc;
  const byTrick = points.some((p) => p.label === "start" || /^trick \d+$/.test(p.label));
  const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "group", class: "eval-graph",
                         "aria-label": t("The deal's values for each seat after every trick, the mistakes marked") });
  // a click anywhere on the plot goes to its step (not only on the marks)
  g.append(svg("rect", { x: L, y: T, width: W - L - R, height: H - T - B, class: "plot",
                         onclick: (ev) => {
                           const m = g.getScreenCTM();
                           if (!m) return;
                           const pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
                           goTo(sc.step(pt.x));
                         } }));
  // the value axis: round numbers, their grid lines, titled in a word (the
  // unit in full is the note's: dix's is a sentence)
  for (const v of niceTicks(lo, hi)) {
    g.append(svg("line", { x1: L, x2: W - R, y1: Y(v), y2: Y(v), class: v === 0 ? "axis zero" : "grid-line" }));
    g.append(svg("text", { x: L - 5, y: Y(v) + 4, class: "tick y-tick", "text-anchor": "end" }, document.createTextNode(num(v, 0))));
  }
  g.append(svg("text", { x: 12, y: T + (H - T - B) / 2, class: "axis-title y-title", "text-anchor": "middle",
                         transform: `rotate(-90 12 ${T + (H - T - B) / 2})` }, document.createTextNode(t("Points"))));
  // the step axis: the tricks played where the deal counts them, else the moves
  g.append(svg("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, class: "axis" }));
  const ticks = byTrick
    ? points.map((p) => ({ at: p.before, text: p.label === "start" ? "0" : (/^trick (\d+)$/.exec(p.label) || [])[1] }))
      .filter((x) => x.text !== undefined)
    : niceTicks(sc.x0, sc.x1).filter((v) => Number.isInteger(v)).map((v) => ({ at: v, text: String(v) }));
  const every = Math.max(1, Math.ceil(ticks.length / 14));
  ticks.forEach((k, i) => {
    if (i % every) return;
    g.append(svg("line", { x1: X(k.at), x2: X(k.at), y1: H - B, y2: H - B + 4, class: "axis" }));
    g.append(svg("text", { x: X(k.at), y: H - B + 16, class: "tick x-tick", "text-anchor": "middle" }, document.createTextNode(k.text)));
  });
  g.append(svg("text", { x: L + (W - L - R) / 2, y: H - 6, class: "axis-title x-title", "text-anchor": "middle" },
               document.createTextNode(byTrick ? t("Tricks played") : t("Moves"))));
  for (let s = 0; s < r.players; s++) {
    const colour = SEAT_COLOURS[s % SEAT_COLOURS.length];
    for (const kind of ["exact", "searched"]) {
      // a line through the points that have a value; a gap where one has
      // none (no line drawn across what was not solved)
      let run = [];
      const runs = [run];
      for (const p of points) {
        if (p[kind] && typeof p[kind][s] === "number") run.push(p);
        else if (run.length) { run = []; runs.push(run); }
      }
      for (const part of runs) {
        if (part.length > 1) {
          g.append(svg("polyline", { points: part.map((p) => `${X(p.before)},${Y(p[kind][s])}`).join(" "),
                                     class: `curve ${kind}`, stroke: colour, "data-seat": s }));
        }
      }
      if (kind !== "exact") continue;
      // a dot wherever the exact value changes (and where it starts): a
      // jump of the line always has its points marked
      let before = null;
      for (const p of points) {
        const v = p.exact ? p.exact[s] : null;
        if (typeof v !== "number") { before = null; continue; }
        if (before === null || v !== before) {
          g.append(svg("circle", { cx: X(p.before), cy: Y(v), r: 2.8, class: "change", fill: colour, "data-seat": s,
                                   "data-at": p.before, "data-value": v }));
        }
        before = v;
      }
    }
  }
  g.append(svg("line", { id: "g-cursor", x1: X(sc.x0), x2: X(sc.x0), y1: T, y2: H - B, class: "cursor" }));
  const sizes = { blunder: t("blunder"), mistake: t("mistake"), inaccuracy: t("inaccuracy") };
  const marks = r.decisions.filter((x) => x.size);
  for (const m of marks) {
    const label = t("{name}, step {at}: played {played}, better {best} (\u2212{loss}, {size})", {
      name: names[m.seat], at: m.index, played: words[m.played] || m.played, best: words[m.best] || m.best,
      loss: Number(m.loss).toFixed(2), size: sizes[m.size] });
    // on the seat's line where the point after the decision has a value
    // (exact, else searched), else on the zero line: always inside the plot
    const next = points.find((p) => p.before > m.index) || points[points.length - 1] || {};
    const v = [next.exact, next.searched].map((xs) => (xs ? xs[m.seat] : null)).find((x) => typeof x === "number");
    const radius = m.size === "blunder" ? 7 : m.size === "mistake" ? 6 : 4.5;
    const cx = Math.max(L + radius, Math.min(W - R - radius, X(m.index)));
    const cy = Math.max(T + radius, Math.min(H - B - radius, Y(typeof v === "number" ? v : 0)));
    const mark = svg("circle", { cx, cy, r: radius,
                                 class: `mark ${m.size}`, tabindex: 0, role: "button", "aria-label": label, "data-at": m.index,
                                 fill: SEAT_COLOURS[m.seat % SEAT_COLOURS.length],
                                 onclick: () => goTo(m.index),
                                 onkeydown: (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); goTo(m.index); } } },
                       svg("title", {}, document.createTextNode(label)));
    g.append(mark);
    list.append(el("li", {}, el("button", { type: "button", class: `mistake ${m.size}`, "data-at": m.index, text: label,
                                            onclick: () => goTo(m.index) })));
  }
  const legend = el("p", { class: "legend doc" }, ...names.map((n, s) => el("span", { class: "key" },
    el("span", { class: "swatch", style: `background:${SEAT_COLOURS[s % SEAT_COLOURS.length]}` }), document.createTextNode(n))));
  box.append(g, legend);
  const th = r.thresholds || {};
  const solved = r.decisions.find((x) => x.exact_kind);
  const kind = solved ? kindOf({ kind: solved.exact_kind }) : null;
  $("r-note").textContent = t("Solid: exact values, a dot where one changes; dashed: searched. Click the graph to go to that step. A mark is a mistake of the seat of its colour: an inaccuracy costs at least {i}, a mistake {m}, a blunder {b} ({unit}).", {
    i: Number(th.inaccuracy).toFixed(2), m: Number(th.mistake).toFixed(2), b: Number(th.blunder).toFixed(2), unit: BOARD.unit })
    + (kind ? " " + t("The exact values are {kind}.", { kind: kind.words }) : "")
    + (marks.length ? "" : " " + t("No mistake found: every action as good as the search's advice."));
  renderAccuracy(r, d.deal);
  renderGraphCursor();
}

// each seat's accuracy in the deal reviewed, as lichess sums a game up:
// the mean loss of its decisions against the best action (the review's
// losses), its inaccuracies, mistakes and blunders counted by the review's
// thresholds (bots/review.py SIZES)
function renderAccuracy(r, deal) {
  const box = $("r-accuracy");
  box.replaceChildren();
  const rows = (r.summary || []).map((x) => el("tr", { "data-seat": x.seat },
    el("th", { scope: "row", text: BOARD.names[x.seat] }),
    el("td", { text: String(x.judged) }),
    el("td", { class: "mean-loss", text: x.judged ? (x.loss / x.judged).toFixed(2) : "" }),
    el("td", { class: "inaccuracy", text: String(x.mistakes.inaccuracy || 0) }),
    el("td", { class: "mistake", text: String(x.mistakes.mistake || 0) }),
    el("td", { class: "blunder", text: String(x.mistakes.blunder || 0) })));
  box.hidden = !rows.length;
  if (!rows.length) return;
  // a region of its own, scrolled by the keyboard where a phone cuts it
  box.setAttribute("aria-label", t("Accuracy in deal {n}", { n: deal }));
  const head = el("tr", {}, ...[t("Seat"), t("Decisions"), t("Mean loss"), t("Inaccuracies"), t("Mistakes"), t("Blunders")]
    .map((h) => el("th", { scope: "col", text: h })));
  box.append(el("table", { class: "accuracy" }, el("caption", { text: t("Accuracy in deal {n}", { n: deal }) }), head, ...rows),
    el("p", { class: "doc", text: t("The mean loss of a seat's decisions against the best action ({unit}).", { unit: BOARD.unit }) }));
}

function renderGraphCursor() {
  const line = document.getElementById("g-cursor");
  if (!line || !REVIEW || !REVIEW.deals.length) return;
  const x = graphScale(REVIEW.deals[0], 0, 1).X(cur.at);
  line.setAttribute("x1", x);
  line.setAttribute("x2", x);
}

// ---- setting up a deal by hand ---------------------------------------------------------

// how a game's deal is set up by hand, as the game declares it (/v1/games: setup):
// where its first deal keeps the hands (docs/positions.md), and the key the
// holder of a card goes under; null where the game deals from a shuffle
function setupOf(name) {
  const g = GAMES.find((x) => x.name === name);
  return g && g.setup && g.setup.hands ? g.setup : null;
}

// the hands of a deal set up by hand: the list itself (edited in place) and its path
function handsOf(name, deal) {
  const path = setupOf(name).hands;
  let list = deal;
  for (const key of path.match(/[^.[\]]+/g)) list = list[key];
  return { list, path: "deal." + path };
}

function renderSetupGames() {
  const sel = $("s-game");
  for (const g of GAMES) sel.append(gameChoice(g));
  sel.addEventListener("change", renderSetupOptions);
  renderSetupOptions();
}

function renderSetupOptions() {
  const game = GAMES.find((g) => g.name === $("s-game").value);
  // a deal already given keeps its cards; the check says if they still fit
  renderOptionInputs($("s-options"), game, "s-opt-",
                     () => { if (setupState) { setupState.options = setupOptions(); scheduleCheck(); } });
  setupState = null;
  $("s-hands").replaceChildren();
  $("s-deck").replaceChildren();
  $("s-check").textContent = setupOf(game.name) ? "" : t("This game deals from a shuffle: open a record of it instead.");
  $("s-deal").disabled = !setupOf(game.name);
  $("s-open").disabled = true;
}

function setupOptions() {
  return readOptionInputs($("s-options"), GAMES.find((g) => g.name === $("s-game").value));
}

async function dealSetup() {
  const game = $("s-game").value;
  const seed = Number($("s-seed").value || 0);
  try {
    const opened = await api("POST", "/v1/analysis/open", { position: { game, options: setupOptions(), seed, actions: [] } });
    const step = await api("POST", "/v1/analysis/step", { position: opened.position, at: 0, show: "all" });
    // the picker by suit, in the deck's order the step's cards come in (not
    // hand by hand: a card is looked for by its suit, not by its owner)
    const order = Object.keys(step.cards || {});
    const place = (c) => { const i = order.indexOf(c); return i < 0 ? order.length : i; };
    setupState = { game, options: opened.position.options || {}, deal: opened.deal, cards: step.cards, players: opened.players,
                   deck: [].concat(...handsOf(game, opened.deal).list.map((h) => h.split(/\s+/).filter(Boolean)))
                     .sort((a, b) => place(a) - place(b)), pick: 0 };
    renderSetupHands();
    checkSetup();
  } catch (e) {
    $("s-check").textContent = errorText(e);
  }
}

function renderSetupHands() {
  const st = setupState;
  const hands = handsOf(st.game, st.deal);
  const box = $("s-hands");
  box.replaceChildren();
  hands.list.forEach((hand, s) => {
    const id = `s-hand-${s}`;
    box.append(el("div", { class: "setup-hand" },
      el("label", { for: id, text: t("Seat {n}", { n: s + 1 }) }),
      el("input", { type: "text", id, "data-seat": s, value: hand, dir: "ltr", spellcheck: "false", autocomplete: "off",
                    oninput: (ev) => { hands.list[s] = ev.target.value; scheduleCheck(); } }),
      el("label", { class: "inline pick" }, el("input", { type: "radio", name: "s-pick", value: s, checked: st.pick === s,
                                                          onchange: () => { st.pick = s; } }),
        el("span", { text: t("clicked cards go here") }))));
  });
  renderSetupDeck();
}

function handOf(text) { return text.split(/[\s,]+/).filter(Boolean).map((c) => c.toUpperCase().replace(/^10/, "T")); }

function renderSetupDeck() {
  const st = setupState;
  const hands = handsOf(st.game, st.deal);
  const holder = {};
  hands.list.forEach((h, s) => { for (const c of handOf(h)) holder[c] = s; });
  const deck = $("s-deck");
  deck.setAttribute("aria-label", t("The cards: click one to give it to the chosen seat"));
  deck.replaceChildren(...st.deck.map((c) => {
    const info = cardInfo(st, c);
    const s = holder[c];
    const where = s === undefined ? t("not dealt") : t("Seat {n}", { n: s + 1 });
    return el("button", { type: "button", class: `card small c-${info.colour}${s === undefined ? " dimmed" : ""}`, "data-card": c,
                          "aria-label": `${info.name} (${where})`, title: `${info.name} (${where})`,
                          onclick: () => giveCard(c) },
      el("span", { class: "face", text: info.face }), el("small", { class: "owner", "aria-hidden": "true", text: s === undefined ? "" : String(s + 1) }));
  }));
}

function giveCard(card) {
  const st = setupState;
  const hands = handsOf(st.game, st.deal);
  hands.list.forEach((h, s) => { hands.list[s] = handOf(h).filter((c) => c !== card).join(" "); });
  hands.list[st.pick] = handOf(hands.list[st.pick]).concat([card]).join(" ");
  hands.list.forEach((h, s) => { const input = $(`s-hand-${s}`); if (input) input.value = h; });
  renderSetupDeck();
  scheduleCheck();
}

function scheduleCheck() {
  clearTimeout(checkTimer);
  $("s-open").disabled = true;
  checkTimer = setTimeout(checkSetup, 300);
}

function setupPosition() {
  const st = setupState;
  const deal = JSON.parse(JSON.stringify(st.deal));
  const owner = setupOf(st.game).owner;
  if (owner) {
    // the holder of the card the game names goes under its key (trix: the
    // Seven of Hearts, whose holder owns the first kingdom)
    const seat = handsOf(st.game, deal).list.findIndex((h) => handOf(h).includes(owner.card));
    if (seat >= 0) deal[owner.key] = seat;
  }
  const actions = $("s-actions").value.split(/[\n,]+/).map((a) => a.trim()).filter(Boolean);
  return { game: st.game, options: st.options, deal, actions };
}

// the seat (0-based) whose hand box a path of the position is in, or -1
function setupSeatOf(hands, path) {
  return hands.list.findIndex((_, s) => (path || "").startsWith(`position.${hands.path}[${s}]`));
}

// a set-up's refusal in the player's words and numbering (the boxes say
// Seat 1...): a card given to two seats, a hand of the wrong size; any
// other refusal as the server words it, with its path
function setupWhy(e, hands) {
  if (e.code === "duplicate_card" && e.data && Array.isArray(e.data.paths)) {
    const [a, b] = e.data.paths.map((p) => setupSeatOf(hands, p));
    if (a >= 0 && b >= 0 && a !== b) {
      const card = ((setupState.cards || {})[e.data.card] || { name: e.data.card }).name;
      return t("The {card} is given to Seats {a} and {b}.", { card, a: Math.min(a, b) + 1, b: Math.max(a, b) + 1 });
    }
  }
  if (e.code === "hand_size" && e.data) {
    const seat = setupSeatOf(hands, e.path);
    if (seat >= 0) {
      return t("Seat {seat} must hold {cards}, not {got}.", {
        seat: seat + 1, cards: tn("{n} card", "{n} cards", e.data.want), got: e.data.got });
    }
  }
  return errorText(e);
}

async function checkSetup() {
  if (!setupState) return;
  const position = setupPosition();
  const hands = handsOf(setupState.game, setupState.deal);
  for (const input of $("s-hands").querySelectorAll("input[type=text]")) input.removeAttribute("aria-invalid");
  $("s-actions").removeAttribute("aria-invalid");
  try {
    const opened = await api("POST", "/v1/analysis/open", { position });
    $("s-check").textContent = t("The deal is valid: {n} actions played.", { n: opened.moves.length });
    $("s-check").dataset.ok = "1";
    $("s-open").disabled = false;
  } catch (e) {
    $("s-check").textContent = t("Not valid yet: {why}", { why: setupWhy(e, hands) });
    $("s-check").dataset.ok = "0";
    $("s-open").disabled = true;
    const path = e.path || "";
    // every box the refusal names: both holders of a duplicate card
    const named = [path].concat(e.code === "duplicate_card" && e.data ? e.data.paths || [] : []);
    for (const p of named) {
      const s = setupSeatOf(hands, p);
      if (s >= 0) $(`s-hand-${s}`).setAttribute("aria-invalid", "true");
    }
    if (path.startsWith("position.actions")) $("s-actions").setAttribute("aria-invalid", "true");
  }
}

async function openSetup() {
  const position = setupPosition();
  await openBoard(position, { a: position.actions.length });
}

// ---- opening from the form, a file, a table or a link ----------------------------------

async function openPasted() {
  let doc;
  try {
    doc = JSON.parse($("paste").value);
  } catch (e) {
    say(t("That is not JSON: {why}", { why: e.message }));
    return;
  }
  await openDoc(doc);
}

async function openFile() {
  const file = $("file").files[0];
  if (!file) return;
  $("paste").value = await file.text();
  await openPasted();
}

async function fromTable(id, token) {
  try {
    const record = await api("GET", `/v1/tables/${encodeURIComponent(id)}/record`, undefined, token);
    return await openBoard(record, {});
  } catch (e) {
    say(t("That table's record cannot be read ({why}).", { why: errorText(e) }));
    return false;
  }
}

function newBoard() {
  stopValues();
  ++stepSeq;                // a step or values still on their way belong to the board left
  BOARD = null;
  $("b-view").hidden = true;
  $("open").hidden = false;
  history.replaceState(null, "", `${location.pathname}?lang=${LANG}`);
}

function onKey(ev) {
  if (!BOARD || $("b-view").hidden) return;
  const tag = (ev.target && ev.target.tagName) || "";
  if (["INPUT", "TEXTAREA", "SELECT"].includes(tag)) return;
  const rtl = DIR === "rtl";
  let act = null;
  if (ev.key === "ArrowRight") act = rtl ? back : forward;
  else if (ev.key === "ArrowLeft") act = rtl ? forward : back;
  else if (ev.key === "ArrowDown") act = forward;
  else if (ev.key === "ArrowUp") act = back;
  else if (ev.key === "Home") act = () => goNode(ROOT);
  else if (ev.key === "End") act = toLineEnd;
  if (!act) return;
  ev.preventDefault();
  act();
}

async function init() {
  if (!await openPage(loadLang)) return;
  renderSetupGames();
  $("open-btn").addEventListener("click", openPasted);
  $("file").addEventListener("change", openFile);
  $("s-deal").addEventListener("click", dealSetup);
  $("s-actions").addEventListener("input", scheduleCheck);
  $("s-open").addEventListener("click", openSetup);
  $("b-first").addEventListener("click", () => goNode(ROOT));
  $("b-prev").addEventListener("click", back);
  $("b-next").addEventListener("click", forward);
  $("b-last").addEventListener("click", toLineEnd);
  $("b-deal").addEventListener("change", pickDeal);
  $("c-text").addEventListener("input", () => editComment(false));
  $("c-text").addEventListener("change", () => editComment(true));
  $("b-export").addEventListener("click", exportRecord);
  $("b-show").addEventListener("change", () => { const v = $("b-show").value; cur.show = v === "all" ? "all" : Number(v); go(); });
  $("v-go").addEventListener("click", analyse);
  $("v-kind").addEventListener("change", () => { cur.kind = $("v-kind").value; remember(); if (STEP && !STEP.over) analyse(); });
  $("v-stop").addEventListener("click", stopValues);
  $("v-promote").addEventListener("click", promoteLine);
  $("v-delete").addEventListener("click", deleteLine);
  $("l-go").addEventListener("click", engineLine);
  $("r-go").addEventListener("click", review);
  $("b-new").addEventListener("click", newBoard);
  $("b-link").addEventListener("click", async () => {
    try {
      const url = await linkURL();
      $("b-link-out").value = url;
      $("b-link-out").select();
      if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
    } catch (e) {
      say(t("This browser cannot make a link ({why}).", { why: e.message }));
    }
  });
  document.addEventListener("keydown", onKey);
  followLangPicker();
  const params = new URLSearchParams(location.search);
  const frag = new URLSearchParams(location.hash.slice(1));
  if (frag.get("b")) {
    try {
      const st = await unpack(frag.get("b"));
      await openBoard(st.p, st);
    } catch (e) {
      say(t("This link cannot be read ({why}).", { why: e.message }));
    }
  } else if (params.get("table")) {
    await fromTable(params.get("table"), params.get("token") || frag.get("token"));
  }
  document.body.dataset.ready = "1";
}

init();
