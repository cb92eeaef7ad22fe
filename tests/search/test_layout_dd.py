"""The layout-game solver: the Cython kernel against the pure-Python
minimax oracle (``solver/reference/layout_oracle.py``), value for value and action by action, on random
endings reached by random play; determinism; consistency along a line of
full deals; hand-computed positions; bad input."""

import random

import pytest

from solver.cards import FRENCH
from solver.dd import layout as layout_dd
from solver.dd.layout import PASS, solve_layout
from solver.errors import LimitError, PositionError
from solver.reference import layout_oracle as oracle

C, D, H, S = 0, 1, 2, 3
native = pytest.importorskip("solver.dd._layoutdd")


def card(text):
    return FRENCH.parse(text)


def cards(text):
    return FRENCH.parse_cards(text, unique=False)


def oracle_solution(hands, rows, to_move, finished, seat, partnership):
    """The oracle's values in points, through the facade's own validation."""
    masks, lo, hi, nout, earned = layout_dd._normalize(hands, rows, to_move, finished)
    scoring = (seat, seat ^ 2) if partnership else (seat,)
    already = sum(earned[s] for s in scoring)
    if nout >= 3:
        return already, {}
    value, actions, _ = oracle.solve(masks, lo, hi, to_move, nout,
                                     sum(1 << s for s in scoring))
    return already + 50 * value, {a: already + 50 * v for a, v in actions}


def _compare(rng, low, high, count):
    checked = 0
    for _ in range(count):
        hands, rows, to_move, finished = oracle.random_position(rng, rng.randint(low, high))
        for partnership in (False, True):
            seat = rng.randrange(4)
            got = solve_layout(hands, rows, to_move, finished, seat=seat,
                               partnership=partnership, tt_mb=1)
            value, actions = oracle_solution(hands, rows, to_move, finished, seat,
                                             partnership)
            assert (got.value, dict(got.actions)) == (value, actions), \
                (hands, rows, to_move, finished, seat, partnership)
            checked += 1
    return checked


def test_kernel_matches_oracle_on_small_endings():
    # 1-4 cards a hand; 5000 solves
    assert _compare(random.Random(6), 4, 16, 2500) == 5000


def test_kernel_matches_oracle_on_larger_endings():
    # 14-21 cards: the table (positions with >= 6 cards) and the private-run
    # equivalence both act here
    assert _compare(random.Random(66), 14, 21, 250) == 500


def test_private_runs_share_one_value(impl):
    # seat 0 holds the whole rest of two directions (2C-3C below 4C, AD above KD):
    # both are private runs, so both moves have the same value
    hands = [cards("3C 2C AD 9H"), cards("8H 7H"), cards("6H 5H 4H"), cards("3H 2H")]
    rows = {C: (4, 14), D: (2, 13), H: (10, 14), S: (2, 14)}
    for partnership in (False, True):
        for seat in range(4):
            got = solve_layout(hands, rows, 0, [], seat=seat, partnership=partnership)
            assert got.actions[card("3C")] == got.actions[card("AD")]
            assert dict(got.actions) == oracle_solution(hands, rows, 0, [], seat,
                                                        partnership)[1]


@pytest.fixture(params=["cython", "python"])
def impl(request, monkeypatch):
    """Run a test through the facade on the kernel and on the oracle twin."""
    if request.param == "python":
        monkeypatch.setattr(layout_dd, "LayoutSolver", oracle.LayoutSolver)
        monkeypatch.setattr(layout_dd, "_solvers", {})
    return request.param


