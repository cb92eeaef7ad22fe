"""Every word of the web page in the reader's language (issue #41: raw
option names, English help and game descriptions, "الوحدة: points this
deal" on the Arabic page).

In Arabic at phone width and in French at 1280 pixels: the new-table form
with each game's options, a match of dix (seventeen, to one point)
against a bot played to its end -- the table, a hint with where the cards
are, a move sent for a version the table has left (refused and the page
reloaded, saying so), the deal's summary, the scores with each row's
unit, the review --, a table of every other game with a hint, and a
spectator's page: no English word is left in any of them
(``words_check``: the visible text and the labels screen readers read).
An English string planted in a page is caught, so the check is seen to
act.  The browser and server fixtures are ``test_server_browser.py``'s."""

from __future__ import annotations

import httpx
import pytest

from .test_server_browser import ARTIFACTS, DESKTOP, PHONE, _page, browser, server
from .words_check import PAGE_TEXT, english_in_text

__all__ = ["browser", "server"]          # the fixtures, shared with the other browser tests

OTHERS: list[tuple[str, dict]] = [("trix", {}), ("tricks", {}), ("dixie-rook", {}), ("dix-exchange", {})]


def _words_left(page, lang: str, where: str) -> None:
    left = english_in_text(page.evaluate(PAGE_TEXT), lang)
    assert not left, f"{lang}, {where}: {left}"


def _new_table(page, server, game: str, options: dict, lang: str, seed: int):
    page.goto(f"{server.url}/?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", game)
    for key, value in options.items():
        field = page.locator(f"#options [data-key='{key}']")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    for seat in range(1, page.locator("#seat-list select").count()):
        page.select_option(f"#seat-{seat}", "easy")
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#table:not([hidden])")


def _click_legal(page) -> None:
    legal = page.locator("#hand button.legal, #actions button.legal")
    legal.first.wait_for(timeout=60_000)
    legal.first.click()
    page.wait_for_function("document.body.dataset.busy === '0'")


def _hint(page, lang: str, where: str) -> None:
    page.locator("#hand button.legal, #actions button.legal").first.wait_for(timeout=60_000)
    page.click("#hint")
    page.wait_for_selector("#hint-out .advice", timeout=60_000)
    if page.locator("#hint-out details.beliefs summary").count():
        page.click("#hint-out details.beliefs summary")
    _words_left(page, lang, f"{where} with its hint")


@pytest.mark.parametrize("lang,viewport", [("ar", PHONE), ("fr", DESKTOP)])
def test_every_page_in_the_reader_language(browser, server, lang, viewport):
    errors: list = []
    ctx, page = _page(browser, viewport, errors)
    try:
        page.goto(f"{server.url}/?lang={lang}")
        page.wait_for_selector("body[data-ready='1']")
        for game in ("dix", "trix", "tricks", "dixie-rook", "dix-exchange"):
            page.select_option("#game", game)
            _words_left(page, lang, f"the form of {game}")
            labels = page.locator("#options label").all_text_contents()
            keys = page.eval_on_selector_all("#options [data-key]", "n => n.map(x => x.dataset.key)")
            assert not set(labels) & set(keys), labels       # words, not the JSON's names
        # a match of dix to one point, against a bot, to its end
        _new_table(page, server, "dix", {"variant": "seventeen", "target": 1}, lang, 6)
        _words_left(page, lang, "a dix table")
        _hint(page, lang, "a dix table")
        # a move for a version the table has left: refused, nothing played,
        # the page shows the table as it is and says why in the reader's words
        table = page.evaluate("current.table")
        before = page.evaluate("current.version")
        page.evaluate("current.version = current.version + 7")
        seen = len(errors)
        _click_legal(page)
        # the browser logs the refused request itself (a 409): that one is expected
        assert [e for e in errors[seen:] if "409" not in e] == []
        del errors[seen:]
        assert page.text_content("#message") == page.evaluate(
            "t('The table moved on before your move arrived, so it was not played: "
            "here is the table as it is now.')")
        assert page.evaluate("current.version") == before     # the server's, reloaded
        assert httpx.get(f"{server.url}/v1/tables/{table}").json()["version"] == before
        _words_left(page, lang, "a refused move")
        for _ in range(80):
            if page.evaluate("current.over"):
                break
            _click_legal(page)
        else:
            raise AssertionError("the match did not end")
        page.wait_for_selector("#summary:not([hidden])")
        rows = page.eval_on_selector_all("#scores tr[data-row], #scores tr.deal",
                                         "rs => rs.map((r) => r.lastElementChild.textContent)")
        assert len(rows) == 3 and all(rows), rows     # the deal, the score, the result: units
        page.click("#review")
        page.wait_for_selector("#review-out p.review-seat, #review-out p.advice",
                               timeout=60_000)
        # a negative number reads "-1" right to left too (its sign drawn to
        # the left of its digits), never "1-" as the Arabic page once showed
        order = page.evaluate(r"""() => [...document.querySelectorAll(
                "#scores td.num, #summary td.num, #review-out .num")]
            .filter((node) => /^[-\u2212]\d/.test(node.textContent)).map((node) => {
                const text = node.firstChild, range = document.createRange();
                range.setStart(text, 0); range.setEnd(text, 1);
                const sign = range.getBoundingClientRect().left;
                range.setStart(text, 1); range.setEnd(text, 2);
                return sign < range.getBoundingClientRect().left; })""")
        assert order and all(order), order
        _words_left(page, lang, "a finished match with its summary, scores and review")
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"words-dix-over-{lang}.png"
        page.screenshot(path=str(path), full_page=True)
        print(f"\nscreenshot: {path}")
        # a spectator's page of that table
        spectator = ctx.new_page()
        spectator.goto(f"{server.url}/?table={table}&lang={lang}")
        spectator.wait_for_selector("#table:not([hidden])")
        _words_left(spectator, lang, "a spectator's page")
        spectator.close()
        for game, options in OTHERS:
            _new_table(page, server, game, options, lang, 4)
            for _ in range(2):
                _click_legal(page)
            _hint(page, lang, f"a {game} table")
        # the check acts: an English string planted in the page is caught
        page.evaluate("document.getElementById('status').append(' Your turn, deal 2')")
        assert english_in_text(page.evaluate(PAGE_TEXT), lang)[:3] == ["Your", "turn", "deal"]
        assert not errors, errors
    finally:
        ctx.close()


def test_the_page_counts_with_the_catalogue_plural_rule(browser, server):
    """The page's ``tn`` takes the form the catalogue's Plural-Forms rule
    gives (read by the page's own parser, not eval): the same index as
    gettext's for every count to 300, in Arabic (six forms) and French."""
    import gettext

    from bots.server import i18n
    errors: list = []
    ctx, page = _page(browser, PHONE, errors)
    try:
        for lang in ("ar", "fr"):
            page.goto(f"{server.url}/?lang={lang}")
            page.wait_for_selector("body[data-ready='1']")
            expr, _ = i18n.plural_rule(lang)
            got = page.evaluate("(expr) => { const f = compilePlural(expr); "
                                "return Array.from({length: 301}, (_, n) => f(n)); }", expr)
            assert got == [gettext.c2py(expr)(n) for n in range(301)]
            said = page.evaluate("[0, 1, 2, 5, 11, 100].map((n) => tn('{n} card', '{n} cards', n))")
            assert said == [i18n.Translator(lang).ngettext("{n} card", "{n} cards", n)
                            for n in (0, 1, 2, 5, 11, 100)]
            if lang == "ar":
                assert said[3] == "5 أوراق" and said[2] == "ورقتان"
        assert not errors, errors
    finally:
        ctx.close()
