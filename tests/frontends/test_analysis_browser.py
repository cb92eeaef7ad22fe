"""The analysis board (``/analysis``: static/analysis.html, analysis.js)
in a real browser (Debian's chromium driven by Playwright), as a player
uses it, in English at 1280x800 and in Arabic (right to left) at phone
width (390x844):

* A finished dix deal of a table of bots opened from the table
  (``?table=&token=``), stepped through with the arrow keys, drawn as
  the record says, valued; the deal reviewed, a mistake mark on the graph
  clicked (the board goes to the position before it), a variation played
  by clicking a legal card, and the board's link opened in a new page:
  the same board, step, variation and shown seat.
* A trix deal set up by hand: hands typed in the project's notation, a
  duplicate card and a short hand refused in the player's words and seat
  numbers (the boxes marked), two cards given by clicking, the
  actions to a late trick typed, opened at its last step and solved
  exactly (the exact values marked); the engine's line from there played
  as a variation.
* A trix record in the layout pasted and drawn row by row at its last
  step; a seat view pasted, which shows its own seat only.
* axe-core (axe-playwright-python) finds no serious or critical
  violation on the page, before and after a board is open; no console
  error anywhere; the page fits a phone's width.

Screenshots go to ``tests/artifacts/`` (git-ignored) as the table's
browser tests keep theirs. Skipped, with the reason, where chromium,
Playwright or axe is missing (tests/frontends/test_server_browser.py says
why the system's chromium is used)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time

import httpx
import pytest

import solver
from bots.analysis import layout_rows
from solver import position as positions

from .server_process import running
from .test_analysis_api import _trix, _trix_layout_record
from .test_server_browser import ARTIFACTS, DESKTOP, PHONE, _page, browser  # noqa: F401

#: the hands of docs/positions.md's trix record (seat 0 holds 7H)
TRIX_HANDS = ["AS KS QS JS TS 9S 8S 7S 6S 5S 4S AH 7H",
              "3S 2S KH QH JH TH 9H 8H 6H 5H 4H 3H 2H",
              "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
              "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running(str(tmp_path_factory.mktemp("board") / "tables.db"), "--workers", "2",
                 "--max-time", "1", "--threads", "1", "--hint-time", "0.3") as srv:
        yield srv


@pytest.fixture(scope="module")
def finished_table(server):
    """A finished dix match of one deal (target 1) at a table of bots: its
    id, admin token and record."""
    with httpx.Client(base_url=server.url, timeout=120) as http:
        made = http.post("/v1/tables", json={"game": "dix", "options": {"target": 1},
                                             "seats": [], "bots": "easy", "seed": 3})
        assert made.status_code == 201, made.text
        table, admin = made.json()["table"], made.json()["admin_token"]
        deadline = time.monotonic() + 120
        while not http.get(f"/v1/tables/{table}").json()["over"]:
            assert time.monotonic() < deadline, "the bots did not finish the deal"
            time.sleep(0.3)
        record = http.get(f"/v1/tables/{table}/record").json()
    return table, admin, record


def _axe(page, where: str) -> None:
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        pytest.skip("axe-playwright-python is not installed (pip install -e '.[test]')")
    result = Axe().run(page).response
    bad = [(v["id"], v["impact"], v["help"], [n["target"] for n in v["nodes"]][:3])
           for v in result["violations"] if v["impact"] in ("serious", "critical")]
    assert not bad, f"{where}: {json.dumps(bad, ensure_ascii=False)}"


def _open_pasted(page, server, doc, lang: str) -> None:
    """Open the board in ``lang`` and the pasted position or record ``doc``."""
    page.goto(f"{server.url}/analysis?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#paste", json.dumps(doc))
    page.click("#open-btn")
    page.wait_for_selector("#b-view:not([hidden])")


def _step(page) -> str:
    return page.evaluate("document.body.dataset.step || ''")


def _fits(page, viewport) -> None:
    if viewport == PHONE:
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    print(f"\nscreenshot: {path}")


def _accuracy_per_seat(page) -> None:
    """Issue #51, beside lichess: each seat's accuracy in the deal
    reviewed: its decisions, the mean loss against the best action, and
    its inaccuracies, mistakes and blunders (the review's own sizes)."""
    rows = page.eval_on_selector_all(
        "#r-accuracy tr[data-seat]",
        "rs => rs.map((r) => [+r.dataset.seat, ...Array.from(r.cells, (c) => c.textContent)])")
    summary = page.evaluate("REVIEW.summary")
    names = page.evaluate("BOARD.names")
    assert len(rows) == len(summary) == 2
    for row, x in zip(rows, summary, strict=True):
        assert row[0] == x["seat"] and row[1] == names[x["seat"]] and row[2] == str(x["judged"])
        assert row[3] == f"{x['loss'] / x['judged']:.2f}"
        assert row[4:] == [str(x["mistakes"][k]) for k in ("inaccuracy", "mistake", "blunder")]
    marks = page.evaluate("REVIEW.decisions.filter((d) => d.size).length")
    assert sum(int(n) for row in rows for n in row[4:]) == marks


def _a_readable_graph(page) -> None:
    """Issue #51: the review's graph had no x labels and two y labels,
    marks drawn above the plot, only the marks clickable, and an exact
    line jumping 0 -> +9 -> 0 with no mark.  Now: both axes titled (the
    tricks played, points) and numbered, every mark inside the
    plot, a dot wherever a seat's exact value changes, and a click
    anywhere on the plot goes to the step under it."""
    g = page.evaluate("""() => { const g = document.querySelector('#graph svg');
        const p = g.querySelector('rect.plot');
        return { x: +p.getAttribute('x'), y: +p.getAttribute('y'), w: +p.getAttribute('width'),
                 h: +p.getAttribute('height'), xt: g.querySelector('.x-title').textContent,
                 yt: g.querySelector('.y-title').textContent,
                 xticks: Array.from(g.querySelectorAll('.x-tick'), (x) => x.textContent),
                 yticks: g.querySelectorAll('.y-tick').length,
                 marks: Array.from(g.querySelectorAll('circle.mark'), (c) =>
                     [+c.getAttribute('cx'), +c.getAttribute('cy'), +c.getAttribute('r')]),
                 dots: Array.from(g.querySelectorAll('circle.change'), (c) =>
                     [+c.dataset.seat, +c.dataset.at]) }; }""")
    assert g["xt"] == page.evaluate("t('Tricks played')") and g["yt"] == page.evaluate("t('Points')")
    # numbers read left to right in Arabic too ("+20", not "20+")
    assert page.evaluate("getComputedStyle(document.querySelector('#graph .y-tick')).direction") \
        == "ltr"
    ticks = [int(x) for x in g["xticks"]]
    assert len(ticks) >= 5 and ticks[0] == 0 and ticks == sorted(ticks) and g["yticks"] >= 3
    for cx, cy, r in g["marks"]:
        assert g["x"] + r <= cx <= g["x"] + g["w"] - r and g["y"] + r <= cy <= g["y"] + g["h"] - r
    # every change of a seat's exact value has its dot
    dots = {tuple(d) for d in g["dots"]}
    changes = page.evaluate("""() => { const out = []; const pts = REVIEW.deals[0].points;
        for (let s = 0; s < REVIEW.players; s++) for (let i = 1; i < pts.length; i++) {
          const a = pts[i - 1].exact, b = pts[i].exact;
          if (a && b && typeof a[s] === 'number' && typeof b[s] === 'number' && a[s] !== b[s])
            out.push([s, pts[i].before]); }
        return out; }""")
    assert changes and {tuple(c) for c in changes} <= dots
    # a click on the plot away from every mark: the step under it
    box = page.locator("#graph rect.plot").bounding_box()
    first, last = page.evaluate("[REVIEW.deals[0].first, REVIEW.deals[0].last]")
    scale = box["width"] / g["w"]
    for share in (0.37, 0.43, 0.61, 0.29, 0.83):
        x = g["x"] + share * g["w"]
        if all(abs(x - cx) > r + 3 for cx, _, r in g["marks"]):
            break
    want = round(first + share * (last + 1 - first))
    # no values there: the server would keep them, and the other language's
    # run stops a search at a step no run has valued yet (unchecking the box
    # scrolls the page: the plot's box is read after it)
    page.uncheck("#v-auto")
    page.locator("#graph rect.plot").scroll_into_view_if_needed()
    box = page.locator("#graph rect.plot").bounding_box()
    page.mouse.click(box["x"] + (x - g["x"]) * scale, box["y"] + 2)
    page.wait_for_function(f"document.body.dataset.step === '{want}:0'")
    page.check("#v-auto")


@pytest.mark.parametrize("lang,viewport", [("en", DESKTOP), ("ar", PHONE)], ids=["en-1280", "ar-390"])
def test_a_finished_deal_stepped_reviewed_varied_and_linked(browser, server, finished_table,  # noqa: F811
                                                            lang, viewport):
    table, admin, record = finished_table
    errors: list = []
    ctx, page = _page(browser, viewport, errors)
    try:
        page.goto(f"{server.url}/analysis?lang={lang}")
        page.wait_for_selector("body[data-ready='1']")
        assert not page.is_visible("#felt")              # no board until one is opened
        _axe(page, f"{lang} open")
        # the table page links its finished match to the board (the admin's
        # key, as the page that made the table keeps it)
        page.goto(f"{server.url}/?lang={lang}")
        page.evaluate(f"localStorage.setItem('dixtrix.admin.{table}', '{admin}')")
        page.goto(f"{server.url}/?lang={lang}&table={table}")
        page.wait_for_selector("#to-board:not([hidden])")
        assert f"table={table}" in page.get_attribute("#to-board", "href")
        page.click("#to-board")
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_selector("#b-view:not([hidden])")
        assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
        assert not page.is_visible("#paste") and page.is_visible("#felt")
        assert page.evaluate("BOARD.moves.length") == len(record["actions"])
        assert "token=" not in page.url                  # the key left the address bar
        # the arrow keys step through the line (forward is to the left in Arabic)
        page.locator("#moves").focus()
        forward = "ArrowLeft" if lang == "ar" else "ArrowRight"
        for _ in range(9):
            page.keyboard.press(forward)
        page.wait_for_function("document.body.dataset.step === '9:0'")
        page.keyboard.press("ArrowLeft" if lang == "en" else "ArrowRight")
        page.wait_for_function("document.body.dataset.step === '8:0'")
        assert page.get_attribute("#moves [aria-current='step']", "data-at") == "8"
        # the drawing is the record's: the last card played lies on the table
        # (an eighth action ends trick 4; it stays drawn until the next lead)
        drawn = page.eval_on_selector_all("#center .card", "cs => cs.map((c) => c.dataset.card)")
        assert record["actions"][7] in drawn
        assert page.locator("#hands .hand-row").count() == 2    # every card shown
        # every legal action valued, the search's interval beside it
        page.wait_for_selector("#values-box[data-state='done']", timeout=60_000)
        legal = page.evaluate("STEP.legal.map((a) => a.action)")
        rows = page.eval_on_selector_all("#v-table tr[data-action]",
                                         "rs => rs.map((r) => r.dataset.action)")
        assert sorted(rows) == sorted(legal)
        # Stop: a search stopped while it runs says so, and the board goes on
        # a step not valued yet: the server caches a step's values for every
        # reader, so each run of this test stops a step of its own
        fresh = 20 if lang == "en" else 22
        # the values request is held until Stop, so the search is still
        # running when it is clicked however busy the machine (a 0.3 s search
        # could end before the click)
        held = []

        def hold(route):
            held.append(route)          # never answered: Stop aborts it
        page.route("**/v1/analysis/values*", hold)
        page.click(f"#moves button.move[data-at='{fresh}']")
        page.wait_for_function(f"document.body.dataset.step === '{fresh}:0'")
        page.wait_for_selector("#values-box[data-state='running']")
        page.click("#v-stop")
        page.wait_for_selector("#values-box[data-state='stopped']")
        assert page.text_content("#v-note") == page.evaluate("t('Stopped.')")
        assert held                     # the page did ask, and gave up when told
        page.unroute("**/v1/analysis/values*")
        # the review: the graph, a mistake mark clicked goes to its position
        page.select_option("#r-time", "0.1")
        page.click("#r-go")
        page.wait_for_selector("#graph svg circle.mark", timeout=120_000)
        _a_readable_graph(page)
        _accuracy_per_seat(page)
        mark = page.locator("#graph svg circle.mark").nth(1)
        at = int(mark.get_attribute("data-at"))
        mark.click()
        page.wait_for_function(f"document.body.dataset.step === '{at}:0'")
        # a variation: a legal card other than the line's own next move
        page.wait_for_function("STEP && STEP.legal && STEP.legal.length > 0")
        other = page.evaluate("""() => { const next = BOARD.moves[cur.at] ? BOARD.moves[cur.at].action : null;
            const a = STEP.legal.find((x) => x.card && x.action !== next); return a ? a.action : null; }""")
        assert other, "no other legal card at the mistake's position"
        page.click(f"#hands button.legal[data-action='{other}']")
        page.wait_for_function(f"document.body.dataset.step === '{at}:1'")
        assert page.locator("#moves ol.variation button.move").count() == 1
        assert page.evaluate("STEP.variation") == [other]
        # seat 2's view of the same step: its own hand, and its opponent's
        # only once the stock is gone (dix from trick 14)
        page.select_option("#b-show", "1")
        page.wait_for_function("STEP.show === 1")
        known = page.evaluate("STEP.seats.map((s) => s.hand !== null)")
        assert known == [page.evaluate("STEP.stock_left === 0"), True]
        assert page.locator("#hands .hand-row").count() == sum(known)
        page.click("#b-link")
        page.wait_for_function("document.getElementById('b-link-out').value.includes('#b=')")
        link = page.input_value("#b-link-out")
        state = page.evaluate("JSON.stringify(cur)")
        _fits(page, viewport)
        _axe(page, f"{lang} board")
        _shot(page, f"analysis-deal-{viewport['width']}-{lang}")
        # the link restores the board, the step, the variation and the seat
        ctx2, again = _page(browser, viewport, errors)
        try:
            again.goto(link)
            again.wait_for_selector("body[data-ready='1']")
            again.wait_for_function(f"document.body.dataset.step === '{at}:1'")
            assert again.evaluate("JSON.stringify(cur)") == state
            assert again.evaluate("JSON.stringify(POS)") == page.evaluate("JSON.stringify(POS)")
            assert again.locator("#moves ol.variation button.move").count() == 1
        finally:
            ctx2.close()
        assert not errors, errors
    finally:
        ctx.close()


def _late_trix_actions(hands, tricks: int = 10) -> list[str]:
    """A line from ``hands``: seat 0 (7H) chooses Diamonds, then random
    legal cards up to the start of trick ``tricks + 1``."""
    doc = {"game": "trix", "deal": {"first_owner": 0, "deals": [hands]}, "actions": []}
    record = solver.from_json(doc)
    assert isinstance(record, solver.position.Record)
    state = record.state()
    played = ["contract diamonds"]
    state.apply_action(state.string_to_action(played[0]))
    rng = random.Random(7)
    for _ in range(4 * tricks):
        action = rng.choice(state.legal_actions())
        played.append(state.action_to_string(action))
        state.apply_action(action)
    return played


@pytest.mark.parametrize("lang,viewport", [("en", DESKTOP), ("ar", PHONE)], ids=["en-1280", "ar-390"])
def test_a_deal_set_up_by_hand_solved_exactly_late(browser, server, lang, viewport):  # noqa: F811
    errors: list = []
    ctx, page = _page(browser, viewport, errors)
    try:
        page.goto(f"{server.url}/analysis?lang={lang}")
        page.wait_for_selector("body[data-ready='1']")
        page.click("#setup summary")
        page.select_option("#s-game", "trix")
        # the options in words, not their JSON names
        labels = page.eval_on_selector_all("#s-options label", "ls => ls.map((l) => l.textContent)")
        assert labels and not {"partners", "stop_when_decided"} & set(labels), labels
        page.click("#s-deal")
        page.wait_for_selector("#s-hand-3")
        # the card picker goes by suit, each suit's cards together (issue
        # #51: it listed the cards hand by hand)
        deck = page.eval_on_selector_all("#s-deck button[data-card]",
                                         "bs => bs.map((b) => b.dataset.card)")
        suits = [c[-1] for c in deck]
        assert len(deck) == 52 and [k for i, k in enumerate(suits)
                                    if i == 0 or k != suits[i - 1]] == sorted(set(suits),
                                                                             key=suits.index)
        # typed: seat 2 given AS instead of 3S, a duplicate refused in the
        # player's words and numbering, both boxes marked (issue #51: it was
        # "position.deal.deals[0][1][12]: duplicate card AS ...")
        wrong = TRIX_HANDS[1].replace("3S", "AS")
        for s, hand in enumerate([TRIX_HANDS[0], wrong, *TRIX_HANDS[2:]]):
            page.fill(f"#s-hand-{s}", hand)
        page.wait_for_function("document.getElementById('s-check').dataset.ok === '0'")
        said = page.evaluate("""t('Not valid yet: {why}', {
            why: t('The {card} is given to Seats {a} and {b}.',
                   { card: setupState.cards.AS.name, a: 1, b: 2 }) })""")
        assert page.text_content("#s-check") == said and "deal" not in said
        assert [page.get_attribute(f"#s-hand-{s}", "aria-invalid") for s in range(4)] == \
            ["true", "true", None, None]
        # a hand one card short (3S given to seat 3 as well as its own 13): the
        # seat as its box names it, the count in words
        page.fill("#s-hand-1", TRIX_HANDS[1].replace("3S ", ""))
        page.fill("#s-hand-2", TRIX_HANDS[2] + " 3S")
        page.wait_for_function("document.getElementById('s-check').textContent.includes('12')")
        said = page.evaluate("""t('Not valid yet: {why}', {
            why: t('Seat {seat} must hold {cards}, not {got}.',
                   { seat: 2, cards: tn('{n} card', '{n} cards', 13), got: 12 }) })""")
        assert page.text_content("#s-check") == said
        assert page.text_content("label[for='s-hand-1']") == page.evaluate("t('Seat {n}', { n: 2 })")
        assert page.get_attribute("#s-hand-1", "aria-invalid") == "true"
        page.fill("#s-hand-1", wrong)
        page.fill("#s-hand-2", TRIX_HANDS[2])
        page.wait_for_function("document.getElementById('s-check').textContent.includes("
                               "setupState.cards.AS.name)")
        # clicked: 3S to seat 2, AS back to seat 1
        page.check("input[name='s-pick'][value='1']")
        page.click("#s-deck [data-card='3S']")
        page.check("input[name='s-pick'][value='0']")
        page.click("#s-deck [data-card='AS']")
        page.wait_for_function("document.getElementById('s-check').dataset.ok === '1'")
        actions = _late_trix_actions(TRIX_HANDS)
        page.fill("#s-actions", "\n".join(actions))
        page.wait_for_function("document.getElementById('s-check').dataset.ok === '1' && "
                               "!document.getElementById('s-open').disabled")
        assert str(len(actions)) in page.text_content("#s-check")
        page.click("#s-open")
        page.wait_for_selector("#b-view:not([hidden])")
        page.wait_for_function(f"document.body.dataset.step === '{len(actions)}:0'")
        # trick 11 of a trick contract: the solver finishes, every value exact
        page.wait_for_selector("#values-box[data-state='done']", timeout=60_000)
        legal = page.evaluate("STEP.legal.map((a) => a.action)")
        exact = page.eval_on_selector_all("#v-table td.exact", "cs => cs.map((c) => c.textContent)")
        assert len(exact) == len(legal) and all(x.strip() for x in exact)
        # every exact value names its kind (issue #51): trix's own is
        # paranoid, the choice offers max^n, and asking it values again
        paranoid = page.evaluate("BOARD.kinds[0].label")
        best = page.evaluate("(k) => t('best, exact ({kind})', { kind: k })", paranoid)
        assert any(best in x for x in exact)
        assert all(paranoid in x for x in exact)
        assert page.evaluate("BOARD.kinds[0].words") in page.text_content("#v-note")
        assert page.locator("#v-table tr.best").count() >= 1
        assert page.is_visible("#v-kind")
        assert page.eval_on_selector_all("#v-kind option", "os => os.map((o) => o.value)") == \
            ["paranoid", "maxn"]
        page.select_option("#v-kind", "maxn")
        maxn = page.evaluate("BOARD.kinds[1].label")
        page.wait_for_function("(k) => Array.from(document.querySelectorAll('#v-table td.exact'))"
                               ".some((c) => c.textContent.includes(k))", arg=maxn)
        page.wait_for_selector("#values-box[data-state='done']", timeout=60_000)
        exact = page.eval_on_selector_all("#v-table td.exact", "cs => cs.map((c) => c.textContent)")
        assert len(exact) == len(legal) and all(maxn in x for x in exact)
        assert page.evaluate("cur.kind") == "maxn"
        assert page.evaluate("POS.deal.deals[0][0]").split()[0] == "AS"
        # the engine's line from here (exact this late), played as a variation
        page.click("#l-go")
        page.wait_for_selector("#l-out ol.engine-line li", timeout=60_000)
        plies = page.locator("#l-out ol.engine-line li").count()
        assert plies >= 1
        page.click("#l-play")
        page.wait_for_function(f"document.body.dataset.step === '{len(actions)}:{plies}'")
        # from the record's last step the line continues the main line (the
        # first continuation of a move is its main one, as on lichess)
        assert page.locator("#moves ol.line button.move.var").count() == plies
        _fits(page, viewport)
        _axe(page, f"{lang} set-up board")
        _shot(page, f"analysis-setup-{viewport['width']}-{lang}")
        # the duplicate card was refused (422) on purpose: chromium logs every
        # answer of 400 and over as "Failed to load resource", which is no
        # error of the page's; anything else is
        assert not [e for e in errors if "status of 422" not in e], errors
    finally:
        ctx.close()


def test_a_pasted_layout_deal_and_a_seat_view(browser, server):  # noqa: F811
    """Paste: a trix record in the layout (Trix) drawn row by row at its
    last step as the game's own layout says; then a seat view, which shows
    its own seat's cards only."""
    state = _trix_layout_record()
    record = positions.to_json(state)
    rows = layout_rows(state.game, state.information_state(0).known["layout"])
    errors: list = []
    ctx, page = _page(browser, DESKTOP, errors)
    try:
        _open_pasted(page, server, record, "en")
        page.uncheck("#v-auto")                       # drawing only: no search
        page.locator("#moves").focus()
        page.keyboard.press("End")
        n = len(record["actions"])
        page.wait_for_function(f"document.body.dataset.step === '{n}:0'")
        drawn = page.eval_on_selector_all(
            "#center .layout .layout-row",
            "rs => Object.fromEntries(rs.map((r) => [r.dataset.suit, "
            "Array.from(r.querySelectorAll('.card'), (c) => c.dataset.card)]))")
        assert drawn == {s: [r + s for r in rows.get(s, [])] for s in "SHDC"}
        assert sum(len(v) for v in drawn.values()) == 30
        page.click("#b-new")
        view = positions.to_json(positions.SeatView.of(state, 2))
        page.fill("#paste", json.dumps(view))
        page.click("#open-btn")
        page.wait_for_selector("#b-view:not([hidden])")
        page.wait_for_function("STEP !== null && STEP.show === 2")
        assert page.eval_on_selector_all("#b-show option", "os => os.map((o) => o.value)") == ["2"]
        assert page.eval_on_selector_all("#hands .hand-row", "rs => rs.map((r) => r.dataset.seat)") \
            == ["2"]
        assert not errors, errors
    finally:
        ctx.close()


@pytest.fixture(scope="module")
def issue_view(tmp_path_factory) -> dict:
    """The issue's own seat view: ``dixtrix hint dix --seed 1 --after 20
    --save-position view.json`` (seat 2's, 20 cards in; seat 1 leads the
    first trick)."""
    path = tmp_path_factory.mktemp("view") / "view.json"
    done = subprocess.run([sys.executable, "-m", "bots.cli", "hint", "dix", "--seed", "1",
                           "--after", "20", "--time", "0.05", "--save-position", str(path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(path.read_text())


@pytest.mark.parametrize("lang,viewport", [("en", DESKTOP), ("ar", PHONE)], ids=["en-1280", "ar-390"])
def test_a_seat_view_opens_where_it_was_saved_and_hides_the_other_hand(browser, server,  # noqa: F811
                                                                       issue_view, lang,
                                                                       viewport):
    """Issue #51: the seat view ``dixtrix hint dix --seed 1 --after 20
    --save-position view.json`` writes, pasted, opens at its saved
    position, not step 0; the shown seat reads "As Seat 2 sees it" in the
    reader's language; where the other seat is to move its hand is a count
    and its moves are unknown: no card to try, no value, the values box
    saying why."""
    view = issue_view
    n = len(view["actions"])
    errors: list = []
    ctx, page = _page(browser, viewport, errors)
    try:
        _open_pasted(page, server, view, lang)
        page.wait_for_function(f"document.body.dataset.step === '{n}:0'")
        said = page.evaluate("t('As Seat {n} sees it', { n: 2 })")
        assert page.eval_on_selector_all("#b-show option", "os => os.map((o) => o.textContent)") \
            == [said]
        if lang == "ar":
            assert said == "كما يراها المقعد 2"
        else:
            assert said == "As Seat 2 sees it"
        # the saved position: seat 2 to move, its cards to try and value
        page.wait_for_selector("#values-box[data-state='done']", timeout=60_000)
        assert page.evaluate("STEP.to_move") == 1
        assert page.locator("#v-table tr[data-action]").count() == page.evaluate("STEP.legal.length") > 0
        # step 0: the other seat leads; its hand is a count, its moves unknown
        page.click("#moves button.move[data-at='0']")
        page.wait_for_function("document.body.dataset.step === '0:0'")
        page.wait_for_selector("#values-box[data-state='done']", timeout=60_000)
        assert page.evaluate("STEP.to_move") == 0 and page.evaluate("STEP.legal") is None
        assert page.locator("#v-table tr").count() == 0
        assert page.locator("#hands .hand-row").count() == 1
        assert page.locator("#b-actions button, #hands button.legal").count() == 0
        assert page.text_content("#v-note") == page.evaluate(
            "t('Another seat is to move: its cards are not known on this board.')")
        count = page.text_content("#seats .seat[data-seat='0'] .seat-count")
        assert count == page.evaluate("tn('{n} card', '{n} cards', 13)")
        _fits(page, viewport)
        _axe(page, f"{lang} seat view")
        _shot(page, f"analysis-seat-view-{viewport['width']}-{lang}")
        assert not errors, errors
    finally:
        ctx.close()


def _boxes_meet(a: dict, b: dict) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and \
        a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


@pytest.fixture(scope="module")
def tricks_record(tmp_path_factory) -> dict:
    """Issue #51's reproduction: ``dixtrix play tricks --seed 3 --record
    tricks.json`` (a match of 1,001 actions; step 40 is in the Jacks)."""
    path = tmp_path_factory.mktemp("tricks") / "tricks.json"
    done = subprocess.run([sys.executable, "-m", "bots.cli", "play", "tricks", "--seed", "3",
                           "--record", str(path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(path.read_text())


@pytest.mark.parametrize("lang,viewport", [("en", DESKTOP), ("ar", PHONE)], ids=["en-1280", "ar-390"])
def test_the_layout_rows_carry_their_suit_and_never_cover_a_seat(browser, server,  # noqa: F811
                                                                 tricks_record, lang, viewport):
    """Issue #51: at 1280 px the Jacks' hearts row lay over Seat 2's box
    (the tricks record of seed 3, step 40), and no row said its suit.
    Every row opens with its suit's sign, and no row's box meets a seat's,
    at every step of the Jacks and at both widths."""
    errors: list = []
    ctx, page = _page(browser, viewport, errors)
    try:
        _open_pasted(page, server, tricks_record, lang)
        page.uncheck("#v-auto")                       # drawing only: no search
        for at in (8, 25, 40, 46):
            page.evaluate(f"goTo({at})")
            page.wait_for_function(f"document.body.dataset.step === '{at}:0'")
            rows = page.locator("#center .layout .layout-row")
            assert rows.count() == 4
            signs = page.eval_on_selector_all("#center .layout-row",
                                              "rs => rs.map((r) => r.firstChild.textContent)")
            assert signs == ["\u2660", "\u2665", "\u2666", "\u2663"]
            seats = [page.locator(f"#seats .seat[data-seat='{s}']").bounding_box()
                     for s in range(4)]
            for r in range(4):
                box = rows.nth(r).bounding_box()
                for s, seat in enumerate(seats):
                    assert not _boxes_meet(box, seat), (at, r, s, box, seat)
            for r in range(4):                        # the cards too, not only the rows
                for card in rows.nth(r).locator(".card").all():
                    cbox = card.bounding_box()
                    assert not any(_boxes_meet(cbox, seat) for seat in seats), (at, r)
        _fits(page, viewport)
        _shot(page, f"analysis-layout-{viewport['width']}-{lang}")
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("lang,viewport", [("en", DESKTOP), ("ar", PHONE)], ids=["en-1280", "ar-390"])
def test_variations_are_a_tree_promoted_deleted_and_kept_in_the_link(browser, server,  # noqa: F811
                                                                     lang, viewport):
    """Issue #51: a second line from the main line silently replaced the
    first.  As on lichess: several lines from one move, a line from a
    line, one made the main line (the record's own move then listed as a
    variation), one deleted, and the whole tree, its order and the place
    shown restored by the link."""
    record = positions.to_json(_trix())
    state = _trix(0)
    at = 0
    for at, action in enumerate(record["actions"]):    # a step of three choices or more
        if at >= 20 and len(state.legal_actions()) >= 3:
            break
        state.apply_action(state.string_to_action(action))
    errors: list = []
    ctx, page = _page(browser, viewport, errors)
    try:
        _open_pasted(page, server, record, lang)
        page.uncheck("#v-auto")                       # the lines only: no search
        page.click(f"#moves button.move[data-at='{at}']")
        page.wait_for_function(f"document.body.dataset.step === '{at}:0'")
        page.wait_for_function(f"STEP && STEP.at === {at} && STEP.legal")
        next_move = record["actions"][at]
        others = [a["action"] for a in page.evaluate("STEP.legal") if a["action"] != next_move]
        assert len(others) >= 2
        # two lines from step 40, the first kept when the second is played
        for a in others[:2]:
            page.click(f"#moves button.move[data-at='{at}']")
            page.wait_for_function(f"document.body.dataset.step === '{at}:0'")
            page.wait_for_function(f"STEP && STEP.at === {at} && STEP.variation.length === 0")
            page.click(f"#hands button.legal[data-action='{a}']")
            page.wait_for_function(f"document.body.dataset.step === '{at}:1'")
        assert page.locator("#moves ol.line > li > ol.variation").count() == 2
        assert page.evaluate("JSON.stringify(STEP.variation)") == json.dumps([others[1]])
        # a line from the second line: its next seat's first legal card
        page.wait_for_function("STEP.legal && STEP.legal.length > 0")
        reply = page.evaluate("STEP.legal[0].action")
        page.click(f"#hands button.legal[data-action='{reply}'], #b-actions button[data-action='{reply}']")
        page.wait_for_function(f"document.body.dataset.step === '{at}:2'")
        # promoted: the main line now runs through it; the record's move 41 a variation
        assert page.is_visible("#v-promote")
        page.click("#v-promote")
        page.wait_for_function("document.getElementById('v-promote').hidden")
        main = page.eval_on_selector_all("#moves ol.line > li > button.move",
                                         "bs => bs.map((b) => b.textContent)")
        assert len(main) == at + 2
        words = page.evaluate("(a) => [words[a[0]], words[a[1]]]", [others[1], reply])
        assert words[0] in main[at] and words[1] in main[at + 1]
        assert page.locator(f"#moves ol.variation button.move[data-at='{at + 1}']").count() == 1
        # the link keeps the tree, its order and the place shown
        page.click("#b-link")
        page.wait_for_function("document.getElementById('b-link-out').value.includes('#b=')")
        link = page.input_value("#b-link-out")
        tree = page.evaluate("JSON.stringify(leaves())")
        ctx2, again = _page(browser, viewport, errors)
        try:
            again.goto(link)
            again.wait_for_selector("body[data-ready='1']")
            again.wait_for_function(f"document.body.dataset.step === '{at}:2'")
            assert again.evaluate("JSON.stringify(leaves())") == tree
            assert again.eval_on_selector_all("#moves ol.line > li > button.move",
                                              "bs => bs.map((b) => b.textContent)") == main
        finally:
            ctx2.close()
        # deleted: the first line from step 40 goes, the others stay
        page.click("#moves ol.variation button.move:not([data-at])")
        page.wait_for_function(f"document.body.dataset.step === '{at}:1'")
        assert page.evaluate("JSON.stringify(STEP.variation)") == json.dumps([others[0]])
        page.click("#v-delete")
        page.wait_for_function(f"document.body.dataset.step === '{at}:0'")
        assert page.evaluate("leaves().length") == 2
        assert page.locator("#moves ol.variation button.move:not([data-at])").count() == 0
        _fits(page, viewport)
        _axe(page, f"{lang} variations")
        _shot(page, f"analysis-variations-{viewport['width']}-{lang}")
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("lang,viewport", [("en", DESKTOP), ("ar", PHONE)], ids=["en-1280", "ar-390"])
def test_a_long_match_is_listed_a_deal_at_a_time(browser, server, tricks_record,  # noqa: F811
                                                 lang, viewport):
    """Issue #51: a match of many deals was one list of 1,001 steps.  A
    deal picker lists the match's deals; choosing one goes to its start,
    and the move list holds that deal's moves only."""
    errors: list = []
    ctx, page = _page(browser, viewport, errors)
    try:
        _open_pasted(page, server, tricks_record, lang)
        page.uncheck("#v-auto")
        deals = page.evaluate("BOARD.deals")
        assert len(deals) > 2 and page.is_visible("#b-deal")
        assert page.eval_on_selector_all("#b-deal option", "os => os.map((o) => o.value)") == \
            [str(d["deal"]) for d in deals]
        third, fourth = deals[2], deals[3]
        page.select_option("#b-deal", str(third["deal"]))
        page.wait_for_function(f"document.body.dataset.step === '{third['first']}:0'")
        steps = page.eval_on_selector_all("#moves button.move[data-at]",
                                          "bs => bs.map((b) => +b.dataset.at)")
        assert steps == list(range(third["first"] + 1, fourth["first"] + 1))
        assert page.locator("#moves h4").count() == 1
        assert page.evaluate("STEP.deal") == third["deal"]
        _fits(page, viewport)
        _shot(page, f"analysis-deals-{viewport['width']}-{lang}")
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("lang,viewport", [("en", DESKTOP), ("ar", PHONE)], ids=["en-1280", "ar-390"])
def test_comments_kept_in_the_link_and_the_record_exported_and_imported(
        browser, server, lang, viewport, tmp_path):  # noqa: F811
    """Issue #51, beside lichess: a comment on a move of the record and on
    a move of a variation, shown in the move list, kept in the link; the
    record downloaded with its lines and comments, and that file opened
    again: the same lines, comments and place."""
    record = positions.to_json(_trix())
    errors: list = []
    ctx, page = _page(browser, viewport, errors)
    try:
        _open_pasted(page, server, record, lang)
        page.uncheck("#v-auto")
        page.click("#moves button.move[data-at='20']")
        page.wait_for_function("document.body.dataset.step === '20:0'")
        page.fill("#c-text", "le pli décisif: صحيح")
        page.locator("#c-text").blur()
        page.wait_for_selector("#moves .comment")
        page.wait_for_function("STEP && STEP.at === 20 && STEP.legal")
        other = page.evaluate("""() => STEP.legal.map((a) => a.action)
            .find((a) => a !== BOARD.moves[20].action)""")
        page.click(f"#hands button.legal[data-action='{other}']")
        page.wait_for_function("document.body.dataset.step === '20:1'")
        assert page.input_value("#c-text") == ""
        page.fill("#c-text", "better")
        page.locator("#c-text").blur()
        said = page.eval_on_selector_all("#moves .comment", "cs => cs.map((c) => c.textContent)")
        assert said == ["le pli décisif: صحيح", "better"]
        assert page.evaluate("comments()") == [[20, [], "le pli décisif: صحيح"],
                                               [20, [other], "better"]]
        # the link keeps them
        page.click("#b-link")
        page.wait_for_function("document.getElementById('b-link-out').value.includes('#b=')")
        link = page.input_value("#b-link-out")
        ctx2, again = _page(browser, viewport, errors)
        try:
            again.goto(link)
            again.wait_for_selector("body[data-ready='1']")
            again.wait_for_function("document.body.dataset.step === '20:1'")
            assert again.input_value("#c-text") == "better"
            assert again.eval_on_selector_all("#moves .comment",
                                              "cs => cs.map((c) => c.textContent)") == said
        finally:
            ctx2.close()
        # the record downloaded with its lines and comments, and opened again
        with page.expect_download() as got:
            page.click("#b-export")
        path = tmp_path / "board.json"
        got.value.save_as(path)
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert doc["actions"] == record["actions"] and doc["game"] == "trix"
        assert doc["board"]["c"] == [[20, [], "le pli décisif: صحيح"], [20, [other], "better"]]
        assert any(leaf[:2] == [20, [other]] for leaf in doc["board"]["t"])
        page.click("#b-new")
        page.fill("#paste", path.read_text(encoding="utf-8"))
        page.click("#open-btn")
        page.wait_for_function("document.body.dataset.step === '20:1'")
        assert page.input_value("#c-text") == "better"
        assert page.eval_on_selector_all("#moves .comment",
                                         "cs => cs.map((c) => c.textContent)") == said
        assert page.locator("#moves ol.variation button.move").count() == 1
        _fits(page, viewport)
        _axe(page, f"{lang} comments")
        _shot(page, f"analysis-comments-{viewport['width']}-{lang}")
        assert not errors, errors
    finally:
        ctx.close()