def test_hand_computed_choice(impl):
    # Seat 3 is out first (200).  Clubs run 4..A (3C, 2C left), diamonds 2..Q
    # (KD, AD left); hearts and spades complete.  Seat 0 (3C KD) to move.
    #   KD: seat 1 plays AD, out 2nd (150); seat 2 cannot play 2C (pass); seat 0
    #       plays 3C, out 3rd (100); seat 2 is last (50).
    #   3C: seat 1 cannot play AD (pass); seat 2 plays 2C, out 2nd (150); seat 0
    #       plays KD, out 3rd (100); seat 1 is last (50).
    hands = [cards("3C KD"), cards("AD"), cards("2C"), []]
    rows = {C: (4, 14), D: (2, 12), H: (2, 14), S: (2, 14)}
    kd, c3 = card("KD"), card("3C")
    got = solve_layout(hands, rows, 0, [3], seat=0)
    assert (got.value, dict(got.actions)) == (100, {kd: 100, c3: 100})
    # seat 2 alone: seat 0 chooses KD and leaves it last
    got = solve_layout(hands, rows, 0, [3], seat=2)
    assert (got.value, dict(got.actions)) == (50, {kd: 50, c3: 150})
    assert got.best_actions == (kd,)
    # team 1+3 (200 already): KD gives 350, 3C 250; seat 0 (opponent) picks 3C
    got = solve_layout(hands, rows, 0, [3], seat=1, partnership=True)
    assert (got.value, dict(got.actions)) == (250, {kd: 350, c3: 250})
    assert got.margin == 0
    # team 0+2: 100 + 150 = 250 with 3C, 100 + 50 = 150 with KD
    got = solve_layout(hands, rows, 0, [3], seat=0, partnership=True)
    assert (got.value, dict(got.actions)) == (250, {kd: 150, c3: 250})


def test_forced_pass_is_the_single_action(impl):
    hands = [cards("3C KD"), cards("AD"), cards("2C"), []]
    rows = {C: (4, 14), D: (2, 12), H: (2, 14), S: (2, 14)}
    # seat 2 to move holds only 2C, which needs 3C first: a forced pass;
    # then seat 0 plays, with the same values as above
    got = solve_layout(hands, rows, 2, [3], seat=2)
    assert dict(got.actions) == {PASS: 50}
    got = solve_layout(hands, rows, 2, [3], seat=1, partnership=True)
    assert dict(got.actions) == {PASS: 250}


def test_game_over_has_no_actions():
    hands = [[], cards("2C"), [], []]
    rows = {C: (3, 14), D: (2, 14), H: (2, 14), S: (2, 14)}
    got = solve_layout(hands, rows, 1, [2, 0, 3], seat=1)
    assert (got.value, dict(got.actions)) == (50, {})
    got = solve_layout(hands, rows, 1, [2, 0, 3], seat=1, partnership=True)
    assert got.value == 50 + 100   # seat 1 last, seat 3 third


def test_determinism_same_values_and_nodes():
    rng = random.Random(3)
    positions = [oracle.random_position(rng, n) for n in (52, 40, 30)]
    first = [solve_layout(*p, seat=1) for p in positions]
    again = [solve_layout(*p, seat=1) for p in reversed(positions)][::-1]
    for a, b in zip(first, again, strict=True):
        assert (a.value, dict(a.actions), a.nodes) == (b.value, dict(b.actions), b.nodes)
        assert a.nodes > 0


def test_values_consistent_along_full_deals():
    # value(position) = value of the action taken = value(next position), for
    # both objectives, along random lines of play of full deals; and the
    # table size never changes a value
    rng = random.Random(11)
    for deal in range(3):
        hands, rows, to_move, finished = oracle.random_position(rng, 52)
        for partnership in (False, True):
            seat = deal % 4
            pos = (hands, rows, to_move, finished)
            got = solve_layout(*pos, seat=seat, partnership=partnership)
            small = solve_layout(*pos, seat=seat, partnership=partnership, tt_mb=1)
            assert dict(got.actions) == dict(small.actions)
    # a line of play: each step's chosen action value equals the next value
    hands, rows, to_move, finished = oracle.random_position(random.Random(5), 36)
    hands = [list(h) for h in hands]
    rows, finished = dict(rows), list(finished)
    steps = 0
    while len(finished) < 3:
        got = solve_layout(hands, rows, to_move, finished, seat=0, partnership=True)
        action = rng.choice(sorted(got.actions))
        expected = got.actions[action]
        if action != PASS:
            hands[to_move].remove(action)
            s, r = action >> 4, action & 15
            low, high = rows.get(s, (11, 11))
            rows[s] = (min(low, r), max(high, r))
            if not hands[to_move]:
                finished.append(to_move)
        to_move = (to_move + 1) % 4
        while not hands[to_move] and len(finished) < 3:
            to_move = (to_move + 1) % 4
        nxt = solve_layout(hands, rows, to_move, finished, seat=0, partnership=True)
        assert nxt.value == expected
        steps += 1
    assert steps >= 20


