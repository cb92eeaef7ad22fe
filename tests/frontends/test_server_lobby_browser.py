"""The table page's lobby, absent seats, rematch and record (issue #51, "At
the table"), in chromium, in English at 1280 pixels and in Arabic at 390:

* a public table is listed on the front page of a second browser, which
  joins it with one click and is seated;
* the host hands the joined person's seat to a bot: that person's page
  says so (a live update) and takes the seat back with one click;
* the last deal's summary goes once the next deal is under way, and at
  phone width its unit column and the scores' are on the screen, not cut
  off past its edge;
* at the end of a match the record downloads (the same JSON as
  ``GET /v1/tables/{id}/record``) and Rematch seats the same person at a
  new table dealt by the next seed.

The browser and server fixtures are ``test_server_browser.py``'s;
screenshots go to tests/artifacts/."""

from __future__ import annotations

import json

import httpx
import pytest

from .test_server_browser import ARTIFACTS, DESKTOP, PHONE, _page, browser, server

__all__ = ["browser", "server"]          # the fixtures, shared with the other browser tests

WIDTHS = [("en", DESKTOP), ("ar", PHONE)]


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    print(f"\nscreenshot: {path}")


def _new_dix(page, server, lang: str, seats: dict, target: int, seed: int,
             public: bool = False) -> str:
    """A dix (seventeen) table from the form: ``seats`` maps seat -> "you",
    "person" or a level; returns its id."""
    page.goto(f"{server.url}/?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", "dix")
    page.locator("#options [data-key='variant']").select_option("seventeen")
    page.locator("#options [data-key='target']").fill(str(target))
    for seat, choice in seats.items():
        page.select_option(f"#seat-{seat}", choice)
    page.fill("#seed", str(seed))
    if public:
        page.check("#public")
    page.click("#start")
    page.wait_for_selector("#table:not([hidden])")
    return page.evaluate("current.table")


def _click_legal(page) -> None:
    legal = page.locator("#hand button.legal, #actions button.legal")
    legal.first.wait_for(timeout=60_000)
    legal.first.click()
    page.wait_for_function("document.body.dataset.busy === '0'")


@pytest.mark.parametrize("lang,viewport", WIDTHS)
def test_a_public_table_is_joined_from_the_lobby_and_a_seat_handed_to_a_bot(
        browser, server, lang, viewport):
    errors: list = []
    ctx_a, host = _page(browser, viewport, errors)
    ctx_b, guest = _page(browser, viewport, errors)
    try:
        table = _new_dix(host, server, lang, {0: "you", 1: "person"}, 50, 12, public=True)
        # the host's page: seat 2 is open, nobody has joined it yet
        host.wait_for_selector("#host-seats li[data-seat='1'] button.hand-over")
        assert host.evaluate("current.open") == [1]
        # the other browser's front page lists it; one click seats them
        guest.goto(f"{server.url}/?lang={lang}")
        guest.wait_for_selector("body[data-ready='1']")
        entry = guest.locator(f"#lobby-list li[data-table='{table}']")
        entry.wait_for()
        _shot(guest, f"lobby-{lang}-{viewport['width']}")
        entry.locator("button.join").click()
        guest.wait_for_selector("#table:not([hidden])")
        assert guest.evaluate("[current.table, current.seat, current.spectator]") == \
            [table, 1, False]
        assert guest.locator("#lobby").is_hidden()
        # the host sees the seat taken (a live update), then hands it to a bot
        host.wait_for_function("current.open.length === 0")
        host.locator("#host-seats li[data-seat='1'] button.hand-over").click()
        guest.wait_for_selector("#away-box:not([hidden])")
        assert guest.evaluate("current.seats[1].away")
        _shot(guest, f"away-{lang}-{viewport['width']}")
        guest.click("#take-back")
        guest.wait_for_selector("#away-box", state="hidden")
        host.wait_for_function("!current.seats[1].away")
        listed = httpx.get(f"{server.url}/v1/tables").json()["tables"]
        assert table not in [e["table"] for e in listed]       # no open seat left
        assert not errors, errors
    finally:
        ctx_a.close()
        ctx_b.close()


def _units_on_screen(page, width: int) -> None:
    """Every unit cell of the score tables lies on the screen and its table
    needs no sideways scrolling (at 390 pixels it was cut off)."""
    for table in ("#scores", "#summary-table"):
        _units_on_screen_of(page, table, width)


def _units_on_screen_of(page, table: str, width: int) -> None:
    """One score table's unit cells on the screen, no sideways scrolling."""
    box = page.evaluate("""(sel) => {
        const tab = document.querySelector(sel), scroll = tab.parentElement;
        const units = [...tab.querySelectorAll(".unit")].map((u) => u.getBoundingClientRect());
        return { over: scroll.scrollWidth - scroll.clientWidth, n: units.length,
                 left: Math.min(...units.map((r) => r.left)),
                 right: Math.max(...units.map((r) => r.right)) }; }""", table)
    assert box["n"] and box["over"] <= 1, (table, box)
    assert box["left"] >= 0 and box["right"] <= width, (table, box)


