"""The web table in a real browser (Debian's chromium driven by Playwright).

* Two people and two bots at one trix table: the creator's page (one
  browser context) starts it, the second person opens the invitation link
  in another context; both click their cards and choices through a whole
  deal, each page's news arriving by itself (live updates); neither page
  ever holds a card of the other person's hand; the deal summary shown on
  both equals the SQLite record replayed.  Once at 1280x800 in English,
  once at phone width (390x844) in Arabic, right to left.
* Every game at both widths, a few moves in, kept as screenshots in
  ``tests/artifacts/`` (git-ignored; the paths are printed), the page
  fitting a phone's width.
* An accessibility check (axe-core through axe-playwright-python) of the
  setup page and of a table: no serious or critical violation.

Playwright's own browser download cannot work where only the package
registries are reachable: the test uses the system's chromium through
``executable_path`` (``tests/install_system.sh`` installs it
with apt-get) and is skipped, with the reason shown, only where no such
browser exists."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest

from .server_process import replay_table, running

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: a game, its options, its seats on the form ("you", then bots), clicks before the shot
GAMES = [("dix", {"variant": "seventeen"}, 4), ("trix", {}, 4), ("tricks", {}, 4),
         ("dixie-rook", {}, 6), ("dix-exchange", {}, 3)]


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
        pytest.skip("no chromium on this machine: tests/install_system.sh "
                    "installs Debian's (Playwright's own download cannot work here)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running(str(tmp_path_factory.mktemp("browser") / "tables.db"), "--workers", "2",
                 "--max-time", "1", "--threads", "1") as srv:
        yield srv


def _page(browser, viewport, errors):
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return ctx, page


def _start(page, server, game: str, options: dict, seats: dict, seed: int, lang: str):
    """The setup form: ``seats`` maps seat -> "you", "person" or a level."""
    page.goto(f"{server.url}/?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", game)
    for key, value in options.items():
        page.locator(f"#options [data-key='{key}']").select_option(str(value))
    for seat, choice in seats.items():
        page.select_option(f"#seat-{seat}", choice)
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#table:not([hidden])")


def _hand(page) -> tuple:
    """``(version, hand)`` of the table state the page shows."""
    got = page.evaluate("current ? [current.version, current.hand] : [null, []]")
    return got[0], set(got[1])


def _never_sees(page, cards, version) -> bool:
    """No card of ``cards`` anywhere in the page while it shows ``version``
    of the table: not in its DOM, not in the data the page was given.  The
    page draws a new state as soon as it arrives (one task), so one
    evaluation sees the data and the DOM of one version; False (nothing
    checked) when the page has already moved on, e.g. to the next deal,
    whose hands may hold the cards of this one, or when it shows a deal's
    summary: the finished deal's tricks are public then, at the same
    version as the next deal's hands, which hold the same 52 cards."""
    if not cards:
        return True
    got = page.evaluate("""([cards, version]) => {
        if (!current || current.version !== version) return null;
        if (document.querySelector("#summary:not([hidden])")) return null;
        return [cards.filter((c) =>
                    document.querySelector(`[data-card="${c}"], [data-action="${c}"]`)),
                JSON.stringify(current)];
    }""", [sorted(cards), version])
    if got is None:
        return False
    dom, data = got
    assert dom == [], dom
    assert not [c for c in cards if f'"{c}"' in data]
    return True