def test_table_is_bounded():
    solve_layout(*oracle.random_position(random.Random(1), 52), seat=0, tt_mb=2)
    (solver,) = layout_dd._solvers.values()
    assert solver.tt_bytes <= 2 << 20 and solver.tt_entries == solver.tt_bytes // 32


BASE_ROWS = {C: (4, 14), D: (2, 12), H: (2, 14), S: (2, 14)}
BASE_HANDS = [["3C", "KD"], ["AD"], ["2C"], []]


def _bad(hands=None, rows=None, to_move=0, finished=(3,), **kw):
    hands = [cards(h) if all(isinstance(c, str) for c in h) else h
             for h in (BASE_HANDS if hands is None else hands)]
    return solve_layout(hands, BASE_ROWS if rows is None else rows, to_move,
                        list(finished), **kw)


@pytest.mark.parametrize("hands, message", [
    ([["3C", "KD", "3C"], ["AD"], ["2C"], []], "duplicate card 3C"),
    ([["3C", "KD"], ["AD", "3C"], ["2C"], []], "duplicate card 3C"),
    ([["3C", "KD"], ["AD", "QD"], ["2C"], []], "QD is both on the layout and in hand 1"),
    ([["3C", "KD"], ["AD"], [], []], "2C is neither on the layout nor in a hand"),
    ([[35, 99], [], [], []], "99 is not a card index"),
    ([["3C", "KD"], ["AD"], ["2C"]], "hands must be a list of 4"),
])
def test_bad_hands(hands, message):
    with pytest.raises(PositionError, match=message):
        _bad(hands=hands)


@pytest.mark.parametrize("rows, message", [
    ({C: (4, 14), D: (2, 12), H: (2, 14), S: (12, 14)}, r"impossible row \(12, 14\)"),
    ({C: (4, 14), D: (2, 12), H: (2, 14), S: (2, 10)}, r"impossible row \(2, 10\)"),
    ({C: (4, 15), D: (2, 12), H: (2, 14), S: (2, 14)}, r"impossible row \(4, 15\)"),
    ({C: (4, 14), D: (2, 12), H: (2, 14), 4: (2, 14)}, "row key 4 is not a suit"),
    ({C: (4, 14), D: (2, 12), H: (2, 14), S: 7}, r"row of suit 3 must be \(low, high\)"),
    ({C: (4, 14), D: (2, 12), H: (2, 14)}, "2S is neither on the layout nor in a hand"),
])
def test_bad_rows(rows, message):
    with pytest.raises(PositionError, match=message):
        _bad(rows=rows)


@pytest.mark.parametrize("kw, message", [
    (dict(finished=()), "seat 3 holds no cards but is not listed"),
    (dict(finished=(3, 3)), "listed twice"),
    (dict(finished=(3, 1)), "seat 1 is listed as out but holds cards"),
    (dict(finished=(3, 4)), r"finished\[1\] must be a seat"),
    (dict(to_move=3), "seat 3 is out and cannot be the seat to move"),
    (dict(to_move=4), "to_move must be a seat"),
    (dict(seat=-1), "seat must be a seat"),
    (dict(partnership="yes"), "partnership must be True or False"),
])
def test_bad_position(kw, message):
    with pytest.raises(PositionError, match=message):
        _bad(**kw)


@pytest.mark.parametrize("tt_mb", [0, -1, 0.5, 10**9, float("nan"), "64", True, None])
def test_absurd_table_size(tt_mb):
    with pytest.raises(LimitError, match="tt_mb"):
        _bad(tt_mb=tt_mb)


def test_errors_are_value_errors_naming_the_path():
    with pytest.raises(ValueError) as info:
        _bad(hands=[["3C", "KD", "3C"], ["AD"], ["2C"], []])
    assert info.value.path == "hands[0]"
