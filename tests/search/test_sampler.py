"""Exactness of the interval sampler: counts against brute force, draws
against the uniform distribution (chi-square), and dix views."""

import itertools
import math
import random
from collections import Counter

import pytest

import solver
from solver import position
from solver.cards import DIX
from solver.errors import PositionError
from solver.sampler import INF, InconsistentConstraints, IntervalSampler, SlotGroup


def chi2_critical(df, p=1e-3):
    """Upper ``p`` quantile of chi-square(df) (Wilson-Hilferty)."""
    z = {1e-3: 3.090232, 1e-4: 3.719016}[p]
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _random_instance(rng):
    times = sorted(rng.sample(range(1, 6), rng.randrange(0, 3)))
    groups = [SlotGroup(0, rng.randrange(1, 4))] + [SlotGroup(t, 1) for t in times]
    groups.append(SlotGroup(INF, rng.randrange(0, 3)))
    n = sum(g.size for g in groups)
    cards = []
    for c in range(n):
        if rng.random() < 0.4:
            hi = rng.choice([0] + times)
        else:
            hi = INF
        lo = rng.choice([0, 0] + [t for t in times if t <= hi])
        cards.append((c, lo, hi))
    return groups, cards


def _brute(groups, cards):
    slots = [(g.time, k, j) for k, g in enumerate(groups) for j in range(g.size)]
    worlds = []
    for perm in itertools.permutations(range(len(cards))):
        ok = all(cards[ci][1] <= slots[si][0] <= cards[ci][2] for si, ci in enumerate(perm))
        if ok:
            worlds.append(tuple(cards[ci][0] for ci in perm))
    return slots, worlds


def test_counts_match_brute_force():
    rng = random.Random(1)
    checked = 0
    for _ in range(400):
        groups, cards = _random_instance(rng)
        if len(cards) > 7:
            continue
        slots, worlds = _brute(groups, cards)
        if not worlds:
            with pytest.raises(InconsistentConstraints):
                IntervalSampler(groups, cards)
            continue
        assert IntervalSampler(groups, cards).count == len(worlds)
        checked += 1
    assert checked > 100


MODES = ["exact-ints", "compiled-python"]
try:
    from solver import _sampler  # noqa: F401
    MODES.append("compiled-cython")
except ImportError:  # pragma: no cover
    pass


def _draw(sampler, mode, r):
    if mode == "exact-ints":
        return sampler.sample(r)
    comp = sampler.compiled
    if mode == "compiled-python":
        flat = comp.sample_py(r)
        out = [[None] * n for n in comp.group_sizes]
        for i, card in enumerate(flat):
            out[comp.slot_group[i]][comp.slot_offset[i]] = card
        return out
    assert comp.implementation == "cython" or _PURE
    return comp.sample(r)


_PURE = __import__("os").environ.get("DIXTRIX_PUREPYTHON", "") not in ("", "0")


@pytest.mark.parametrize("mode", MODES)
def test_draws_are_uniform_chi_square(mode):
    rng = random.Random(2)
    done = 0
    while done < 6:
        groups, cards = _random_instance(rng)
        if not 4 <= len(cards) <= 6:
            continue
        slots, worlds = _brute(groups, cards)
        if len(worlds) < 4:
            continue
        index = {w: i for i, w in enumerate(worlds)}
        sampler = IntervalSampler(groups, cards)
        draws = 200 * len(worlds)
        seen = Counter()
        r = random.Random(done)
        for _ in range(draws):
            placed = _draw(sampler, mode, r)
            flat = tuple(c for grp in placed for c in grp)
            assert flat in index, "an inconsistent world was drawn"
            seen[index[flat]] += 1
        expected = draws / len(worlds)
        stat = sum((seen[i] - expected) ** 2 / expected for i in range(len(worlds)))
        assert stat < chi2_critical(len(worlds) - 1, 1e-4), (stat, len(worlds))
        done += 1


def consistent_instance(rng, n_draws=8, stock=10):
    """A random instance built around a hidden true placement, so it is
    consistent by construction: every interval contains its card's slot."""
    times = sorted(rng.sample(range(1, 14), n_draws))
    groups = [SlotGroup(0, 13)] + [SlotGroup(t, 1) for t in times] + [SlotGroup(INF, stock)]
    slot_times = [g.time for g in groups for _ in range(g.size)]
    rng.shuffle(slot_times)
    points = [0] + times + [INF]
    cards = []
    for c, t in enumerate(slot_times):
        lo = rng.choice([p for p in points if p <= t and p != INF] or [0])
        hi = rng.choice([p for p in points if p >= t])
        cards.append((c, lo, hi))
    return groups, cards


