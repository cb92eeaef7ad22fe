"""The bot levels rated against each other, every game (docs/levels.md).

    python bench/levels_ladder.py --deals 16 --jobs 2 --dir ladder-levels
    python bench/levels_ladder.py --deals trix=12,dix-exchange=300 --games trix,dix-exchange
    python bench/levels_ladder.py --dir ladder-levels --report-only

``--deals`` is one number for every game, or ``game=N`` pairs (a game a
search costs little in, such as dix-exchange, can afford many more deals
than trix, whose matches are twenty deals long).

For each game, ``dixtrix ladder run --game GAME --bots easy,medium,hard,expert
--deals N --seed 1 --db DIR/levels-GAME.db`` (a killed run resumes: run the
same command again; a larger ``--deals`` extends it), then one Markdown
table a game: each level's settings string for that game, its Bradley-Terry
rating with its 95% interval, and each level against the one below it --
the mean duplicate score difference per game and seat with its 95%
interval (Student t over duplicate units) -- which must lie above zero.

The dix and dixie-rook matches are played to a shorter target (10 and 100
points) so that a ladder deal costs minutes, not hours; trix and tricks are
whole matches (four kingdoms or dealer's sets of five deals), dix-exchange
a whole match with three tokens each.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from bots import levels
from bots.ladder import LadderResults, run_ladder

GAMES = ("dix:target=10", "trix", "tricks", "dixie-rook:target=100", "dix-exchange")


def db_of(directory: str, spec: str) -> str:
    return os.path.join(directory, f"levels-{spec.split(':')[0]}.db")


def report(spec: str, db: str) -> str:
    res = LadderResults.open(db)
    game = spec.split(":")[0]
    ratings = res.ratings()
    index = {e: i for i, e in enumerate(res.entries)}
    pairs = {(p.a, p.b): p for p in res.pairs()}
    lines = [f"**{spec}** ({len({u.deal for u in res.units})} deals, "
             f"{sum(u.games for u in res.units)} games, {ratings.method} intervals)", "",
             "| level | settings | Elo [95%] | against the level below: score [95%] | "
             "shown above it |",
             "|---|---|---|---|---|"]
    for k, level in enumerate(levels.LEVELS):
        i = index[level]
        elo = f"{ratings.elo[i]:+.0f} [{ratings.lo[i]:+.0f}, {ratings.hi[i]:+.0f}]"
        below, shown = "", ""
        if k:
            j = index[levels.LEVELS[k - 1]]
            p = pairs.get((min(i, j), max(i, j)))
            if p is not None:
                sign = 1 if p.a == i else -1
                lo, hi = sorted((sign * p.lo, sign * p.hi))
                below = f"{sign * p.mean:+.2f} [{lo:+.2f}, {hi:+.2f}] ({p.units} units)"
                # above it: the interval of the difference lies above zero
                shown = "yes" if lo > 0 else "not yet"
        lines.append(f"| {level} | `{levels.level_settings(level, game)}` | {elo} | {below} "
                     f"| {shown} |")
    return "\n".join(lines)


def deals_of(text: str, ap):
    """``--deals``: the deals of a game spec (``"16"``: every game)."""
    if text.isdigit():
        return lambda spec: int(text)
    table = {}
    for part in text.split(","):
        game, _, n = part.partition("=")
        if not n.isdigit() or game not in {g.split(":")[0] for g in GAMES}:
            ap.error(f"--deals: a number, or game=N pairs, got {part!r}")
        table[game] = int(n)

    def deals(spec: str) -> int:
        game = spec.split(":")[0]
        if game not in table:
            ap.error(f"--deals names no number for {game}")
        return table[game]
    return deals


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", default="16",
                    help="deals for every game (16), or game=N pairs: trix=12,dix-exchange=300")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dir", default="ladder-levels")
    ap.add_argument("--games", default=",".join(GAMES),
                    help="game specs, separated by ';' or ',' between games")
    ap.add_argument("--report-only", action="store_true")
    args = ap.parse_args(argv)
    deals = deals_of(args.deals, ap)
    os.makedirs(args.dir, exist_ok=True)
    specs = [s for s in GAMES if s.split(":")[0] in
             {g.split(":")[0] for g in args.games.replace(";", ",").split(",")}]
    for spec in specs:
        db = db_of(args.dir, spec)
        if not args.report_only:
            t0 = time.time()
            summary = run_ladder(spec, list(levels.LEVELS), deals=deals(spec), seed=args.seed,
                                 db=db, jobs=args.jobs, progress=False)
            print(f"{spec}: {summary.played} games in {time.time() - t0:.0f} s "
                  f"(load {os.getloadavg()[0]:.1f})", file=sys.stderr)
        if os.path.exists(db):
            print(report(spec, db))
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