def _two_people_and_two_bots(browser, server, viewport, lang, shot):
    errors: list = []
    ctx_a, a = _page(browser, viewport, errors)
    ctx_b, b = _page(browser, viewport, errors)
    try:
        _start(a, server, "trix", {}, {0: "you", 1: "easy", 2: "person", 3: "medium"}, 5, lang)
        link = a.get_attribute("#invite a.invite[data-seat='2']", "href")
        assert "#token=" in link and "table=" in link
        b.goto(link)
        b.wait_for_selector("#table:not([hidden])")
        assert "#token=" not in b.url                    # the key left the address bar
        table_id = a.evaluate("current.table")
        assert b.evaluate("current.table") == table_id and b.evaluate("current.seat") == 2
        if lang == "ar":
            for p in (a, b):
                assert p.evaluate("document.documentElement.dir") == "rtl"
                assert p.evaluate("document.documentElement.lang") == "ar"
        clicks = {0: 0, 2: 0}
        checked = 0
        # a page that has shown the first deal's summary moves no more: its
        # next move (the next deal's, seat 0 opens it) would hide the summary
        # again, and the loop would run on into deals whose hands hold the
        # cards the first deal's public tricks show
        shown = {0: False, 2: False}
        for _ in range(400):
            for seat, page in ((0, a), (2, b)):
                shown[seat] = shown[seat] or bool(
                    page.locator("#summary:not([hidden])").count())
            if shown[0] and shown[2]:
                break
            # the two pages compared at one version of the table: a page a
            # move ahead (the other's news on its way) may be in the next deal
            (version_a, hand_a), (version_b, hand_b) = _hand(a), _hand(b)
            if version_a == version_b:
                assert not hand_a & hand_b
                checked += _never_sees(a, hand_b, version_a)
                checked += _never_sees(b, hand_a, version_b)
            # whoever's turn it is clicks; the other page learns of it by itself
            mover = None
            for seat, page in ((0, a), (2, b)):
                if not shown[seat] and page.evaluate("current && current.your_turn && !busy"):
                    mover = (seat, page)
            if mover is None:
                a.wait_for_timeout(50)                   # the news is on its way
                continue
            seat, page = mover
            legal = page.locator("#hand button.legal, #actions button.legal")
            for button in page.locator("#hand button.dimmed").all():
                assert button.is_disabled()
            legal.first.click()
            page.wait_for_function("document.body.dataset.busy === '0'")
            assert page.text_content("#message") == "", page.text_content("#message")
            clicks[seat] += 1
        else:
            raise AssertionError("the deal did not end")
        assert clicks[0] >= 5 and clicks[2] >= 5, clicks
        assert checked >= 10, checked                    # the hands were compared all along
        state = replay_table(server.db, table_id)
        points = [float(v) for v in state.round_returns(0)]
        for page in (a, b):
            assert page.get_attribute("#summary", "data-deal") == "0"
            shown = [float(c.text_content()) for c in
                     page.locator("#summary-table tr[data-row='points'] td[data-seat]").all()]
            assert shown == points
            running = [float(c.text_content()) for c in
                       page.locator("#summary-table tr[data-row='running'] td[data-seat]").all()]
            assert running == points                     # the first deal: the total so far
            scores = [float(c.text_content()) for c in
                      page.locator("#scores tr.deal[data-deal='0'] td[data-seat]").all()]
            assert scores == points
        # the deal is over: "Review this deal" judges each person's own
        # decisions, asked with the seat's token, from the seat's view only
        for seat, page in ((0, a), (2, b)):
            assert page.text_content("#review") == page.evaluate(
                "t('Review this deal (deal {n})', {n: 1})")
            with page.expect_response(lambda r: r.url.split("?")[0].endswith(
                    f"/v1/tables/{table_id}/review")) as got:
                page.click("#review")
            answer = got.value.json()
            assert got.value.status == 200, answer
            assert answer["seats"] == [seat] and answer["hindsight"] is False
            assert {d["seat"] for d in answer["decisions"]} <= {seat}
            page.wait_for_selector("#review-out p.review-seat", timeout=60_000)
            text = page.text_content("#review-out p.review-seat")
            assert page.evaluate("current.names[current.seat]") in text
            assert str(answer["summary"][0]["decisions"]) in text
        if viewport == PHONE:
            for page in (a, b):
                assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        if lang != "en":
            # every word on both pages in the reader's language (issue #41)
            from .words_check import PAGE_TEXT, english_in_text
            for page in (a, b):
                left = english_in_text(page.evaluate(PAGE_TEXT), lang)
                assert not left, left
        ARTIFACTS.mkdir(exist_ok=True)
        for who, page in (("creator", a), ("guest", b)):
            path = ARTIFACTS / f"{shot}-{who}.png"
            page.screenshot(path=str(path), full_page=True)
            print(f"\nscreenshot: {path}")
        assert not errors, errors
    finally:
        ctx_a.close()
        ctx_b.close()


def test_two_people_and_two_bots_play_a_deal_of_trix(browser, server):
    _two_people_and_two_bots(browser, server, DESKTOP, "en", "trix-two-people-1280-en")


def test_the_same_at_phone_width_in_arabic(browser, server):
    _two_people_and_two_bots(browser, server, PHONE, "ar", "trix-two-people-390-ar")


