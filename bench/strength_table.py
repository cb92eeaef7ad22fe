"""The strength table of issue #7: in every game, rules vs random, pimc and
ismcts vs rules, pimc vs ismcts at equal time, and the cheating
double-dummy player vs rules (the upper bound), each over duplicate-dealt
seeded deal pairs with a 95% interval (``bench/strength.py``'s
statistic), plus the share of the rules-to-cheat gap each search bot
closes.

    python bench/strength_table.py --time 0.1 --pairs 40 [--games dix trix] [--jobs 2]
    python bench/strength_table.py --games dix-exchange --pairs 4000 \
        --pimc-limit worlds=30 --ismcts-limit iterations=200 --cheat-limit worlds=1

Rows run in ``--jobs`` worker processes; each row prints as it finishes
(markdown), the summary table at the end.  ``--time`` is the search time
per decision for every search bot (pimc, ismcts, cheat).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import solver
from strength import compare

GAMES = ["dix", "trix", "tricks", "dixie-rook", "dix-exchange"]


def rows_for(t: float, ismcts_extra: str = "", limits: dict | None = None
             ) -> list[tuple[str, str, str]]:
    """The table's rows; ``limits`` maps a search bot to its limit settings
    (default ``time=t``), e.g. ``{"pimc": "worlds=30"}``."""
    limits = limits or {}
    pimc = f"pimc:{limits.get('pimc', f'time={t}')}"
    ismcts = f"ismcts:{limits.get('ismcts', f'time={t}')}{ismcts_extra}"
    cheat = f"cheat:{limits.get('cheat', f'time={t}')}"
    return [("rules vs random", "rules", "random"),
            ("pimc vs rules", pimc, "rules"),
            ("ismcts vs rules", ismcts, "rules"),
            ("pimc vs ismcts", pimc, ismcts),
            ("cheat vs rules", cheat, "rules")]


def run_row(job):
    game_name, label, a, b, pairs, seed, rounds = job
    game = solver.load_game(game_name)
    try:
        mean, ci, secs = compare(game, a, b, pairs, seed, rounds)
    except Exception as exc:            # one broken row must not lose the others
        import traceback
        traceback.print_exc()
        return game_name, label, a, b, pairs, float("nan"), float("nan"), repr(exc)
    return game_name, label, a, b, pairs, mean, ci, secs


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--time", type=float, default=0.1)
    p.add_argument("--pairs", type=int, default=40)
    p.add_argument("--games", nargs="*", default=GAMES)
    p.add_argument("--rows", nargs="*", default=None,
                   help="row labels to run, e.g. 'pimc vs rules' (default: all)")
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--ismcts", default="", help="extra ismcts settings, e.g. ',policy=rules'")
    p.add_argument("--rounds", type=int, default=1, help="deals of the match per game")
    for bot in ("pimc", "ismcts", "cheat"):
        p.add_argument(f"--{bot}-limit", default=None,
                       help=f"{bot}'s limit settings instead of time=TIME, e.g. "
                            f"'{dict(pimc='worlds=30', ismcts='iterations=200', cheat='worlds=1')[bot]}'"
                            " (quick decisions for games that need many pairs)")
    args = p.parse_args(argv)
    limits = {bot: getattr(args, f"{bot}_limit") for bot in ("pimc", "ismcts", "cheat")
              if getattr(args, f"{bot}_limit")}
    jobs = [(g, label, a, b, args.pairs, args.seed, args.rounds) for g in args.games
            for label, a, b in rows_for(args.time, args.ismcts, limits)
            if args.rows is None or label in args.rows]
    print(f"strength table: {args.pairs} duplicate deal pairs a row, "
          f"{args.time} s a search decision, seeds from {args.seed}"
          + "".join(f", {b} {v}" for b, v in limits.items()), flush=True)
    results = {}
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for g, label, a, b, _pairs, mean, ci, secs in pool.map(run_row, jobs):
            if isinstance(secs, str):
                print(f"| {g} | {label} | {a} | {b} | error: {secs} | | |", flush=True)
                continue
            verdict = "A" if mean - ci > 0 else "B" if mean + ci < 0 else "none"
            results[(g, label)] = (mean, ci)
            print(f"| {g} | {label} | {a} | {b} | {mean:+.2f} +- {ci:.2f} | {verdict} | "
                  f"{secs:.0f} s |", flush=True)
    print(f"\nshare of the rules -> cheat gap closed (A vs rules / cheat vs rules); "
          f"{time.perf_counter() - t0:.0f} s in all")
    for g in args.games:
        cheat = results.get((g, "cheat vs rules"))
        for label in ("pimc vs rules", "ismcts vs rules"):
            mine = results.get((g, label))
            if cheat and mine and cheat[0] > 0:
                print(f"| {g} | {label.split()[0]} | {100 * mine[0] / cheat[0]:.0f}% |")


if __name__ == "__main__":
    main()
