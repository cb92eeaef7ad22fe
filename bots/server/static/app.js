// dixtrix web table: plain JavaScript over the JSON API (docs/server.md).
// Every word a person reads goes through t() (the catalogue of the page's
// language, /v1/i18n/<lang>) or comes from the server already in words
// (card names, action labels); cards are drawn from the server's faces.
"use strict";

let LEVELS = [];
let current = null;          // the last table payload shown
let token = null;            // this page's seat token (or the admin's, for a spectator)
let adminToken = null;
let busy = false;            // a request is on its way
let seenSummaries = -1;      // summaries already shown (the deal summary pops up once)
let stream = null;           // the live-update reader
let poll = null;             // the fallback / bots-to-move timer
let streamOK = false;
let turnTimer = null;        // a look at the table when the turn of the person to move runs out

// ---- words ---------------------------------------------------------------------

async function loadLang(lang) {
  await loadWords(lang);
  document.title = t("dixtrix: cards with friends and bots");
  $("hand").setAttribute("aria-label", t("Your hand"));
  $("actions").setAttribute("aria-label", t("Your other choices"));
  $("center").setAttribute("aria-label", t("The table"));
}


function fmt(v) {
  if (v === null || v === undefined) return "";
  return Number.isInteger(v) ? String(v) : Number(v).toFixed(2);
}

// the API (common.js): a person waiting for a busy server is told so
onBusy = (wait) => say(t("The server is busy; trying again in {n} s.", { n: wait }));

// ---- the new-table form ------------------------------------------------------------

function selectedGame() { return GAMES.find((g) => g.name === $("game").value); }

function renderOptions() {
  const game = selectedGame();
  renderOptionInputs($("options"), game, "opt-", renderSeatChoices);
  $("game-doc").textContent = game.description;
  renderSeatChoices();
}

function readOptions() { return readOptionInputs($("options"), selectedGame()); }

function renderSeatChoices() {
  const game = selectedGame();
  const opts = readOptions();
  const n = opts.players || game.players;
  const box = $("seat-list");
  const keep = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren(el("legend", { text: t("Seats") }));
  for (let s = 0; s < n; s++) {
    const id = `seat-${s}`;
    const sel = el("select", { id, "data-seat": s });
    sel.append(el("option", { value: "you", text: t("You") }));
    sel.append(el("option", { value: "person", text: t("A person you invite") }));
    for (const lv of LEVELS) sel.append(el("option", { value: lv.name, text: t("Bot: {level}", { level: lv.label }) }));
    sel.value = keep[s] || (s === 0 ? "you" : "medium");
    sel.addEventListener("change", () => {
      // one "you" at most: choosing it elsewhere makes the old one a person
      if (sel.value === "you") {
        for (const other of box.querySelectorAll("select")) if (other !== sel && other.value === "you") other.value = "person";
      }
    });
    box.append(el("div", { class: "option" }, el("label", { for: id, text: t("Seat {n}", { n: s + 1 }) }), sel));
  }
}

async function startTable(ev) {
  ev.preventDefault();
  say("");
  const game = selectedGame();
  const selects = [...$("seat-list").querySelectorAll("select")];
  const you = selects.filter((s) => s.value === "you").map((s) => Number(s.dataset.seat));
  const others = selects.filter((s) => s.value === "person").map((s) => Number(s.dataset.seat));
  const bots = {};
  for (const s of selects) if (!["you", "person"].includes(s.value)) bots[s.dataset.seat] = s.value;
  const body = { game: game.name, options: readOptions(), seats: [...you, ...others], bots };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  if ($("public").checked) body.public = true;
  if ($("away").value !== "") body.away = Number($("away").value);
  try {
    $("start").disabled = true;
    const table = await api("POST", "/v1/tables", body);
    adminToken = table.admin_token;
    localStorage.setItem(`dixtrix.admin.${table.table}`, adminToken);
    const mine = you.length ? table.invitations.find((i) => i.seat === you[0]) : null;
    token = mine ? mine.token : null;
    remember(table.table, token);
    showInvitations(table, mine);
    show(table);
    listen();
  } catch (e) {
    say(e.message);
  } finally {
    $("start").disabled = false;
  }
}

function remember(id, tok) {
  if (tok) localStorage.setItem(`dixtrix.token.${id}`, tok);
  const url = new URL(location.href);
  url.search = `?table=${id}&lang=${LANG}`;
  url.hash = "";
  history.replaceState(null, "", url.toString());
}