@pytest.mark.parametrize("game,options,clicks", GAMES, ids=[g[0] for g in GAMES])
def test_every_game_drawn_at_both_widths(browser, server, game, options, clicks):
    errors: list = []
    ctx, page = _page(browser, DESKTOP, errors)
    try:
        _start(page, server, game, options, {0: "you"}, 3, "en")
        for _ in range(clicks):
            legal = page.locator("#hand button.legal, #actions button.legal")
            if page.evaluate("current.over"):
                break
            legal.first.wait_for(timeout=60_000)
            legal.first.click()
            page.wait_for_function("document.body.dataset.busy === '0'")
        # the seats round the table, the viewer's marked, one highlighted to move
        n = page.evaluate("current.players")
        assert page.locator("#seats .seat").count() == n
        assert page.locator("#seats .seat.you").count() == 1
        assert page.locator("#seats .seat.to-move").count() == 1
        # every action labelled in words, never in notation
        labels = page.locator("#actions button").all_text_contents()
        assert not [x for x in labels if x.startswith(("contract ", "reveal ", "bid "))]
        ARTIFACTS.mkdir(exist_ok=True)
        for name, viewport in (("1280", DESKTOP), ("390", PHONE)):
            page.set_viewport_size(viewport)
            page.wait_for_timeout(50)
            if viewport == PHONE:
                assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            path = ARTIFACTS / f"{game}-{name}.png"
            page.screenshot(path=str(path), full_page=True)
            print(f"\nscreenshot: {path}")
        assert not errors, errors
    finally:
        ctx.close()


