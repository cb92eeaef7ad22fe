"""The Trix layout drawn on the web table, card by card (issue #41: after
30 cards laid the centre still read "♠ – ♥ – ♦ – ♣ –").

A trix table of four people: the page (seat 0, clicking its own cards and
passes) and three seats played through the API with their invitations'
tokens, so that the page hears of every card by live update.  The seat
that owns the kingdom chooses Trix; then after every card laid and every
pass, the rows the page draws (each suit's cards, in order, left to
right) equal the layout of the game replayed from the SQLite record
(``Layout.lo``/``hi`` per suit, read here from the game itself), and so
does the layout ``GET /v1/tables/{id}`` gives.  In English at 1280 pixels
and in Arabic (right to left) at phone width, where each row's cards still
go from low to high left to right inside the page's width and no English
word is left on the page; screenshots are kept in ``tests/artifacts/``
(git-ignored).  The browser and server fixtures are
``test_server_browser.py``'s."""

from __future__ import annotations

import httpx

from solver.cards import FRENCH, make_card
from solver.games.contract_match.layout import LayoutDeal

from .server_process import replay_table
from .test_server_browser import ARTIFACTS, DESKTOP, PHONE, _page, _start, browser, server
from .words_check import PAGE_TEXT, english_in_text

__all__ = ["browser", "server"]          # the fixtures, shared with the other browser tests

#: suit letters as the game's layout indexes them (solver/games/contract_match/layout.py)
SUITS = {"C": 0, "D": 1, "H": 2, "S": 3}


def expected_rows(state) -> dict | None:
    """The layout of the deal in play, from the game's own rows (low and
    high rank of each suit), or None outside the layout."""
    play = state.log.play
    if not isinstance(play, LayoutDeal):
        return None
    lay = play.layout
    return {letter: [FRENCH.to_string(make_card(s, r)) for r in range(lay.lo[s], lay.hi[s] + 1)]
            if lay.lo[s] else [] for letter, s in SUITS.items()}


def drawn_rows(page) -> dict:
    """The rows the page draws: each suit's cards in the order they stand,
    with their left edges (to check they go left to right)."""
    return page.evaluate("""() => {
        const out = {};
        for (const row of document.querySelectorAll("#center .layout-row")) {
            const cards = [...row.querySelectorAll("[data-card]")];
            out[row.dataset.suit] = {ids: cards.map((c) => c.dataset.card),
                                     attr: row.dataset.cards,
                                     x: cards.map((c) => c.getBoundingClientRect().left),
                                     right: Math.max(0, ...cards.map(
                                         (c) => c.getBoundingClientRect().right))};
        }
        return out;
    }""")


def _play_a_layout_deal(browser, server, viewport, lang, shot):
    errors: list = []
    ctx, page = _page(browser, viewport, errors)
    try:
        _start(page, server, "trix", {}, {0: "you", 1: "person", 2: "person", 3: "person"},
               9, lang)
        tid = page.evaluate("current.table")
        tokens = {}
        for seat in (1, 2, 3):
            link = page.get_attribute(f"#invite a.invite[data-seat='{seat}']", "href")
            tokens[seat] = link.split("#token=")[1]
        checked, laid, shots = 0, 0, 0
        with httpx.Client(base_url=server.url, timeout=30) as http:
            for _ in range(400):
                state = replay_table(server.db, tid)
                moves = http.get(f"/v1/tables/{tid}").json()
                version = moves["version"]
                page.wait_for_function(
                    f"current && current.version === {version} && "
                    "document.body.dataset.busy !== '1'", timeout=30_000)
                if state.round_index() > 0:
                    break                        # the layout deal is over
                want = expected_rows(state)
                if want is not None:
                    # the API's layout, and the page's drawn rows, are the game's
                    assert moves["board"]["layout"] == want
                    got = drawn_rows(page)
                    assert {s: g["ids"] for s, g in got.items()} == want, (version, got)
                    assert {s: g["attr"] for s, g in got.items()} == \
                        {s: " ".join(c) for s, c in want.items()}
                    width = page.evaluate("document.documentElement.clientWidth")
                    for suit, g in got.items():
                        # low to high, left to right, in every language; on the page
                        assert g["x"] == sorted(g["x"]), (suit, g)
                        assert g["right"] <= width, (suit, g["right"], width)
                    laid = sum(map(len, want.values()))
                    checked += 1
                    if lang != "en":
                        left = english_in_text(page.evaluate(PAGE_TEXT), lang)
                        assert not left, left
                    if viewport == PHONE:
                        assert page.evaluate(
                            "document.documentElement.scrollWidth") <= PHONE["width"]
                    if (laid >= 20 and shots == 0) or (laid >= 40 and shots == 1):
                        ARTIFACTS.mkdir(exist_ok=True)
                        path = ARTIFACTS / f"{shot}-{laid}.png"
                        page.screenshot(path=str(path), full_page=True)
                        print(f"\nscreenshot: {path}")
                        shots += 1
                mover = state.current_player()
                legal = [state.action_to_string(a) for a in state.legal_actions()]
                action = "contract trix" if "contract trix" in legal else legal[0]
                if mover == 0:
                    page.locator(f"#hand button[data-action='{action}'], "
                                 f"#actions button[data-action='{action}']").first.click()
                    page.wait_for_function("document.body.dataset.busy === '0'")
                    assert page.text_content("#message") == ""
                else:
                    r = http.post(f"/v1/tables/{tid}/actions",
                                  json={"action": action, "version": version},
                                  headers={"Authorization": f"Bearer {tokens[mover]}"})
                    assert r.status_code == 200, r.text
            else:
                raise AssertionError("the layout deal did not end")
        assert laid >= 30 and checked >= 30, (laid, checked)   # a whole deal of cards
        assert shots == 2
        assert not errors, errors
    finally:
        ctx.close()


def test_a_trix_layout_deal_is_drawn_card_by_card(browser, server):
    _play_a_layout_deal(browser, server, DESKTOP, "en", "trix-layout-1280-en")


def test_the_same_right_to_left_at_phone_width(browser, server):
    _play_a_layout_deal(browser, server, PHONE, "ar", "trix-layout-390-ar")


def test_a_full_layout_fits_a_phone(browser, server):
    """Thirteen cards in every row (each suit finished) stay inside a
    phone's width, right to left as left to right."""
    from bots.server import labels
    from bots.server.i18n import Translator
    errors: list = []
    ctx, page = _page(browser, PHONE, errors)
    try:
        _start(page, server, "trix", {}, {0: "you"}, 9, "ar")
        full = {s: [f"{r}{s}" for r in "23456789TJQKA"] for s in "SHDC"}
        cards = labels.cards_in("trix", [c for row in full.values() for c in row],
                                Translator("ar"))
        page.evaluate("""([rows, cards]) => {
            const p = Object.assign({}, current, {cards: Object.assign({}, current.cards, cards),
                                                  board: Object.assign({}, current.board,
                                                                       {layout: rows})});
            renderCenter(p);
        }""", [full, cards])
        got = drawn_rows(page)
        width = page.evaluate("document.documentElement.clientWidth")
        assert all(len(g["ids"]) == 13 and g["right"] <= width for g in got.values()), got
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / "trix-layout-full-390-ar.png"
        page.screenshot(path=str(path), full_page=True)
        print(f"\nscreenshot: {path}")
        assert not errors, errors
    finally:
        ctx.close()
