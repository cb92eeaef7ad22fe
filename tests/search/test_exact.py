"""The protocol-level exact search against plain minimax (no pruning)."""

import random

import pytest

import solver
from solver.dd.exact import solve_protocol


def plain_minimax(state, side, horizon):
    if state.is_terminal() or state.round_index() != horizon:
        return sum(state.round_returns(horizon)[s] for s in side)
    vals = []
    for a in state.legal_actions():
        c = state.clone()
        c.apply_action(a)
        vals.append(plain_minimax(c, side, horizon))
    return max(vals) if state.current_player() in side else min(vals)


def _positions(players, count, seed0=0):
    game = solver.load_game("dix-exchange", players=players)
    out = []
    for seed in range(seed0, seed0 + count):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, players)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            out.append(state)
    return out


@pytest.mark.parametrize("players", [4, 5])
def test_paranoid_values_match_plain_minimax(players):
    for state in _positions(players, 25):
        seat = state.current_player()
        res = solve_protocol(state, seat)
        horizon = state.round_index()
        for a, v in res.action_values.items():
            child = state.clone()
            child.apply_action(a)
            assert v == plain_minimax(child, {seat}, horizon)


def test_team_objective_and_other_seat():
    for state in _positions(4, 10, 100):
        side = {0, 2}
        res = solve_protocol(state, team=side)
        horizon = state.round_index()
        assert res.value == plain_minimax(state, side, horizon)
        other = (state.current_player() + 1) % 4
        res2 = solve_protocol(state, seat=other)
        assert res2.value == plain_minimax(state, {other}, horizon)


def test_deterministic_and_terminal_refused():
    state = _positions(6, 1, 7)[0]
    a, b = solve_protocol(state), solve_protocol(state)
    assert (a.value, a.action_values, a.nodes) == (b.value, b.action_values, b.nodes)
    game = solver.load_game("dix-exchange")
    st = game.new_initial_state(seed=1)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    with pytest.raises(ValueError, match="over"):
        solve_protocol(st)
