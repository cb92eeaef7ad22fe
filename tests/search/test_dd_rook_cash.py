"""Rook's count beyond the top-trump run (``cash_run`` in
csrc/dd/ddbounds.pxd, docs/solver.md "Lock bounds"): the tricks the hand
on lead surely takes by cashing its top cards and the count those tricks
surely carry.  Its Python twin against the brute force
(solver/reference/dd_oracle.py) on random small dixie-rook endings, 4 and
6 seats, each of its conditions dropped in turn (the twin then claims
more than best play allows on some ending); the kernel's count equal to
the twin's, its bounds around the brute force's value, its values equal
to the brute force's and to its own with the cash off; and its
winning-ranks keys on the positions they match."""

from __future__ import annotations

import random

import pytest

from solver.cards import ROOK, mask_of
from solver.dd import trick as dd
from solver.games.dixie_rook.exact import rook_contract
from solver.games.dixie_rook.notation import card_count
from solver.reference.dd_oracle import solve_oracle

#: the twin's conditions that can be dropped, each one the proof needs
CONDITIONS = ("trump_control", "partners_cards", "follow_count", "lowest", "longest",
              "one_strategy")


def _top(mine: list[int], others: list[int]) -> list[int]:
    """``mine``'s cards above every card of ``others`` (one suit)."""
    hi = max(others, default=-1)
    return [c for c in mine if c > hi]


def twin(contract, hands, leader: int, drop=()) -> tuple[int, int]:
    """Twin of ``cash_run`` in game points ("own" objective): (n, points)
    for the hand on lead of a trick boundary: the tricks it surely cashes
    in a row and the count they surely carry to its side, beyond its top
    trumps (the run the lock bounds count).  ``drop``: conditions left
    out."""
    ns, trump = contract.nseats, contract.trump
    held = [[c for c in range(64) if (h >> c) & 1] for h in hands]
    side = leader % 2
    others = [c for i in range(ns) if i != leader for c in held[i]]
    if "partners_cards" in drop:
        others = [c for i in range(ns) if i % 2 != side for c in held[i]]
    rounds = [0] * 4
    tops = _top([c for c in held[leader] if c >> 4 == trump], [c for c in others if c >> 4 == trump])
    rounds[trump] = len(tops)
    most = max(sum(1 for c in held[i] if c >> 4 == trump) for i in range(ns) if i != leader)
    pts = 0
    if most <= rounds[trump] or "trump_control" in drop:
        for s in range(4):
            if s != trump:
                led = _top([c for c in held[leader] if c >> 4 == s], [c for c in others if c >> 4 == s])
                rounds[s] = len(led)
                pts += sum(card_count(c) for c in led)
    n = sum(rounds)
    if n == 0:
        return 0, 0
    for i in range(ns):
        if i % 2 == side:
            continue
        for s in range(4):
            mine = sorted(card_count(c) for c in held[i] if c >> 4 == s)
            if "lowest" in drop:
                mine.reverse()
            j = len(mine) if "follow_count" in drop else min(rounds[s], len(mine))
            pts += sum(mine[:j])
    return min(n, len(held[leader])), pts


def _run(contract, hands, drop=()) -> tuple[int, int, int, bool]:
    """(side, cards, count, last) of the run of top trumps one side
    holds; ``last``: the top trump's hand holds more trumps than any other
    hand, or nothing but trumps (it keeps the top trump for the last
    trick; ``drop`` "longest": as many as another hand will do)."""
    trump = contract.trump
    trumps = sorted(((c, i % 2) for i, h in enumerate(hands) for c in range(64)
                     if (h >> c) & 1 and c >> 4 == trump), reverse=True)
    if not trumps:
        return -1, 0, 0, False
    side = trumps[0][1]
    run = 0
    pts = 0
    for c, s in trumps:
        if s != side:
            break
        run += 1
        pts += card_count(c)
    lengths = [sum(1 for c in range(64) if (h >> c) & 1 and c >> 4 == trump) for h in hands]
    h = next(i for i, m in enumerate(hands) if (m >> trumps[0][0]) & 1)
    longest = max((x for i, x in enumerate(lengths) if i != h), default=0)
    only = lengths[h] == bin(hands[h]).count("1")
    last = lengths[h] >= longest if "longest" in drop else lengths[h] > longest
    return side, run, pts, last or only


