"""The Cython double-dummy kernel against its pure-Python twin (plain
minimax, ``solver/reference/dd_oracle.py``), value for value and action by
action, on thousands of random endings; the rule tables against the games'
own scoring; determinism; bad input."""

import random
from contextlib import contextmanager

import pytest

import solver
from solver.cards import DIX, FRENCH, ROOK, cards_of, mask_of
from solver.dd import solve
from solver.dd import trick as dd
from solver.dd.dix import solve_dix
from solver.errors import HiddenInformationError, LimitError, PositionError, UnsupportedPositionError
from solver.game import TERMINAL
from solver.games.contract_match.exact import PENALTY_CONTRACTS, penalty_contract
from solver.games.dix.exact import dix_contract, dix_position
from solver.games.dixie_rook.exact import rook_contract
from solver.reference.dd_oracle import solve_oracle


def _random_trick_position(rng, contract, n, deck_cards, table_cards=None):
    """``n`` cards a hand, then a random legal partial trick."""
    cards = list(deck_cards)
    if contract.deck == "dix" and contract.joker_rank is None and 0 in cards:
        cards.remove(0)
    rng.shuffle(cards)
    ns = contract.nseats
    hands = [cards[i * n:(i + 1) * n] for i in range(ns)]
    leader = rng.randrange(ns)
    k = rng.randrange(ns) if table_cards is None else table_cards
    trick = []
    for j in range(k):
        s = (leader + j) % ns
        legal = dd.TrickPosition(contract, tuple(mask_of(h) for h in hands), leader,
                                 tuple(trick)).legal()
        c = rng.choice(legal)
        hands[s].remove(c)
        trick.append(c)
    nt = len(contract.team_ids)
    return dd.TrickPosition(contract, tuple(mask_of(h) for h in hands), leader, tuple(trick),
                            points=tuple(rng.randrange(-20, 20) for _ in range(nt)),
                            tricks=tuple(rng.randrange(4) for _ in range(nt)),
                            tens=tuple(rng.randrange(3) for _ in range(nt)))


@pytest.fixture
def probe():
    """The measuring builds of the kernels for one test (the switches that
    turn a bound off and the counters: ``solver.dd.trick.probing``)."""
    with dd.probing() as kern:
        yield kern


@contextmanager
def _switched_off(probe, switch):
    """The probe build with one bound (``switch``) off, on a fresh table,
    and back on, on a fresh table, afterwards."""
    setattr(probe, switch, False)
    probe.new_table()
    try:
        yield
    finally:
        setattr(probe, switch, True)
        probe.new_table()


def _values_without(probe, switch, pos, team, objective="own"):
    """Every card's value with the bound ``switch`` off."""
    with _switched_off(probe, switch):
        return dict(dd.solve_position(pos, team, objective).card_values)


def _compare(pos, team, objective):
    got = dd.solve_position(pos, team, objective)
    value, values, _ = solve_oracle(pos, team, objective)
    assert dict(got.card_values) == values, (pos, team, objective)
    assert got.value == value
    if objective == "dix":
        # the specialised dix solver (solver.dd.dix) too
        mine = solve_dix(pos, team)
        assert dict(mine.card_values) == values, (pos, team, "dixdd")
        assert mine.value == value
    return got


def _random_dix_contract(rng):
    turn = rng.choice(DIX.cards)
    if turn == 0:
        return dix_contract(-1, None), turn
    return dix_contract(turn >> 4, turn & 15), turn


# ---------------------------------------------------------------------------
# kernel == oracle

@pytest.mark.slow
def test_dix_endings_match_oracle(sample):
    rng = random.Random(2026)
    count = 0
    endings = sample(250, 700)
    for i in range(endings):
        n = rng.choice((1, 2, 2, 3, 3, 3, 4, 4, 4, 4)) if i % 35 else rng.choice((5, 6))
        contract, turn = _random_dix_contract(rng)
        deck = [c for c in DIX.cards if c != turn]
        pos = _random_trick_position(rng, contract, n, deck, rng.randrange(2))
        for team in (0, 1):
            _compare(pos, team, "dix")
            count += 1
    assert count == 2 * endings


def test_dix_game_positions_match_oracle():
    """Positions reached by real dix play (trick 20 on), through dix_position."""
    rng = random.Random(7)
    game = solver.load_game("dix")
    for seed in range(60):
        st = game.new_initial_state(seed=seed)
        stop = rng.choice((43, 44, 45, 46, 47, 48, 49)) if seed % 10 else 41
        while len(st.history()) < stop:
            st.apply_action(rng.choice(st.legal_actions()))
        pos = dix_position(st)
        for team in (0, 1):
            _compare(pos, team, "dix")


@pytest.mark.slow
def test_penalty_contracts_match_oracle(sample):
    rng = random.Random(11)
    count = 0
    endings = sample(200, 500)
    for i in range(endings):
        kind = rng.choice(sorted(PENALTY_CONTRACTS))
        partners = rng.random() < 0.3
        doubled = {}
        if kind in ("king", "queens") and rng.random() < 0.4:
            for c in PENALTY_CONTRACTS[kind][0]:
                if rng.random() < 0.5:
                    doubled[c] = rng.randrange(4)
        contract = penalty_contract(kind, partners=partners, doubled=doubled,
                                       must_discard=rng.random() < 0.3)
        n = rng.choice((1, 2, 3, 3)) if i % 8 else 4
        pos = _random_trick_position(rng, contract, n, FRENCH.cards)
        seat = rng.randrange(4)
        _compare(pos, contract.teams[seat], "own")
        count += 1
    assert count == endings


def _random_contract(rng):
    """A random 4-seat contract of the winning-ranks kernel: bridge, a
    penalty contract (partners, doubled, must-discard at random) or
    dixie-rook with 4 seats."""
    pick = rng.randrange(6)
    if pick == 0:
        return dd.bridge_contract(rng.randrange(-1, 4)), FRENCH.cards
    if pick == 1:
        return rook_contract(4, rng.randrange(4), rng.choice((0, 5, 10, 25))), ROOK.cards
    kind = sorted(PENALTY_CONTRACTS)[pick - 2]
    doubled = {}
    if kind in ("king", "queens") and rng.random() < 0.4:
        doubled = {c: rng.randrange(4) for c in PENALTY_CONTRACTS[kind][0]
                   if rng.random() < 0.5}
    return penalty_contract(kind, partners=rng.random() < 0.3, doubled=doubled,
                               must_discard=rng.random() < 0.3), FRENCH.cards


def test_winning_ranks_match_exact_keys_on_deeper_endings():
    """The winning-ranks table (entries that match positions differing in
    low cards) against the same kernel with exact keys, on endings of 5 to 7
    tricks (beyond the oracle's reach), card by card, for every 4-seat
    contract kind; a 1 MiB table as well, so entries are replaced often."""
    rng = random.Random(31)
    fewer = 0
    for i in range(300):
        contract, deck = _random_contract(rng)
        pos = _random_trick_position(rng, contract, rng.choice((5, 6, 6, 7, 7, 8)), deck)
        team = contract.teams[rng.randrange(4)]
        tt = 1 if i % 3 == 0 else dd.DEFAULT_TT_MB
        got = dd.solve_position(pos, team, "own", tt_mb=tt)
        with dd.probing():
            kern = dd.kernel_for(tt)
            kern.use_winning_ranks = False
            try:
                want = dd.solve_position(pos, team, "own", tt_mb=tt)
            finally:
                kern.use_winning_ranks = True
        assert dict(got.card_values) == dict(want.card_values), (pos, team)
        fewer += got.nodes < want.nodes
    assert fewer > 150          # the two modes really differ