function showInvitations(table, mine) {
  const list = $("invite-list");
  list.replaceChildren();
  for (const inv of table.invitations) {
    if (mine && inv.seat === mine.seat) continue;
    const link = new URL(inv.link, location.origin).toString();
    list.append(el("li", {},
      el("span", { text: t("Seat {n}", { n: inv.seat + 1 }) + ": " }),
      el("a", { href: link, "data-seat": inv.seat, class: "invite", text: link }),
      el("button", { type: "button", class: "copy", text: t("Copy"), onclick: () => navigator.clipboard && navigator.clipboard.writeText(link) })));
  }
  const watch = new URL(`/?table=${table.table}&lang=${LANG}`, location.origin).toString();
  $("watch-link").href = watch;
  $("watch-link").textContent = watch;
  $("invite").hidden = list.children.length === 0;
}

// ---- live updates -------------------------------------------------------------------

function stopListening() {
  if (stream) { stream.abort(); stream = null; }
  clearTimeout(poll);
}

async function listen() {
  // server-sent events read through fetch (EventSource cannot send the token)
  stopListening();
  if (!current) return;
  const ctrl = new AbortController();
  stream = ctrl;
  const id = current.table;
  try {
    const headers = token ? { Authorization: `Bearer ${token}` } : {};
    const resp = await fetch(`/v1/tables/${id}/events`, { headers, signal: ctrl.signal });
    if (!resp.ok || !resp.body) throw new Error(`HTTP ${resp.status}`);
    streamOK = true;
    const deleted = await readPieces(resp, "\n\n", (block) => {
      const kind = (/^event: (\w+)/m.exec(block) || [])[1];
      const data = (/^data: (.*)$/m.exec(block) || [])[1];
      if (kind === "table" && data) {
        // every change is news: a seat handed to a bot, a person joining or
        // a rematch made leave the version (the moves played) as it was
        if (current && current.table === id && !busy) refresh();
      } else if (kind === "deleted") {
        say(t("This table was deleted."));
        return true;
      }
      return false;
    });
    if (deleted) return;
  } catch (e) {
    if (ctrl.signal.aborted) return;
    streamOK = false;
  }
  if (stream === ctrl && current && current.table === id && !current.over) {
    // the stream ended or failed: poll now and then, and try the stream again
    poll = setTimeout(() => { refresh(); listen(); }, 2000);
  }
}

async function refresh() {
  if (!current || busy) return;
  const id = current.table;
  try {
    const p = await api("GET", `/v1/tables/${id}`, undefined, token);
    // an answer about a table this page has left (a rematch, a join) meanwhile is dropped
    if (current && current.table === id) show(p);
  } catch (e) {
    say(e.message);
  }
}

// ---- the table --------------------------------------------------------------------------

function show(p) {
  const first = !current || current.table !== p.table;
  current = p;
  $("setup").hidden = true;
  $("lobby").hidden = true;
  $("table").hidden = false;
  $("hint-out").replaceChildren();
  let who = p.over ? t("The match is over.") :
    p.your_turn ? t("Your turn.") : t("{name} to play.", { name: p.names[p.to_move] });
  // nobody waits for ever: past the table's time a bot plays the seat
  if (p.turn_left !== null && p.turn_left !== undefined) {
    const secs = Math.ceil(p.turn_left);
    who += " " + (p.your_turn ? tn("A bot plays for you in {n} second.", "A bot plays for you in {n} seconds.", secs)
      : tn("A bot plays for them in {n} second.", "A bot plays for them in {n} seconds.", secs));
  }
  const seeded = p.seeded ? " " + t("(seeded deal {seed}: reproducible)", { seed: p.seed }) : "";
  const where = t("{game}, deal {n}:", { game: gameTitle(p.game), n: p.deal + 1 });
  $("status").textContent = where + " " + who + seeded;
  $("status").dataset.over = p.over ? "1" : "0";
  document.body.dataset.turn = p.your_turn ? "1" : "0";
  renderSeats(p);
  renderCenter(p);
  renderBoard(p);
  renderHand(p);
  renderScores(p);
  renderLog(p);
  renderSummary(p, first);
  $("hint").disabled = !p.your_turn;
  $("hint").hidden = p.spectator;
  $("delete").hidden = !adminToken;
  // the review of the last finished deal: a seat's own decisions from its
  // view (its token); every seat's, for the admin, once the match is over
  const finished = p.deal_scores.length;
  if ($("review").dataset.deal !== String(finished)) $("review-out").replaceChildren();
  $("review").hidden = finished === 0 || !reviewer(p);
  $("review").dataset.deal = finished;
  $("review").textContent = t("Review this deal (deal {n})", { n: finished });
  // once the match is over its record opens on the analysis board (the key
  // rides in the fragment, which no server sees; the board drops it at once)
  const board = $("to-board");
  board.hidden = !p.over || !reviewer(p);
  if (!board.hidden) {
    board.href = `/analysis?lang=${LANG}&table=${encodeURIComponent(p.table)}` +
      `#token=${encodeURIComponent(reviewer(p))}`;
  }
  renderAway(p);
  hideOldSummary(p);
  // the end: a rematch (the same people and bots, the next seed) and the record
  $("end-box").hidden = !p.over;
  $("rematch").hidden = !p.over || !(token || adminToken);
  $("rematch").textContent = p.rematch ? t("Join the rematch") : t("Rematch");
  $("record").href = `/v1/tables/${encodeURIComponent(p.table)}/record`;
  $("record").setAttribute("download", `dixtrix-${p.game}-${p.table}.json`);
  // a bot still to move (its time in one request ran out): let it go on
  clearTimeout(poll);
  clearTimeout(turnTimer);
  const toMove = p.to_move !== null ? p.seats[p.to_move] : null;
  const botToMove = !p.over && toMove && (toMove.kind === "bot" || toMove.away);
  if (botToMove) poll = setTimeout(refresh, 300);
  else if (!streamOK && !p.over && !p.your_turn) poll = setTimeout(refresh, 2000);
  // when the turn of the person to move runs out, look: a bot then takes it
  if (!p.over && p.turn_left !== null && p.turn_left !== undefined) {
    turnTimer = setTimeout(refresh, (p.turn_left + 0.5) * 1000);
  }
}

