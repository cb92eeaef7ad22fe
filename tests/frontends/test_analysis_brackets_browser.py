"""The analysis board's page where the exact solve stops at its budget
(issue #50), in a real browser (chromium via Playwright, as
tests/frontends/test_analysis_browser.py), in English at 1280 px and in
Arabic at 390 px: each unfinished action's exact cell says what the solve
proved ("between -25 and 0", "at least -75") in the reader's words with
its kind, the brackets narrow as the stream reports larger budgets, and
where the budget suffices the exact values follow, each within the last
bracket shown.  The server's node cap (1,500,000) finishes step 24 of
the trix record of ``test_analysis_brackets.trix_record`` (about 240,000
nodes) after two stopped reports, and never step 16 (about 1,555,000):
there the table keeps the narrowest brackets.  Screenshots go to
``tests/artifacts/`` (analysis-brackets-<width>-<lang>.png)."""

from __future__ import annotations

import json
import re

import pytest

from solver import position as positions

from .server_process import running
from .test_analysis_brackets import STEP, trix_record
from .test_analysis_browser import _axe, _fits, _shot
from .test_server_browser import DESKTOP, PHONE, _page, browser  # noqa: F401

#: a step of the same record whose solve the cap never finishes
EARLY = 16

#: what the page keeps of each drawing of the values: the exact column's
#: cells (action, class, text, the bracket's ends) and the answer's words
_WATCH = """() => {
  window.__drawn = [];
  const draw = renderValues;
  renderValues = function (r, partial) {
    draw(r, partial);
    const ex = r.exact || {};
    window.__drawn.push({ at: cur.at, partial, finished: ex.finished === true,
      words: ex.words || null,
      cells: Array.from(document.querySelectorAll('#v-table tr[data-action]'), (tr) => {
        const c = tr.cells[1];
        return { action: tr.dataset.action, cls: c.className, text: c.textContent,
                 lo: c.dataset.lo === undefined ? null : Number(c.dataset.lo),
                 hi: c.dataset.hi === undefined ? null : Number(c.dataset.hi) };
      }) });
  };
}"""


@pytest.fixture()
def server(tmp_path):
    # a server of its own for each language: the board caches a step's
    # answer for every reader, and a cached one streams nothing; one
    # worker: a step's solves are not shared with another request's
    with running(str(tmp_path / "tables.db"), "--workers", "1",
                 "--max-time", "1", "--threads", "1", "--hint-time", "0.3",
                 "--max-nodes", "1500000") as srv:
        yield srv


def _said(lang: str, text: str) -> None:
    """A bracket's words are the reader's: English's wording, or none of it."""
    english = re.search(r"\b(between|least|most|exactly|anywhere)\b", text)
    if lang == "en":
        assert english, text
    else:
        assert not english and re.search(r"[\u0600-\u06ff]", text), text


def _brackets(drawn: list, at: int) -> list[dict]:
    """The drawings of step ``at`` that showed brackets: action -> (lo, hi)."""
    return [{c["action"]: (c["lo"], c["hi"]) for c in d["cells"] if c["cls"] == "bracket"}
            for d in drawn if d["at"] == at and any(c["cls"] == "bracket" for c in d["cells"])]


def _narrowing(shown: list[dict]) -> None:
    for before, now in zip(shown, shown[1:], strict=False):
        for a, (lo, hi) in now.items():
            if a in before:
                assert before[a][0] <= lo <= hi <= before[a][1], (a, before[a], (lo, hi))


@pytest.mark.parametrize("lang,viewport", [("en", DESKTOP), ("ar", PHONE)], ids=["en-1280", "ar-390"])
def test_the_board_shows_the_brackets_narrowing_then_the_values(browser, server, lang,  # noqa: F811
                                                                viewport):
    errors: list = []
    ctx, page = _page(browser, viewport, errors)
    try:
        page.goto(f"{server.url}/analysis?lang={lang}")
        page.wait_for_selector("body[data-ready='1']")
        page.evaluate(_WATCH)
        page.fill("#paste", json.dumps(positions.to_json(trix_record())))
        page.click("#open-btn")
        page.wait_for_selector("#b-view:not([hidden])")
        page.wait_for_function(f"document.body.dataset.step === '{STEP}:0'")
        page.wait_for_selector("#values-box[data-state='done']", timeout=60_000)
        drawn = page.evaluate("window.__drawn")
        # step 24: brackets first, in words, narrowing; then every value exact
        shown = _brackets(drawn, STEP)
        assert len(shown) >= 2, drawn
        _narrowing(shown)
        first = next(d for d in drawn if d["at"] == STEP and d["words"])
        kind = page.evaluate("BOARD.kinds[0].label")
        for c in first["cells"]:
            assert c["cls"] == "bracket" and c["text"].startswith(first["words"][c["action"]])
            assert kind in c["text"]
            _said(lang, c["text"])
        last = drawn[-1]
        assert last["at"] == STEP and last["finished"] and not last["partial"]
        cells = page.eval_on_selector_all(
            "#v-table tr[data-action]", "rs => rs.map((r) => [r.dataset.action, r.cells[1].className])")
        assert cells and all(cls == "exact" for _, cls in cells)
        values = page.evaluate("(() => { const v = {}; for (const tr of document.querySelectorAll("
                               "'#v-table tr[data-action]')) v[tr.dataset.action] = "
                               "tr.cells[1].textContent; return v; })()")
        # each exact value within the last bracket the page showed for it
        for a, (lo, hi) in shown[-1].items():
            value = float(re.match(r"[+\-]?[\d.]+", values[a]).group(0))
            assert lo <= value <= hi, (a, lo, hi, values[a])
        # step 16: the cap never finishes it; the narrowest brackets stay,
        # the note says the budget and the kind
        page.click(f"#moves button.move[data-at='{EARLY}']")
        page.wait_for_function(f"document.body.dataset.step === '{EARLY}:0'")
        page.wait_for_selector("#values-box[data-state='done']", timeout=60_000)
        drawn = page.evaluate("window.__drawn")
        shown = _brackets(drawn, EARLY)
        assert len(shown) >= 3
        _narrowing(shown)
        final = page.eval_on_selector_all(
            "#v-table tr[data-action] td.bracket", "cs => cs.map((c) => c.textContent)")
        legal = page.evaluate("STEP.legal.length")
        assert len(final) == legal
        for text in final:
            _said(lang, text)
        assert sum(hi - lo for lo, hi in shown[-1].values()) < \
            sum(hi - lo for lo, hi in shown[0].values())
        note = page.text_content("#v-note")
        assert "1,500,000" in note and page.evaluate("BOARD.kinds[0].words") in note
        _fits(page, viewport)
        _axe(page, f"{lang} board with brackets")
        _shot(page, f"analysis-brackets-{viewport['width']}-{lang}")
        assert not errors, errors
    finally:
        ctx.close()