@pytest.mark.slow
def test_bridge_endings_match_oracle(sample):
    rng = random.Random(5)
    for i in range(sample(120, 300)):
        contract = dd.bridge_contract(rng.randrange(-1, 4))
        n = rng.choice((1, 2, 3, 3)) if i % 6 else 4
        pos = _random_trick_position(rng, contract, n, FRENCH.cards)
        _compare(pos, rng.randrange(2), "own")


def test_rook_endings_match_oracle():
    rng = random.Random(9)
    for _ in range(200):
        nseats = rng.choice((4, 6))
        contract = rook_contract(nseats, rng.randrange(4), rng.choice((0, 5, 10, 25)))
        n = rng.choice((1, 2, 3)) if nseats == 4 else rng.choice((1, 2))
        pos = _random_trick_position(rng, contract, n, ROOK.cards)
        team = rng.randrange(2)
        _compare(pos, team, rng.choice(("own", "difference")))


# ---------------------------------------------------------------------------
# the rule table says what the game says

def _dix_brute(state, seat, round_no):
    """(score difference, opponent tens - own tens, +1 if ``seat`` wins the
    round else -1) by plain minimax over DixState itself.  This is a
    monotone function of the kernel's lexicographic value, so its minimax
    is the kernel's value mapped the same way."""
    if state.round_no != round_no or state.is_terminal():
        last = state.rounds[-1]
        sc, tens = last["scores"], last["tens"]
        return (sc[seat] - sc[1 - seat], tens[1 - seat] - tens[seat],
                1 if last["winner"] == seat else -1)
    vals = []
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        vals.append(_dix_brute(child, seat, round_no))
    return max(vals) if state.current_player() == seat else min(vals)


def _mapped(v):
    diff, tens, _ = dd.decode_dix(v)
    return diff, tens, 1 if v > 0 else -1


def _dix_round_state(seed, rng, tricks_left):
    game = solver.load_game("dix", target=100000)
    st = game.new_initial_state(seed=seed)
    while st.tricks_done < 26 - tricks_left or (st.trick and rng.random() < 0.5):
        st.apply_action(rng.choice(st.legal_actions()))
        if st.tricks_done == 26 - tricks_left and rng.random() < 0.5:
            break
    return st


def test_dix_rule_table_matches_the_game():
    rng = random.Random(3)
    for seed in range(40):
        st = _dix_round_state(seed, rng, rng.choice((1, 2, 3)))
        for seat in (0, 1):
            got = solve(st, tie_break=True, seat=seat)
            want = {}
            for a in st.legal_actions():
                child = st.clone()
                child.apply_action(a)
                want[st.action_to_string(a)] = _dix_brute(child, seat, st.round_no)
            assert {a: _mapped(v) for a, v in got.raw_action_values.items()} == want
            best = max(want.values()) if st.current_player() == seat else min(want.values())
            assert (got.value, got.round_winner == seat) == (best[0], best[2] == 1)


def test_decode_dix_roundtrip():
    for diff in range(-30, 31):
        for tens in range(-26, 27):
            for last in (1, -1):
                v = dd.DIX_SCALE * diff + 4 * tens + last
                assert dd.decode_dix(v) == (diff, tens, last)
                assert (v > 0) == (diff > 0 or (diff == 0 and (tens > 0 or
                                                               (tens == 0 and last > 0))))


def test_dix_solution_fields():
    rng = random.Random(1)
    st = _dix_round_state(4, rng, 5)
    s = solve(st, tie_break=True)
    assert s.seat == st.current_player()
    assert set(s.action_values) == {st.action_to_string(a) for a in st.legal_actions()}
    assert s.value == max(s.action_values.values())
    assert all(s.action_values[a] == s.value for a in s.best_actions)
    assert s.round_winner == (s.seat if s.raw_value > 0 else 1 - s.seat)
    other = solve(st, tie_break=True, seat=1 - s.seat)
    assert other.value == -s.value and other.round_winner == s.round_winner


def test_record_and_json_inputs_agree():
    rng = random.Random(2)
    st = _dix_round_state(6, rng, 4)
    rec = solver.to_json(st)
    a, b, c = solve(st), solve(rec), solve(solver.from_json(rec))
    assert a.action_values == b.action_values == c.action_values


def test_seventeen_solves_with_known_hands():
    game = solver.load_game("dix", variant="seventeen")
    st = game.new_initial_state(seed=3)
    rng = random.Random(3)
    while st.tricks_done < 12:
        st.apply_action(rng.choice(st.legal_actions()))
    pos = dix_position(st)
    for team in (0, 1):
        _compare(pos, team, "dix")


def test_sweep_and_most_tricks_bounds_match_oracle():
    """Endings built for the kernel's settling bounds: one seat (or team)
    holding the lowest cards, so that the side on lead often takes every
    trick left (sweep: for penalty contracts "no penalty card can reach
    the max seat"), and dixie-rook endings whose most-tricks bonus is
    already settled or still open (counts near half of 14)."""
    rng = random.Random(1818)
    for _ in range(200):
        contract, deck = _random_contract(rng)
        n = rng.choice((2, 3, 3))
        cards = list(deck)
        rng.shuffle(cards)
        cards = sorted(cards[:4 * n], key=lambda c: (c & 15, c))
        low = rng.randrange(4)
        order = [low] + [s for s in range(4) if s != low]
        rest = cards[n:]
        rng.shuffle(rest)
        hands = {order[0]: cards[:n]}
        for j, s in enumerate(order[1:]):
            hands[s] = rest[j * n:(j + 1) * n]
        leader = rng.randrange(4)
        nt = len(contract.team_ids)
        played = 13 - n                 # tricks before this ending (13 a hand)
        mt = rng.randrange(played + 1)
        tricks = (mt, played - mt) if nt == 2 else tuple(
            rng.randrange(3) for _ in range(nt))
        pos = dd.TrickPosition(contract, tuple(mask_of(hands[s]) for s in range(4)), leader,
                               (), points=tuple(rng.randrange(-20, 20) for _ in range(nt)),
                               tricks=tricks, tens=tuple(0 for _ in range(nt)))
        _compare(pos, rng.choice((contract.teams[low], contract.teams[leader])), "own")


# ---------------------------------------------------------------------------
# determinism, table size

def test_determinism_values_and_nodes():
    rng = random.Random(8)
    st = _dix_round_state(9, rng, 9)
    first = solve(st)
    again = solve(st)           # the same deal: the table is kept
    assert first.action_values == again.action_values
    assert again.nodes <= first.nodes
    from solver.dd.dix import solver_for
    solver_for().new_table()
    fresh = solve(st)
    assert fresh.action_values == first.action_values and fresh.nodes == first.nodes


def test_table_kept_for_the_same_deal_only():
    """The generic kernel keeps its table when the same deal returns (a
    re-solve, the next card of the game), not for another deal; values
    never change."""
    rng = random.Random(21)
    contract = dd.bridge_contract(1)
    pos = _random_trick_position(rng, contract, 7, FRENCH.cards, 0)
    kern = dd.kernel_for()
    kern.new_table()
    first = dd.solve_position(pos, 0)
    again = dd.solve_position(pos, 0)
    assert again.card_values == first.card_values and again.nodes < first.nodes
    other = _random_trick_position(rng, contract, 7, FRENCH.cards, 0)
    kern.new_table()
    want = dd.solve_position(other, 0)
    dd.solve_position(pos, 0)
    assert dd.solve_position(other, 0).nodes == want.nodes     # another deal: a new table
    kern.keep_table = False
    try:
        assert dd.solve_position(pos, 0).nodes == first.nodes
    finally:
        kern.keep_table = True


