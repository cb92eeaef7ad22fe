"""Are the search's 95% intervals honest?  (issue #25)

For each position (card play and other decisions of dix, trix, tricks and
dixie-rook, drawn by random play-outs; forced and exactly solved decisions
left out), a reference search 20 times longer than the searches judged
(``--ref-factor``, 8 trees) gives each action's value; then searches of
``--iterations`` with 1, 2 and 8 trees (each its own seed) give a value and
a 95% half-width per action.  Printed per tree count:

* **coverage**: the share of (position, action) pairs whose interval holds
  the reference value (target 90-98%; the reference's own error is about
  1/sqrt(20) of the judged one's, so a little under 95% is expected);
* **width**: the mean half-width, and its ratio to 1 tree's at the same
  total iterations (target: 2 trees within 1.5x of 1 tree).

    python bench/calibration.py --positions 100 --iterations 20000

Deterministic for its arguments (iteration limits, fixed seeds).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import solver
from solver.search import Limit, best_move

GAMES = ("dix", "trix", "tricks", "dixie-rook")


def positions(count: int, seed: int) -> list:
    """``count`` seat views, spread over the games, that the service searches."""
    rng = random.Random(seed)
    out: list[tuple[str, dict]] = []
    k = 0
    while len(out) < count:
        name = GAMES[k % len(GAMES)]
        k += 1
        game = solver.load_game(name)
        state = game.new_initial_state(seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(0, 120)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal() or len(state.legal_actions()) < 2:
            continue
        view = state.information_state(state.current_player()).view
        probe = best_move(view, Limit(iterations=50), seed=0, trees=1)
        if probe.bot != "ismcts":
            continue
        out.append((name, view))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--iterations", type=int, default=20_000)
    ap.add_argument("--ref-factor", type=int, default=20)
    ap.add_argument("--trees", default="1,2,8")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    trees = [int(t) for t in args.trees.split(",")]
    start = time.time()
    pos = positions(args.positions, args.seed)
    cover: dict[int, list[bool]] = {t: [] for t in trees}
    width: dict[int, list[float]] = {t: [] for t in trees}
    by_game: dict[int, dict[str, list[bool]]] = {t: {} for t in trees}
    for i, (name, view) in enumerate(pos):
        ref = best_move(view, Limit(iterations=args.iterations * args.ref_factor), seed=10**6 + i,
                        trees=8)
        for t in trees:
            res = best_move(view, Limit(iterations=args.iterations), seed=i, trees=t)
            for a, v in res.values.items():
                h = res.ci95.get(a, math.inf)
                if a not in ref.values or not math.isfinite(h):
                    continue
                hit = abs(v - ref.values[a]) <= h
                cover[t].append(hit)
                by_game[t].setdefault(name, []).append(hit)
                width[t].append(h / solver.load_game(name).round_scale)
        if (i + 1) % 10 == 0:
            print(f"  {i + 1} positions, {time.time() - start:.0f} s", file=sys.stderr)
    print(f"{len(pos)} positions ({', '.join(GAMES)}), {args.iterations:,} iterations a search, "
          f"reference {args.ref_factor}x longer with 8 trees; load {os.getloadavg()[0]:.1f}")
    print()
    print("| trees | pairs | coverage of the reference value | "
          + " | ".join(GAMES) + " | mean half-width (share of the round scale) | "
          "width / 1 tree's |")
    print("|---|---|---|" + "---|" * len(GAMES) + "---|---|")
    base = statistics.mean(width[trees[0]]) if width[trees[0]] else math.nan
    for t in trees:
        c = cover[t]
        per = [f"{100 * sum(by_game[t].get(g, [])) / max(1, len(by_game[t].get(g, []))):.1f}%"
               for g in GAMES]
        w = statistics.mean(width[t]) if width[t] else math.nan
        print(f"| {t} | {len(c)} | **{100 * sum(c) / max(1, len(c)):.1f}%** | "
              + " | ".join(per) + f" | {w:.4f} | {w / base:.2f}x |")
    print(f"\n{time.time() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
