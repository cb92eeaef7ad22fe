"""The penalty-card count (``count_floor`` in csrc/dd/ddbounds.pxd,
docs/solver.md "Penalty cards counted by the tricks the max seat loses"):
its Python twin against the brute force (solver/reference/dd_oracle.py)
on random small Queens and Diamonds endings, each of its conditions
dropped in turn (the twin then claims more than best play allows on some
ending), the kernel with the count against the brute force and against
itself with the count off, and its winning-ranks keys on the positions
they match.

The twin counts the tricks the max seat surely loses with the kernel's
own ``sure_losses`` (read through the Ltoosh floor, ``toosh_floor``, on
the same hands: tests/search/test_dd_toosh.py holds that count to its
own twin and to the brute force); what it adds is the count of penalty
cards those losses leave the max seat, which is what is checked here."""

from __future__ import annotations

import random

import pytest

from solver.cards import FRENCH, mask_of
from solver.dd import trick as dd
from solver.games.contract_match.exact import penalty_contract
from solver.reference.dd_oracle import solve_oracle

#: the twin's conditions that can be dropped, each one the proof needs
CONDITIONS = ("each_hand", "own_cards", "costliest", "losses")


def _losses(kern, hands, me: int, leader: int, k: int) -> int:
    """Tricks of the ``k`` left the max seat surely loses, by the
    kernel's ``sure_losses`` (the Ltoosh floor asked for every loss:
    its value is -(k - x) tricks)."""
    pos = dd.TrickPosition(penalty_contract("ltoosh"), tuple(hands), leader)
    table, _, _ = dd.unit_table(pos, me, "own")
    kern.load(table, list(pos.hands), leader, [], k, 0)
    v, _ = kern.toosh_floor(0)
    return k + v


def twin(table: dict, hands, me: int, k: int, x: int, drop=()) -> int:
    """Twin of ``count_floor`` with ``x`` sure losses: a lower bound on
    the max seat's future value (units) from the penalty cards it can
    take in the k - x tricks it may win (``drop``: conditions left out)."""
    win, lose = table["win_pts"], table["lose_pts"]
    if "losses" in drop:
        x += 1                  # one loss more than proved
    w = max(k - x, 0)
    v = k * table["trick_lose"] + table["last_lose"]
    costs = []
    for i, h in enumerate(hands):
        cards = [c for c in range(64) if (h >> c) & 1 and (win[c] or lose[c])]
        v += sum(lose[c] for c in cards)
        if "own_cards" in drop and i == me:
            continue
        mine = sorted((lose[c] - win[c] for c in cards if lose[c] > win[c]),
                      reverse="costliest" not in drop)
        costs.append(mine)
    if "each_hand" in drop:
        # one penalty card a trick instead of one a hand
        return v - sum(sorted((c for h in costs for c in h), reverse=True)[:w])
    return v - sum(sum(h[:w]) for h in costs)