// a person seat away (a bot plays it) or open (nobody joined yet); the
// host's buttons handing a person's seat to a bot
function renderAway(p) {
  const mine = p.seat !== null && p.seat !== undefined ? p.seats[p.seat] : null;
  $("away-box").hidden = !(mine && mine.away) || p.over;
  const list = $("host-seats");
  list.replaceChildren();
  if (adminToken && !p.over) {
    for (const seat of p.seats) {
      if (seat.kind !== "person" || seat.you) continue;
      const item = el("li", { "data-seat": seat.seat });
      if (seat.away) item.append(el("span", { text: t("{name}: a bot plays until the seat is taken back.", { name: seat.name }) }));
      else {
        item.append(el("span", { text: seat.open ? t("{name}: open, nobody has joined yet.", { name: seat.name }) : seat.name + " " }),
          el("button", { type: "button", class: "hand-over", text: t("Let a bot play for {name}", { name: seat.name }),
                         onclick: () => setAway(seat.seat, true, adminToken) }));
      }
      list.append(item);
    }
  }
  $("host-box").hidden = list.children.length === 0;
}

async function setAway(seat, away, auth) {
  if (!current) return;
  try {
    show(await api("POST", `/v1/tables/${current.table}/seats/${seat}`, { away }, auth));
  } catch (e) {
    say(e.message);
  }
}

// the last deal's summary goes once its reader is in the next deal: a
// seated person at their first move there (play); a spectator once two
// rounds of it are played (the bots' first moves of a deal come at once,
// before anyone has read the summary)
function hideOldSummary(p) {
  const box = $("summary");
  if (!p.spectator || box.hidden || box.dataset.deal === undefined) return;
  const ended = Number(box.dataset.deal);
  if (p.log.filter((e) => e.deal > ended).length >= 2 * p.players) box.hidden = true;
}

async function rematch() {
  if (!current || !current.over) return;
  const old = current;
  try {
    const p = await api("POST", `/v1/tables/${old.table}/rematch`, undefined, token || adminToken);
    // every token of the table works at its rematch: the same seat, the same key
    if (adminToken) localStorage.setItem(`dixtrix.admin.${p.table}`, adminToken);
    remember(p.table, token);
    seenSummaries = -1;
    $("summary").hidden = true;
    $("review-out").replaceChildren();
    show(p);
    listen();
  } catch (e) {
    say(e.message);
  }
}

// ---- the lobby: public tables with a free seat ----------------------------------

async function loadLobby() {
  try {
    const data = await api("GET", "/v1/tables");
    const list = $("lobby-list");
    list.replaceChildren();
    for (const e of data.tables) {
      const bots = Object.values(e.bots).map((b) => (b.level ? levelLabel(b.level) : botWords(b.bot)));
      const parts = [tn("{n} open seat", "{n} open seats", e.open.length),
        tn("{n} bot", "{n} bots", bots.length) + (bots.length ? ` (${bots.join(t(", "))})` : ""),
        tn("made {n} minute ago", "made {n} minutes ago", Math.floor(e.age / 60))];
      if (e.seeded) parts.push(t("(seeded deal {seed}: reproducible)", { seed: e.seed }));
      list.append(el("li", { "data-table": e.table },
        el("strong", { text: gameTitle(e.game) }), " ", el("span", { class: "doc", text: parts.join(t(", ")) }), " ",
        el("button", { type: "button", class: "join", text: t("Join"), onclick: () => join(e.table) })));
    }
    $("lobby-empty").hidden = data.tables.length > 0;
  } catch (e) {
    say(e.message);
  }
}