def test_a_deal_is_played_by_keyboard_alone(browser, server):
    """Tab reaches the legal cards and choices (never a dimmed card) and
    Enter plays them: a few moves of trix with no mouse."""
    errors: list = []
    ctx, page = _page(browser, DESKTOP, errors)
    try:
        _start(page, server, "trix", {}, {0: "you"}, 12, "en")
        played = 0
        for _ in range(6):
            page.locator("#hand button.legal, #actions button.legal").first.wait_for(
                timeout=60_000)
            before = page.evaluate("current.version")
            page.evaluate("document.activeElement && document.activeElement.blur()")
            for _ in range(200):
                page.keyboard.press("Tab")
                focus = page.evaluate("""() => { const e = document.activeElement;
                    return e ? {cls: e.className, dis: e.disabled,
                                area: e.closest('#hand, #actions') ? 1 : 0} : null; }""")
                assert not (focus and focus["dis"]), focus      # a disabled card: no stop
                if focus and focus["area"] and "legal" in focus["cls"]:
                    break
            else:
                raise AssertionError("Tab never reached a legal action")
            # news of the table redraws the hand as Enter is pressed: the
            # focus stays on the same card or choice (it used to be lost,
            # and under load Enter then pressed nothing)
            on = page.evaluate("document.activeElement.dataset.action")
            page.evaluate("show(current)")
            assert page.evaluate("document.activeElement.dataset.action") == on
            page.keyboard.press("Enter")
            page.wait_for_function(f"current.version > {before} && "
                                   "document.body.dataset.busy === '0'")
            assert page.text_content("#message") == ""
            played += 1
        assert played == 6
        # the hint panel: the search service's ranking, the advice first, in words
        page.locator("#hand button.legal, #actions button.legal").first.wait_for(
            timeout=60_000)
        with page.expect_response(lambda r: r.url.split("?")[0].endswith("/hint")) as got:
            page.focus("#hint")
            page.keyboard.press("Enter")
        h = got.value.json()
        page.wait_for_selector("#hint-out .advice", timeout=60_000)
        if "search" in h:
            rows = page.eval_on_selector_all("#hint-out tr[data-action]",
                                             "rs => rs.map((r) => r.dataset.action)")
            assert rows == h["ranking"] and rows[0] == h["action"]
            assert "best" in page.get_attribute("#hint-out tr[data-action]", "class")
        assert h["labels"][h["action"]] in page.text_content("#hint-out .advice")
        # "where the cards are": a row an unseen card, a column a holder, and
        # first each holder's count of unseen cards (issue #51)
        b = h["beliefs"]
        page.click("#hint-out details.beliefs summary")
        cells = page.eval_on_selector_all(
            "#hint-out details.beliefs tr:not(.group)", "rs => rs.map((r) => r.children.length)")
        assert len(cells) == 2 + len(b["cards"]) and set(cells) == {1 + len(b["holders"])}
        rows = page.eval_on_selector_all(
            "#hint-out details.beliefs tr:not(.group)", "rs => rs.map((r) => Array.from("
            "r.children, (c) => c.textContent))")
        assert rows[1] == [page.evaluate("t('Cards unseen')"), *map(str, b["unseen"])]
        first, probs = next(iter(b["cards"].items()))
        assert rows[2][0] == b["labels"][first]
        # the page rounds halves up (Math.round); an exact share to a tenth
        if b["exact"]:
            want = [f"{math.floor(1000 * p + 0.5) / 10:g}%" for p in probs]
        else:
            want = [f"{math.floor(100 * p + 0.5)}%" for p in probs]
            error = math.floor(100 * b["error"] + 0.5)
            assert page.evaluate("t('Each share within {n}% (95%).', { n: " + str(error) + " })") \
                in page.text_content("#hint-out details.beliefs p")
        assert rows[2][1:] == [w if p else "\u2013" for w, p in zip(want, probs, strict=True)]
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("lang,viewport", [("en", DESKTOP), ("ar", PHONE)], ids=["en-1280", "ar-390"])
def test_where_the_cards_are_goes_suit_by_suit(browser, server, lang, viewport):
    """Issue #51: the beliefs were 39 rows in one list with no count of
    each holder's unseen cards.  The hint's "Where the cards are" lists
    them suit by suit, each suit under its name in the reader's language,
    after each holder's count of unseen cards; exact shares (nothing
    observed yet) to a tenth of a percent."""
    errors: list = []
    ctx, page = _page(browser, viewport, errors)
    try:
        _start(page, server, "trix", {}, {0: "you"}, 3, lang)
        page.locator("#hand button.legal, #actions button.legal").first.wait_for(timeout=60_000)
        with page.expect_response(lambda r: r.url.split("?")[0].endswith("/hint")) as got:
            page.click("#hint")
        b = got.value.json()["beliefs"]
        page.wait_for_selector("#hint-out details.beliefs")
        page.click("#hint-out details.beliefs summary")
        groups = page.eval_on_selector_all(
            "#hint-out details.beliefs tbody", """bs => bs.map((b) => [b.dataset.group,
                b.querySelector('tr.group th').textContent,
                Array.from(b.querySelectorAll('tr[data-card]'), (r) => r.dataset.card)])""")
        suits = {"spades": "Spades", "hearts": "Hearts", "diamonds": "Diamonds", "clubs": "Clubs"}
        assert [g[0] for g in groups] == [g["suit"] for g in b["groups"]]
        assert set(g[0] for g in groups) <= set(suits) and len(groups) >= 3
        for suit, name, cards in groups:
            assert name == page.evaluate(f"t('{suits[suit]}')")
            assert cards and all(c[-1] == suit[0].upper() for c in cards), (suit, cards)
        assert sum(len(g[2]) for g in groups) == len(b["cards"])
        if lang == "ar":
            assert groups[0][1] == "بستوني"
        unseen = page.eval_on_selector_all("#hint-out details.beliefs thead tr.unseen td",
                                           "ds => ds.map((d) => d.textContent)")
        assert unseen == [str(n) for n in b["unseen"]] and sum(b["unseen"]) == len(b["cards"])
        if b["exact"]:
            first = groups[0][2][0]
            shown = page.eval_on_selector_all(
                f"#hint-out details.beliefs tr[data-card='{first}'] td",
                "ds => ds.map((d) => d.textContent)")
            assert shown == [f"{math.floor(1000 * p + 0.5) / 10:g}%" if p else "\u2013"
                             for p in b["cards"][first]]
        if viewport == PHONE:            # the hint's tables too (its six columns were 431 px)
            wide = page.evaluate("""() => Array.from(document.querySelectorAll('#hint-out *'),
                (e) => [e.tagName, e.className, Math.round(e.getBoundingClientRect().left),
                        Math.round(e.getBoundingClientRect().right)])
                .filter((x) => x[2] < -1 || x[3] > 391).slice(0, 5)""")
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], wide
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"beliefs-{lang}-{viewport['width']}.png"
        page.locator("#hint-out details.beliefs").screenshot(path=str(path))
        print(f"\nscreenshot: {path}")
        assert not errors, errors
    finally:
        ctx.close()


def test_no_serious_accessibility_violation(browser, server):
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        pytest.skip("axe-playwright-python is not installed (pip install -e '.[test]')")
    axe = Axe()
    errors: list = []
    for lang, viewport in (("en", DESKTOP), ("ar", PHONE)):
        ctx, page = _page(browser, viewport, errors)
        try:
            page.goto(f"{server.url}/?lang={lang}")
            page.wait_for_selector("body[data-ready='1']")
            found = {"setup": axe.run(page).response}
            _start(page, server, "trix", {}, {0: "you", 2: "person"}, 7, lang)
            page.locator("#hand button.legal, #actions button.legal").first.wait_for()
            page.click("#hint")
            page.wait_for_selector("#hint-out .advice", timeout=60_000)
            page.click("#hint-out details.beliefs summary")
            found["table"] = axe.run(page).response
            for where, result in found.items():
                bad = [(v["id"], v["impact"], v["help"], [n["target"] for n in v["nodes"]][:3])
                       for v in result["violations"] if v["impact"] in ("serious", "critical")]
                assert not bad, f"{lang} {where}: {json.dumps(bad, ensure_ascii=False)}"
        finally:
            ctx.close()
    assert not errors, errors