@pytest.mark.parametrize("lang,viewport", WIDTHS)
def test_the_summary_goes_with_the_next_deal_and_its_units_fit(browser, server, lang,
                                                               viewport):
    """A trix deal (four seats: the widest score table) to its end: its
    summary and the scores keep their unit column on the screen; the
    summary goes once the next deal is under way."""
    errors: list = []
    ctx, page = _page(browser, viewport, errors)
    try:
        page.goto(f"{server.url}/?lang={lang}")
        page.wait_for_selector("body[data-ready='1']")
        page.select_option("#game", "trix")
        for seat in (1, 2, 3):
            page.select_option(f"#seat-{seat}", "easy")
        page.fill("#seed", "21")
        page.click("#start")
        page.wait_for_selector("#table:not([hidden])")
        for _ in range(200):
            if page.locator("#summary").is_visible():
                break
            _click_legal(page)
        else:
            raise AssertionError("the first deal did not end")
        ended = int(page.get_attribute("#summary", "data-deal"))
        _units_on_screen(page, viewport["width"])
        _shot(page, f"summary-trix-{lang}-{viewport['width']}")
        for _ in range(2):                      # the next deal under way: the panel goes
            _click_legal(page)
        assert page.evaluate("current.deal") > ended
        page.wait_for_selector("#summary", state="hidden")
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("lang,viewport", WIDTHS)
def test_the_record_downloads_and_a_rematch_deals_the_next_seed(browser, server, lang,
                                                                 viewport):
    errors: list = []
    ctx, page = _page(browser, viewport, errors)
    try:
        table = _new_dix(page, server, lang, {0: "you", 1: "easy"}, 1, 6)
        assert page.locator("#record").is_hidden() and page.locator("#rematch").is_hidden()
        for _ in range(80):
            if page.evaluate("current.over"):
                break
            _click_legal(page)
        else:
            raise AssertionError("the match did not end")
        page.wait_for_selector("#end-box:not([hidden])")
        width = viewport["width"]
        _shot(page, f"over-{lang}-{width}")
        # the record, downloaded from the page, is the API's
        with page.expect_download() as got:
            page.click("#record")
        saved = json.loads(open(got.value.path(), encoding="utf-8").read())
        assert got.value.suggested_filename == f"dixtrix-dix-{table}.json"
        assert saved == httpx.get(f"{server.url}/v1/tables/{table}/record").json()
        assert saved["seed"] == 6 and saved["actions"]
        # the rematch: the same seats, the next seed, this page's own seat
        page.click("#rematch")
        page.wait_for_function(f"current.table !== '{table}'")
        again = page.evaluate("[current.seat, current.seed, current.over, current.bots]")
        assert again[:3] == [0, 7, False] and list(again[3]) == ["1"]
        assert httpx.get(f"{server.url}/v1/tables/{table}").json()["rematch"] == \
            page.evaluate("current.table")
        _click_legal(page)                      # this page's token plays at the rematch
        assert page.evaluate("current.version") > 0
        assert not errors, errors
    finally:
        ctx.close()


def test_the_arabic_review_time_reads_as_a_number_and_its_unit(browser, server):
    """The analysis board's time a decision ("0.5 s") read "s 0.5" in
    Arabic: a number and a unit written left to right, in a page written
    right to left.  The select is set left to right, so it reads "0.5 s"."""
    errors: list = []
    ctx, page = _page(browser, PHONE, errors)
    try:
        page.goto(f"{server.url}/analysis?lang=ar")
        page.wait_for_function("document.documentElement.dir === 'rtl'")
        got = page.evaluate("""() => { const s = document.getElementById("r-time");
            return [getComputedStyle(s).direction, s.options[s.selectedIndex].text]; }""")
        assert got == ["ltr", "0.5 s"], got
    finally:
        ctx.close()


#: each negative number in the score tables: whether its minus sign is drawn
#: before its digits in reading order (left of them: numbers read left to
#: right in Arabic too), found in the text as laid out
NEGATIVES = """(sel) => {
    const out = [];
    const walker = document.createTreeWalker(document.querySelector(sel), NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.textContent.matchAll(/-(\\d+)/g)) {
        const at = (i) => { const r = document.createRange(); r.setStart(node, i);
                            r.setEnd(node, i + 1); return r.getBoundingClientRect(); };
        const minus = at(m.index), digit = at(m.index + 1);
        out.push([m[0], minus.right <= digit.left + 0.5]);
      }
    }
    return out; }"""


@pytest.mark.parametrize("lang,viewport", WIDTHS)
def test_a_team_s_negative_score_reads_minus_first(browser, server, lang, viewport):
    """At 390 pixels in Arabic a negative score read "75-": a dixie-rook
    bid set (seed 4, a table of rules bots: the teams' scores 55 and -75),
    its team scores said in a sentence ("your team 55, the other team
    -75"), where the sentence's right-to-left order put the minus after
    the number.  Every negative number of the scores reads minus first,
    in the table's cells and in the sentence."""
    made = httpx.post(f"{server.url}/v1/tables", timeout=120,
                      json={"game": "dixie-rook", "options": {"target": 1}, "seats": [],
                            "bots": "rules", "seed": 4}).json()
    table = made["table"]
    for _ in range(600):
        over = httpx.get(f"{server.url}/v1/tables/{table}", timeout=60).json()
        if over["over"]:
            break
    assert over["totals"] == [55, -75]
    errors: list = []
    ctx, page = _page(browser, viewport, errors)
    try:
        page.goto(f"{server.url}/?lang={lang}&table={table}")
        page.wait_for_selector("#scores td.teams")
        read = page.evaluate(NEGATIVES, "#scores")
        assert ["-75", True] in read and all(ok for _, ok in read), read
        _units_on_screen_of(page, "#scores", viewport["width"])
        _shot(page, f"negative-scores-{lang}-{viewport['width']}")
        assert not errors, errors
    finally:
        ctx.close()
