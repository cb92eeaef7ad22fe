"""The 95% intervals of the searches (issue #13): they cover the truth at
about the stated rate.

* ``half_width`` (the ISMCTS root statistics and every other mean) on
  synthetic results of known mean and variance;
* PIMC on a small trix view whose worlds can all be enumerated and solved:
  the exact mean over every world is what PIMC's sampled worlds estimate;
* the ISMCTS search on seeded positions of four games, against a search 20
  times longer (issue #25; marked slow).
"""

from __future__ import annotations

import itertools
import math
import random
import statistics

import pytest

import solver
from solver.cards import cards_of, suit_of
from solver.games.contract_match.state import TRICKS
from solver.position import from_json
from solver.search import Limit, best_move
from solver.search.pimc import _dd_values, pimc_search
from solver.stats import half_width, t_quantile
from tests.conftest import full_samples


def _coverage(draw, mean, n, trials, rng):
    hits = 0
    for _ in range(trials):
        xs = [draw(rng) for _ in range(n)]
        h = half_width(n, sum(xs), sum(x * x for x in xs))
        hits += abs(sum(xs) / n - mean) <= h
    return hits / trials


def test_half_width_covers_at_the_stated_rate_on_synthetic_results():
    rng = random.Random(1)
    # rewards in [-1, 1] as the ISMCTS root sees them: a skewed three-point law
    def skewed(r):
        u = r.random()
        return 1.0 if u < 0.2 else (-1.0 if u < 0.5 else 0.25)
    skewed_mean = 0.2 - 0.3 + 0.5 * 0.25
    rates = [_coverage(lambda r: r.gauss(3.0, 2.0), 3.0, 50, 2000, rng),
             _coverage(skewed, skewed_mean, 200, 2000, rng),
             _coverage(lambda r: r.choice((-1.0, 1.0)), 0.0, 30, 2000, rng)]
    for rate in rates:
        assert 0.92 <= rate <= 0.975, rates


def test_half_width_is_the_student_t_interval():
    xs = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    n = len(xs)
    mean = sum(xs) / n
    sd = (sum((x - mean) ** 2 for x in xs) / (n - 1)) ** 0.5
    q = t_quantile(0.975, n - 1)
    assert abs(q - 2.5706) < 1e-4                              # the t table's value
    assert abs(half_width(n, sum(xs), sum(x * x for x in xs)) - q * sd / n ** 0.5) < 1e-12
    assert half_width(3, 3.0, 3.0) == float("inf")           # too few results: no interval


def _late_trick_position(seed):
    """A trix trick contract with three cards left in each hand, the seat to
    move at the start of a trick."""
    game = solver.load_game("trix")
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    while not (state.phase == TRICKS and not state.log.play.trick
               and bin(state.log.play.hands[state.current_player()]).count("1") == 3):
        if state.is_terminal():
            return None
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _every_world(state, seat):
    """Every deal of the other seats' cards the seat's view allows: their
    hands' sizes, and the suits each has shown out of (an enumeration
    independent of the samplers)."""
    play = state.log.play
    others = [s for s in range(4) if s != seat]
    hidden = [c for s in others for c in cards_of(play.hands[s])]
    sizes = [bin(play.hands[s]).count("1") for s in others]
    voids = {s: {suit for v, suit in play.voids if v == s} for s in others}
    worlds = []
    for perm in set(itertools.permutations(hidden)):
        hands, i = [], 0
        for k in sizes:
            hands.append(frozenset(perm[i:i + k]))
            i += k
        if any(suit_of(c) in voids[s] for s, h in zip(others, hands, strict=True) for c in h):
            continue
        worlds.append(tuple(hands))
    worlds = sorted(set(worlds), key=lambda w: [sorted(h) for h in w])
    out = []
    for hands in worlds:
        w = state.clone()
        for s, h in zip(others, hands, strict=True):
            w.log.play.hands[s] = sum(1 << c for c in h)
        out.append(w)
    return out


def test_pimc_intervals_cover_the_exact_mean_over_every_world():
    state = None
    for seed in range(1, 40):
        state = _late_trick_position(seed)
        if state is not None:
            break
    seat = state.current_player()
    legal = state.legal_actions()
    worlds = _every_world(state, seat)
    assert 2 <= len(worlds) <= 1680
    exact = {a: 0.0 for a in legal}
    for w in worlds:
        vals, _ = _dd_values(w, seat, 10**6)
        for a in legal:
            exact[a] += vals[a] / len(worlds)
    view = from_json(state.information_state(seat).view)
    sampler = view.sampler()
    hits = total = 0
    for trial in range(60):
        stats = pimc_search(sampler.sample, seat, legal, state.game, worlds=25,
                            rng=random.Random(trial))
        for a in legal:
            h = stats.ci95[a]
            total += 1
            # a constant value over every world has a zero-width interval
            hits += abs(stats.values[a] - exact[a]) <= h + 1e-9
    rate = hits / total
    print(f"coverage {rate:.3f} over {total} intervals, {len(worlds)} worlds")
    assert 0.85 <= rate <= 1.0, (rate, exact, len(worlds))
    assert len(set(round(v, 6) for v in exact.values())) > 1      # a real choice