def twin_floor(pos, drop=()) -> int:
    """The leading side's value ("own", nothing won yet) that the twin
    and the top-trump run prove: the run's count when that side holds
    it, the cash's count, the nest when the cash takes every trick or
    the top trump's hand keeps it for the last (not both: the cash
    would lead that trump, unless it takes every trick), and the
    most-tricks bonus for the fewest tricks they leave it."""
    k = pos.contract
    side = pos.leader % 2
    left = pos.tricks_left
    n, pts = twin(k, pos.hands, pos.leader, drop)
    rs, run, rpts, last = _run(k, pos.hands, drop)
    if rs == side and last and n < left and "one_strategy" not in drop:
        # the cash would lead the top trump the last trick needs
        n, pts = 0, 0
    tricks = n
    if n == left:
        tricks += k.last_extra_tricks
        pts += k.last_points
    if rs == side:
        pts += rpts
        tricks = max(tricks, -(-run // (k.nseats // 2)) + last * k.last_extra_tricks)
        if last and n < left:
            pts += k.last_points
    mine = pos.tricks[side] + tricks
    theirs = pos.tricks[1 - side] + left + k.last_extra_tricks - tricks
    bonus = k.most_tricks_bonus
    return pts + (bonus if mine > theirs else bonus // 2 if mine == theirs else 0)


def _ending(rng, nseats: int, n: int):
    """A dixie-rook ending of ``n`` cards a hand at a trick boundary, the
    hand on lead often holding top trumps and top cards of two or three
    suits in play (so that it cashes and the others must follow)."""
    trump = rng.randrange(4)
    suits = [trump] + rng.sample([s for s in range(4) if s != trump], rng.choice((1, 2, 2, 3)))
    cards = [c for c in ROOK.cards if c >> 4 in suits]
    while len(cards) < nseats * n:
        cards = list(ROOK.cards)
    rng.shuffle(cards)
    cards = cards[:nseats * n]
    leader = rng.randrange(nseats)
    hands: list[list[int]] = [[] for _ in range(nseats)]
    # the top cards of some suits to the hand on lead
    for s in suits:
        if rng.random() < 0.6:
            for c in sorted((c for c in cards if c >> 4 == s), reverse=True)[:rng.randrange(1, 3)]:
                if len(hands[leader]) < n:
                    cards.remove(c)
                    hands[leader].append(c)
    for i in range(nseats):
        while len(hands[i]) < n:
            hands[i].append(cards.pop())
    contract = rook_contract(nseats, trump, rng.choice((0, 10, 25)))
    done = (13 if nseats == 4 else 9) - n
    mine = rng.randrange(max(0, done // 2 - 2), min(done, done // 2 + 2) + 1)
    return dd.TrickPosition(contract, tuple(mask_of(h) for h in hands), leader, (),
                            points=(0, 0), tricks=(mine, done - mine))


def _endings(seed: int, count: int):
    rng = random.Random(seed)
    for i in range(count):
        nseats = (4, 4, 6)[i % 3]
        n = rng.choice((2, 3, 3)) if nseats == 4 else 2
        yield _ending(rng, nseats, n)


#: endings built so that a condition the random ones never needed shows
#: (hands from seat 0, the trump colour, the nest's count, the seat on
#: lead, the tricks won so far).  Red trumps, seat 0 on lead: its yellows
#: are above the other side's but not its partner's Y14, which must
#: overtake and then lead its G2 to the other side; without
#: "partners_cards" the twin counts both tricks.  Green trumps, 6 seats,
#: seat 3 on lead with G12 G4: it keeps the G12 for the last trick (it
#: holds nothing but trumps) or cashes it now and loses the G4 to the
#: G10, not both; without "one_strategy" the twin counts the G10 and the
#: nest
BUILT = [(("Y13 Y12", "G13 G3", "Y14 G2", "G12 G4"), 0, 25, 0, (5, 6)),
         (("R14 G10", "R6 G2", "G5 G7", "G4 G12", "R12 R13", "R3 G9"), 1, 25, 3, (3, 4))]


def _built():
    for hands, trump, nest, leader, tricks in BUILT:
        yield dd.TrickPosition(rook_contract(len(hands), trump, nest),
                               tuple(mask_of(ROOK.parse_cards(h)) for h in hands), leader, (),
                               points=(0, 0), tricks=tricks)


def test_twin_is_sound_and_each_condition_is_needed():
    """On random Rook endings (4 and 6 seats) the twin's floor never
    exceeds the leading side's value under best play (the brute force);
    it claims more than the run alone often; and with any one condition
    dropped it claims more than best play allows on some ending (the
    partner's cards and the one strategy on the endings built for
    them)."""
    unsound = dict.fromkeys(CONDITIONS, 0)
    claimed = 0
    for pos in [*_endings(5050, 900), *_built()]:
        side = pos.leader % 2
        value = solve_oracle(pos, side, "own")[0]
        floor = twin_floor(pos)
        assert floor <= value, (pos, floor, value)
        n, pts = twin(pos.contract, pos.hands, pos.leader)
        claimed += pts > 0
        for cond in CONDITIONS:
            unsound[cond] += twin_floor(pos, (cond,)) > value
    assert claimed >= 150, claimed
    assert all(unsound.values()), unsound


def _load(kern, pos, team):
    table, offset, unit = dd.unit_table(pos, team, "own")
    ti = pos.contract.team_ids.index(team)
    kern.load(table, list(pos.hands), pos.leader, [], pos.tricks_left, pos.tricks[ti])
    return offset, unit


def test_kernel_cash_is_the_twins_and_its_bounds_hold():
    """The kernel's ``cash_run`` counts what the twin counts (in units),
    for either team as the max side, and its bounds with the run's
    (``ProbeKernel.lock_bounds``) hold the brute force's value."""
    cut = 0
    with dd.probing() as kern:
        for pos in _endings(5051, 500):
            n, pts = twin(pos.contract, pos.hands, pos.leader)
            value = {}
            for team in (0, 1):
                offset, unit = _load(kern, pos, team)
                got = kern.cash_run()
                assert got is not None
                assert got[:2] == (n, pts // unit), (pos, team, got, n, pts)
                lb, ub = kern.lock_bounds()
                value[team] = solve_oracle(pos, team, "own")[0]
                assert offset + unit * lb <= value[team] <= offset + unit * ub, (pos, team)
                kern.use_cash_bound = False
                _load(kern, pos, team)
                lb0, ub0 = kern.lock_bounds()
                kern.use_cash_bound = True
                assert lb0 <= lb and ub <= ub0
                cut += (lb, ub) != (lb0, ub0)
    assert cut >= 150, cut


def test_kernel_with_the_cash_matches_oracle_and_cuts():
    """The kernel with the cash (the default) against the brute force,
    card by card, on Rook endings of 4 and 6 seats, either team as the
    max side, "own" and "difference"; the same values with the cash off;
    and the cash must cut where the run alone would not."""
    hits = 0
    rng = random.Random(5052)
    with dd.probing() as kern:
        for pos in _endings(5053, 300):
            team = rng.randrange(2)
            objective = rng.choice(("own", "difference"))
            kern.new_table()
            got = dd.solve_position(pos, team, objective)
            hits += kern.cash_hits
            value, values, _ = solve_oracle(pos, team, objective)
            assert dict(got.card_values) == values, (pos, team, objective)
            assert got.value == value
            kern.use_cash_bound = False
            kern.new_table()
            try:
                assert dict(dd.solve_position(pos, team, objective).card_values) == values
            finally:
                kern.use_cash_bound = True
                kern.new_table()
    assert hits >= 100, hits


@pytest.mark.parametrize("seed", [1, 2])
def test_deeper_rook_endings_agree_with_the_cash_off(seed):
    """Five and six cards a hand with 4 seats (winning ranks and exact
    keys), four with 6: the kernel's values with and without the cash
    agree."""
    rng = random.Random(5060 + seed)
    with dd.probing() as kern:
        try:
            for i in range(12):
                nseats = 6 if i % 4 == 3 else 4
                n = 4 if nseats == 6 else 5 + i % 2
                pos = _ending(rng, nseats, n)
                team = rng.randrange(2)
                kern.use_winning_ranks = i % 2 == 0
                vals = []
                for on in (True, False):
                    kern.use_cash_bound = on
                    kern.new_table()
                    vals.append(dict(dd.solve_position(pos, team, "own").card_values))
                assert vals[0] == vals[1], (pos, team)
        finally:
            kern.use_cash_bound = True
            kern.use_winning_ranks = True
            kern.new_table()


def test_cash_keys_hold_on_the_positions_they_match():
    """The cards ``cash_run`` keys (the lowest counted top card of each
    suit: every card from it up keeps its owner) are all it compares:
    relabelling the cards below them within each suit, every hand keeping
    its lengths and its count cards' counts, leaves its count unchanged
    or larger."""
    rng = random.Random(5070)
    checked = 0
    with dd.probing() as kern:
        for pos in _endings(5071, 300):
            if pos.contract.nseats != 4:
                continue
            _load(kern, pos, 0)
            n, g, key = kern.cash_run()
            if n == 0:
                continue
            hands = [list(c for c in range(64) if (h >> c) & 1) for h in pos.hands]
            keyed = {c >> 4: c for c in key}
            for _ in range(4):
                moved = _relabel(rng, hands, keyed)
                if moved is None:
                    continue
                other = dd.TrickPosition(pos.contract, tuple(mask_of(h) for h in moved),
                                         pos.leader, (), points=pos.points, tricks=pos.tricks)
                _load(kern, other, 0)
                n2, g2, _ = kern.cash_run()
                assert n2 >= n and g2 >= g, (pos, other)
                checked += 1
    assert checked >= 100, checked


def _relabel(rng, hands, keyed):
    """The hands with the cards below each suit's keyed card (every card
    of a suit without one) relabelled: cards of equal count trade labels
    among their holders, so each hand keeps its lengths and its count
    cards' counts in every suit, and every card above the key stays (the
    positions a winning-ranks entry of those keys matches, and more: the
    count cards' places may move).  None when nothing can move."""
    out = [list(h) for h in hands]
    moved = False
    for s in range(4):
        line = keyed.get(s, 16 * s + 16)
        low = sorted((c for h in out for c in h if c >> 4 == s and c < line), reverse=True)
        if len(low) < 2:
            continue
        # the new order keeps count classes at their places: shuffle the
        # cards of equal count among themselves
        by_count: dict[int, list[int]] = {}
        for c in low:
            by_count.setdefault(card_count(c), []).append(c)
        for cards in by_count.values():
            rng.shuffle(cards)
        new = {}
        iters = {k: iter(v) for k, v in by_count.items()}
        for c in low:
            new[c] = next(iters[card_count(c)])
        for h in out:
            h[:] = [new.get(c, c) for c in h]
        moved = moved or any(new[c] != c for c in low)
    return out if moved else None