@pytest.mark.parametrize("mode", MODES)
def test_never_an_inconsistent_world_in_many_draws(mode):
    rng = random.Random(3)
    for _ in range(5):
        groups, cards = consistent_instance(rng)
        sampler = IntervalSampler(groups, cards)
        bounds = {c: (lo, hi) for (c, lo, hi) in cards}
        r = random.Random(4)
        for _ in range(2000):
            placed = _draw(sampler, mode, r)
            for g, grp in zip(groups, placed, strict=True):
                for c in grp:
                    lo, hi = bounds[c]
                    assert lo <= g.time <= hi
    # the 100k-draw run is bench/test_bench_sampler.py


def test_inconsistent_constraints_are_reported_not_hung():
    with pytest.raises(InconsistentConstraints):
        IntervalSampler([SlotGroup(0, 2)], [(1, 3, INF), (2, 0, INF)])
    with pytest.raises(InconsistentConstraints, match="3 hidden cards for 2"):
        IntervalSampler([SlotGroup(0, 2)], [(1, 0, 0), (2, 0, 0), (3, 0, 0)])


# ------------------------------------------------------------ dix views

def _late_seventeen_view(seed, left):
    """Seat 0's view of a seventeen round with ``left`` cards left per hand."""
    game = solver.load_game("dix", variant="seventeen")
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    while bin(state.hands[1]).count("1") > left or state.trick:
        state.apply_action(rng.choice(state.legal_actions()))
    return state, state.information_state(0).view


def test_dix_view_worlds_are_uniform_over_consistent_hands():
    state, view = _late_seventeen_view(seed=5, left=2)
    sv = position.from_json(view)
    # oracle: every pair of unseen cards that, as the opponent's last two
    # cards, replays the view under the full rules
    played = [DIX.parse(a) for a in view["actions"]]
    own = DIX.parse_cards(view["deal"]["rounds"][0]["hands"][0])
    turn_up = DIX.parse(view["deal"]["rounds"][0]["turn_up"])
    opp_played = [c for i, c in enumerate(played) if c not in own]
    unseen = [c for c in DIX.cards if c not in own and c not in played and c != turn_up]
    consistent = []
    for pair in itertools.combinations(unseen, 2):
        hands = [own, opp_played + list(pair)]
        rec = {"game": "dix", "options": {"variant": "seventeen"},
               "deal": {"first_dealer": view["deal"]["first_dealer"], "rounds": [{
                   "hands": [DIX.format_cards(h) for h in hands],
                   "turn_up": DIX.to_string(turn_up)}]},
               "actions": view["actions"]}
        try:
            w = position.from_json(rec).state()
        except PositionError:
            continue
        if w.information_state(0).view == view:
            consistent.append(frozenset(pair))
    assert frozenset(c for c in DIX.cards if state.hands[1] >> c & 1) in consistent
    index = {h: i for i, h in enumerate(consistent)}
    draws = 40 * len(consistent)
    seen = Counter()
    for k in range(draws):
        world = sv.world(seed=k)
        hand = frozenset(c for c in DIX.cards if world.hands[1] >> c & 1)
        assert hand in index, "an inconsistent world was drawn"
        seen[index[hand]] += 1
    expected = draws / len(consistent)
    stat = sum((seen[i] - expected) ** 2 / expected for i in range(len(consistent)))
    assert stat < chi2_critical(len(consistent) - 1, 1e-4)


def test_dix_after_trick_13_there_is_exactly_one_world():
    game = solver.load_game("dix")
    state = game.new_initial_state(seed=8)
    rng = random.Random(8)
    while state.tricks_done < 14:
        state.apply_action(rng.choice(state.legal_actions()))
    view = position.from_json(state.information_state(1).view)
    truth = state.hands[0]
    for k in range(20):
        assert view.world(seed=k).hands[0] == truth