async function join(id) {
  try {
    const p = await api("POST", `/v1/tables/${id}/join`, {});
    token = p.token;
    adminToken = null;
    remember(id, token);
    show(p);
    listen();
  } catch (e) {
    say(e.message);
    loadLobby();
  }
}

// the seat the felt is seen from (at the bottom): the viewer's, a spectator's seat 0
function viewer(p) { return p.seat === null || p.seat === undefined ? 0 : p.seat; }

function renderSeats(p) {
  const box = $("seats");
  box.replaceChildren();
  const b = p.board || {};
  const toPlay = t("to play");
  for (const seat of p.seats) {
    const place = seatPlace(p.players, viewer(p), seat.seat);
    const kind = seat.kind === "bot"
      ? t("bot, {level}", { level: seat.level ? levelLabel(seat.level) : botWords(seat.bot) })
      : seat.away ? t("away: a bot plays")
      : seat.open ? t("open seat")
      : seat.you ? t("you") : t("person");
    const backs = el("span", { class: "backs", "aria-hidden": "true" });
    for (let i = 0; i < Math.min(seat.cards, 13); i++) backs.append(el("span", { class: "back" }));
    const node = el("div", {
      class: `seat${seat.to_move ? " to-move" : ""}${seat.you ? " you" : ""}`,
      "data-seat": seat.seat, style: `left:${place.x}%;top:${place.y}%`,
      "aria-label": [seat.name, kind, seat.to_move ? toPlay : null].filter(Boolean).join(t(", ")),
    },
      el("div", { class: "seat-name", text: seat.name }),
      el("div", { class: "seat-kind", text: kind }),
      seat.you ? null : backs,
      el("div", { class: "seat-count", text: tn("{n} card", "{n} cards", seat.cards) }),
      seatExtra(b.seat_notes, seat.seat));
    box.append(node);
  }
}

// a bot seated by its settings (not a level), in words
function botWords(spec) {
  const name = String(spec || "").split(":")[0];
  return { rules: t("rules player"), random: t("random player"), ismcts: t("search bot"), pimc: t("search bot") }[name] || name;
}

function levelLabel(name) {
  const lv = LEVELS.find((l) => l.name === name);
  return lv ? lv.label : name;
}

function renderCenter(p) {
  const box = $("center");
  box.replaceChildren();
  const b = p.board || {};
  const notes = trickNotes(p, b, drawTrick(box, p, b, viewer(p)));
  notes.push(...(b.notes || []));     // the game's own, in its words (Front.notes)
  if (p.over) notes.push(t("The match is over."));
  box.append(el("div", { class: "center-notes" }, ...notes.map((n) => el("div", { text: n }))));
  box.classList.toggle("has-layout", Boolean(b.layout));
  if (b.layout) box.append(renderLayout(p, b.layout));
}

// the Trix / Jacks layout: each suit's row from its lowest card to its
// highest, left to right in every language (the felt is dir=ltr), as the
// server gives it (board.layout: suit letter -> card ids, low to high)
function renderLayout(p, layout) {
  const suits = { S: t("Spades"), H: t("Hearts"), D: t("Diamonds"), C: t("Clubs") };
  const rows = el("div", { class: "layout", role: "group", "aria-label": t("The layout") });
  for (const suit of ["S", "H", "D", "C"]) {
    const cards = layout[suit] || [];
    const name = suits[suit];
    const words = cards.length
      ? t("{suit}: {low} to {high}", { suit: name, low: cardName(p, cards[0]), high: cardName(p, cards[cards.length - 1]) })
      : t("{suit}: not started", { suit: name });
    const row = el("div", { class: `layout-row${cards.length > 7 ? " long" : ""}`, "data-suit": suit,
                            "data-cards": cards.join(" "), role: "img", "aria-label": words, title: words });
    row.append(el("span", { class: `suit-sign c-${suit === "H" || suit === "D" ? "red" : "black"}`, "aria-hidden": "true", text: SUIT_SIGNS[suit] }));
    if (!cards.length) row.append(el("span", { class: "empty", "aria-hidden": "true", text: "\u2013" }));
    for (const c of cards) {
      const node = cardNode(p, c, "small");
      node.removeAttribute("role");
      node.removeAttribute("aria-label");
      node.setAttribute("aria-hidden", "true");
      row.append(node);
    }
    rows.append(row);
  }
  return rows;
}

// the game's panels beside the felt, in its words (common.js drawPanels)
function renderBoard(p) {
  const box = $("board");
  box.replaceChildren();
  drawPanels(box, p, (p.board || {}).panels);
}

