"""The specialised dix solver (solver.dd.dix, csrc/dd/dixdd.pyx) against the
pure-Python oracle (small endings, every kind of round) and against the
generic kernel (7-10-trick endings), card by card; determinism, the node
limit, the routing through solver.dd.solve."""

import random

import pytest

import solver
from solver.cards import DIX, JOKER
from solver.dd import dix as dixdd
from solver.dd import solve
from solver.dd import trick as dd
from solver.errors import LimitError, PositionError, SearchAborted
from solver.games.dix.exact import dix_contract, dix_position
from solver.reference.dd_oracle import solve_oracle
from tests.search.test_dd_oracle import _dix_round_state, _random_dix_contract, _random_trick_position


def _ending(rng, n, contract=None, turn=None, joker=False):
    """``n`` cards a hand; ``joker``: the joker is surely in play (a hand or
    the table) in a trump round."""
    if contract is None:
        contract, turn = _random_dix_contract(rng)
    deck = [c for c in DIX.cards if c != turn]
    if joker and contract.joker_rank is not None:
        deck = [JOKER] + rng.sample([c for c in deck if c != JOKER], 2 * n - 1)
    return _random_trick_position(rng, contract, n, deck, rng.randrange(2))


def _check_oracle(pos, seat):
    got = dixdd.solve_dix(pos, seat)
    value, values, _ = solve_oracle(pos, seat, "dix")
    assert dict(got.card_values) == values, (pos, seat)
    assert got.value == value


def test_matches_oracle_every_kind_of_round():
    """No trumps (joker turned up), the joker in play as a trump, plain
    trumps (150 of each); a card on the table or not; both seats."""
    rng = random.Random(61)
    kinds = {"no trumps": 0, "joker": 0, "trumps": 0}
    for i in range(450):
        n = rng.choice((1, 2, 3, 3, 4, 4, 4)) if i % 45 else rng.choice((5, 6))
        if i % 3 == 0:
            contract, turn = dix_contract(-1, None), JOKER
        else:
            contract, turn = _random_dix_contract(rng)
        pos = _ending(rng, n, contract, turn, joker=i % 3 == 1)
        if contract.trump < 0:
            kinds["no trumps"] += 1
        elif any((h & 1) for h in pos.hands) or 0 in pos.trick:
            kinds["joker"] += 1
        else:
            kinds["trumps"] += 1
        for seat in (0, 1):
            _check_oracle(pos, seat)
    assert min(kinds.values()) >= 100, kinds


def test_matches_oracle_on_seventeen_endings():
    rng = random.Random(17)
    game = solver.load_game("dix", variant="seventeen")
    for seed in range(25):
        st = game.new_initial_state(seed=seed)
        while st.tricks_done < 12 or (st.trick and rng.random() < 0.3):
            st.apply_action(rng.choice(st.legal_actions()))
        pos = dix_position(st)
        for seat in (0, 1):
            _check_oracle(pos, seat)


def test_matches_generic_kernel_on_longer_endings():
    """300 random 7-10-trick endings: both solvers exact, every card equal."""
    rng = random.Random(5)
    for i in range(300):
        pos = _ending(rng, rng.choice((7, 8, 9, 10)))
        seat = rng.randrange(2)
        generic = dd.solve_position(pos, seat, "dix")
        mine = dixdd.solve_dix(pos, seat)
        assert dict(mine.card_values) == dict(generic.card_values), (i, pos, seat)
        assert mine.value == generic.value


def test_matches_generic_kernel_on_game_positions():
    """Real dix play from trick 18 and seventeen from trick 9, through solve."""
    rng = random.Random(9)
    for seed in range(8):
        variant = "seventeen" if seed % 2 else "standard"
        st = solver.load_game("dix", variant=variant).new_initial_state(seed=seed)
        while st.tricks_done < (8 if variant == "seventeen" else 17):
            st.apply_action(rng.choice(st.legal_actions()))
        pos = dix_position(st)
        generic = dd.solve_position(pos, pos.seat_to_play, "dix")
        got = solve(st, tie_break=True)
        assert got.engine == "cython"
        assert dict(got.raw_action_values) == {st.action_to_string(c): v
                                               for c, v in generic.card_values.items()}