def test_dix_fast_worlds_equal_a_full_replay_of_their_own_deal():
    for variant in ("standard", "seventeen"):
        game = solver.load_game("dix", variant=variant)
        for seed in range(6):
            state = game.new_initial_state(seed=seed)
            rng = random.Random(seed)
            for _ in range(rng.randrange(0, 60)):
                state.apply_action(rng.choice(state.legal_actions()))
            seat = seed % 2
            sampler = position.from_json(state.information_state(seat).view).sampler()
            for k in range(5):
                world = sampler.sample(random.Random(k))
                replayed = position.from_json(position.to_json(world)).state()
                assert replayed.hands == world.hands
                assert replayed.stock == world.stock
                for s in (0, 1):
                    assert (replayed.information_state_string(s)
                            == world.information_state_string(s))
                assert world.information_state(seat).view == state.information_state(seat).view


# ------------------------------------------------------------ holders

from solver.sampler import HolderSampler  # noqa: E402


def _brute_holders(caps, cards):
    worlds = []
    for combo in itertools.product(range(len(caps)), repeat=len(cards)):
        if any(not (allowed >> h & 1) for (c, allowed), h in zip(cards, combo, strict=True)):
            continue
        if all(combo.count(h) == caps[h] for h in range(len(caps))):
            worlds.append(combo)
    return worlds


def _random_holder_instance(rng):
    n = rng.randrange(2, 5)
    caps = [rng.randrange(0, 3) for _ in range(n)]
    total = sum(caps)
    cards = [(c, rng.randrange(1, 1 << n) | (1 << rng.randrange(n))) for c in range(total)]
    return caps, cards


def test_holder_counts_match_brute_force():
    rng = random.Random(5)
    checked = 0
    for _ in range(300):
        caps, cards = _random_holder_instance(rng)
        if len(cards) > 8:
            continue
        worlds = _brute_holders(caps, cards)
        if not worlds:
            with pytest.raises(InconsistentConstraints):
                HolderSampler(caps, cards)
            continue
        assert HolderSampler(caps, cards).count == len(worlds)
        checked += 1
    assert checked > 80


def _holder_draw(sampler, mode, r):
    if mode == "exact-ints":
        return sampler.sample(r)
    comp = sampler.compiled
    if mode == "compiled-python":
        return comp.sample_py(r)
    from solver import _sampler
    masks = _sampler.HolderWalker(comp).walk(r.getrandbits(64))
    return [[c for c in range(64) if m >> c & 1] for m in masks]


@pytest.mark.parametrize("mode", MODES)
def test_holder_draws_are_uniform(mode):
    rng = random.Random(6)
    done = 0
    while done < 5:
        caps, cards = _random_holder_instance(rng)
        if not 4 <= len(cards) <= 7:
            continue
        worlds = _brute_holders(caps, cards)
        if len(worlds) < 5:
            continue
        index = {w: i for i, w in enumerate(worlds)}
        sampler = HolderSampler(caps, cards)
        r = random.Random(done)
        seen = Counter()
        draws = 200 * len(worlds)
        for _ in range(draws):
            out = _holder_draw(sampler, mode, r)
            where = [None] * len(cards)
            for h, got in enumerate(out):
                for c in got:
                    where[c] = h
            key = tuple(where)
            assert key in index
            seen[index[key]] += 1
        expected = draws / len(worlds)
        stat = sum((seen[i] - expected) ** 2 / expected for i in range(len(worlds)))
        assert stat < chi2_critical(len(worlds) - 1, 1e-4), (stat, len(worlds))
        done += 1


def test_holder_sampler_full_size_is_fast_enough_to_build():
    # three opponents with 13 unseen cards each, voids in two suits
    rng = random.Random(1)
    cards = [(c, 0b111 if c % 4 else 0b101) for c in range(39)]
    s = HolderSampler([13, 13, 13], cards)
    out = s.sample(rng)
    assert sorted(len(h) for h in out) == [13, 13, 13]
    assert all(c % 4 for c in out[1])


# ------------------------------------------------------------ trix / tricks views