def test_small_table_same_values():
    rng = random.Random(12)
    for seed in range(3):
        st = _dix_round_state(seed, rng, 9)
        small = solve(st, tt_mb=1, tie_break=True)
        assert small.raw_action_values == solve(st, tie_break=True).raw_action_values
    contract = dd.bridge_contract(-1)
    pos = _random_trick_position(rng, contract, 7, FRENCH.cards, 0)
    assert (dd.solve_position(pos, 0, tt_mb=1).card_values ==
            dd.solve_position(pos, 0).card_values)


# ---------------------------------------------------------------------------
# bad input

def test_seat_view_refused():
    rng = random.Random(1)
    st = _dix_round_state(1, rng, 5)
    view = st.information_state(0).view
    with pytest.raises(HiddenInformationError, match="best_move"):
        solve(view)
    with pytest.raises(HiddenInformationError, match="seat view"):
        solve(solver.from_json(view))


def test_stock_not_empty_refused():
    st = solver.load_game("dix").new_initial_state(seed=1)
    with pytest.raises(UnsupportedPositionError, match="stock"):
        solve(st)


def test_terminal_refused():
    st = solver.load_game("dix", target=1, variant="seventeen").new_initial_state(seed=1)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    assert st.current_player() == TERMINAL
    with pytest.raises(UnsupportedPositionError, match="over"):
        solve(st)


@pytest.mark.parametrize("size", [0, -1, 10 ** 9, "64", True, None, float("nan")])
def test_absurd_table_size(size):
    rng = random.Random(1)
    st = _dix_round_state(1, rng, 3)
    with pytest.raises(LimitError, match="tt_mb"):
        solve(st, tt_mb=size)


def test_bad_seat_and_bad_input():
    rng = random.Random(1)
    st = _dix_round_state(1, rng, 3)
    with pytest.raises(PositionError, match="seat"):
        solve(st, seat=2)
    with pytest.raises(PositionError, match="list"):
        solve([1, 2])
    with pytest.raises(PositionError, match="malformed JSON"):
        solve("{not json")


def test_bad_trick_positions():
    k = dd.bridge_contract(-1)
    AS, KS = FRENCH.parse("AS"), FRENCH.parse("KS")
    with pytest.raises(PositionError, match="held twice"):
        dd.TrickPosition(k, (1 << AS, 1 << AS, 1 << KS, 1 << 2), 0)
    with pytest.raises(PositionError, match="hand sizes"):
        dd.TrickPosition(k, (1 << AS, 0, 1 << KS, 1 << 2), 0)
    with pytest.raises(PositionError, match="leader"):
        dd.TrickPosition(k, (1 << AS, 1 << 3, 1 << KS, 1 << 2), 4)
    with pytest.raises(PositionError, match="not in the french deck"):
        dd.TrickPosition(k, (1 << 0, 1 << 3, 1 << KS, 1 << 2), 0)
    with pytest.raises(PositionError, match="over"):
        dd.TrickPosition(k, (0, 0, 0, 0), 0)
    with pytest.raises(PositionError, match="unknown penalty contract"):
        penalty_contract("hearts")
    pos = dd.TrickPosition(k, (1 << AS, 1 << 3, 1 << KS, 1 << 2), 0)
    with pytest.raises(PositionError, match="objective"):
        dd.solve_position(pos, 0, "most")
    with pytest.raises(PositionError, match="team"):
        dd.solve_position(pos, 7)


# ---------------------------------------------------------------------------
# the pure-Python route

def test_purepython_routes_small_positions_to_the_oracle(monkeypatch):
    rng = random.Random(4)
    st = _dix_round_state(2, rng, 3)
    kernel = solve(st, tie_break=True)
    monkeypatch.setenv("DIXTRIX_PUREPYTHON", "1")
    oracle = solve(st, tie_break=True)
    assert oracle.engine == "python" and kernel.engine == "cython"
    assert oracle.action_values == kernel.action_values
    assert oracle.raw_action_values == kernel.raw_action_values
    big = _dix_round_state(2, rng, 12)
    with pytest.raises(UnsupportedPositionError, match="DIXTRIX_PUREPYTHON"):
        solve(big)


def test_threads_share_the_kernel_safely():
    from concurrent.futures import ThreadPoolExecutor
    rng = random.Random(21)
    states = [_dix_round_state(seed, rng, 7) for seed in range(6)]
    alone = [solve(st, tie_break=True).raw_action_values for st in states]
    with ThreadPoolExecutor(3) as pool:
        together = list(pool.map(lambda st: solve(st, tie_break=True).raw_action_values, states))
    assert together == alone


def test_solve_accepts_a_trick_position():
    """A contract position through solver.dd.solve: paranoid value for a seat."""
    contract = penalty_contract("king")
    hands = [FRENCH.parse_cards(h) for h in ("KH 2C", "AH 3C", "QH 4C", "5C 6C")]
    pos = dd.TrickPosition(contract, tuple(mask_of(h) for h in hands), leader=0)
    s = solve(pos)
    assert s.seat == 0 and s.objective == "king: own"
    # the same as a code, which a face words (a bare position's own names)
    assert s.objective_said is not None and s.objective_said.code == "objective.trick"
    assert s.objective_said.english() == s.objective
    value, values, _ = solve_oracle(pos, 0, "own")
    assert s.action_values == {FRENCH.to_string(c): v for c, v in values.items()}
    assert s.value == value
    assert s.action_values["KH"] == 0     # seat 1 must follow with AH and takes it


@pytest.mark.parametrize("contract,unit", [
    (penalty_contract("king"), 75), (penalty_contract("queens"), 25),
    (penalty_contract("diamonds"), 10), (penalty_contract("ltoosh"), 15),
    (rook_contract(4, 1, 25), 5), (dd.bridge_contract(2), 1)])
