"""What an unfinished double-dummy solve proves (``solve_within(...).brackets``),
held to the brute force (``solver/reference/dd_oracle.py``) on small endings
of every game the kernels solve: at every budget each action's bracket
holds its exact value and lies within the game's own range, a larger budget
never widens it, and the budget that suffices gives the exact values.  Also
dix's round result without the tie-break questions against the whole
lexicographic value, and the faces that word a bracket."""

import json
import random

import pytest

import solver
from bots.cli import main
from solver.cards import DIX, FRENCH, ROOK
from solver.dd import Solver, solve, solve_within
from solver.dd import trick as dd
from solver.dd.solution import bracket_words
from solver.errors import SearchAborted
from solver.games.contract_match.exact import PENALTY_CONTRACTS, penalty_contract
from solver.games.contract_match.state import TRICKS
from solver.games.dixie_rook.exact import rook_contract
from solver.reference.dd_oracle import solve_oracle
from tests.search.test_dd_oracle import (
    _dix_round_state,
    _random_dix_contract,
    _random_trick_position,
)


def _ending(rng, i):
    """A small ending of one of the games (every kind in turn) and the seat
    asked: dix, the four penalty contracts (partners, doubled and
    must-discard at random), bridge, dixie-rook with 4 and 6 seats."""
    pick = i % 8
    if pick == 0:
        contract, turn = _random_dix_contract(rng)
        deck = [c for c in DIX.cards if c != turn]
        pos = _random_trick_position(rng, contract, rng.choice((2, 3, 4, 5)), deck)
    elif pick <= 4:
        kind = sorted(PENALTY_CONTRACTS)[pick - 1]
        doubled = {}
        if kind in ("king", "queens") and rng.random() < 0.4:
            doubled = {c: rng.randrange(4) for c in PENALTY_CONTRACTS[kind][0]
                       if rng.random() < 0.5}
        contract = penalty_contract(kind, partners=rng.random() < 0.3, doubled=doubled,
                                    must_discard=rng.random() < 0.3)
        pos = _random_trick_position(rng, contract, rng.choice((2, 3, 3, 4)), FRENCH.cards)
    elif pick == 5:
        pos = _random_trick_position(rng, dd.bridge_contract(rng.randrange(-1, 4)),
                                     rng.choice((2, 3, 3, 4)), FRENCH.cards)
    elif pick == 6:
        pos = _random_trick_position(rng, rook_contract(4, rng.randrange(4),
                                                        rng.choice((0, 5, 10, 25))),
                                     rng.choice((2, 3)), ROOK.cards)
    else:
        pos = _random_trick_position(rng, rook_contract(6, rng.randrange(4),
                                                        rng.choice((0, 5, 10, 25))),
                                     2, ROOK.cards)
    return pos, rng.randrange(pos.contract.nseats)


def _exact(pos, seat):
    """Each legal card's exact value for ``seat`` by the brute force, named
    as the solver names it (a dix position: the lexicographic value)."""
    k = pos.contract
    _, values, _ = solve_oracle(pos, k.teams[seat], k.objective)
    deck = dd.DECKS[k.deck]
    return {deck.to_string(c): v for c, v in values.items()}


