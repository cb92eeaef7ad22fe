"""How wide should the advice's near-tie rule be? (issue #13)

The advice (``solver.search.advice``) breaks a near tie by a fixed rule:
among the search's leader and the actions within ``TIE_SE`` standard
errors of the difference from it, or within ``TIE_POINTS`` of the game's
round scale in value, the lowest card.  Wider ties make the advice
steadier from seed to seed but may advise a card the search would rank
lower with more time.  This bench measures both sides for a grid of
settings from ONE set of searches: for each seeded card-play position
(the positions of bench/hint_stability.py) it runs the ISMCTS search with
5 search seeds at the hint's default second, and one long reference
search (``--reference`` seconds, seed 99); then, for each setting, it
re-decides every search's advice from its root statistics and reports

* stable: positions where all 5 seeds advise the same action;
* marked: among the others, those where every seed's advice is marked as
  good as its own in every run (``equal``);
* clearly below: advised actions the reference search values below its own
  best by more than the 95% half-width of the difference;
* regret: the mean, over all advice, of the reference's value of its best
  action minus that of the advised one (game points).

    python bench/tie_rule.py --games dixie-rook tricks trix --positions 50
    python bench/tie_rule.py --games dix --positions 20 --se 0.5 1 --points 0 0.0005

The searches run once per game (9-10 s a position at the defaults); the
grid costs nothing more.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import solver.search.advice as rule
import solver.search.service as service
from hint_stability import GAMES, positions
from solver.position import from_json
from solver.search import Limit, best_move


def collect(name: str, n: int, seed: int, seconds: float, reference: float):
    """Per position: the 5 seeds' and the reference's evidence (what the
    decision service hands ``advice.decide``)."""
    captured = []
    original = service.decide  # type: ignore[attr-defined]  # patched where the service looks it up

    def capture(ev):
        captured.append(ev)
        return original(ev)

    service.decide = capture  # type: ignore[attr-defined]
    try:
        out = []
        for state in positions(name, n, seed):
            view = from_json(state.information_state(state.current_player()).view)
            runs = []
            for k in list(range(5)) + [99]:
                captured.clear()
                best_move(view, Limit(time=seconds if k != 99 else reference), seed=k)
                runs.append(captured[0])
            out.append((runs[:5], runs[5]))
        return out
    finally:
        service.decide = original  # type: ignore[attr-defined]


def decide(ev, se: float, points: float):
    """The advice from one search's evidence under a tie setting."""
    keep = rule.TIE_SE, rule.TIE_POINTS, rule.EQUAL_POINTS
    rule.TIE_SE, rule.TIE_POINTS = se, points
    rule.EQUAL_POINTS = 2 * points               # as in the module: twice the tie's
    try:
        return rule.decide(ev)
    finally:
        rule.TIE_SE, rule.TIE_POINTS, rule.EQUAL_POINTS = keep


def score(data, se: float, points: float) -> dict:
    stable = marked = clearly = total = 0
    regret = 0.0
    for runs, ref in data:
        results = [decide(ev, se, points) for ev in runs]
        picks = [r.action for r in results]
        if len(set(picks)) == 1:
            stable += 1
        elif all(p in r.equal for r in results for p in set(picks)):
            marked += 1
        # the reference's best mean (its values do not depend on the setting)
        best = max(ref.values, key=lambda a: (ref.values[a], -a))
        for p in picks:
            total += 1
            if p == best or p not in ref.values:
                continue
            regret += ref.values[best] - ref.values[p]
            if ref.values[best] - ref.values[p] > ref.diff_half(best, p):
                clearly += 1
    return {"stable": stable, "marked": marked, "clearly": clearly, "total": total,
            "regret": regret / max(1, total), "n": len(data)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", nargs="*", default=[g for g in GAMES if g != "dix"],
                    choices=GAMES)
    ap.add_argument("--positions", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time", type=float, default=1.0, help="seconds a search (the hint's)")
    ap.add_argument("--reference", type=float, default=4.0, help="seconds of the reference")
    ap.add_argument("--se", type=float, nargs="*", default=[0.5, 1.0, 1.5, 2.0])
    ap.add_argument("--points", type=float, nargs="*", default=[0.0, 1 / 4000, 1 / 2000],
                    help="TIE_POINTS settings (shares of the round scale)")
    args = ap.parse_args(argv)
    print(f"now: TIE_SE {rule.TIE_SE:g}, TIE_POINTS {rule.TIE_POINTS:g}; "
          f"5 seeds at {args.time:g} s, reference {args.reference:g} s")
    print("| game | TIE_SE | TIE_POINTS | same advice for 5 seeds | differing, marked as good "
          "| advice clearly below the reference's best | mean regret (points) |")
    print("|---|---|---|---|---|---|---|")
    for name in args.games:
        t0 = time.perf_counter()
        data = collect(name, args.positions, args.seed, args.time, args.reference)
        for points in args.points:
            for se in args.se:
                r = score(data, se, points)
                unstable = r["n"] - r["stable"]
                print(f"| {name} | {se:g} | {points:g} | {r['stable']} of {r['n']} "
                      f"({100 * r['stable'] / r['n']:.0f}%) | "
                      f"{r['marked']} of {unstable} | {r['clearly']} of {r['total']} | "
                      f"{r['regret']:.3f} |", flush=True)
        print(f"<!-- {name}: {time.perf_counter() - t0:.0f} s -->", flush=True)


if __name__ == "__main__":
    main()