function teamPair(p, pair) {
  const mine = (p.seat || 0) % 2;
  return { a: inText(pair[mine]), b: inText(pair[1 - mine]) };
}

// a number said inside a sentence, isolated left to right (U+2066 ... U+2069):
// in an Arabic sentence the order of the words around it would put a minus
// after the digits ("75-" for -75); a table cell of numbers is left to right
// already (.num in style.css)
function inText(v) {
  return typeof v === "number" ? `\u2066${fmt(v)}\u2069` : v;
}

function renderHand(p) {
  const legal = new Map(p.legal.map((a) => [a.action, a]));
  const hand = $("hand");
  // news redraws the hand: a keyboard player keeps the card or choice they
  // were on (else Enter, pressed as the news lands, would press nothing)
  const had = document.activeElement;
  const focused = had && had.closest && had.closest("#hand, #actions") ? had.dataset.action : null;
  hand.replaceChildren();
  const seen = new Set();
  hand.hidden = p.spectator;
  for (const card of p.hand) {
    const ok = legal.has(card) && legal.get(card).card;
    const c = cardInfo(p, card);
    seen.add(card);
    hand.append(el("button", {
      type: "button", class: `card c-${c.colour} ${ok ? "legal" : "dimmed"}`,
      "data-action": card, disabled: !ok, "aria-label": c.name, title: c.name,
      onclick: () => play(card),
    }, ...faceOf(c)));
  }
  const actions = $("actions");
  actions.replaceChildren();
  for (const a of p.legal) {
    if (seen.has(a.action) && a.card) continue;
    actions.append(el("button", { type: "button", class: "action legal", "data-action": a.action,
                                  text: a.label, onclick: () => play(a.action) }));
  }
  if (focused !== null && focused !== undefined) {
    const again = [...hand.children, ...actions.children].find((b) => b.dataset.action === String(focused));
    if (again && !again.disabled) again.focus();
  }
}

// the scores: a row a deal, the match score so far, the match's result;
// each row says its unit (a deal's points are not a match's result)
function renderScores(p) {
  const tab = $("scores");
  const units = p.units || { deal: p.unit };
  tab.replaceChildren();
  tab.append(el("tr", {}, el("th", { scope: "col", text: t("Deal") }), ...p.names.map((n) => el("th", { scope: "col", text: n })),
    el("th", { scope: "col", class: "unit", text: t("Unit") })));
  const unitCell = (text) => el("td", { class: "unit", text: text || "" });
  p.deal_scores.forEach((row, i) => {
    tab.append(el("tr", { class: "deal", "data-deal": i }, el("th", { scope: "row", text: t("Deal {n}", { n: i + 1 }) }),
      ...row.map((v, s) => el("td", { "data-seat": s, class: "num", text: fmt(v) })), unitCell(units.deal)));
  });
  const line = (kind, label, values, unit) => {
    if (values.length === p.players) {
      return el("tr", { class: "match", "data-row": kind }, el("th", { scope: "row", text: label }),
        ...values.map((v, s) => el("td", { "data-seat": s, class: "num", text: fmt(v) })), unitCell(unit));
    }
    return el("tr", { class: "match", "data-row": kind }, el("th", { scope: "row", text: label }),
      el("td", { colspan: p.players, class: "teams", text: t("your team {a}, the other team {b}", teamPair(p, values)) }), unitCell(unit));
  };
  if (Array.isArray(p.totals) && units.totals) tab.append(line("totals", t("Match score"), p.totals, units.totals));
  if (p.over && Array.isArray(p.returns) && units.result) tab.append(line("result", t("Match result"), p.returns, units.result));
  $("unit").textContent = "";
}

function renderLog(p) {
  const items = p.log.slice(-40).map((e) => el("li", { "data-index": e.index, text: `${e.who}: ${e.label}` }));
  $("log").replaceChildren(...items);
}

function renderSummary(p, first) {
  const n = p.summaries.length;
  if (first) seenSummaries = n;         // a table opened mid-match: no pop-up for old deals
  if (n === 0 || n <= seenSummaries) return;
  seenSummaries = n;
  const s = p.summaries[n - 1];
  const said = s.said || { rows: [], lines: [] };     // in the game's words (Front.summary_words)
  $("summary-title").textContent = t("Deal {n} is over", { n: s.deal + 1 }) + (said.heading ? ` (${said.heading})` : "");
  const tab = $("summary-table");
  const deal = (p.units || { deal: p.unit }).deal;
  tab.replaceChildren(el("tr", {}, el("th", { scope: "col", text: "" }), ...p.names.map((nm) => el("th", { scope: "col", text: nm })),
    el("th", { scope: "col", class: "unit", text: t("Unit") })));
  for (const r of said.rows) tab.append(row(r.label, r.values, r.id, r.unit));
  tab.append(row(t("This deal"), s.points, "points", deal));
  tab.append(row(t("Total of the deals so far"), s.running, "running", deal));
  for (const line of said.lines) {
    tab.append(el("tr", {}, el("th", { scope: "row", text: line.label }), el("td", { colspan: p.players + 1, text: line.text })));
  }
  $("summary").dataset.deal = s.deal;
  $("summary").hidden = false;
  function row(label, values, kind, unit) {
    return el("tr", { "data-row": kind }, el("th", { scope: "row", text: label }),
      ...values.map((v, i) => el("td", { "data-seat": i, class: "num", text: fmt(v) })), el("td", { class: "unit", text: unit }));
  }
}

