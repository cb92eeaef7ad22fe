"""solver.stats: the t quantiles, batch means and the drift allowance that
every interval of the engine is built from."""

import math
import random

import pytest

from solver.stats import (
    BATCH_SLOTS,
    DRIFT_FACTOR,
    Batches,
    batch_half_width,
    drift,
    half_width,
    later_half,
    search_half_width,
    t95,
    t_quantile,
)


@pytest.mark.parametrize("df, q", [(1, 12.7062), (2, 4.3027), (5, 2.5706), (10, 2.2281),
                                   (30, 2.0423), (1000, 1.9623)])
def test_t_quantiles_match_the_tables(df, q):
    assert t95(df) == pytest.approx(q, abs=1e-4)
    assert t_quantile(0.975, df) == pytest.approx(q, abs=1e-4)


def test_batches_keep_between_half_and_all_slots_and_lose_nothing():
    for n in (1, 5, 31, 32, 33, 64, 65, 1000, 4097):
        b = Batches()
        for i in range(n):
            b.add(float(i))
        assert sum(b.counts) == n
        assert sum(b.sums) == pytest.approx(n * (n - 1) / 2)
        assert len(b.counts) <= BATCH_SLOTS
        if n >= BATCH_SLOTS:
            assert len(b.counts) >= BATCH_SLOTS // 2
        # consecutive: every batch but the last is full, in arrival order
        assert all(c == b.size for c in b.counts[:-1])
        first = b.sums[0] / b.counts[0]
        assert first == pytest.approx((b.counts[0] - 1) / 2)


def _ar1(rng, n, phi, level=0.0):
    x, out = 0.0, []
    for _ in range(n):
        x = phi * x + rng.gauss(0, 1)
        out.append(level + x)
    return out


def test_batch_means_cover_a_correlated_mean_that_the_iid_formula_misses():
    """Results that lean on each other (an AR(1) series, as a tree's
    iterations are) make the independent-draws interval far too narrow;
    batch means hold about 95%."""
    rng = random.Random(5)
    batch_hits = iid_hits = 0
    trials = 300
    for _ in range(trials):
        xs = _ar1(rng, 2000, 0.8)
        b = Batches()
        for x in xs:
            b.add(x)
        mean = sum(xs) / len(xs)
        batch_hits += abs(mean) <= batch_half_width(b.pairs())
        iid_hits += abs(mean) <= half_width(len(xs), sum(xs), sum(x * x for x in xs))
    assert 0.88 <= batch_hits / trials <= 0.995
    assert iid_hits / trials < 0.75


def test_later_half_starts_at_the_batch_holding_the_middle():
    assert later_half([(4, 0.0), (4, 1.0), (4, 2.0), (2, 3.0)]) == [(4, 1.0), (4, 2.0), (2, 3.0)]
    assert later_half([(1, 5.0)]) == [(1, 5.0)]
    assert later_half([]) == []


def test_drift_is_the_later_halfs_departure_from_the_whole_mean():
    # one tree: 0 for 16 results then 1 for 16: whole mean 0.5, later half 1
    tree = [(4, 0.0)] * 4 + [(4, 4.0)] * 4
    assert drift([tree]) == pytest.approx(0.5)
    # a second tree that does not move pulls the pooled later half down
    flat = [(4, 2.0)] * 8
    assert drift([tree, flat]) == pytest.approx((16 + 8) / 32 - (16 + 16) / 64)
    assert drift([]) == 0.0 and drift([[]]) == 0.0


def test_search_half_width_adds_the_drift_and_covers_a_moving_value():
    """A value still moving (the play below an action improving as the tree
    grows) is where a longer search will find it: the batch interval alone
    misses it, the drift allowance reaches it; a stationary series gets
    about the batch width."""
    rng = random.Random(9)
    hits_batch = hits_drift = 0
    trials = 200
    for _ in range(trials):
        # the level rises from 0 towards 1 like 1 - 1/sqrt(k): the value
        # "a much longer search" would report is about 1
        xs = [1.0 - 1.0 / math.sqrt(k + 1) + rng.gauss(0, 0.3) for k in range(2000)]
        b = Batches()
        for x in xs:
            b.add(x)
        mean = sum(xs) / len(xs)
        far = 1.0 - 2.0 / math.sqrt(40_000)   # a 20 times longer search's mean level
        hits_batch += abs(mean - far) <= batch_half_width(b.pairs())
        hits_drift += abs(mean - far) <= search_half_width([b.pairs()])
    assert hits_batch / trials < 0.5
    assert hits_drift / trials > 0.85
    # stationary: the allowance adds little (the drift is sampling noise)
    xs = [rng.gauss(0, 1) for _ in range(4000)]
    b = Batches()
    for x in xs:
        b.add(x)
    plain = batch_half_width(b.pairs())
    assert plain <= search_half_width([b.pairs()]) <= plain * (1 + 2 * DRIFT_FACTOR)
    assert search_half_width([[(3, 1.0)]]) == math.inf
