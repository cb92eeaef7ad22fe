"""solve() on trix / tricks / dix-exchange against the protocol-level exact
search (``solver.dd.exact``), which plays the game's own rules engine: an
independent oracle for the adapters and the kernels behind them."""

import random

import pytest

import solver
from solver.dd import solve
from solver.dd.exact import solve_protocol
from solver.errors import UnsupportedPositionError
from solver.games.contract_match.state import LAYOUT_PLAY, TRICKS


def _endings(name, opts, phase, cards_left, count, seed0=0):
    game = solver.load_game(name, **opts)
    out = []
    seed = seed0
    while len(out) < count:
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        seed += 1
        while not state.is_terminal():
            if state.phase == phase:
                hands = state.log.play.hands
                if sum(bin(h).count("1") for h in hands) <= cards_left and \
                        len(state.legal_actions()) > 1:
                    out.append(state.clone())
                    break
            state.apply_action(rng.choice(state.legal_actions()))
    return out


def _oracle(state, seat, partners):
    if partners:
        res = solve_protocol(state, team={seat, (seat + 2) % 4})
        return {a: v / 2 for a, v in res.action_values.items()}
    return solve_protocol(state, seat).action_values


@pytest.mark.parametrize("name,opts", [("trix", {}), ("trix", {"partners": True}),
                                       ("tricks", {}),
                                       ("trix", {"must_discard_penalty": True})])
def test_trick_contracts_match_the_protocol_oracle(name, opts):
    partners = opts.get("partners", False)
    for state in _endings(name, opts, TRICKS, 12, 25):
        for seat in range(4):
            sol = solve(state, seat=seat)
            oracle = _oracle(state, seat, partners)
            assert {state.string_to_action(a): v for a, v in sol.action_values.items()} == \
                oracle, (seat, state.log.contract)


@pytest.mark.parametrize("name,opts", [("trix", {}), ("trix", {"partners": True}),
                                       ("tricks", {})])
def test_layout_matches_the_protocol_oracle(name, opts):
    partners = opts.get("partners", False)
    for state in _endings(name, opts, LAYOUT_PLAY, 14, 15, seed0=50):
        for seat in range(4):
            sol = solve(state, seat=seat)
            oracle = _oracle(state, seat, partners)
            assert {state.string_to_action(a): v for a, v in sol.action_values.items()} == \
                oracle, seat


def test_dix_exchange_solve_lists_every_action():
    game = solver.load_game("dix-exchange", players=5)
    state = game.new_initial_state(seed=2)
    sol = solve(state)
    assert set(sol.action_values) == {state.action_to_string(a)
                                      for a in state.legal_actions()}
    assert sol.value == max(sol.action_values.values())


def test_non_card_decisions_are_refused_with_a_pointer():
    game = solver.load_game("trix")
    state = game.new_initial_state(seed=1)      # the owner chooses a contract
    with pytest.raises(UnsupportedPositionError, match="best_move"):
        solve(state)


def _rook_endings(players, count, max_tricks_left, seed0=0):
    from solver.games.dixie_rook import PLAY
    game = solver.load_game("dixie-rook", players=players)
    bots_rng = random.Random(seed0)
    out = []
    seed = seed0
    while len(out) < count:
        state = game.new_initial_state(seed=seed)
        seed += 1
        from bots import make_bot
        bots = [make_bot("rules", game, s, seed=seed) for s in range(players)]
        while not state.is_terminal():
            if state.phase == PLAY and not state.trick and \
                    bin(state.hands[state.leader]).count("1") <= max_tricks_left:
                out.append(state.clone())
                break
            if state.phase == PLAY:
                state.apply_action(bots_rng.choice(state.legal_actions()))
            else:
                state.apply_action(bots[state.current_player()].step(state))
    return out


def _rook_oracle(state, team):
    """Plain minimax over the game's own rules to the end of the hand: the
    team's count + nest, and the most-tricks 20 (a tie: 10, the cut's
    expectation)."""
    hand = len(state.results)

    def value(st):
        if len(st.results) > hand:
            r = st.results[hand]
            t = r["tricks"]
            bonus = 20 if t[team] > t[1 - team] else (10 if t[0] == t[1] else 0)
            return r["count"][team] + bonus
        vals = []
        for a in st.legal_actions():
            c = st.clone()
            c.apply_action(a)
            vals.append(value(c))
        return max(vals) if st.current_player() % 2 == team else min(vals)

    out = {}
    for a in state.legal_actions():
        c = state.clone()
        c.apply_action(a)
        out[a] = value(c)
    return out


@pytest.mark.parametrize("players,tricks_left", [(4, 3), (6, 2)])
def test_dixie_rook_card_play_matches_the_game_oracle(players, tricks_left):
    for state in _rook_endings(players, 12, tricks_left):
        seat = state.current_player()
        sol = solve(state, seat=seat)
        oracle = _rook_oracle(state, seat % 2)
        assert {state.string_to_action(a): v for a, v in sol.action_values.items()} == oracle


@pytest.mark.skipif(__import__("solver.dd").dd.pure_python(),
                    reason="a kernel feature: DIXTRIX_PUREPYTHON=1 solves with the oracle")
def test_max_nodes_aborts_cleanly_and_leaves_the_table_sound():
    import solver
    from solver.dd import solve
    from solver.errors import LimitError, SearchAborted
    game = solver.load_game("dix")
    state = game.new_initial_state(seed=1)
    while state.tricks_done < 16:
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(SearchAborted, match="node limit") as info:
        solve(state, max_nodes=50)
    assert 50 <= info.value.nodes <= 51
    full = solve(state)                     # a new table after an aborted search
    again = solve(state, max_nodes=full.nodes)      # the same deal: the table is kept
    assert dict(again.action_values) == dict(full.action_values)
    assert again.nodes <= full.nodes
    from solver.dd.dix import solver_for
    solver_for().new_table()
    assert solve(state).nodes == full.nodes
    for bad in (0, -1, 1.5, True, "10", 10**14):
        with pytest.raises(LimitError, match="max_nodes"):
            solve(state, max_nodes=bad)


def test_principal_line_budget_and_stop():
    """The line's solves share ``total_nodes``, and a set ``stop`` ends it
    before the next ply: what is found so far comes back, never an error."""
    import threading

    from solver.dd.solve import principal_line
    state = solver.load_game("dix").new_initial_state(seed=1)
    while state.tricks_done < 20:
        state.apply_action(state.legal_actions()[0])
    full = principal_line(state, plies=6)
    assert len(full) == 6
    stop = threading.Event()
    stop.set()
    assert principal_line(state, plies=6, stop=stop) == []
    assert principal_line(state, plies=6, total_nodes=1) == []     # the first solve aborts
    budget = solve(state).nodes + 1
    some = principal_line(state, plies=6, total_nodes=budget)
    assert some == full[:len(some)]