def _ending(rng, n: int, kind: str):
    """A Queens or Diamonds ending of ``n`` cards a hand: few suits in
    play (long hands, voids), the penalty suit or the queens always in
    it, a doubled penalty card now and then (another cost)."""
    fewest = -(-4 * n // 13)
    suits = rng.sample(range(4), max(fewest, rng.choice((2, 3, 3, 4))))
    if kind == "diamonds" and 1 not in suits:
        suits[0] = 1
    cards = [c for c in FRENCH.cards if c >> 4 in suits]
    rng.shuffle(cards)
    hands = [sorted(cards[i * n:(i + 1) * n]) for i in range(4)]
    pens = [c for h in hands for c in h
            if (kind == "queens" and c & 15 == 12) or (kind == "diamonds" and c >> 4 == 1)]
    doubled = {}
    if pens and rng.random() < 0.3:
        doubled = {rng.choice(pens): rng.randrange(4)}
    return hands, rng.randrange(4), rng.randrange(4), doubled


#: endings built so that a condition the random ones never needed shows
#: (hands of seats 0-3, the max seat, the leader, the doubled card and
#: its revealer): the max seat loses the first club under the 3C or 4C
#: and must win the second with the AC; seat 1, void in clubs, discards
#: a queen on each and keeps the doubled QS for the max seat's trick:
#: without "costliest" the twin counts the cheaper QH there
BUILT = [("queens", ("2C AC", "QS QH", "5C 6C", "3C 4C"), 0, 3, ("QS", 2))]


def _position(kind, hands, leader, doubled, must_discard=False, partners=False):
    contract = penalty_contract(kind, partners=partners, doubled=doubled,
                                must_discard=must_discard)
    return dd.TrickPosition(contract, tuple(mask_of(h) for h in hands), leader)


def _best(kern, pos, me: int, n: int) -> int:
    """The max seat's future value under best play, in units: the brute
    force's up to 4 cards a hand, else the kernel's with the count off
    (held to the brute force by the next test)."""
    table, offset, unit = dd.unit_table(pos, me, "own")
    if n <= 4:
        return (solve_oracle(pos, me, "own")[0] - offset) // unit
    kern.use_count_bound = False
    kern.new_table()
    try:
        return (dd.solve_position(pos, me, "own").value - offset) // unit
    finally:
        kern.use_count_bound = True


def test_twin_is_sound_and_each_condition_is_needed():
    """On random Queens and Diamonds endings the twin's bound never
    exceeds the max seat's value under best play (the brute force's on 3
    and 4 cards a hand, the kernel's with the count off on 5 to 7); it
    claims more than the generic bound often; and with any one condition
    dropped it claims more than best play allows on some ending (the
    costliest cards on the ending built for it)."""
    rng = random.Random(5080)
    unsound = dict.fromkeys(CONDITIONS, 0)
    claimed = 0
    with dd.probing() as kern:
        kern.use_count_bound = True     # off by default (docs/solver.md)
        for i in range(700 + len(BUILT)):
            kind = ("queens", "diamonds")[i % 2]
            n = 3 if i < 400 else 4 if i < 460 else 5 + i % 3
            if i < 700:
                hands, me, leader, doubled = _ending(rng, n, kind)
            else:
                kind, cards, me, leader, (card, by) = BUILT[i - 700]
                hands = [FRENCH.parse_cards(h) for h in cards]
                doubled = {FRENCH.parse_cards(card)[0]: by}
                n = len(hands[0])
            pos = _position(kind, hands, leader, doubled)
            table, _, _ = dd.unit_table(pos, me, "own")
            value = _best(kern, pos, me, n)
            x = _losses(kern, pos.hands, me, leader, n)
            bound = twin(table, pos.hands, me, n, x)
            assert bound <= value, (kind, hands, me, leader, doubled, x, bound, value)
            claimed += bound > twin(table, pos.hands, me, n, 0)
            for cond in CONDITIONS:
                unsound[cond] += twin(table, pos.hands, me, n, x, (cond,)) > value
        kern.use_count_bound = False
    assert claimed >= 60, claimed
    assert all(unsound.values()), unsound


def test_kernel_count_matches_oracle_and_cuts():
    """The kernel with the count (probe build) on Queens and Diamonds
    endings: every card's value equals the brute force's and the
    kernel's with the count off, and the count cuts; partners (two max
    seats) and must-discard (a discard that may be forced) are left
    alone."""
    rng = random.Random(5081)
    hits = 0
    with dd.probing() as kern:
        kern.use_count_bound = True     # off by default (docs/solver.md)
        try:
            for i in range(240):
                kind = ("queens", "diamonds")[i % 2]
                n = 3 if i % 4 else 4
                hands, me, leader, doubled = _ending(rng, n, kind)
                partners = i % 10 == 0
                must = i % 10 == 5
                pos = _position(kind, hands, leader, doubled, must, partners)
                team = pos.contract.teams[me]
                kern.new_table()
                got = dd.solve_position(pos, team, "own")
                hits += kern.count_hits
                if partners or must:
                    assert kern.count_hits == 0
                if n == 3 or i % 8 == 0:
                    value, values, _ = solve_oracle(pos, team, "own")
                    assert dict(got.card_values) == values, (kind, hands, me, leader, doubled)
                    assert got.value == value
                kern.use_count_bound = False
                kern.new_table()
                assert dict(dd.solve_position(pos, team, "own").card_values) == \
                    dict(got.card_values)
                kern.use_count_bound = True
        finally:
            kern.use_count_bound = False
    assert hits >= 50, hits


@pytest.mark.parametrize("seed", [1, 2])
def test_deeper_endings_agree_with_the_count_off(seed):
    """Six cards a hand (beyond the brute force), King of Hearts among
    them: the kernel's values with and without the count agree, with
    winning ranks and exact keys."""
    rng = random.Random(5090 + seed)
    with dd.probing() as kern:
        try:
            for i in range(9):
                kind = ("queens", "diamonds", "king")[i % 3]
                hands, me, leader, doubled = _ending(rng, 6, "queens" if kind == "king" else kind)
                if kind == "king":
                    doubled = {}
                pos = _position(kind, hands, leader, doubled)
                seen = []
                for on in (True, False):
                    for wr in (True, False):
                        kern.use_count_bound = on
                        kern.use_winning_ranks = wr
                        kern.new_table()
                        seen.append(dict(dd.solve_position(pos, me, "own").card_values))
                assert all(s == seen[0] for s in seen), (kind, hands, me, leader, doubled)
        finally:
            kern.use_count_bound = False
            kern.use_winning_ranks = True


def _matching(rng, hands, keyed):
    """A position the winning-ranks key ``keyed`` matches: per suit the
    cards from its lowest keyed card up keep their owners, the owners of
    the cards below it are shuffled among the hands holding them (each
    hand keeps its number of them: the key holds the hand lengths), and
    the penalty cards below keep their owners (the key holds each
    penalty card's hand and place)."""
    new: list[list[int]] = [[] for _ in hands]
    for s in range(4):
        line = min([c for c in keyed if c >> 4 == s], default=16 * s + 16)
        low, owners = [], []
        for i, h in enumerate(hands):
            for c in h:
                if c >> 4 == s and c >= line:
                    new[i].append(c)
                elif c >> 4 == s:
                    low.append(c)
                    owners.append(i)
        rng.shuffle(owners)
        for c, i in zip(sorted(low), owners, strict=True):
            new[i].append(c)
    return new


def test_count_keys_hold_for_every_position_they_match():
    """Wherever the count reaches a window's top on Queens endings of 5
    to 7 cards a hand (no doubling: every queen one class), positions its
    key matches (the owners of the cards below each suit's keyed card
    shuffled, each hand keeping its number of them and of queens there)
    are worth at least its value (the kernel with the count off)."""
    rng = random.Random(5095)
    checked = 0
    with dd.probing() as kern:
        try:
            for i in range(400):
                n = rng.choice((5, 6, 7))
                hands, me, leader, _ = _ending(rng, n, "queens")
                if i % 2:
                    leader = me
                pos = _position("queens", hands, leader, {})
                table, _, _ = dd.unit_table(pos, me, "own")
                for beta in range(-4, 1):
                    kern.use_count_bound = True
                    kern.load(table, list(pos.hands), leader, [], n, 0)
                    v, keyed = kern.count_floor(beta)
                    if v < beta:
                        continue
                    kern.use_count_bound = False
                    for _ in range(3):
                        other = _matching(rng, hands, keyed)
                        if [sum(c & 15 == 12 for c in h) for h in other] != \
                                [sum(c & 15 == 12 for c in h) for h in hands]:
                            continue    # a queen changed hands: another key
                        moved = _position("queens", other, leader, {})
                        kern.new_table()
                        value = dd.solve_position(moved, me, "own").value // 25
                        assert value >= v, (hands, other, me, leader, beta, v, keyed)
                        checked += 1
        finally:
            kern.use_count_bound = False
            kern.new_table()
    assert checked >= 300, checked