def _budgets(full: int) -> list[int]:
    """Budgets from a node to the one a fresh solve needs (``full``)."""
    cuts = {1, 2, 3, 5, 10, full // 10, full // 4, full // 2, 3 * full // 4, full - 1}
    return sorted(b for b in cuts if 1 <= b < full) + [full]


def _check_brackets(pos, seat, session, stats):
    """Every budget's brackets against the brute force (module docstring)."""
    want = _exact(pos, seat)
    session.clear()
    full = session.solve(pos, seat=seat).nodes
    before = None
    for budget in _budgets(full):
        session.clear()         # the same start: the search is deterministic
        got = solve_within(pos, budget, seat=seat, solver=session)
        assert got.finished == (budget >= full), (pos, seat, budget, full)
        assert got.brackets is not None and set(got.brackets) == set(want)
        if got.finished:
            assert dict(got.brackets) == {a: (v, v) for a, v in want.items()}
            continue
        assert got.span is not None
        lo_span, hi_span = got.span
        for a, (lo, hi) in got.brackets.items():
            assert lo_span <= lo <= want[a] <= hi <= hi_span, (pos, seat, budget, a)
            if before is not None:
                assert before[a][0] <= lo and hi <= before[a][1], (pos, seat, budget, a)
            stats["proper"] += (lo_span, hi_span) != (lo, hi) and lo != hi
            stats["exact"] += lo == hi
            stats["checked"] += 1
        before = dict(got.brackets)


@pytest.mark.slow
def test_brackets_hold_the_exact_value_at_every_budget(sample):
    rng = random.Random(50)
    session = Solver(tt_mb=1, private=True)
    stats = {"proper": 0, "exact": 0, "checked": 0}
    endings = sample(160, 1000)
    for i in range(endings):
        pos, seat = _ending(rng, i)
        _check_brackets(pos, seat, session, stats)
    # the brackets are not all the whole range: the finished questions show
    assert stats["proper"] > endings // 10 and stats["exact"] > endings // 10, stats


def test_dix_brackets_through_the_generic_kernel(monkeypatch):
    """``DIXTRIX_DIX_SOLVER=generic``: dix's brackets from the generic
    kernel's probes."""
    monkeypatch.setenv("DIXTRIX_DIX_SOLVER", "generic")
    rng = random.Random(51)
    session = Solver(tt_mb=1, private=True)
    stats = {"proper": 0, "exact": 0, "checked": 0}
    for _ in range(25):
        pos, seat = _ending(rng, 0)
        _check_brackets(pos, seat, session, stats)
    assert stats["checked"] > 0


def test_game_states_brackets_contain_the_solved_values():
    """Real positions through the adapters (the game's notation): a longer
    solve's values lie in every shorter budget's brackets, which narrow as
    the budget grows; the module-level session starts afresh after a
    search that stopped, so each budget starts from the same table."""
    rng = random.Random(52)
    states = [_dix_round_state(seed, rng, 10) for seed in range(4)]
    trix = solver.load_game("trix")
    for seed in (3, 4, 5):
        st = trix.new_initial_state(seed=seed)
        st.apply_action(st.legal_actions()[0])          # a trick contract
        while st.legal_actions()[0] >= 64:              # the reveals
            st.apply_action(st.legal_actions()[0])
        for _ in range(16):
            st.apply_action(rng.choice(st.legal_actions()))
        assert st.phase == TRICKS
        states.append(st)
    for st in states:
        solver.dd.session.default_solver().clear()
        want = solve(st)
        before = None
        for budget in (1, 100, 1_000, 10_000, 100_000, want.nodes):
            if budget > want.nodes:
                continue
            solver.dd.session.default_solver().clear()
            got = solve_within(st, budget)
            assert set(got.brackets) == {st.action_to_string(a) for a in st.legal_actions()}
            for a, (lo, hi) in got.brackets.items():
                assert lo <= want.action_values[a] <= hi, (budget, a)
                if got.span is not None:
                    assert got.span[0] <= lo and hi <= got.span[1]
                if before is not None:
                    assert before[a][0] <= lo and hi <= before[a][1]
            before = dict(got.brackets)
        assert got.finished and got.kind == want.kind


def test_dix_round_result_without_the_tie_break():
    """A dix state's default solve asks no tie-break question once an
    action's score difference is settled (only, where the round's scores
    tie, who wins it): the same values, round winners and best actions as
    the whole lexicographic value, on fewer nodes, without raw values."""
    rng = random.Random(53)
    fewer = total_full = total_quick = 0
    for seed in range(24):
        st = _dix_round_state(seed, rng, rng.choice((3, 5, 8, 11, 13)))
        for seat in (0, 1):
            solver.dd.session.default_solver().clear()
            full = solve(st, seat=seat, tie_break=True)
            solver.dd.session.default_solver().clear()
            quick = solve(st, seat=seat)
            assert quick.raw_action_values is None and quick.raw_value is None
            assert dict(quick.action_values) == dict(full.action_values)
            assert dict(quick.action_winners or {}) == dict(full.action_winners or {})
            assert (quick.value, quick.round_winner) == (full.value, full.round_winner)
            assert quick.best_actions == full.best_actions
            fewer += quick.nodes <= full.nodes
            total_full += full.nodes
            total_quick += quick.nodes
    assert fewer >= 40 and total_quick < total_full, (fewer, total_quick, total_full)


def test_a_finished_solve_has_exact_brackets():
    rng = random.Random(54)
    st = _dix_round_state(3, rng, 4)
    got = solve_within(st, 10**9)
    assert got.finished and got.span is None
    assert dict(got.brackets) == {a: (v, v) for a, v in got.solution.action_values.items()}


def test_search_aborted_carries_the_brackets():
    rng = random.Random(55)
    st = _dix_round_state(5, rng, 12)
    solver.dd.session.default_solver().clear()
    with pytest.raises(SearchAborted) as info:
        solve(st, max_nodes=50)
    exc = info.value
    assert set(exc.brackets) == {st.action_to_string(a) for a in st.legal_actions()}
    assert all(exc.span[0] <= lo <= hi <= exc.span[1] for lo, hi in exc.brackets.values())


def test_bracket_words():
    assert bracket_words(3, 3) == "exactly 3"
    assert bracket_words(-25, 0) == "between -25 and 0"
    assert bracket_words(-25, 0, (-100, 0)) == "at least -25"
    assert bracket_words(9, 13, (0, 13), "tricks") == "at least 9 tricks"
    assert bracket_words(0, 4, (0, 13), "tricks") == "at most 4 tricks"
    assert bracket_words(-100, 0, (-100, 0)) == "anywhere from -100 to 0"
    assert bracket_words(-75, -75, (-75, 0)) == "exactly -75"


def _unfinished_record(tmp_path):
    """A dix record from trick 14 whose solve takes more than 5,000 nodes."""
    game = solver.load_game("dix")
    for seed in range(20):
        st = game.new_initial_state(seed=seed)
        while st.tricks_done < 13:
            st.apply_action(st.legal_actions()[0])
        solver.dd.session.default_solver().clear()
        if solve(st).nodes > 5_000:
            rec = tmp_path / "rec.json"
            rec.write_text(json.dumps(solver.to_json(st)))
            return st, rec
    raise AssertionError("no dix deal takes more than 5,000 nodes from trick 14")


def test_cli_solve_words_the_brackets(tmp_path, capsys):
    st, rec = _unfinished_record(tmp_path)
    solver.dd.session.default_solver().clear()
    assert main(["solve", str(rec), "--max-nodes", "5000", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["finished"] is False and doc["kind"] == "minimax"
    legal = {st.action_to_string(a) for a in st.legal_actions()}
    assert set(doc["brackets"]) == set(doc["words"]) == legal
    for a, (lo, hi) in doc["brackets"].items():
        assert doc["words"][a] == bracket_words(lo, hi, tuple(doc["span"]))
    solver.dd.session.default_solver().clear()
    assert main(["solve", str(rec), "--max-nodes", "5000"]) == 0
    text = capsys.readouterr().out
    assert "stopped at its bound" in text and "minimax value" in text
    for a in legal:
        assert f"  {a}  " in text
    assert any(w in text for w in ("between", "at least", "at most", "anywhere", "exactly"))
    # with the budget it needs: the exact values, as before
    assert main(["solve", str(rec), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["finished"] is True


def test_the_hint_and_the_analysis_board_carry_the_brackets(tmp_path):
    """Every card known, the solve past its bound: the hint (which then
    searches) and the analysis board's exact part say what it proved."""
    from bots.advice import advise
    from bots.analysis import exact_values
    from solver import position
    from solver.search import Limit
    st, _ = _unfinished_record(tmp_path)
    legal = {st.action_to_string(a) for a in st.legal_actions()}
    solver.dd.session.default_solver().clear()
    board = exact_values(st, 2_000)
    assert board is not None and board["finished"] is False
    assert set(board["brackets"]) == set(board["words"]) == legal and board["kind"] == "minimax"
    view = position.SeatView.of(st, st.current_player())
    solver.dd.session.default_solver().clear()
    out = advise(view, "test", limit=Limit(iterations=100, nodes=2_000), line=False)
    assert "passed its bound" in out["note"] and out["method"] != "exact"
    # the note as a code beside its words, which a face says in its own
    # (bots/server/words.py; the French sentence from the same record)
    assert out["note_code"]["code"] == "search.note_bound"
    assert f"{out['note_code']['params']['nodes']:,} nodes" in out["note"]
    from bots.server import i18n, words
    french = words.hint(json.loads(json.dumps(out)), view, i18n.Translator("fr"))
    assert "nœuds" in french["note"] and french["note"].startswith("(")
    assert set(out["brackets"]["brackets"]) == legal
    for a, (lo, hi) in out["brackets"]["brackets"].items():
        assert out["brackets"]["words"][a] == bracket_words(lo, hi,
                                                            tuple(out["brackets"]["span"]))


def test_the_analysis_board_streams_the_brackets_narrowing():
    """A streamed exact solve reports what it proved within shares of its
    budget, each report within the one before, every one holding the
    exact values."""
    from bots.analysis import STREAM_MIN_NODES, exact_values
    game = solver.load_game("dix")
    for seed in range(40):
        st = game.new_initial_state(seed=seed)
        while st.tricks_done < 13:
            st.apply_action(st.legal_actions()[0])
        solver.dd.session.default_solver().clear()
        want = solve(st)
        if want.nodes > 16 * STREAM_MIN_NODES:
            break
    reports: list = []
    solver.dd.session.default_solver().clear()
    last = exact_values(st, want.nodes - 1, progress=reports.append)
    assert last is not None and last["finished"] is False
    docs = [r["exact"] for r in reports] + [last]
    assert len(docs) >= 3
    for before, now in zip(docs, docs[1:], strict=False):
        assert now["budget"] > before["budget"]
        for a, (lo, hi) in now["brackets"].items():
            assert before["brackets"][a][0] <= lo <= want.action_values[a] <= hi
            assert hi <= before["brackets"][a][1]
    solver.dd.session.default_solver().clear()
    done = exact_values(st, want.nodes, progress=reports.append)
    assert done is not None and done["finished"] is True


def test_a_dix_states_brackets_are_differences_as_tight_as_proved():
    """A dix state's brackets are score differences: an action whose
    difference its stopped solve settled (its lexicographic bracket, a
    ``TrickPosition``'s from the same search, between two of the borders
    the solver asks about) shows that one difference."""
    from solver.games.dix.exact import dix_position
    rng = random.Random(56)
    settled = 0
    states = (_dix_round_state(seed, rng, 10) for seed in range(200))
    # ten-tricks already taken, unequally: their part shifts the borders
    uneven = [st for st in states if st.tens[0] != st.tens[1]][:6]
    assert len(uneven) == 6
    for st in uneven:
        pos = dix_position(st)
        seat = st.current_player()
        past = 4 * (pos.tens[1 - seat] - pos.tens[seat])
        solver.dd.session.default_solver().clear()
        want = solve(st)
        for budget in (want.nodes // 8, want.nodes // 3, want.nodes // 2, want.nodes - 1):
            solver.dd.session.default_solver().clear()
            try:
                solve(pos, seat=seat, max_nodes=budget, tie_break=False)
            except SearchAborted as exc:
                raw = exc.brackets
            solver.dd.session.default_solver().clear()
            got = solve_within(st, budget)
            assert not got.finished
            deck = dd.DECKS[pos.contract.deck]
            for c in st.legal_actions():
                a = st.action_to_string(c)
                lo, hi = raw[deck.to_string(c)]
                assert got.brackets[a][0] <= want.action_values[a] <= got.brackets[a][1]
                # the solver settles a difference between two borders
                # 256 d - 128 of the rest's own value, past tens apart
                if (lo - past + 128) // dd.DIX_SCALE == (hi - past + 128) // dd.DIX_SCALE:
                    assert got.brackets[a] == (want.action_values[a],) * 2
                    settled += 1
    assert settled > 0


def test_tie_break_is_refused_where_values_have_none():
    from solver.errors import OptionError
    game = solver.load_game("trix")
    st = game.new_initial_state(seed=3)
    st.apply_action(st.legal_actions()[0])
    while st.legal_actions()[0] >= 64:
        st.apply_action(st.legal_actions()[0])
    with pytest.raises(OptionError, match="tie_break: the trix solver's values have no"):
        solve(st, tie_break=True, max_nodes=10)