def _late_trick_view(name, seed, left):
    """A seat's view in a trick contract with ``left`` cards per hand left."""
    from solver.games.contract_match.state import TRICKS
    game = solver.load_game(name)
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    while True:
        if state.phase == TRICKS and not state.log.play.trick and \
                bin(state.log.play.hands[0]).count("1") == left:
            return game, state
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", ["trix", "tricks"])
def test_contract_fast_worlds_equal_a_full_replay(name):
    for seed in range(4):
        game, state = _late_trick_view(name, seed, 5)
        seat = state.current_player()
        view = state.information_state(seat).view
        sampler = position.from_json(view).sampler()
        for k in range(4):
            world = sampler.sample(random.Random(k))
            replayed = position.from_json(position.to_json(world)).state()
            for s in range(4):
                assert replayed.information_state_string(s) == \
                    world.information_state_string(s)
            assert world.information_state(seat).view == view


def test_trix_worlds_are_uniform_over_consistent_hands():
    game, state = _late_trick_view("trix", 11, 2)
    seat = state.current_player()
    view = state.information_state(seat).view
    sampler = position.from_json(view).sampler()
    others = [s for s in range(4) if s != seat]
    unseen = [c for c in DIX.cards if c and any(state.log.play.hands[s] >> c & 1
                                                 for s in others)]
    # oracle: every split of the unseen cards into the others' hands that
    # replays the view
    consistent = []
    base = sampler.base
    for a in itertools.combinations(unseen, 2):
        rest = [c for c in unseen if c not in a]
        for b in itertools.combinations(rest, 2):
            c3 = tuple(c for c in rest if c not in b)
            split = {others[0]: a, others[1]: b, others[2]: c3}
            world = base.clone()
            log = world.deal_logs[-1]
            gone = [0] * 4
            for s, card in log.play.plays:
                gone[s] |= 1 << card
            hands = []
            for s in range(4):
                played = [card for (t, card) in log.play.plays if t == s]
                cur = list(split[s]) if s in split else \
                    [x for x in DIX.cards if state.log.play.hands[seat] >> x & 1]
                hands.append(tuple(sorted(played + cur)))
            log.hands = tuple(hands)
            world._chance.log[sampler.log_index] = ("deal", log.hands)
            rec = position.to_json(world)
            try:
                replay = position.from_json(rec).state()
            except PositionError:
                continue
            if replay.information_state(seat).view == view:
                consistent.append(tuple(sorted((s, tuple(sorted(v))) for s, v in split.items())))
    assert len(consistent) >= 3
    index = {k: i for i, k in enumerate(consistent)}
    draws = 60 * len(consistent)
    seen = Counter()
    for k in range(draws):
        w = sampler.sample(random.Random(k))
        key = tuple(sorted((s, tuple(x for x in DIX.cards if w.log.play.hands[s] >> x & 1))
                           for s in others))
        assert key in index
        seen[index[key]] += 1
    expected = draws / len(consistent)
    stat = sum((seen[i] - expected) ** 2 / expected for i in range(len(consistent)))
    assert stat < chi2_critical(len(consistent) - 1, 1e-4)


# ------------------------------------------------------------ exact shares

def test_exact_shares_match_brute_force():
    """Each card's probability of each holder (``marginals``, the beliefs'
    exact shares before any decision is observed) is the share of the
    assignments that put it there, counted one by one: for the holder
    sampler and the column sampler (the same model counted the other way),
    and for the interval sampler's places nobody drew (``late_share``)."""
    from fractions import Fraction

    from solver.sampler import ColumnSampler
    rng = random.Random(8)
    checked = 0
    for _ in range(300):
        caps, cards = _random_holder_instance(rng)
        if len(cards) > 8:
            continue
        worlds = _brute_holders(caps, cards)
        if not worlds:
            continue
        want = {c: tuple(Fraction(sum(w[i] == h for w in worlds), len(worlds))
                         for h in range(len(caps)))
                for i, (c, _) in enumerate(cards)}
        assert HolderSampler(caps, cards).marginals() == want
        assert ColumnSampler(caps, cards).marginals() == want
        checked += 1
    assert checked > 80
    checked = 0
    for _ in range(400):
        groups, cards = _random_instance(rng)
        if len(cards) > 7:
            continue
        slots, worlds = _brute(groups, cards)
        if not worlds:
            continue
        late = [i for i, (t, _, _) in enumerate(slots) if t == INF]
        want = {c: Fraction(sum(w[i] == c for w in worlds for i in late), len(worlds))
                for c, _, _ in cards}
        assert IntervalSampler(groups, cards).late_share(INF) == want
        checked += 1
    assert checked > 100
