"""Ratings from duplicate results (docs/ladder.md).

1. **Duplicate units.**  A unit is one group of entries on one deal, played
   in every arrangement.  An entry's duplicate score in a unit is its mean
   seat score (``scores``: the deal scores summed over the match) over
   every seat it held in the unit's games.  Units missing a game (a run
   still going, or killed) are left out until complete.
2. **Comparisons.**  In each unit, each pair of its entries gives one
   comparison: a win for the higher duplicate score, a draw on equality.
3. **Bradley-Terry** by maximum likelihood: P(i beats j) = 1 / (1 +
   exp(theta_j - theta_i)), a draw counting half a win for each side,
   fitted by Newton's method with a weak normal prior on theta (sd 4 in
   natural units, about 695 Elo) that keeps the estimate finite when an
   entry wins every comparison.  Ratings are on the Elo scale (400/ln 10
   per natural unit), centred on a mean of 0.
4. **95% intervals**: ``fisher`` (default) from the inverse of the
   observed information (the negative Hessian at the optimum), mapped
   through the centring; or ``bootstrap``: the deals resampled with
   replacement, percentile intervals (which also accounts for the
   comparisons of one unit being correlated when a group has more than
   two entries), widened where needed to cover the Fisher interval (a
   bootstrap over few deals is too narrow).
5. **Pairs**: the mean duplicate score difference of each pair over the
   units where both played, with a Student-t 95% interval.

Pure Python: the systems are entries x entries, tiny.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from dataclasses import dataclass, field

from solver.errors import OptionError
from solver.front import N_
from solver.said import Quote, phrase
from solver.stats import Z95, t95

# the error raised here (solver/errors.py: a code and its parameters; an
# OptionError is a ValueError, as this one was)
CI_KIND = phrase("ladder_ci", N_("ci must be 'fisher' or 'bootstrap', got {got}"))

ELO = 400.0 / math.log(10.0)
PRIOR_SD = 4.0


@dataclass(frozen=True)
class Unit:
    """One group on one deal, every arrangement played: entry -> duplicate
    score (mean seat score), and how many games it holds."""

    deal: int
    group: int
    scores: dict
    games: int


@dataclass
class Ratings:
    entries: list
    elo: list                  # centred Elo rating per entry
    lo: list                   # 95% interval per entry
    hi: list
    method: str                # "fisher" or "bootstrap"
    comparisons: int
    wins: list = field(default_factory=list)
    draws: list = field(default_factory=list)
    losses: list = field(default_factory=list)
    cov: list | None = None    # covariance of the centred Elo ratings (inverse information)

    def order(self) -> list[int]:
        return sorted(range(len(self.entries)), key=lambda i: -self.elo[i])


@dataclass
class PairStat:
    a: int                     # entry indices, a < b
    b: int
    units: int
    mean: float                # mean duplicate score difference a - b
    sd: float
    lo: float
    hi: float
    wins: int                  # units a won, drew, lost against b
    draws: int
    losses: int

    def oriented(self) -> PairStat:
        """The same pair with the better entry first (mean >= 0), for display."""
        if self.mean >= 0:
            return self
        return PairStat(self.b, self.a, self.units, -self.mean, self.sd, -self.hi, -self.lo,
                        self.losses, self.draws, self.wins)


# ---- from stored games to duplicate units ---------------------------------

def duplicate_units(schedule, rows) -> list[Unit]:
    """The complete units among ``rows`` (``LadderStore.rows()``)."""
    by_unit = defaultdict(list)
    for r in rows:
        by_unit[(r["deal"], r["grp"])].append(r)
    units = []
    for (deal, grp), games in sorted(by_unit.items()):
        if grp >= len(schedule.groups):
            continue
        if len(games) != len(schedule.arrangements(deal, grp)):
            continue
        sums: defaultdict[str, float] = defaultdict(float)
        counts: defaultdict[str, int] = defaultdict(int)
        for g in games:
            for seat, e in enumerate(g["arrangement"]):
                sums[e] += g["scores"][seat]
                counts[e] += 1
        units.append(Unit(deal, grp, {e: sums[e] / counts[e] for e in sorted(sums)},
                          len(games)))
    return units


def comparisons(units) -> list[tuple[int, int, int, float]]:
    """``(deal, i, j, score of i)`` for each pair ``i < j`` of each unit."""
    out = []
    for u in units:
        es = sorted(u.scores)
        for x in range(len(es)):
            for y in range(x + 1, len(es)):
                i, j = es[x], es[y]
                d = u.scores[i] - u.scores[j]
                s = 0.5 if abs(d) <= 1e-9 else (1.0 if d > 0 else 0.0)
                out.append((u.deal, i, j, s))
    return out


# ---- the Bradley-Terry fit -------------------------------------------------

def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        piv = m[c][c]
        for r in range(c + 1, n):
            f = m[r][c] / piv
            if f:
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def _inverse(a: list[list[float]]) -> list[list[float]]:
    n = len(a)
    cols = [_solve(a, [1.0 if r == c else 0.0 for r in range(n)]) for c in range(n)]
    return [[cols[c][r] for c in range(n)] for r in range(n)]


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def fit_bradley_terry(k: int, comps, prior_sd: float = PRIOR_SD):
    """Maximum a posteriori strengths (natural units, centred) and the
    inverse observed information (covariance) of the centred strengths.
    ``comps``: ``(i, j, score of i)`` with score in [0, 1]."""
    w = [[0.0] * k for _ in range(k)]      # w[i][j]: score of i against j
    n = [[0.0] * k for _ in range(k)]      # comparisons between i and j
    for i, j, s in comps:
        w[i][j] += s
        w[j][i] += 1.0 - s
        n[i][j] += 1.0
        n[j][i] += 1.0
    tau = 1.0 / (prior_sd * prior_sd)

    def objective(th):
        v = -0.5 * tau * sum(t * t for t in th)
        for i in range(k):
            for j in range(k):
                if w[i][j]:
                    v += w[i][j] * math.log(max(_sigmoid(th[i] - th[j]), 1e-300))
        return v

    def grad_hess(th):
        g = [-tau * t for t in th]
        h = [[0.0] * k for _ in range(k)]
        for i in range(k):
            h[i][i] = -tau
            for j in range(k):
                if i == j or not n[i][j]:
                    continue
                p = _sigmoid(th[i] - th[j])
                g[i] += w[i][j] - n[i][j] * p
                q = n[i][j] * p * (1.0 - p)
                h[i][i] -= q
                h[i][j] += q
        return g, h

    th = [0.0] * k
    val = objective(th)
    for _ in range(100):
        g, h = grad_hess(th)
        step = _solve(h, g)
        t = 1.0
        while True:                        # damped Newton: the posterior is concave
            cand = [th[i] - t * step[i] for i in range(k)]
            cval = objective(cand)
            if cval >= val - 1e-12 or t < 1e-6:
                break
            t *= 0.5
        done = max(abs(t * s) for s in step) < 1e-10
        th, val = cand, cval
        if done:
            break
    _, h = grad_hess(th)
    cov = _inverse([[-x for x in row] for row in h])
    mean = sum(th) / k
    centred = [t - mean for t in th]
    # centring is the linear map M = I - 11'/k: cov_c = M cov M'
    rm = [sum(cov[i]) / k for i in range(k)]
    tm = sum(rm) / k
    cov_c = [[cov[i][j] - rm[i] - rm[j] + tm for j in range(k)] for i in range(k)]
    return centred, cov_c


def rate(entries, units, ci: str = "fisher", bootstrap: int = 200, seed: int = 0) -> Ratings:
    """Bradley-Terry Elo ratings of ``entries`` from duplicate ``units``."""
    if ci not in ("fisher", "bootstrap"):
        raise OptionError(CI_KIND(got=Quote(ci)))
    k = len(entries)
    comps = comparisons(units)
    wins, draws, losses = [0] * k, [0] * k, [0] * k
    for _, i, j, s in comps:
        if s == 0.5:
            draws[i] += 1
            draws[j] += 1
        else:
            win, lose = (i, j) if s == 1.0 else (j, i)
            wins[win] += 1
            losses[lose] += 1
    theta, cov = fit_bradley_terry(k, [(i, j, s) for _, i, j, s in comps])
    elo = [ELO * t for t in theta]
    cov_elo = [[ELO * ELO * c for c in row] for row in cov]
    se = [math.sqrt(max(cov_elo[i][i], 0.0)) for i in range(k)]
    lo = [elo[i] - Z95 * se[i] for i in range(k)]
    hi = [elo[i] + Z95 * se[i] for i in range(k)]
    if ci == "bootstrap":
        # the percentile interval, widened to cover the Fisher one: a
        # bootstrap over a handful of deals is far too narrow (a single
        # deal gives a zero-width interval)
        by_deal = defaultdict(list)
        for d, i, j, s in comps:
            by_deal[d].append((i, j, s))
        deals = sorted(by_deal)
        rng = random.Random(seed)
        samples: list[list[float]] = [[] for _ in range(k)]
        for _ in range(bootstrap):
            pick = [deals[rng.randrange(len(deals))] for _ in deals] if deals else []
            th, _ = fit_bradley_terry(k, [c for d in pick for c in by_deal[d]])
            for i in range(k):
                samples[i].append(ELO * th[i])
        for i in range(k):
            xs = sorted(samples[i])
            lo[i] = min(lo[i], _quantile(xs, 0.025))
            hi[i] = max(hi[i], _quantile(xs, 0.975))
    return Ratings(list(entries), elo, lo, hi, ci, len(comps), wins, draws, losses, cov_elo)


def _quantile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    pos = q * (len(xs) - 1)
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


# ---- pairs -----------------------------------------------------------------

def t975(df: int) -> float:
    """The 97.5% quantile of Student's t (``solver.stats.t95``; NaN below
    one degree of freedom)."""
    if df < 1:
        return float("nan")
    return t95(df)


def pair_differences(k: int, units) -> list[PairStat]:
    """Mean duplicate score difference of every pair that met."""
    diffs = defaultdict(list)
    for u in units:
        es = sorted(u.scores)
        for x in range(len(es)):
            for y in range(x + 1, len(es)):
                diffs[(es[x], es[y])].append(u.scores[es[x]] - u.scores[es[y]])
    out = []
    for (a, b), ds in sorted(diffs.items()):
        m = len(ds)
        mean = sum(ds) / m
        sd = math.sqrt(sum((d - mean) ** 2 for d in ds) / (m - 1)) if m > 1 else float("nan")
        half = t975(m - 1) * sd / math.sqrt(m) if m > 1 else float("nan")
        out.append(PairStat(a, b, m, mean, sd, mean - half, mean + half,
                            sum(d > 1e-9 for d in ds), sum(abs(d) <= 1e-9 for d in ds),
                            sum(d < -1e-9 for d in ds)))
    return out


def rating_history(entries, units, points: int = 12,
                   ci: str = "fisher") -> list[tuple[int, int, Ratings]]:
    """Ratings fitted on the first deals only, at up to ``points`` numbers
    of deals: ``(games played, deals, Ratings)`` for plotting how the
    ratings and their intervals settle."""
    deals = sorted({u.deal for u in units})
    if not deals:
        return []
    marks = sorted({deals[min(len(deals) - 1, max(0, round(len(deals) * (i + 1) / points) - 1))]
                    for i in range(points)})
    out = []
    for last in marks:
        sub = [u for u in units if u.deal <= last]
        out.append((sum(u.games for u in sub), len({u.deal for u in sub}),
                    rate(entries, sub, ci=ci, bootstrap=100)))
    return out
