import math
import random

import pytest

import solver
from solver import position
from solver.errors import LimitError, OptionError, PositionError
from solver.search import Evaluation, Limit, PlayResult, best_move, evaluate


def _state(seed=3, n=21):
    game = solver.load_game("dix")
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(n):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("kwargs", [{"time": -1}, {"time": 0}, {"time": float("nan")},
                                    {"time": 1e12}, {"iterations": 0}, {"iterations": -3},
                                    {"iterations": 2.5}, {"worlds": 10**12}, {"worlds": True},
                                    {}])
def test_absurd_limits(kwargs):
    with pytest.raises(LimitError):
        Limit(**kwargs)


def test_best_move_gives_every_legal_action_a_value():
    state = _state()
    res = best_move(state, Limit(iterations=300), seed=1)
    assert isinstance(res, PlayResult)
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    assert res.action in legal and set(res.values) == legal
    assert 0 < res.confidence <= 1 and res.seat == state.current_player()


def test_best_move_uses_only_the_seat_view():
    state = _state(seed=5, n=7)
    seat = state.current_player()
    view = state.information_state(seat).view
    other = position.from_json(view).world(seed=4)
    a = best_move(position.to_json(state), Limit(iterations=100), seed=2)
    b = best_move(position.to_json(other), Limit(iterations=100), seed=2)
    c = best_move(view, Limit(iterations=100), seed=2)
    assert (a.action, a.values) == (b.action, b.values)
    assert (a.action, a.values) == (c.action, c.values)


def test_best_move_is_deterministic_and_reports_progress(monkeypatch):
    state = _state()
    seen = []
    r1 = best_move(state, Limit(iterations=250), seed=7, progress=seen.append)
    r2 = best_move(state, Limit(iterations=250), seed=7)
    assert (r1.action, r1.values, r1.visits) == (r2.action, r2.values, r2.visits)
    assert seen and seen[-1]["iterations"] == 250      # a report at the end (both searches)
    # every decision has a Cython search: the Python search, as without the
    # build, for its own reports
    monkeypatch.setenv("DIXTRIX_PUREPYTHON", "1")
    rook = solver.load_game("dixie-rook").new_initial_state(seed=2)     # a bid
    steps = []
    best_move(rook, Limit(iterations=250), seed=7, progress=steps.append)
    # Python search: a report at the first iteration, then on the clock
    # (every 0.1 s), and at the end
    its = [p["iterations"] for p in steps]
    assert its[0] == 1 and its[-1] == 250 and its == sorted(its)
    assert set(steps[-1]) >= {"iterations", "seconds", "nodes", "best", "value"}


def test_best_move_bad_input():
    state = _state()
    with pytest.raises(OptionError, match="unknown bot 'oracle'"):
        best_move(state, Limit(iterations=10), bot="oracle")
    with pytest.raises(LimitError):
        best_move(state, limit=5)
    view = state.information_state(1 - state.current_player()).view
    with pytest.raises(PositionError, match="is not to move"):
        best_move(view, Limit(iterations=10))
    with pytest.raises(PositionError):
        best_move('{"game": "dix", "seed": ', Limit(iterations=10))


def test_evaluate_is_zero_sum_with_an_interval():
    state = _state()
    ev = evaluate(state, Limit(worlds=40), seed=1)
    assert isinstance(ev, Evaluation) and ev.worlds == 40
    assert math.isclose(ev.values[0], -ev.values[1], abs_tol=1e-9)
    assert ev.ci95[0] > 0
    assert evaluate(state, Limit(worlds=40), seed=1).values == ev.values