async function play(action) {
  if (busy || !current) return;
  // a move in a later deal: its reader has left the last deal's summary
  if (Number($("summary").dataset.deal) < current.deal) $("summary").hidden = true;
  busy = true;
  document.body.dataset.busy = "1";
  say("");
  for (const b of document.querySelectorAll("#hand button, #actions button")) b.disabled = true;
  try {
    // the version this page shows: a move that reaches the server after the
    // table moved on (sent twice, or from an old view) is refused, never played twice
    show(await api("POST", `/v1/tables/${current.table}/actions`, { action, version: current.version }, token));
  } catch (e) {
    if (e.status === 409 && current) {
      try {
        show(await api("GET", `/v1/tables/${current.table}`, undefined, token));
      } catch (e2) {
        show(current);
      }
      say(t("The table moved on before your move arrived, so it was not played: here is the table as it is now."));
    } else {
      say(e.message);
      if (current) show(current);
    }
  } finally {
    busy = false;
    document.body.dataset.busy = "0";
  }
}

async function hint() {
  if (!current || !current.your_turn) return;
  const out = $("hint-out");
  out.replaceChildren(el("p", { text: t("Searching...") }));
  $("hint").disabled = true;
  try {
    const h = await api("POST", `/v1/tables/${current.table}/hint`, { beliefs: true }, token);
    const words = h.labels || {};
    const name = (a) => words[a] || a;
    const rows = [];
    const notes = [];
    // the actions in the advice's order (h.ranking), the advised one first;
    // one listed below it with a higher mean says why
    if (h.exact) {
      const ex = h.exact;
      for (const a of ex.ranking) {
        const v = ex.values[a];
        rows.push(el("tr", { class: a === h.action ? "best" : "", "data-action": a }, el("td", { text: name(a) }),
          el("td", { class: "num", text: v === undefined ? "" : (v > 0 ? "+" : "") + fmt(v) }),
          el("td", { text: ex.forced ? t("the only legal action") : ex.best.includes(a) ? t("best (exact)") : t("exact") })));
      }
      out.replaceChildren(el("p", { text: ex.forced ? t("One legal action.") : t("Exact values (every card known). Unit: {unit}.", { unit: ex.unit }) }));
    } else {
      const s = h.search;
      const per = s.bot === "pimc" ? "worlds" : "visits";
      const advised = s.values[s.action];
      for (const a of s.ranking) {
        const v = s.values[a];
        const ci = s.ci95[a];
        // the difference from the advice with its own interval: the one
        // test that marks an action "as good" (docs/search.md)
        const half = (s.diff_ci95 || {})[a];
        const vs = a === s.action || v === undefined || v === null || advised === undefined || advised === null ? ""
          : (v - advised >= 0 ? "+" : "") + (v - advised).toFixed(2) + (half === null || half === undefined ? "" : " \u00b1" + half.toFixed(2));
        const twin = (s.same || []).find((m) => m.includes(a) && m[0] !== a);
        const mark = a === s.action ? t("advised") : twin ? t("the same as {name}", { name: name(twin[0]) }) : s.equal.includes(a) ? t("as good") : "";
        const count = (s[per] || {})[a] || 0;
        rows.push(el("tr", { class: a === s.action ? "best" : "", "data-action": a }, el("td", { text: name(a) }),
          el("td", { class: "num", text: v === undefined || v === null ? "\u2013" : (v >= 0 ? "+" : "") + v.toFixed(2) }),
          el("td", { class: "num", text: ci === null || ci === undefined ? "\u2013" : "\u00b1" + ci.toFixed(2) }),
          el("td", { class: "num", text: vs }),
          el("td", { text: per === "worlds" ? tn("{n} world", "{n} worlds", count) : tn("{n} visit", "{n} visits", count) }),
          el("td", { class: "doc", text: mark })));
      }
      if (s.equal.length > 1) {
        notes.push(el("p", { class: "doc", text: t("As good: the difference from the advice is within its 95% interval, or under {points}.", { points: String(Number(Number(s.equal_points).toPrecision(3))) }) }));
      }
      for (const [a, why] of Object.entries(s.reasons || {})) {
        notes.push(el("p", { class: "doc reason", text: t("{a} has a higher mean than {b}: {why}.", { a: name(a), b: name(s.action), why }) }));
      }
      out.replaceChildren(el("p", { text: tn("Search: {n} iteration. Unit: {unit}; mean \u00b1 95% interval; the advice first.", "Search: {n} iterations. Unit: {unit}; mean \u00b1 95% interval; the advice first.", s.iterations, { unit: s.unit }) }));
    }
    const head = el("tr", {}, el("th", { scope: "col", text: t("Action") }), el("th", { scope: "col", text: t("Value") }),
      ...(h.exact ? [el("th", { scope: "col", text: "" })] : [el("th", { scope: "col", text: t("Interval") }), el("th", { scope: "col", text: t("vs advice") }), el("th", { scope: "col", text: t("Searched") }), el("th", { scope: "col", text: "" })]));
    // a phone too narrow for its columns scrolls the table, not the page
    out.append(el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": t("Hint") },
      el("table", {}, head, ...rows)), ...notes,
      el("p", { class: "advice", text: t("Advice: {action}", { action: name(h.action) }) }));
    if (h.beliefs) out.append(beliefsTable(h.beliefs));
  } catch (e) {
    out.replaceChildren(el("p", { text: e.message }));
  } finally {
    $("hint").disabled = !(current && current.your_turn);
  }
}