def test_value_alone_is_the_best_cards():
    """``solve_value`` (the position's value only) against every card's."""
    rng = random.Random(14)
    for _ in range(30):
        pos = _ending(rng, rng.choice((3, 5, 7)))
        sol = dixdd.solver_for()
        every = dixdd.solve_dix(pos, pos.seat_to_play)
        k = pos.contract
        joker = k.trump * 16 + k.joker_rank if k.joker_rank is not None else -1

        def slots(mask, joker=joker):
            return sum(1 << (joker if c == JOKER else c) for c in range(64) if mask >> c & 1)
        lead = (joker if pos.trick[0] == JOKER else pos.trick[0]) if pos.trick else -1
        sol.load(slots(pos.hands[0]), slots(pos.hands[1]), k.trump, joker, pos.seat_to_play,
                 lead)
        me, other = pos.seat_to_play, 1 - pos.seat_to_play
        won = (dd.DIX_SCALE * (pos.points[me] - pos.points[other])
               + 4 * (pos.tens[other] - pos.tens[me]))
        assert sol.solve_value() + won == every.value
        sol.load(slots(pos.hands[0]), slots(pos.hands[1]), k.trump, joker, pos.seat_to_play,
                 lead)
        assert sol.solve_value(max_nodes=1) is None


def test_deterministic_values_and_nodes():
    rng = random.Random(8)
    st = _dix_round_state(9, rng, 11)
    # the same deal: the table is kept
    first, again = solve(st, tie_break=True), solve(st, tie_break=True)
    assert first.raw_action_values == again.raw_action_values
    assert again.nodes < first.nodes
    dixdd.solver_for().new_table()
    fresh = solve(st, tie_break=True)
    assert fresh.raw_action_values == first.raw_action_values and fresh.nodes == first.nodes


def test_table_size_does_not_change_values():
    rng = random.Random(12)
    for seed in range(3):
        st = _dix_round_state(seed, rng, 10)
        small = solve(st, tt_mb=1, tie_break=True)
        assert small.raw_action_values == solve(st, tie_break=True).raw_action_values


def test_kernel_switches_do_not_change_values():
    rng = random.Random(13)
    for _ in range(20):
        pos = _ending(rng, rng.choice((6, 7, 8)))
        want = dict(dixdd.solve_dix(pos).card_values)
        for opts in ({"relative_keys": False}, {"follow_tt": True},
                     {"driver": 0}, {"exact_k": 0}, {"exact_k": 7}, {"trick_bounds": 0}):
            assert dict(dixdd.solve_dix(pos, options=opts).card_values) == want, opts


def _top_trump_ending(rng, n):
    """A trump round where one hand holds 1-3 of the highest trumps and
    the deck is mostly courts (few ten pairs): the sure-trick bounds apply
    while ten-tricks are still possible."""
    turn = rng.choice([c for c in DIX.cards if c != JOKER])
    contract = dix_contract(turn >> 4, turn & 15)
    deck = [c for c in DIX.cards if c not in (turn, JOKER)]
    trumps = sorted((c for c in deck if c >> 4 == turn >> 4), reverse=True)
    top = trumps[:rng.randint(1, 3)]
    rest = [c for c in deck if c not in top]
    courts = [c for c in rest if (c & 15) in (11, 12, 13)]
    pips = [c for c in rest if c not in courts]
    others = rng.sample(courts, min(len(courts), 2 * n)) + rng.sample(pips, 2 * n)
    rng.shuffle(others)
    holder = rng.randrange(2)
    hands = [[], []]
    hands[holder] = top + others[:n - len(top)]
    hands[1 - holder] = others[n - len(top):2 * n - len(top)]
    leader = rng.randrange(2)
    return dd.TrickPosition(contract, tuple(sum(1 << c for c in h) for h in hands), leader, ())


