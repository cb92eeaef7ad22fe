"""The statistics every interval of the engine is built from, written once.

* ``t_quantile(p, df)``: Student's t quantile, computed (not tabled) from
  the regularized incomplete beta function, so every degree of freedom is
  right, not only the ten a table holds;
* ``Z95``: the normal 97.5% quantile (``statistics.NormalDist``);
* ``half_width(n, total, squares)``: the 95% interval half-width of a mean
  of independent results, by t with ``n - 1`` degrees of freedom;
* ``batch_half_width(batches)``: the 95% half-width of a mean over results
  that are NOT independent (the iterations of a tree search feed on each
  other), from the means of consecutive batches of them, batches of any
  number of independent trees pooled (a cluster estimate: each batch one
  cluster, t with ``batches - 1`` degrees of freedom);
* ``search_half_width(tree_batches)``: a tree search's value interval: the
  batch half-width plus ``DRIFT_FACTOR`` times the value's drift (how far
  the later half of the iterations has moved from the whole mean), since a
  search's value is not the mean of one fixed distribution: as the tree
  grows, the play below an action improves and its value moves;
* ``covariance_of_means`` for the difference between two such means that
  share trees.

Core layer: imports nothing of the engine, so the searches
(``solver.search``) and the ladder's ratings (``bots.ladder.ratings``) share it.
"""

from __future__ import annotations

import math
from statistics import NormalDist

#: the normal quantile of a two-sided 95% interval
Z95 = NormalDist().inv_cdf(0.975)
#: fewer results than this give no interval (their sample variance says
#: too little: two equal play-outs would claim a certain value)
MIN_SAMPLES = 5


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularized incomplete beta function
    (modified Lentz's method), converging for ``x < (a + 1) / (a + b + 2)``."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        for num in (m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)),
                    -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function ``I_x(a, b)``."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom
    (bisection on ``t_cdf`` to 1e-12; the normal quantile for df > 1e7)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), got {p}")
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    if df > 1e7:
        return NormalDist().inv_cdf(p)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return 0.5 * (lo + hi)


_T95: dict[int, float] = {}


def t95(df: int) -> float:
    """The two-sided 95% t quantile for ``df`` degrees of freedom (cached)."""
    q = _T95.get(df)
    if q is None:
        q = _T95[df] = t_quantile(0.975, df)
    return q


def half_width(n: int, total: float, squares: float, scale: float = 1.0) -> float:
    """The 95% interval half-width of the mean of ``n`` independent results
    whose sum is ``total`` and sum of squares ``squares`` (sample variance,
    t with ``n - 1`` degrees of freedom; infinite below ``MIN_SAMPLES``
    results), times ``scale``."""
    if n < MIN_SAMPLES:
        return math.inf
    mean = total / n
    var = max(0.0, (squares - n * mean * mean) / (n - 1))
    return t95(n - 1) * math.sqrt(var / n) * scale


def batch_variance(batches) -> tuple[float, int]:
    """``(variance of the overall mean, degrees of freedom)`` from batches
    ``[(count, sum), ...]`` of consecutive results (from one tree or several
    independent ones): the overall mean is ``sum / count`` over all of them,
    and each batch is one cluster of the ratio estimator, so results that
    lean on each other inside a batch are counted as one draw:
    ``b / (b - 1) * sum((s_j - mean * n_j) ** 2) / N ** 2``.  ``(inf, 0)``
    with fewer than two non-empty batches."""
    used = [(n, s) for n, s in batches if n > 0]
    b = len(used)
    if b < 2:
        return math.inf, 0
    total_n = sum(n for n, _ in used)
    mean = sum(s for _, s in used) / total_n
    dev = sum((s - mean * n) ** 2 for n, s in used)
    return b / (b - 1) * dev / (total_n * total_n), b - 1


def batch_half_width(batches, scale: float = 1.0) -> float:
    """The 95% half-width of the overall mean of ``batches`` (see
    ``batch_variance``), t with ``batches - 1`` degrees of freedom; infinite
    with fewer than ``MIN_SAMPLES`` results or two batches."""
    if sum(n for n, _ in batches) < MIN_SAMPLES:
        return math.inf
    var, df = batch_variance(batches)
    if not math.isfinite(var):
        return math.inf
    return t95(df) * math.sqrt(var) * scale


#: how many times a value's drift is added to its half-width.  Measured by
#: the calibration run of docs/search.md (100 positions of dix, trix, tricks, dixie-rook;
#: docs/search.md): the batch half-width alone covered a 20 times longer
#: search's value 87% of the time with one tree and 57% with eight (the
#: shallower a tree, the further its values still move: sampling error is
#: not the only error); with twice the drift added, 96.5% and 81%, the mean
#: of the errors staying near 0.  Once the drift is added, wider
#: (three times) gains little coverage for a third more width.
DRIFT_FACTOR = 2.0


def later_half(batches) -> list:
    """The batches of one tree's sequence from the one holding its middle
    result on (the later half of its iterations)."""
    total = sum(n for n, _ in batches)
    seen = 0
    out = []
    for n, s in batches:
        seen += n
        if seen > total / 2:
            out.append((n, s))
    return out