// "where the cards are": each card the player cannot see (dix-exchange: each
// card value), its chance with each holder, from what the others chose
function beliefsTable(b) {
  const words = b.labels || {};
  const head = el("tr", {}, el("th", { scope: "col", text: b.kind === "value" ? t("Card value") : t("Card") }),
    ...b.names.map((n) => el("th", { scope: "col", text: n })));   // in words (bots/server/words.py holders)
  // exact shares (nothing observed: counted from the hard facts) to a tenth
  // of a percent; a weighed pool's to the percent, its error said below
  const share = (p) => (b.exact ? String(Math.round(1000 * p) / 10) : String(Math.round(100 * p))) + "%";
  const cardRow = (card) => el("tr", { "data-card": card },
    el("th", { scope: "row", text: words[card] || card }),
    ...b.cards[card].map((p) => el("td", { text: p ? share(p) : "\u2013" })));
  // the cards by suit (or colour), each suit under its name, as the report
  // groups them (spades first, high to low)
  const groups = Array.isArray(b.groups) && b.groups.length ? b.groups
    : [{ suit: null, cards: Object.keys(b.cards) }];
  const bodies = groups.map((g) => el("tbody", g.suit ? { "data-group": g.suit } : {},
    ...(g.suit ? [el("tr", { class: "group" }, el("th", { scope: "rowgroup", colspan: b.names.length + 1,
                                                          text: g.name || g.suit }))] : []),
    ...g.cards.filter((card) => b.cards[card]).map(cardRow)));
  const top = [head];
  // how many of the cards each holder has (the same in every deal)
  if (Array.isArray(b.unseen) && b.unseen.length === b.names.length) {
    top.push(el("tr", { class: "unseen" }, el("th", { scope: "row", text: t("Cards unseen") }),
      ...b.unseen.map((n) => el("td", { text: String(n) }))));
  }
  // (the counts said apart: Babel extracts no call nested in another's arguments)
  const decisions = tn("{n} of their decisions", "{n} of their decisions", b.observations);
  const weighed = tn("{n} deal weighed", "{n} deals weighed", b.worlds);
  const alike = tn("{n} equally likely deal", "{n} equally likely deals", Math.round(b.ess));
  const drawn = tn("{n} deal drawn", "{n} deals drawn", b.worlds);
  const how = b.exact
    ? t("Exact: counted over every deal your view allows (nothing the others chose tells more yet).")
    : (b.inference
      ? t("From what the other players chose ({decisions}): {deals}, as good as {alike}.", { decisions, deals: weighed, alike })
      : t("Every deal your view allows, alike ({deals}).", { deals: drawn }))
      + " " + t("Each share within {n}% (95%).", { n: Math.round(100 * (b.error || 0)) });
  return el("details", { class: "beliefs" },
    el("summary", { text: t("Where the cards are") }),
    el("p", { class: "doc", text: how }),
    el("table", {}, el("thead", {}, ...top), ...bodies));
}

async function deleteTable() {
  if (!current || !adminToken) return;
  try {
    await api("DELETE", `/v1/tables/${current.table}`, undefined, adminToken);
    leave();
    say(t("The table is deleted."));
  } catch (e) {
    say(e.message);
  }
}

