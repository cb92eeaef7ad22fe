"""The analysis board's values where the exact solve stops at its budget
(issue #50): ``POST /v1/analysis/values`` answers each legal action's
proved bracket, in the unit of the finished values beside it, in the
reader's words and with its kind; every bracket holds the value a full
solve finds and lies within the game's own range from there, and a
streamed answer reports brackets that only narrow, then the exact values.
The hint's brackets come in the reader's words too.  The page's side is
tests/frontends/test_analysis_brackets_browser.py."""

from __future__ import annotations

import json
import random
import re

import pytest

import solver
from bots import analysis as boards
from bots.exact import exact
from solver import position as positions
from solver.dd import solve_within
from solver.dd.solution import bracket_words
from solver.games.dixie_rook.notation import PLAY

#: the step of ``trix_record`` whose full solve takes about 240,000 nodes:
#: 2,000 stop it, and the stream's shares of 1,500,000 stop it twice
#: (23,437 and 93,750 nodes) before one finishes (375,000)
STEP = 24


def trix_record(actions: int = STEP):
    """A trix deal played at random for ``actions`` actions from seed 1
    (Queens chosen, doubles, then cards): at step 24 seat 0 has nine legal
    cards of three different values."""
    state = solver.load_game("trix").new_initial_state(seed=1)
    rng = random.Random(1)
    for _ in range(actions):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _fresh() -> None:
    # a solve that finished leaves its table behind, and the next finishes
    # at once: every budget here is tried from an empty one
    solver.dd.session.default_solver().clear()


def _within_the_values(doc: dict, values: dict) -> None:
    """Every legal action's bracket holds its value and lies in the span."""
    assert doc["finished"] is False and set(doc["brackets"]) == set(values)
    lo_span, hi_span = doc["span"]
    for a, (lo, hi) in doc["brackets"].items():
        assert lo_span <= lo <= values[a] <= hi <= hi_span, (a, lo, hi, values[a])


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from starlette.testclient import TestClient

    from bots.server.app import create_app
    from bots.server.settings import Settings
    app = create_app(Settings(db=str(tmp_path_factory.mktemp("brackets") / "t.db")))
    with TestClient(app) as c:
        yield c


@pytest.fixture(scope="module")
def solved():
    """The step's state and its exact values (the full solve)."""
    state = trix_record()
    _fresh()
    return state, exact(state).values


def _values(client, lang: str, **body) -> dict:
    doc = positions.to_json(trix_record())
    _fresh()
    r = client.post(f"/v1/analysis/values?lang={lang}",
                    json={"position": doc, "at": STEP, "limit": {"iterations": 50}, **body})
    assert r.status_code == 200, r.text
    return r.json()


def test_an_unfinished_solve_answers_each_action_s_bracket_in_words(client, solved):
    state, values = solved
    out = _values(client, "en", nodes=2_000)
    ex = out["exact"]
    _within_the_values(ex, values)
    assert ex["nodes"] >= 2_000 and ex["budget"] == 2_000
    assert ex["kind"] == "paranoid" and ex["kind_words"]["label"] == "paranoid"
    assert ex["unit"] == out["search"]["search"]["unit"]
    # the one wording of every face, here in English
    assert ex["words"] == {a: bracket_words(lo, hi, tuple(ex["span"]))
                           for a, (lo, hi) in ex["brackets"].items()}
    # the game's own range from here is the solver's (solver.dd.trick
    # value_range: every trick left counted both ways it can go), which
    # every bracket lies in
    _fresh()
    assert tuple(ex["span"]) == solve_within(state, 2_000).span


@pytest.mark.parametrize("lang,said", [("fr", ("entre", "au moins", "au plus", "exactement",
                                               "n'importe où")),
                                       ("ar", ("بين", "على الأقل", "على الأكثر", "بالضبط",
                                               "أيّ قيمة"))])
def test_the_brackets_come_in_the_reader_s_language(client, solved, lang, said):
    from bots.server import i18n, words
    _, values = solved
    ex = _values(client, lang, nodes=20_000)["exact"]
    _within_the_values(ex, values)
    tr = i18n.Translator(lang)
    assert ex["words"] == {a: words.bracket(lo, hi, ex["span"], tr)
                           for a, (lo, hi) in ex["brackets"].items()}
    assert all(any(w in text for w in said) for text in ex["words"].values()), ex["words"]
    assert not any("between" in text or "least" in text for text in ex["words"].values())
    if lang == "ar":
        # each number isolated left to right: its minus stays on its left
        assert all("\u2066-" in text for text in ex["words"].values())


