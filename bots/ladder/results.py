"""A ladder database read back: duplicate units, ratings, pairs, the table."""

from __future__ import annotations

import math

from .ratings import Ratings, duplicate_units, pair_differences, rate, rating_history
from .store import LadderStore


class LadderResults:
    """``LadderResults.open("ladder.db")``: ``.ratings()``, ``.pairs()``,
    ``.history()``, ``.table()``; ``.rows`` are the stored games."""

    def __init__(self, store: LadderStore):
        self.db = store.path
        self.schedule = store.schedule
        self.deals_requested = int(store.meta("deals", "0"))
        self.rows = store.rows()
        self.units = duplicate_units(self.schedule, self.rows)

    @classmethod
    def open(cls, db: str) -> LadderResults:
        with LadderStore.open(db) as store:
            return cls(store)

    @property
    def entries(self) -> list[str]:
        """Display names of the entries (see ``Schedule.labels``)."""
        return self.schedule.labels

    def default_ci(self) -> str:
        """``fisher`` when every group is a pair (one comparison per unit,
        independent across deals), else ``bootstrap`` over deals (the
        comparisons of one unit are correlated)."""
        return "fisher" if all(len(g) == 2 for g in self.schedule.groups) else "bootstrap"

    def ratings(self, ci: str = "auto", bootstrap: int = 200) -> Ratings:
        """Bradley-Terry Elo with 95% intervals: ``ci`` is ``fisher``,
        ``bootstrap`` or ``auto`` (see ``default_ci``)."""
        if ci == "auto":
            ci = self.default_ci()
        return rate(self.entries, self.units, ci=ci, bootstrap=bootstrap)

    def pairs(self):
        return pair_differences(len(self.entries), self.units)

    def history(self, points: int = 12, ci: str = "auto"):
        """Ratings on the first deals only: ``(games, deals, Ratings)``."""
        return rating_history(self.entries, self.units, points,
                              ci=self.default_ci() if ci == "auto" else ci)

    def mean_scores(self) -> list[float]:
        """Mean duplicate score of each entry over its complete units."""
        sums = [0.0] * len(self.entries)
        counts = [0] * len(self.entries)
        for u in self.units:
            for e, s in u.scores.items():
                sums[e] += s
                counts[e] += 1
        return [sums[i] / counts[i] if counts[i] else float("nan")
                for i in range(len(self.entries))]

    def header(self) -> str:
        sch = self.schedule
        total = self.deals_requested * sch.games_per_deal()
        return (f"ladder {sch.game_spec}, seed {sch.seed}, schedule {sch.schedule_id}: "
                f"{len(self.rows)} of {total} games stored ({self.deals_requested} deals x "
                f"{sch.games_per_deal()} games), {len(self.units)} complete duplicate units")

    def table(self, ratings: Ratings | None = None) -> str:
        """The ratings and pairs as plain text."""
        r = ratings or self.ratings()
        means = self.mean_scores()
        width = max(len(e) for e in self.entries)
        lines = [self.header(), "",
                 f"rank  {'entry':<{width}}  {'Elo':>6}  {'95% CI':>17}  "
                 f"{'W-D-L':>13}  {'mean score':>10}"]
        for rank, i in enumerate(r.order(), 1):
            wdl = f"{r.wins[i]}-{r.draws[i]}-{r.losses[i]}"
            lines.append(f"{rank:>4}  {self.entries[i]:<{width}}  {r.elo[i]:>+6.0f}  "
                         f"{_interval(r.lo[i], r.hi[i], 0):>17}  {wdl:>13}  "
                         f"{means[i]:>+10.2f}")
        lines.append(f"Bradley-Terry on {r.comparisons} duplicate comparisons, "
                     f"{r.method} 95% intervals; W-D-L: duplicate units won, drawn, lost; "
                     f"mean score: per game and seat")
        pairs = [p.oriented() for p in self.pairs()]
        if pairs:
            pw = max(len(self.entries[p.a]) + len(self.entries[p.b]) for p in pairs) + 5
            lines += ["", f"{'pair':<{pw}}  {'units':>5}  {'mean diff':>9}  {'95% CI':>19}  "
                          f"{'W-D-L':>11}"]
            for p in pairs:
                name = f"{self.entries[p.a]} vs {self.entries[p.b]}"
                lines.append(f"{name:<{pw}}  {p.units:>5}  {p.mean:>+9.2f}  "
                             f"{_interval(p.lo, p.hi, 2):>19}  "
                             f"{f'{p.wins}-{p.draws}-{p.losses}':>11}")
            lines.append("mean diff: duplicate score of the better minus the other, per game "
                         "and seat (the deal scores summed over a match); W-D-L: units")
        return "\n".join(lines)


def _interval(lo: float, hi: float, digits: int) -> str:
    if math.isnan(lo) or math.isnan(hi):
        return "n/a"
    lo, hi = round(lo, digits) + 0.0, round(hi, digits) + 0.0      # no "-0"
    return f"[{lo:+.{digits}f}, {hi:+.{digits}f}]"