// the token a review is asked with: the seat's own, or the admin's once the match is over
function reviewer(p) {
  if (!p.spectator) return token;
  return p.over ? adminToken : null;
}

async function review() {
  if (!current || !current.deal_scores.length || !reviewer(current)) return;
  const p = current;
  const deal = Number($("review").dataset.deal);
  const out = $("review-out");
  out.replaceChildren(el("p", { text: t("Reviewing deal {n}: every decision searched again...", { n: deal }) }));
  $("review").disabled = true;
  try {
    const r = await api("POST", `/v1/tables/${p.table}/review`, { deal, limit: { time: 0.2 } }, reviewer(p));
    const fmt2 = (v) => (v === null || v === undefined ? "\u2013" : Number(v).toFixed(1));
    const unit = p.unit;
    const parts = [];
    for (const s of r.summary) {
      const m = s.mistakes;
      // (the counts said apart: Babel extracts no call nested in another's arguments)
      const decisions = tn("{n} decision with a choice", "{n} decisions with a choice", s.decisions);
      const blunders = tn("{n} blunder", "{n} blunders", m.blunder);
      const mistakes = tn("{n} mistake", "{n} mistakes", m.mistake);
      const inaccuracies = tn("{n} inaccuracy", "{n} inaccuracies", m.inaccuracy);
      parts.push(el("p", { class: "review-seat", text: t("Deal {n}, {name}: {decisions}, expected loss {loss} ({unit}); {blunders} (at least {tb}), {mistakes} (at least {tm}), {inaccuracies}.", {
        n: deal, name: p.names[s.seat], loss: fmt2(s.loss), unit, decisions, blunders, mistakes, inaccuracies,
        tb: fmt2(r.thresholds.blunder), tm: fmt2(r.thresholds.mistake) }) }));
      const sizes = { blunder: t("blunder"), mistake: t("mistake"), inaccuracy: t("inaccuracy") };
      const rows = s.biggest.map((b) => el("tr", {},
        el("td", { text: b.trick ? t("trick {n}", { n: b.trick }) : t("a call") }),
        el("td", { text: t("played: {action}", { action: b.played_label || b.played }) }),
        el("td", { text: t("better: {action}", { action: b.best_label || b.best }) }),
        el("td", {}, el("span", { class: "num", text: `\u2212${fmt2(b.loss)}` }), b.size ? " " + sizes[b.size] : "")));
      if (rows.length) parts.push(el("table", {}, ...rows));
      else parts.push(el("p", { class: "advice", text: t("No mistake found: every action as good as the search's advice.") }));
    }
    out.replaceChildren(...parts);
  } catch (e) {
    out.replaceChildren(el("p", { text: e.message }));
  } finally {
    $("review").disabled = false;
  }
}

function leave() {
  stopListening();
  current = null;
  token = null;
  adminToken = null;
  history.replaceState(null, "", `${location.pathname}?lang=${LANG}`);
  $("table").hidden = true;
  $("invite").hidden = true;
  $("setup").hidden = false;
  $("lobby").hidden = false;
  loadLobby();
}

async function resume() {
  const params = new URLSearchParams(location.search);
  const id = params.get("table");
  if (!id) return;
  const frag = new URLSearchParams(location.hash.slice(1));
  const given = frag.get("token");
  token = given || localStorage.getItem(`dixtrix.token.${id}`);
  adminToken = localStorage.getItem(`dixtrix.admin.${id}`);
  remember(id, given);                 // the key leaves the address bar
  try {
    show(await api("GET", `/v1/tables/${id}`, undefined, token));
    listen();
  } catch (e) {
    say(t("That table cannot be shown ({why}).", { why: e.message }));
    leave();
  }
}

async function init() {
  const data = await openPage(loadLang);
  if (!data) return;
  LEVELS = data.levels;
  for (const g of GAMES) $("game").append(gameChoice(g));
  $("game").addEventListener("change", renderOptions);
  $("new-form").addEventListener("submit", startTable);
  $("hint").addEventListener("click", hint);
  $("review").addEventListener("click", review);
  $("leave").addEventListener("click", leave);
  $("delete").addEventListener("click", deleteTable);
  $("summary-close").addEventListener("click", () => { $("summary").hidden = true; });
  $("rematch").addEventListener("click", rematch);
  $("take-back").addEventListener("click", () => current && setAway(current.seat, false, token));
  $("lobby-refresh").addEventListener("click", loadLobby);
  followLangPicker();
  renderOptions();
  if (!new URLSearchParams(location.search).get("table")) await loadLobby();
  document.body.dataset.ready = "1";
  await resume();
}

init();