@pytest.mark.parametrize("bounds", [1, 2])
def test_sure_trick_bounds_match_oracle(bounds):
    """The bounds from the sure tricks while ten-tricks are live (1: the
    other hand's top trumps cap the mover's value; 2: the leader's cashable
    winners floor it) cut at least 30 times on endings built for them, and
    every value stays the oracle's (both seats, a fresh table each)."""
    rng = random.Random(1800 + bounds)
    sol = dixdd.solver_for(probe=True)
    hits = 0
    for _ in range(60):
        pos = _top_trump_ending(rng, rng.choice((3, 4, 4, 5)))
        for seat in (0, 1):
            # an unsound bound can make the root's null-window driver cycle:
            # the node limit turns that into a failure
            got = dixdd.solve_dix(pos, seat, max_nodes=10**6,
                                  options={"trick_bounds": bounds, "keep_table": False,
                                           "exact_k": 0})
            hits += sol.bound_hits
            _, values, _ = solve_oracle(pos, seat, "dix")
            assert dict(got.card_values) == values, (pos, seat)
    print("bound cut-offs", hits)
    assert hits >= 30, hits
    dixdd.solve_dix(pos, options={"trick_bounds": 0, "keep_table": False, "exact_k": 0})
    assert sol.bound_hits == 0


def test_node_limit_aborts_cleanly():
    rng = random.Random(3)
    st = _dix_round_state(4, rng, 12)
    full = solve(st, tie_break=True)
    with pytest.raises(SearchAborted, match="max_nodes=50") as info:
        solve(st, max_nodes=50)
    assert isinstance(info.value, LimitError) and info.value.nodes > 50
    # nothing half-done was kept: the same answer and effort afterwards
    again = solve(st, tie_break=True)
    assert again.raw_action_values == full.raw_action_values and again.nodes == full.nodes
    assert solve(st, tie_break=True, max_nodes=full.nodes).raw_action_values == full.raw_action_values


@pytest.mark.parametrize("bad", [0, -5, 2.5, "10", True])
def test_bad_node_limit(bad):
    rng = random.Random(1)
    st = _dix_round_state(1, rng, 3)
    with pytest.raises(LimitError, match="max_nodes"):
        solve(st, max_nodes=bad)


def test_generic_route_and_bad_input(monkeypatch):
    rng = random.Random(4)
    st = _dix_round_state(2, rng, 8)
    mine = solve(st, tie_break=True)
    monkeypatch.setenv("DIXTRIX_DIX_SOLVER", "generic")
    generic = solve(st, tie_break=True)
    assert generic.raw_action_values == mine.raw_action_values
    with pytest.raises(SearchAborted):
        solve(st, max_nodes=10)
    pos = dd.TrickPosition(dd.bridge_contract(-1), (1 << 2, 1 << 3, 1 << 4, 1 << 5), 0)
    with pytest.raises(PositionError, match="dix TrickPosition"):
        dixdd.solve_dix(pos)
    with pytest.raises(PositionError, match="seat"):
        dixdd.solve_dix(dix_position(st), seat=3)


def test_cut_stats_count_the_first_move_cut_offs():
    """The move-ordering counters (bench/dd_ordering.py): per position in
    the trick, cut-off nodes, first-move cut-offs among them, moves searched
    at cut nodes, nodes without a cut-off; reset by reset_cut_stats."""
    rng = random.Random(77)
    sol = dixdd.solver_for(probe=True)
    sol.reset_cut_stats()
    with dd.probing():
        for _ in range(5):
            dixdd.solve_dix(_ending(rng, 6), 0, options={"keep_table": False})
    stats = sol.cut_stats()
    assert len(stats) == 2
    for cuts, first, moves, alls in stats:
        assert 0 < first <= cuts <= moves
        assert alls > 0
    sol.reset_cut_stats()
    assert sol.cut_stats() == [(0, 0, 0, 0), (0, 0, 0, 0)]


def test_node_profile_counts_every_node_where_it_was_searched():
    """The dix probe's node profile (bench/dd_ordering.py --profile): every
    node of a solve counted once, by tricks left and position in the trick;
    the nodes the table settled are some of the leader's; a reset empties
    it."""
    rng = random.Random(78)
    sol = dixdd.solver_for(probe=True)
    seen_hits = 0
    with dd.probing():
        for _ in range(5):
            sol.reset_cut_stats()
            got = dixdd.solve_dix(_ending(rng, 6), 0, options={"keep_table": False})
            prof = sol.node_profile()
            assert sum(sum(row) for row, _ in prof.values()) == got.nodes
            assert max(prof) <= 6 and all(hits <= row[0] for row, hits in prof.values())
            seen_hits += sum(hits for _, hits in prof.values())
    assert seen_hits > 0
    sol.reset_cut_stats()
    assert sol.node_profile() == {}
