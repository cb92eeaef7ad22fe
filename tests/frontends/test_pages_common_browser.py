"""What both pages share (``static/common.js``: the API, the language
picker, the game list), in a real browser, on each page as it was before
the two pages' copies became one:

* a busy server (503 with Retry-After) is asked again: the table says so
  to the person waiting, the board waits without a word, and both end up
  drawn;
* an answer with no body (204: a table deleted) is no error;
* each page's language picker opens the page again in the language chosen,
  its games listed in that language.

The browser and server fixtures are ``test_server_browser.py``'s."""

from __future__ import annotations

from .test_server_browser import DESKTOP, _page, _start, browser, server

__all__ = ["browser", "server"]          # the fixtures, shared with the other browser tests


def _busy_once(page, seen: list) -> None:
    """The page's first request for the game list answered 503 (Retry-After:
    1), the next ones by the server."""
    def handle(route):
        seen.append(route.request.url)
        if len(seen) == 1:
            route.fulfill(status=503, headers={"Retry-After": "1"},
                          content_type="application/json", body='{"error": "busy"}')
        else:
            route.continue_()
    page.route("**/v1/games*", handle)


def test_a_busy_server_is_asked_again_the_table_saying_so(browser, server):
    errors: list = []
    ctx, page = _page(browser, DESKTOP, errors)
    try:
        seen: list = []
        _busy_once(page, seen)
        page.goto(f"{server.url}/?lang=en")
        page.wait_for_function(
            "document.getElementById('message').textContent.includes('busy')", timeout=5000)
        assert page.text_content("#message") == "The server is busy; trying again in 1 s."
        page.wait_for_selector("body[data-ready='1']")
        assert len(seen) == 2 and page.locator("#game option").count() >= 5
        # the board: the same wait, not a word on its message line
        seen.clear()
        _busy_once(page, seen)
        page.goto(f"{server.url}/analysis?lang=en")
        page.wait_for_selector("body[data-ready='1']")
        assert len(seen) == 2 and page.locator("#s-game option").count() >= 5
        assert page.text_content("#message") == ""
    finally:
        ctx.close()
    # the browser's own line for each 503 answer is no error of the page's
    assert not [e for e in errors if "status of 503" not in e], errors


def test_a_table_deleted_answers_no_body_and_no_error(browser, server):
    errors: list = []
    ctx, page = _page(browser, DESKTOP, errors)
    try:
        _start(page, server, "dix", {}, {}, 1, "en")
        page.click("#delete")
        page.wait_for_selector("#setup:not([hidden])")
        assert page.text_content("#message") == "The table is deleted."
    finally:
        ctx.close()
    assert not errors, errors


def test_each_page_s_language_picker_opens_it_again_in_that_language(browser, server):
    errors: list = []
    ctx, page = _page(browser, DESKTOP, errors)
    try:
        for path, games in (("/", "#game"), ("/analysis", "#s-game")):
            page.goto(f"{server.url}{path}?lang=en")
            page.wait_for_selector("body[data-ready='1']")
            english = page.locator(f"{games} option").all_text_contents()
            with page.expect_navigation():
                page.select_option("#lang", "fr")
            page.wait_for_selector("body[data-ready='1']")
            assert "lang=fr" in page.url and page.get_attribute("html", "lang") == "fr"
            assert page.evaluate("localStorage.getItem('dixtrix.lang')") == "fr"
            french = page.locator(f"{games} option").all_text_contents()
            assert len(french) == len(english) and french != english, (path, french)
            page.evaluate("localStorage.removeItem('dixtrix.lang')")
    finally:
        ctx.close()
    assert not errors, errors