def test_difference_interval_pairs_the_trees():
    """Root-parallel trees that shift every action's level together widen
    each action's own interval, but the difference tree by tree does not
    move: its interval is the iterations' (synthetic per-tree means of
    known spread)."""
    import math
    import random as _random

    from solver.search.ismcts import SearchStats
    rng = _random.Random(3)
    trees = []
    for _ in range(8):
        shift = rng.gauss(0, 0.1)                 # the tree's common level
        trees.append({1: (1000, 0.30 + shift + rng.gauss(0, 0.001)),
                      2: (1000, 0.28 + shift + rng.gauss(0, 0.001))})
    values = {a: sum(t[a][1] for t in trees) / 8 for a in (1, 2)}
    wide = {1: 0.08, 2: 0.08}                    # the per-action intervals
    stats = SearchStats(values, {1: 8000, 2: 8000}, 16000, 16001, 1.0, wide,
                        per_tree=trees, iid95={1: 0.002, 2: 0.002})
    half = stats.difference_half_width(1, 2)
    assert half < 0.01 < values[1] - values[2]
    assert half >= math.hypot(0.002, 0.002)      # never below the iterations' own
    # without trees: the two intervals combined
    plain = SearchStats(values, {1: 8000, 2: 8000}, 16000, 16001, 1.0, wide)
    assert plain.difference_half_width(1, 2) == pytest.approx(math.hypot(0.08, 0.08))
    assert plain.difference_half_width(1, 3) == math.inf


# ---- the search's intervals against a longer search (issue #25) --------------


def _searched_views(count: int, seed: int) -> list:
    """``count`` seat views of dix, trix, tricks and dixie-rook in turn (random
    play-outs from seeded deals) that the service searches: forced and
    exactly solved decisions left out."""
    games = ("dix", "trix", "tricks", "dixie-rook")
    rng = random.Random(seed)
    out: list[tuple[str, dict]] = []
    k = 0
    while len(out) < count:
        name = games[k % len(games)]
        k += 1
        state = solver.load_game(name).new_initial_state(seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(0, 120)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal() or len(state.legal_actions()) < 2:
            continue
        view = state.information_state(state.current_player()).view
        if best_move(view, Limit(iterations=50), seed=0, trees=1).bot != "ismcts":
            continue
        out.append((name, view))
    return out


@pytest.mark.slow
def test_search_intervals_hold_a_twenty_times_longer_searchs_values(sample):
    """Each action's 95% interval from searches of 1, 2 and 8 trees (each
    its own seed) against the value a search 20 times longer with 8 trees
    gives it: one and two trees cover it at least 90% of the time (the
    target 90-98%; the reference's own error is about 1/sqrt(20) of the
    judged one's), and two trees' intervals are no wider than 1.5 times one
    tree's at the same iterations.  Eight trees sharing the iterations
    cover less (81.7% on 100 positions at 20,000 iterations, docs/search.md
    says why); 75% is held.  Default: 6 positions at 2,000 iterations;
    DIXTRIX_FULL_TESTS=1: the measured 100 at 20,000, with the target's top
    too.  Iteration limits and fixed seeds: the same on any machine."""
    views = _searched_views(sample(6, 100), seed=1)
    iterations = sample(2_000, 20_000)
    cover: dict[int, list[bool]] = {1: [], 2: [], 8: []}
    width: dict[int, list[float]] = {1: [], 2: [], 8: []}
    for i, (name, view) in enumerate(views):
        ref = best_move(view, Limit(iterations=20 * iterations), seed=10**6 + i, trees=8)
        scale = solver.load_game(name).round_scale
        for trees in cover:
            res = best_move(view, Limit(iterations=iterations), seed=i, trees=trees)
            for a, v in res.values.items():
                h = res.ci95.get(a, math.inf)
                if a in ref.values and math.isfinite(h):
                    cover[trees].append(abs(v - ref.values[a]) <= h)
                    width[trees].append(h / scale)
    rate = {t: sum(c) / len(c) for t, c in cover.items()}
    print(f"coverage {rate}, {len(cover[1])} action values")
    assert rate[1] >= 0.90 and rate[2] >= 0.90 and rate[8] >= 0.75, rate
    if full_samples():
        assert rate[1] <= 0.98 and rate[2] <= 0.98, rate
    assert statistics.mean(width[2]) <= 1.5 * statistics.mean(width[1])
