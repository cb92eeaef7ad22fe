"""The web table in a real browser (Debian's chromium driven by
Playwright): a whole deal of dix and a whole deal of trix played by
clicking legal cards and buttons, the scores shown checked against the
server's record of the table (its SQLite row replayed), the page checked
to fit a phone-width screen, and a screenshot of each kept in
``tests/artifacts/`` (git-ignored; the paths are printed).

Playwright's own browser download cannot work where only the package
registries are reachable: the test uses the system's chromium through
``executable_path`` (``tests/frontends/install_browser.sh`` installs it
with apt-get) and is skipped, with the reason shown, only where no such
browser exists."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .server_process import replay_table, running

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
PHONE = {"width": 390, "height": 844}


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install -e '.[test]')")
    exe = _chromium()
    if exe is None:
        pytest.skip("no chromium on this machine: tests/frontends/install_browser.sh "
                    "installs Debian's (Playwright's own download cannot work here)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running(str(tmp_path_factory.mktemp("browser") / "tables.db"), "--workers", "2") as srv:
        yield srv


def _play_one_deal(page, server, game: str, options: dict, seed: int, shot: str):
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", game)
    for key, value in options.items():
        page.locator(f"#options [data-key='{key}']").select_option(str(value))
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#table:not([hidden])")
    clicks = 0
    while page.locator("#scores tr.deal[data-deal='0']").count() == 0:
        assert clicks < 200, "the deal did not end"
        legal = page.locator("#hand button.legal, #actions button.legal")
        legal.first.wait_for(timeout=30_000)
        # cards dimmed: not legal now, never clickable
        for b in page.locator("#hand button.dimmed").all():
            assert b.is_disabled()
        legal.first.click()
        page.wait_for_function("document.body.dataset.busy === '0'")
        assert page.text_content("#message") == ""
        clicks += 1
    table_id = page.evaluate("current.table")
    shown = [float(c.text_content()) for c in
             page.locator("#scores tr.deal[data-deal='0'] td[data-seat]").all()]
    state = replay_table(server.db, table_id)
    assert shown == [float(v) for v in state.round_returns(0)]
    # the match score row shows the totals the seat's view knows
    assert page.locator("#scores tr.match").count() == 1
    # usable at phone width: nothing wider than the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # the hint button shows every legal action's value
    if page.locator("#hint:not([disabled])").count():
        page.click("#hint")
        page.wait_for_selector("#hint-out .advice", timeout=30_000)
        rows = page.locator("#hint-out tr").count()
        legal_now = page.locator("#hand button.legal, #actions button.legal").count()
        assert rows == legal_now
    # the deal is over: "Review this deal" judges this seat's decisions
    assert page.text_content("#review") == "Review this deal (deal 1)"
    page.click("#review")
    page.wait_for_selector("#review-out p:has-text('decisions with a choice')", timeout=60_000)
    assert page.text_content("#review-out").startswith("Deal 1: ")
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / shot
    page.screenshot(path=str(path), full_page=True)
    print(f"\nscreenshot: {path} ({clicks} clicks, deal scores {shown})")
    return clicks


def test_a_whole_deal_of_dix_in_the_browser(browser, server):
    page = browser.new_page(viewport=PHONE)
    try:
        _play_one_deal(page, server, "dix", {"variant": "seventeen"}, 3, "dix-deal.png")
    finally:
        page.close()


def test_a_whole_deal_of_trix_in_the_browser(browser, server):
    page = browser.new_page(viewport=PHONE)
    try:
        _play_one_deal(page, server, "trix", {}, 5, "trix-deal.png")
    finally:
        page.close()