def test_search_in_units(contract, unit):
    """The kernel searches in the greatest common divisor of the table's
    values (a King of Hearts probe decides 75 points); values come back in
    points and equal the oracle's."""
    rng = random.Random(unit)
    deck = ROOK.cards if contract.deck == "rook" else FRENCH.cards
    pos = _random_trick_position(rng, contract, len(deck) // 4, deck, table_cards=0)
    table, _ = dd.kernel_table(pos, contract.teams[pos.leader], "own")
    scaled, got = dd.in_units(table)
    assert got == unit
    assert scaled["unit"] == unit
    assert all(v % unit == 0 for v in table["win_pts"] + table["lose_pts"])
    assert scaled["win_pts"] == [v // unit for v in table["win_pts"]]
    for _ in range(20):
        pos = _random_trick_position(rng, contract, 3, deck)
        _compare(pos, contract.teams[rng.randrange(4)], "own")


def _ducks_everything(pos, side_of):
    """Python twin of the kernel's ``never_wins`` condition: every seat
    not on the leader's side holds, in each suit, at least min(n, its
    length) cards below the leading side's lowest card of the suit (n: the
    leading side's cards of the suit)."""
    lead_side = side_of(pos.leader)
    for s in range(4):
        lead = [c for i, h in enumerate(pos.hands) if side_of(i) == lead_side
                for c in cards_of(h) if c >> 4 == s]
        if not lead:
            continue
        x = min(lead)
        for i, h in enumerate(pos.hands):
            mine = [c for c in cards_of(h) if c >> 4 == s]
            if side_of(i) != lead_side and mine:
                if sum(c < x for c in mine) < min(len(lead), len(mine)):
                    return False
    return True


def test_ducking_bound_matches_oracle():
    """No-trump endings where the side not on lead can lose every trick
    left while holding high cards (so the plain sweep does not settle
    them): the kernel's ducking bound (a lower bound for the max side, an
    upper one for the other side; exact for penalty contracts) against the
    oracle, for both sides as the max side."""
    rng = random.Random(1819)
    hits = 0
    for _ in range(400):
        kind = rng.choice(sorted(PENALTY_CONTRACTS) + ["bridge"])
        if kind == "bridge":
            contract = dd.bridge_contract(-1)
        else:
            contract = penalty_contract(kind, partners=rng.random() < 0.3,
                                           must_discard=rng.random() < 0.3)
        n = 3
        cards = list(FRENCH.cards)
        rng.shuffle(cards)
        cards = sorted(cards[:4 * n], key=lambda c: (c & 15, c))
        leader = rng.randrange(4)
        duck = (leader + rng.choice((1, 3))) % 4
        # the ducking seat: low cards and one high card
        lows, high = cards[:n - 1], cards[rng.randrange(3 * n, 4 * n)]
        rest = [c for c in cards if c not in lows and c != high]
        rng.shuffle(rest)
        hands = {duck: lows + [high]}
        for j, s in enumerate(s for s in range(4) if s != duck):
            hands[s] = rest[j * n:(j + 1) * n]
        pos = dd.TrickPosition(contract, tuple(mask_of(hands[s]) for s in range(4)), leader)
        teams = contract.teams
        if _ducks_everything(pos, lambda s, teams=teams, leader=leader: teams[s] == teams[leader]):
            hits += 1
        _compare(pos, teams[rng.choice((duck, leader))], "own")
    assert hits >= 30, hits


def test_rule_tables_are_remembered_per_deal_and_score():
    """``unit_table`` returns the same table for the same contract, cards in
    play, team, objective and score, and a new one when any of them
    changes (the offset follows what is already won; a doubled card
    changes the points); values stay the oracle's."""
    rng = random.Random(77)
    contract = penalty_contract("queens")
    pos = _random_trick_position(rng, contract, 3, FRENCH.cards, table_cards=0)
    pos = dd.TrickPosition(contract, pos.hands, pos.leader)
    a = dd.unit_table(pos, 0, "own")
    assert dd.unit_table(pos, 0, "own") is a
    assert dd.unit_table(pos, 1, "own") is not a
    won = dd.TrickPosition(contract, pos.hands, pos.leader, points=(-25, 0, 0, 0))
    b = dd.unit_table(won, 0, "own")
    assert b[1] == a[1] - 25 and b[0] == a[0]
    queens = [c for c in FRENCH.cards if c & 15 == 12]
    doubled = penalty_contract("queens", doubled={queens[0]: 2})
    c = dd.unit_table(dd.TrickPosition(doubled, pos.hands, pos.leader), 0, "own")
    assert c[0] != a[0] or not any((h >> queens[0]) & 1 for h in pos.hands)
    for p in (pos, won):
        _compare(p, 0, "own")


def test_rule_table_cache_is_thread_safe():
    """Worker threads (the server's pool) build and evict tables at once:
    no error, and every answer is the table of its own position."""
    import threading
    contract = penalty_contract("queens")
    rng = random.Random(5)
    positions = [_random_trick_position(rng, contract, 2, FRENCH.cards, table_cards=0)
                 for _ in range(3 * dd._TABLES_MAX)]
    errors = []

    def work(k):
        try:
            for i in range(k, len(positions), 4):
                p = dd.TrickPosition(contract, positions[i].hands, positions[i].leader)
                table, offset, unit = dd.unit_table(p, 0, "own")
                fresh, fresh_offset = dd.kernel_table(p, 0, "own")
                assert (table, unit) == dd.in_units(fresh) and offset == fresh_offset
        except Exception as exc:             # pragma: no cover - the failure
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors
    assert len(dd._TABLES) <= dd._TABLES_MAX


def _pivot_safe(pos, m, points):
    """Python twin of the kernel's ``pivot_safe`` condition for max seat
    ``m`` (penalty cards ``points``): every penalty card left is in one
    suit p and in other hands; m's cards of p lie below the lowest penalty
    card and its lowest card of p below every card of p of each penalty
    holder (or m is void in p and not on lead); every other suit passes
    the ducking count."""
    pen = [c for i, h in enumerate(pos.hands) if i != m for c in cards_of(h) if c in points]
    if not pen or any(c in points for c in cards_of(pos.hands[m])):
        return False
    p = pen[0] >> 4
    if any(c >> 4 != p for c in pen):
        return False
    mine = [c for c in cards_of(pos.hands[m]) if c >> 4 == p]
    if mine:
        if max(mine) > min(pen):
            return False
        for i, h in enumerate(pos.hands):
            held = [c for c in cards_of(h) if c >> 4 == p]
            if i != m and any(c in points for c in held) and min(held) < min(mine):
                return False
    elif pos.leader == m:
        return False
    for s in range(4):
        if s == p:
            continue
        lead = [c for i, h in enumerate(pos.hands) if i != m for c in cards_of(h) if c >> 4 == s]
        own = [c for c in cards_of(pos.hands[m]) if c >> 4 == s]
        if lead and own and sum(c < min(lead) for c in own) < min(len(lead), len(own)):
            return False
    return True


def test_pivot_bound_matches_oracle():
    """Penalty endings where the max seat may still win tricks but can
    avoid every penalty card (all in one suit, held by others, above its
    cards of that suit): the kernel's pivot bound against the oracle,
    doubled cards and must-discard included."""
    rng = random.Random(1820)
    hits = 0
    for _ in range(400):
        kind = rng.choice(("king", "king", "diamonds", "queens"))
        points = PENALTY_CONTRACTS[kind][0]
        doubled = {}
        if kind != "diamonds" and rng.random() < 0.4:
            doubled = {c: rng.randrange(4) for c in points if rng.random() < 0.5}
        contract = penalty_contract(kind, doubled=doubled, must_discard=rng.random() < 0.3)
        n = 3
        m = rng.randrange(4)
        cards = list(FRENCH.cards)
        rng.shuffle(cards)
        cards = cards[:4 * n - 1] + [rng.choice(sorted(points))]
        cards = list(dict.fromkeys(cards))
        while len(cards) < 4 * n:
            c = rng.choice(FRENCH.cards)
            if c not in cards:
                cards.append(c)
        # the max seat: the lowest cards by rank, often
        cards.sort(key=lambda c: (c & 15) + rng.random() * 8)
        p = sorted(points)[0] >> 4
        tops = [c for c in FRENCH.cards if c >> 4 == p and c not in points]
        if tops and rng.random() < 0.3:
            # sometimes the max seat holds a card above a penalty card of
            # its suit (the ace over the KH): not safe
            top = max(tops)
            if top in cards:
                cards.remove(top)
                cards.insert(0, top)
            else:
                cards[0] = top
        rest = cards[n:]
        rng.shuffle(rest)
        hands = {m: cards[:n]}
        for j, s in enumerate(s for s in range(4) if s != m):
            hands[s] = rest[j * n:(j + 1) * n]
        pos = dd.TrickPosition(contract, tuple(mask_of(hands[s]) for s in range(4)),
                               rng.randrange(4))
        if _pivot_safe(pos, m, points):
            hits += 1
        _compare(pos, contract.teams[m], "own")
    assert hits >= 30, hits


def _ducks_below(own, lead):
    """Python twin of the kernel's ``ducks_below``: the seat's i-th lowest
    card of a suit below the leading side's i-th lowest, up to the shorter."""
    return all(a < b for a, b in zip(sorted(own), sorted(lead), strict=False))


def test_ducking_by_match_matches_oracle(probe):
    """No-trump endings where the side not on lead holds cards between the
    leading side's (its i-th lowest below the side's i-th lowest, not all
    of them below the side's lowest): the ducking bound's card-by-card
    match (issue #40) against the oracle, both sides as the max side, the
    same values with the match off; the match must decide cut-offs the old
    count could not (the kernel with a match checked from the top, not
    the bottom, gives wrong values here)."""
    rng = random.Random(4001)
    hits = 0
    for _ in range(300):
        kind = rng.choice(sorted(PENALTY_CONTRACTS) + ["bridge"])
        if kind == "bridge":
            contract = dd.bridge_contract(-1)
        else:
            contract = penalty_contract(kind, partners=rng.random() < 0.3,
                                           must_discard=rng.random() < 0.3)
        n = 3
        leader = rng.randrange(4)
        duck = (leader + rng.choice((1, 3))) % 4
        teams = contract.teams
        # per suit, cards dealt in rank order alternately to the ducking
        # seat and the leading side, the ducking seat first
        hands = {s: [] for s in range(4)}
        lead_seats = [s for s in range(4) if teams[s] == teams[leader]]
        others = [s for s in range(4) if teams[s] != teams[leader] and s != duck]
        for suit in rng.sample(range(4), 4):
            ranks = sorted(rng.sample(range(2, 15), 6))
            for j, r in enumerate(ranks):
                c = suit * 16 + r
                seat = duck if j % 2 == 0 else rng.choice(lead_seats)
                if rng.random() < 0.25:
                    seat = rng.choice(others + lead_seats)
                if len(hands[seat]) < n:
                    hands[seat].append(c)
        rest = [c for c in FRENCH.cards if not any(c in h for h in hands.values())]
        rng.shuffle(rest)
        for s in range(4):
            while len(hands[s]) < n:
                hands[s].append(rest.pop())
        pos = dd.TrickPosition(contract, tuple(mask_of(hands[s]) for s in range(4)), leader)
        lead = [c for s in lead_seats for c in hands[s]]
        ducking = [s for s in range(4) if teams[s] != teams[leader]]
        if all(_ducks_below([c for c in hands[d] if c >> 4 == su],
                            [c for c in lead if c >> 4 == su])
               for d in ducking for su in range(4)) and not _ducks_everything(
                pos, lambda s, teams=teams, leader=leader: teams[s] == teams[leader]):
            hits += 1
        team = teams[rng.choice((duck, leader))]
        got = _compare(pos, team, "own")
        assert _values_without(probe, "use_duck_match", pos, team) == dict(got.card_values)
    assert hits >= 30, hits


def _holder_covers(pos, m, points):
    """Python twin of the kernel's ``holder_cover`` for max seat ``m``: the
    penalty cards left are all in one other hand H; m holds none, and in
    each suit holding penalty cards m's cards are below the lowest of them;
    in every other suit (every suit, when they are in several) m holds no
    more cards than H, with at most one suit of equal lengths where m holds
    cards unless H plays just before m."""
    pen = [c for i, h in enumerate(pos.hands) if i != m for c in cards_of(h) if c in points]
    if not pen or any(c in points for c in cards_of(pos.hands[m])):
        return False
    holders = {i for i, h in enumerate(pos.hands) for c in pen if (h >> c) & 1}
    if len(holders) != 1:
        return False
    H = holders.pop()
    suits = {c >> 4 for c in pen}
    for q in suits:
        mine = [c for c in cards_of(pos.hands[m]) if c >> 4 == q]
        if mine and max(mine) > min(c for c in pen if c >> 4 == q):
            return False
    return _lengths_covered(pos, m, H, suits)


def _lengths_covered(pos, m, H, suits):
    """The cover both twins share (the kernel's ``covers``): m holds no
    more cards than H in every suit (but ``suits`` when the kept penalty
    cards lie in one suit), with at most one suit of equal lengths where m
    holds cards unless H plays just before m."""
    tight = 0
    for s in range(4):
        if len(suits) == 1 and s in suits:
            continue
        lm = sum(c >> 4 == s for c in cards_of(pos.hands[m]))
        lh = sum(c >> 4 == s for c in cards_of(pos.hands[H]))
        if lm > lh:
            return False
        tight += 0 < lm == lh
    return tight <= 1 or (H + 1) % 4 == m


def test_holder_cover_bound_matches_oracle(probe):
    """Penalty endings where every penalty card left is in one other hand
    H, which holds at least as many cards as the max seat in its other
    suits (``holder_cover``, issue #40: a bound over every trick left, the
    max seat may win tricks): the kernel against the oracle, doubled cards
    and must-discard included, the same values with the bound off, and the
    bound must cut.  The kernel without the tight-suit condition, or
    without the check of the max seat's cards in the penalty suit, gives
    wrong values here."""
    rng = random.Random(4002)
    hits = cut = 0
    for _ in range(400):
        kind = rng.choice(("king", "king", "queens", "diamonds"))
        points = PENALTY_CONTRACTS[kind][0]
        doubled = {}
        if kind != "diamonds" and rng.random() < 0.4:
            doubled = {c: rng.randrange(4) for c in points if rng.random() < 0.5}
        contract = penalty_contract(kind, doubled=doubled, must_discard=rng.random() < 0.3)
        n = 3
        m = rng.randrange(4)
        H = rng.choice([s for s in range(4) if s != m])
        cards = [c for c in FRENCH.cards if c not in points]
        rng.shuffle(cards)
        pen = sorted(points)
        rng.shuffle(pen)
        held = pen[:1 if kind == "king" else rng.randrange(1, 3)]
        while len(held) < n:
            held.append(cards.pop())
        mine = []
        for c in list(cards):
            if len(mine) >= n:
                break
            same = sum(x >> 4 == c >> 4 for x in mine)
            if same < sum(x >> 4 == c >> 4 for x in held) or rng.random() < 0.15:
                mine.append(c)
                cards.remove(c)
        while len(mine) < n:
            mine.append(cards.pop())
        hands = {m: mine, H: held}
        for j, s in enumerate(s for s in range(4) if s not in (m, H)):
            hands[s] = cards[j * n:(j + 1) * n]
        pos = dd.TrickPosition(contract, tuple(mask_of(hands[s]) for s in range(4)),
                               rng.randrange(4))
        hits += _holder_covers(pos, m, points)
        team = contract.teams[m]
        probe.new_table()
        got = _compare(pos, team, "own")
        cut += probe.cover_hits
        assert _values_without(probe, "use_cover_bound", pos, team) == dict(got.card_values)
    assert hits >= 60 and cut >= 150, (hits, cut)


def _double_void_trap(rng):
    """Four-card King of Hearts endings where the max seat m and the
    holder H of the KH each hold a singleton of the same two suits (two
    tight suits, m's card the higher), and a third seat X, on lead, holds
    the suit both are void in: when H plays after m, X's lead of that suit
    lets H discard after seeing m's discard, so m keeps a winner of a suit
    H is void in (caught when H does not play just before m)."""
    a, b, v = rng.sample((0, 1, 3), 3)
    m = rng.randrange(4)
    H = (m + rng.choice((1, 2, 3))) % 4
    X, Y = [s for s in range(4) if s not in (m, H)]
    if rng.random() < 0.5:
        X, Y = Y, X
    low = sorted(rng.sample(range(2, 9), 3))
    hands = {m: [a * 16 + rng.randrange(9, 13), b * 16 + rng.randrange(9, 13), 32 + 4, 32 + 3],
             H: [32 + 13, 32 + rng.randrange(5, 13), a * 16 + low[0], b * 16 + low[0]],
             X: [v * 16 + 14, v * 16 + 2, a * 16 + low[1], b * 16 + low[1]],
             Y: [v * 16 + 13, v * 16 + 12, v * 16 + 11, v * 16 + low[2]]}
    contract = penalty_contract("king", must_discard=rng.random() < 0.3)
    return dd.TrickPosition(contract, tuple(mask_of(hands[s]) for s in range(4)), X), m


def _keeps_one_tight_suit(probe, ending, seed, switch):
    """A cover bound (``switch``) on 40 endings with two tight suits
    (``ending(rng)``): the kernel's values against the oracle on two of
    them and against the kernel without the bound on all; enough of them
    must be catches (the max seat takes a penalty card), where the bound
    without its tight-suit condition would claim escapes."""
    from solver.dd import Solver
    rng = random.Random(seed)
    caught = 0
    with Solver(private=True) as solver_:
        for i in range(40):
            pos, m = ending(rng)
            # the position's value alone: the bounds see the root itself
            probe.new_table()
            value = solver_.value(pos, m, "own")
            if i < 2:
                assert value == solve_oracle(pos, m, "own")[0]
            solver_.clear()
            got = dd.solve_position(pos, m, "own")
            assert got.value == value
            assert _values_without(probe, switch, pos, m) == dict(got.card_values), pos
            caught += value < 0
    assert caught >= 10, caught


def test_holder_cover_bound_keeps_one_tight_suit(probe):
    """The holder-cover bound on endings with two tight suits
    (``_double_void_trap``): it holds only when H plays just before the max
    seat, and the kernel gives the values of the kernel without it (the
    oracle on two of them); the bound without its tight-suit condition
    claims escapes that are catches here."""
    _keeps_one_tight_suit(probe, _double_void_trap, 4003, "use_cover_bound")


def _part_covers(pos, m, points):
    """Python twin of the kernel's ``part_cover`` for max seat ``m``: some
    other hand H holds penalty cards above every card m holds of their
    suit (C), m holds no card it must discard, and m's lengths are covered
    by H's in every suit but C's own when C lies in one suit, with at most
    one suit of equal lengths where m holds cards unless H plays just
    before m (``_holder_covers``' cover, for C)."""
    k = pos.contract
    if any(c in k.discard_cards for c in cards_of(pos.hands[m])):
        return False
    mine = cards_of(pos.hands[m])
    for H in range(4):
        if H == m:
            continue
        chosen = [c for c in cards_of(pos.hands[H]) if c in points
                  and all(x < c for x in mine if x >> 4 == c >> 4)]
        if not chosen:
            continue
        if _lengths_covered(pos, m, H, {c >> 4 for c in chosen}):
            return True
    return False


def _part_cover_ending(rng, n):
    """A Queens or Diamonds ending (doubled cards and must-discard at
    random) of ``n`` cards a hand where a hand H holds penalty cards and
    tends to cover the max seat m's suits, while another hand, and often m
    itself, holds penalty cards too (where ``holder_cover`` never
    applies), and m often holds a card above one of H's penalty cards."""
    kind = rng.choice(("queens", "diamonds"))
    points = PENALTY_CONTRACTS[kind][0]
    doubled = {}
    if kind == "queens" and rng.random() < 0.4:
        doubled = {c: rng.randrange(4) for c in points if rng.random() < 0.5}
    contract = penalty_contract(kind, doubled=doubled, must_discard=rng.random() < 0.3)
    m = rng.randrange(4)
    H, X, Y = rng.sample([s for s in range(4) if s != m], 3)
    pen = sorted(points)
    rng.shuffle(pen)
    plain = [c for c in FRENCH.cards if c not in points]
    rng.shuffle(plain)
    hands = {H: pen[:rng.randrange(1, 3)], X: pen[2:3], m: pen[3:4] if rng.random() < 0.5 else [],
             Y: []}
    rest = pen[4:] + plain
    while len(hands[H]) < n:
        hands[H].append(plain.pop())
    rest = [c for c in rest if c not in hands[H]]
    rng.shuffle(rest)
    for c in list(rest):
        if len(hands[m]) >= n:
            break
        same = sum(x >> 4 == c >> 4 for x in hands[m])
        if same < sum(x >> 4 == c >> 4 for x in hands[H]) or rng.random() < 0.1:
            hands[m].append(c)
            rest.remove(c)
    for s in (X, Y):
        while len(hands[s]) < n:
            hands[s].append(rest.pop())
    return dd.TrickPosition(contract, tuple(mask_of(hands[s]) for s in range(4)),
                            rng.randrange(4)), m, points


def test_partial_holder_cover_matches_oracle(probe):
    """Penalty endings where several hands hold penalty cards, or the max
    seat holds some, and one hand H covers the max seat's suits
    (``part_cover``, docs/solver.md "partial holder cover": the max seat keeps H's
    penalty cards above its own out of its tricks): the kernel against
    the oracle, doubled cards and must-discard included, the same values
    with the bound off, and the bound must cut.  The kernel without the
    cover (the max seat longer than H in a suit), or without the check
    that the kept cards are above the max seat's cards of their suit,
    gives wrong values here (the tight-suit condition: the next test).
    Without the check that the max seat holds no card it must discard,
    the values stay right here: the proof needs its discards free, but
    under must-discard H too must discard a penalty card while it holds
    one, and no ending where that leaves the bound too high was found."""
    rng = random.Random(4004)
    hits = cut = 0
    for i in range(300):
        pos, m, points = _part_cover_ending(rng, 3 if i % 4 else 4)
        hits += _part_covers(pos, m, points)
        team = pos.contract.teams[m]
        probe.new_table()
        if i % 4:
            got = _compare(pos, team, "own")
        else:
            got = dd.solve_position(pos, team, "own")
        cut += probe.part_hits
        assert _values_without(probe, "use_part_cover", pos, team) == dict(got.card_values)
    assert hits >= 50 and cut >= 150, (hits, cut)


def _double_void_queens(rng):
    """``_double_void_trap`` in Queens with a second holder: the max seat m
    and H (holding QH over m's low hearts) each hold a singleton of the
    same two suits (m's card the higher), X, on lead, holds the suit both
    are void in, and Y holds that suit's queen, so several hands hold
    penalty cards (``part_cover``, not ``holder_cover``).  When H plays
    after m, X's lead lets H discard after seeing m's discard, and m keeps
    a winner of a suit H is void in."""
    a, b, v = rng.sample((0, 1, 3), 3)
    m = rng.randrange(4)
    H = (m + rng.choice((1, 2, 3))) % 4
    X, Y = [s for s in range(4) if s not in (m, H)]
    if rng.random() < 0.5:
        X, Y = Y, X
    low = sorted(rng.sample(range(2, 9), 3))
    hands = {m: [a * 16 + rng.choice((9, 10, 11, 13)), b * 16 + rng.choice((9, 10, 11, 13)),
                 32 + 4, 32 + 3],
             H: [32 + 12, 32 + rng.randrange(5, 12), a * 16 + low[0], b * 16 + low[0]],
             X: [v * 16 + 14, v * 16 + 2, a * 16 + low[1], b * 16 + low[1]],
             Y: [v * 16 + 13, v * 16 + 12, v * 16 + 11, v * 16 + low[2]]}
    contract = penalty_contract("queens")
    return dd.TrickPosition(contract, tuple(mask_of(hands[s]) for s in range(4)), X), m


def test_partial_holder_cover_keeps_one_tight_suit(probe):
    """The partial holder cover on endings with two tight suits
    (``_double_void_queens``): it holds only when H plays just before the
    max seat, and the kernel gives the values of the kernel without it (the
    oracle on two of them); the bound without its tight-suit condition
    claims escapes that are catches here."""
    _keeps_one_tight_suit(probe, _double_void_queens, 4005, "use_part_cover")


# ---------------------------------------------------------------------------
# dixie-rook: the table keys and the lock bounds (docs/solver.md, "Lock bounds"
# and "Table keys of pinned classes")

def _boundary_key(pos, team, winning_ranks):
    table, _, _ = dd.unit_table(pos, team, "own")
    kern = dd.kernel_for(probe=True)
    kern.use_winning_ranks = winning_ranks
    try:
        kern.load(table, list(pos.hands), pos.leader, [], pos.tricks_left,
                  pos.tricks[pos.contract.team_ids.index(team)])
        return kern.boundary_key()
    finally:
        kern.use_winning_ranks = True
        kern.new_table()


@pytest.mark.parametrize("winning_ranks", (True, False))
def test_table_keys_tell_the_leader_from_a_count_cards_place(winning_ranks):
    """Two Rook positions with the same owners at every relative place, the
    only count card (G5) at another place of its suit and another leader:
    the class of a count card was XORed into the still unmixed leader bits,
    so leader 1 with G5 at one place and leader 3 with it two places away
    had the same key (both keys), and the search took one position's
    bounds for the other's."""
    k = rook_contract(4, 0, 0)
    yellow = ["Y2", "", "", "Y4 Y3 Y1"]
    p_green = ["G14 G12 G11", "G9 G8", "G7 G6 G5", ""]
    q_green = ["G14 G12 G11", "G9 G8", "G5 G4 G3", ""]

    def pos(green, leader):
        hands = tuple(mask_of(ROOK.parse_cards(" ".join(x for x in (g, y) if x)))
                      for g, y in zip(green, [yellow[1], yellow[0], yellow[2], yellow[3]], strict=True))
        return dd.TrickPosition(k, hands, leader, (), points=(0, 0), tricks=(5, 5))

    p, q = pos(p_green, 1), pos(q_green, 3)
    assert _boundary_key(p, 0, winning_ranks) != _boundary_key(q, 0, winning_ranks)


@pytest.mark.parametrize("winning_ranks", (True, False))
def test_rook_ending_with_aliased_keys_matches_oracle(winning_ranks):
    """The 4-card ending where the aliased key gave 85 instead of 75 with
    exact keys (found comparing the two key modes from trick 9)."""
    k = rook_contract(4, 1, 5)
    hands = tuple(mask_of(ROOK.parse_cards(h)) for h in
                  ("Y12 Y2 B12 B6", "G7 B8 B4 B2", "G13 G11 Y7 B11", "G10 G4 G2 Y13"))
    pos = dd.TrickPosition(k, hands, 1, (), points=(55, 10), tricks=(5, 4))
    with dd.probing() as kern:
        kern.use_winning_ranks = winning_ranks
        try:
            kern.new_table()
            got = _compare(pos, 0, "own")
        finally:
            kern.use_winning_ranks = True
    assert got.value == 75


def test_rook_lock_bounds_match_oracle(probe):
    """Rook endings where one side holds the top trumps (the lock bounds:
    that side takes every card of the run and the tricks it must win),
    4 and 6 seats, both teams as the max side: the kernel against the
    oracle, and the bound must cut."""
    rng = random.Random(1833)
    kern = dd.kernel_for()
    hits = 0
    for _ in range(300):
        nseats = rng.choice((4, 4, 6))
        n = rng.choice((2, 3, 3)) if nseats == 4 else 2
        trump = rng.randrange(4)
        contract = rook_contract(nseats, trump, rng.choice((0, 10, 25)))
        cards = list(ROOK.cards)
        rng.shuffle(cards)
        cards = cards[:nseats * n]
        trumps = sorted((c for c in cards if c >> 4 == trump), reverse=True)
        team = rng.randrange(2)
        seats = [s for s in range(nseats) if s % 2 == team]
        hands = [[] for _ in range(nseats)]
        # the top trumps (count cards among them, often) to one team
        run = rng.randrange(1, n + 1)
        for c in trumps[:run]:
            cards.remove(c)
            hands[rng.choice([s for s in seats if len(hands[s]) < n])].append(c)
        for s in range(nseats):
            while len(hands[s]) < n:
                hands[s].append(cards.pop())
        done = 13 - n if nseats == 4 else 9 - n
        mt = rng.randrange(max(0, done // 2 - 2), min(done, done // 2 + 2) + 1)  # bonus open
        pos = dd.TrickPosition(contract, tuple(mask_of(h) for h in hands),
                               rng.randrange(nseats), (),
                               points=(rng.randrange(0, 60, 5), rng.randrange(0, 60, 5)),
                               tricks=(mt, done - mt))
        kern.new_table()
        _compare(pos, rng.randrange(2), "own")
        hits += kern.lock_hits
    assert hits >= 30, hits


def test_second_hand_quick_trick_matches_oracle(probe):
    """Bridge endings with the lead on the table or to come (every strain),
    so that the second seat's side often holds the top card of the led
    suit or a ruff the next seat cannot overruff (``second_hand_quick``,
    issue #40, after DDS's QuickTricksSecondHand; no trumps: the winner's
    further top cards): the kernel against the oracle, the position's value
    alone too (the bound then sees the root), the same values with the
    bound off, and the bound must cut.  Dropping the next seat's ruff
    check, the comparison with its cards, or the top-card test of the
    cashed winners makes it fail."""
    from solver.dd import Solver
    rng = random.Random(4020)
    hits = 0
    with Solver(private=True) as alone:
        for i in range(240):
            strain = rng.randrange(-1, 4)
            contract = dd.bridge_contract(strain)
            pos = _random_trick_position(rng, contract, 3, FRENCH.cards, table_cards=i % 2)
            team = rng.randrange(2)
            probe.new_table()
            got = _compare(pos, team, "own")
            hits += probe.second_hits
            alone.clear()
            assert alone.value(pos, team, "own") == got.value, pos
            hits += probe.second_hits
            assert _values_without(probe, "use_second_hand", pos, team) == \
                dict(got.card_values)
    assert hits >= 60, hits


def test_long_suit_quick_tricks_match_oracle(probe):
    """Bridge endings where the leader holds the top cards of a suit above
    every other hand's, and often every card of it the others cannot
    follow for long (the quick tricks' top sequence and long suit, issue
    #40): the kernel against the oracle, the position's value alone, the
    same values with the count off, and the count must change some node
    counts.  Counting the long suit when another hand holds one card more
    than the sequence, or a sequence card below a partner's card, makes
    it fail."""
    from solver.dd import Solver
    rng = random.Random(4021)
    changed = 0
    on, off = Solver(private=True), Solver(private=True)
    for _ in range(400):
        strain = rng.randrange(-1, 4)
        contract = dd.bridge_contract(strain)
        n = 3
        leader = rng.randrange(4)
        suit = rng.randrange(4)
        ranks = sorted(rng.sample(range(2, 15), 8), reverse=True)
        t = rng.randrange(1, 3)
        hands = {s_: [] for s_ in range(4)}
        hands[leader] = [suit * 16 + r for r in ranks[:t]]
        # the others: at most t cards of the suit each, sometimes t + 1
        limit = t + (rng.random() < 0.3)
        for r_ in ranks[t:]:
            seat = rng.randrange(4)
            if seat == leader:
                if len(hands[leader]) < n:
                    hands[leader].append(suit * 16 + r_)
            elif sum(c >> 4 == suit for c in hands[seat]) < limit and len(hands[seat]) < n:
                hands[seat].append(suit * 16 + r_)
        cards = [c for c in FRENCH.cards if c >> 4 != suit]
        rng.shuffle(cards)
        for s_ in range(4):
            while len(hands[s_]) < n:
                hands[s_].append(cards.pop())
        pos = dd.TrickPosition(contract, tuple(mask_of(hands[s_]) for s_ in range(4)), leader)
        team = rng.randrange(2)
        probe.new_table()
        got = _compare(pos, team, "own")
        on.clear()
        before = on.nodes
        value = on.value(pos, team, "own")
        n_on = on.nodes - before
        assert value == got.value, pos
        with _switched_off(probe, "use_long_suits"):
            other = dd.solve_position(pos, team, "own")
            assert dict(other.card_values) == dict(got.card_values)
            off.clear()
            before = off.nodes
            assert off.value(pos, team, "own") == value
            n_off = off.nodes - before
        changed += other.nodes != got.nodes or n_off != n_on
    assert changed >= 30, changed


def _later_bounds_ending(rng, n):
    """A bridge ending built so the later-tricks bounds apply: trumps, and
    the top trumps to one side spread over both its hands (the run), or
    the top two one in each hand of a side, a third trump there or not
    (the split top two), or the top trump to one seat and the second with
    one more trump to the next seat (the finesse)."""
    trump = rng.randrange(4)
    contract = dd.bridge_contract(trump)
    cards = list(FRENCH.cards)
    rng.shuffle(cards)
    trumps = sorted((c for c in cards if c >> 4 == trump), reverse=True)
    hands = [[] for _ in range(4)]
    leader = rng.randrange(4)
    pick = rng.randrange(3)
    if pick == 0:
        team = rng.randrange(2)
        for c in trumps[:rng.randrange(2, 2 * n + 1)]:
            hands[rng.choice([s for s in (team, team + 2) if len(hands[s]) < n])].append(c)
    elif pick == 1:
        # the top two trumps one in each hand of a side, the next ones to
        # the other side (a third trump with the first side or not)
        team = rng.randrange(2)
        hands[team].append(trumps[0])
        hands[team + 2].append(trumps[1])
        for c in trumps[2:2 + rng.randrange(1, 3)]:
            hands[rng.choice((1 - team, 3 - team))].append(c)
        if rng.random() < 0.4:
            hands[rng.choice((team, team + 2))].append(trumps[5])
    else:
        a = rng.choice([s for s in range(4) if s % 2 == leader % 2])
        h = (a + 1) % 4
        hands[a].append(trumps[0])
        hands[h] += [trumps[1], rng.choice(trumps[2:])]
    used = {c for hand in hands for c in hand}
    rest = [c for c in cards if c not in used and (pick != 1 or c >> 4 != trump)]
    for s in range(4):
        while len(hands[s]) < n:
            hands[s].append(rest.pop())
    return dd.TrickPosition(contract, tuple(mask_of(h) for h in hands), leader)


def test_bridge_later_bounds_match_oracle(probe):
    """Bridge endings where a side's top trumps are spread over its hands
    or the second trump sits behind the top one (``later_bounds``): the
    kernel against the oracle, both sides as the max side, the same
    values with each bound alone and with none, and each bound must cut
    (``use_later_bounds``: 1 the run, 2 the finesse, 4 the top two trumps
    split over one side's hands with a third trump)."""
    rng = random.Random(1804)
    kern = dd.kernel_for()
    hits = {0: 0, 1: 0, 2: 0, 4: 0, 7: 0}
    try:
        for _ in range(200):
            pos = _later_bounds_ending(rng, rng.choice((2, 3, 3)))
            team = rng.randrange(2)
            kern.new_table()
            got = _compare(pos, team, "own")
            hits[7] += kern.later_hits
            for bits in (0, 1, 2, 4):
                kern.use_later_bounds = bits
                kern.new_table()
                assert dict(dd.solve_position(pos, team).card_values) == dict(got.card_values)
                hits[bits] += kern.later_hits
            kern.use_later_bounds = 7
    finally:
        kern.use_later_bounds = 7
    assert hits[0] == 0
    assert min(hits[1], hits[2], hits[4]) >= 10 and hits[7] >= 30, hits


def test_forced_take_bound_matches_oracle(probe):
    """Penalty endings (paranoid, one max seat) where a seat on lead holds
    a suit in which every card of the max seat wins, often with penalty
    cards in a hand void in it (``forced_take``): the kernel against the
    oracle, the same values with the bound off, and the bound must cut."""
    rng = random.Random(1849)
    kern = dd.kernel_for()
    hits = 0
    try:
        for _ in range(240):
            kind = rng.choice(sorted(PENALTY_CONTRACTS))
            points = PENALTY_CONTRACTS[kind][0]
            doubled = {}
            if kind in ("king", "queens") and rng.random() < 0.4:
                doubled = {c: rng.randrange(4) for c in points if rng.random() < 0.5}
            contract = penalty_contract(kind, doubled=doubled,
                                           must_discard=rng.random() < 0.3)
            n = rng.choice((2, 3, 3))
            m = rng.randrange(4)
            leader = rng.choice([s for s in range(4) if s != m])
            suit = rng.randrange(4)
            cards = [c for c in FRENCH.cards if c >> 4 == suit]
            rng.shuffle(cards)
            top = sorted(cards[:rng.randrange(2, n + 2)], reverse=True)
            hands = {s: [] for s in range(4)}
            hands[m] = top[:rng.randrange(1, len(top))]
            hands[leader] = [top[len(hands[m])]]
            # a seat void in the suit, given penalty cards when there are any
            void = rng.choice([s for s in range(4) if s not in (m, leader)])
            rest = [c for c in FRENCH.cards if c >> 4 != suit or c < min(top)]
            rng.shuffle(rest)
            pen = [c for c in points if c >> 4 != suit]
            if pen and rng.random() < 0.7:
                hands[void].append(rng.choice(pen))
            used = {c for h in hands.values() for c in h}
            rest = [c for c in rest if c not in used]
            for s in range(4):
                while len(hands[s]) < n:
                    c = rest.pop()
                    if s == void and c >> 4 == suit:
                        rest.insert(0, c)
                        continue
                    hands[s].append(c)
            pos = dd.TrickPosition(contract, tuple(mask_of(hands[s]) for s in range(4)), leader)
            kern.new_table()
            got = _compare(pos, contract.teams[m], "own")
            hits += kern.forced_hits
            kern.use_forced_bound = False
            kern.new_table()
            assert dict(dd.solve_position(pos, contract.teams[m]).card_values) == \
                dict(got.card_values)
            kern.use_forced_bound = True
    finally:
        kern.use_forced_bound = True
    assert hits >= 30, hits


def test_node_profile_counts_every_node_where_it_was_searched(probe):
    """The probe build's node profile (bench/dd_ordering.py --profile):
    every node of a solve counted once, by tricks left and cards on the
    table; the trick-boundary nodes the table settled are some of the
    leader's; a reset empties it."""
    rng = random.Random(5)
    for _ in range(4):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = tuple(sum(1 << (16 * (c // 13) + c % 13 + 2) for c in deck[i * 5:(i + 1) * 5])
                      for i in range(4))
        pos = dd.TrickPosition(dd.bridge_contract(rng.randrange(-1, 4)), hands,
                               rng.randrange(4))
        probe.new_table()
        probe.reset_cut_stats()
        got = dd.solve_position(pos, max_team=pos.leader % 2)
        prof = probe.node_profile()
        assert sum(sum(row) for row, _ in prof.values()) == got.nodes
        assert max(prof) <= 5 and all(hits <= row[0] for row, hits in prof.values())
        assert any(hits for _, hits in prof.values())
    probe.reset_cut_stats()
    assert probe.node_profile() == {}