def test_the_bracket_words_are_the_solver_s_templates():
    """The server's message ids are the solver's wording (a change there
    shows here), and English words are ``bracket_words``'."""
    from bots.server import i18n, words
    from solver.dd.solution import BRACKET_WORDS
    assert words.BRACKET == BRACKET_WORDS
    en = i18n.Translator("en")
    for lo, hi, span in ((3, 3, None), (-25, 0, (-100, 0)), (9, 13, (0, 13)),
                         (-100, -25, (-100, 0)), (-100, 0, (-100, 0)), (-0.5, 2, (-5, 5))):
        assert words.bracket(lo, hi, span, en) == bracket_words(lo, hi, span)


def test_a_streamed_solve_narrows_its_brackets_then_finishes(client, solved):
    """The stream reports the stopped solves within 1/64 and 1/16 of the
    budget, each bracket within the one before and holding the value, in
    words, then the exact values."""
    _, values = solved
    doc = positions.to_json(trix_record())
    _fresh()
    r = client.post("/v1/analysis/values?lang=fr",
                    json={"position": doc, "at": STEP, "nodes": 1_500_000, "stream": True,
                          "limit": {"iterations": 50}})
    lines = [json.loads(x) for x in r.text.splitlines() if x.strip()]
    reports = [x["progress"]["exact"] for x in lines
               if "progress" in x and x["progress"].get("exact")]
    stopped = [e for e in reports if e["finished"] is False]
    assert len(stopped) >= 2, reports
    for before, now in zip(stopped, stopped[1:], strict=False):
        assert now["budget"] > before["budget"]
        for a, (lo, hi) in now["brackets"].items():
            assert before["brackets"][a][0] <= lo and hi <= before["brackets"][a][1]
    for e in stopped:
        _within_the_values(e, values)
        assert set(e["words"]) == set(values) and e["kind_words"]["kind"] == "paranoid"
    # narrower in the end than at first, where it stopped
    width = [sum(hi - lo for lo, hi in e["brackets"].values()) for e in stopped]
    assert width[-1] < width[0]
    result = lines[-1]["result"]["exact"]
    assert result["finished"] is True and result["values"] == values


def test_a_bracket_is_in_the_unit_of_the_finished_values():
    """dixie-rook's solver counts the points a team captures; the board's
    values are the hand's score (the bid made or set): a stopped solve's
    brackets are scores too, and hold the full solve's."""
    game = solver.load_game("dixie-rook")
    tried = 0
    for seed in (1, 3):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not (state.phase == PLAY and not state.trick
                   and sum(bin(h).count("1") for h in state.hands) <= 16):
            state.apply_action(rng.choice(state.legal_actions()))
        _fresh()
        full = exact(state)
        _fresh()
        out = boards.exact_values(state, 300)
        assert out is not None and out["finished"] is False
        _within_the_values(out, full.values)
        # the solver's own unit would not hold them
        raw = full.solution.action_values
        assert any(raw[a] != v for a, v in full.values.items())
        tried += 1
    assert tried == 2


def test_dix_brackets_leave_a_tie_to_the_tie_break():
    """A dix difference of 0 is a round won or lost by the tie-break (+-0.5,
    the board's finished values): a bracket ending at 0 ends there."""
    from solver.search.support import support_for
    state = solver.load_game("dix").new_initial_state(seed=1)
    support = support_for(state.game)
    assert support.exact_bracket(state, 0, 0, 12) == (-0.5, 12)
    assert support.exact_bracket(state, 0, -8, 0) == (-8, 0.5)
    assert support.exact_bracket(state, 0, -8, 4) == (-8, 4)


def test_the_hint_words_its_brackets_in_the_reader_s_language(client, tmp_path):
    """The hint where every card is known but the solve passed its bound
    (dix from trick 14) carries the same brackets, worded for the reader."""
    from bots.server import i18n, words
    from tests.search.test_dd_brackets import _unfinished_record
    state, _ = _unfinished_record(tmp_path)
    view = positions.SeatView.of(state, state.current_player())
    _fresh()
    r = client.post("/v1/hint?lang=fr", json={"position": view.to_json(),
                                                "limit": {"iterations": 100, "nodes": 2_000}})
    assert r.status_code == 200, r.text
    proved = r.json()["brackets"]
    fr = i18n.Translator("fr")
    assert proved["words"] and proved["words"] == {
        a: words.bracket(lo, hi, proved["span"], fr) for a, (lo, hi) in proved["brackets"].items()}
    assert not any(re.search(r"\b(between|least|most|exactly|anywhere)\b", w)
                   for w in proved["words"].values())