def drift(tree_batches) -> float:
    """How far the pooled mean of every tree's later half lies from the
    pooled mean of all the results: ``tree_batches[t]`` is tree ``t``'s
    batches of one action in the order they arrived.  0 without results."""
    every = [b for bs in tree_batches for b in bs]
    late = [b for bs in tree_batches for b in later_half(bs)]
    n_all = sum(n for n, _ in every)
    n_late = sum(n for n, _ in late)
    if not n_all or not n_late:
        return 0.0
    return abs(sum(s for _, s in late) / n_late - sum(s for _, s in every) / n_all)


def search_half_width(tree_batches, scale: float = 1.0) -> float:
    """The 95% half-width of a tree search's value: ``batch_half_width`` of
    every tree's batches pooled, plus ``DRIFT_FACTOR`` times ``drift`` (the
    value's own movement, which batch variance cannot see: it is shared by
    the batches of a tree, and by shallow trees alike)."""
    every = [b for bs in tree_batches for b in bs]
    h = batch_half_width(every, scale)
    if not math.isfinite(h):
        return h
    return h + DRIFT_FACTOR * drift(tree_batches) * scale


def covariance_of_means(groups_a, groups_b) -> float:
    """The covariance of two overall means that share independent groups
    (trees): ``groups_x[t] = (count, sum)`` of each mean's results in group
    ``t``.  Both means move with a group's level (a tree's early choices
    shift every action it values); the estimate is the clusters' cross
    product, ``T / (T - 1) * sum(d_a[t] * d_b[t]) / (N_a * N_b)``, and 0
    with fewer than two groups."""
    pairs = [(a, b) for a, b in zip(groups_a, groups_b, strict=True) if a[0] > 0 and b[0] > 0]
    k = len(pairs)
    if k < 2:
        return 0.0
    na = sum(a[0] for a, _ in pairs)
    nb = sum(b[0] for _, b in pairs)
    ma = sum(a[1] for a, _ in pairs) / na
    mb = sum(b[1] for _, b in pairs) / nb
    cross = sum((a[1] - ma * a[0]) * (b[1] - mb * b[0]) for a, b in pairs)
    return k / (k - 1) * cross / (na * nb)


def difference_half_width(batches_a, batches_b, groups_a=(), groups_b=(),
                          scale: float = 1.0) -> float:
    """The 95% half-width of ``mean(a) - mean(b)``: the two batch variances
    less twice their covariance through shared trees (``groups_*``: each
    tree's ``(count, sum)``), never below the larger variance alone's share
    of a fifth (a covariance estimated from few trees is noisy and must not
    claim near certainty); t with the smaller degrees of freedom."""
    va, dfa = batch_variance(batches_a)
    vb, dfb = batch_variance(batches_b)
    if not (math.isfinite(va) and math.isfinite(vb)):
        return math.inf
    if sum(n for n, _ in batches_a) < MIN_SAMPLES or sum(n for n, _ in batches_b) < MIN_SAMPLES:
        return math.inf
    var = va + vb - 2.0 * covariance_of_means(groups_a, groups_b)
    var = max(var, 0.2 * max(va, vb))
    return t95(min(dfa, dfb)) * math.sqrt(var) * scale


#: batches a ``Batches`` recorder keeps (the kernels keep the same number)
BATCH_SLOTS = 32


class Batches:
    """Consecutive results kept as at most ``BATCH_SLOTS`` batches of equal
    size, whatever their number: the size starts at 1 and doubles (adjacent
    batches merged) each time every slot is full, so a run of any length
    ends with 16-32 batches (the last one possibly partial) for
    ``batch_half_width``."""

    __slots__ = ("size", "counts", "sums")

    def __init__(self):
        self.size = 1
        self.counts: list[int] = []
        self.sums: list[float] = []

    def add(self, x: float) -> None:
        if self.counts and self.counts[-1] < self.size:
            self.counts[-1] += 1
            self.sums[-1] += x
            return
        if len(self.counts) == BATCH_SLOTS:
            self.counts = [self.counts[i] + self.counts[i + 1] for i in range(0, BATCH_SLOTS, 2)]
            self.sums = [self.sums[i] + self.sums[i + 1] for i in range(0, BATCH_SLOTS, 2)]
            self.size *= 2
            if self.counts[-1] < self.size:
                self.counts[-1] += 1
                self.sums[-1] += x
                return
        self.counts.append(1)
        self.sums.append(x)

    def pairs(self, scale: float = 1.0) -> list:
        """``[(count, sum * scale), ...]``."""
        return [(n, s * scale) for n, s in zip(self.counts, self.sums, strict=True)]


__all__ = ["Z95", "BATCH_SLOTS", "DRIFT_FACTOR", "later_half", "drift", "search_half_width", "Batches",
           "MIN_SAMPLES", "t_quantile", "t_cdf", "t95", "incomplete_beta",
           "half_width", "batch_variance", "batch_half_width", "covariance_of_means",
           "difference_half_width"]
