"""Duplicate-dealt strength comparison of two bots, with a 95% interval.

    python bench/strength.py dix --a rules --b random --deals 200
    python bench/strength.py dix --a ismcts:iterations=300 --b rules --deals 60

Each seeded deal is played twice with the bots' seats swapped (duplicate),
to the end of the first deal (``--rounds``: deals) only; the statistic is bot A's mean result of
the deal (``round_returns``) over its seats minus bot B's over theirs,
averaged over the two seatings of the deal.  The
interval is mean +- 1.96 standard errors over deal pairs.  With more than
two seats, bot A takes the even seats, then the odd ones.

Long runs (1 s a move: about a minute a trix pair) write each pair as it
ends with ``--log FILE`` (a JSON line: game, bots, seed, A - B), so that a
stopped run keeps its pairs and several processes (other ``--seed``
ranges, one a core) are pooled into one interval afterwards:

    python bench/strength.py trix --a pimc:time=1 --b ismcts:time=1 --deals 100 --log a.jsonl
    python bench/strength.py trix --a pimc:time=1 --b ismcts:time=1 --deals 100 --seed 100 --log b.jsonl
    python bench/strength.py --pool a.jsonl b.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import solver
from bots import make_bot
from bots.match import play_deals
from solver.game import options_from_text, parse_pairs


def play_deal(game, specs, seed, rounds=1):
    """Play the first ``rounds`` deals of a seeded match; each seat's summed
    deal results (``round_returns``)."""
    bots = [make_bot(spec, game, s, seed=seed * 100 + s) for s, spec in enumerate(specs)]
    return play_deals(game, bots, seed, rounds)


def interval(diffs):
    """Mean of the pairs' differences and its 95% half-width."""
    mean = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / max(1, len(diffs) - 1))
    return mean, 1.96 * sd / math.sqrt(len(diffs))


def verdict(mean, ci):
    return "A stronger" if mean - ci > 0 else "B stronger" if mean + ci < 0 else "no verdict"


def compare(game, a, b, deals, first_seed=0, rounds=1, log=None):
    """``log``: an open file that gets a JSON line per pair as it ends."""
    diffs = []
    t0 = time.perf_counter()
    n = game.num_players
    for d in range(deals):
        seed = first_seed + d
        total = 0.0
        for parity in (0, 1):
            specs = [a if s % 2 == parity else b for s in range(n)]
            res = play_deal(game, specs, seed, rounds)
            mine = [res[s] for s in range(n) if s % 2 == parity]
            theirs = [res[s] for s in range(n) if s % 2 != parity]
            total += sum(mine) / len(mine) - sum(theirs) / len(theirs)
        diffs.append(total / 2)
        if log is not None:
            log.write(json.dumps({"game": repr(game), "a": a, "b": b, "rounds": rounds,
                                  "seed": seed, "diff": total / 2}) + "\n")
            log.flush()
    mean, ci = interval(diffs)
    return mean, ci, time.perf_counter() - t0


def pool(paths):
    """One interval over the pairs of several ``--log`` files (the same
    game and bots in each; a seed counted once)."""
    pairs, keys = {}, set()
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.strip():
                    row = json.loads(line)
                    keys.add((row["game"], row["a"], row["b"], row["rounds"]))
                    pairs[row["seed"]] = row["diff"]
    if len(keys) != 1:
        raise SystemExit(f"strength: the logs mix games or bots: {sorted(keys)}")
    if len(pairs) < 2:
        raise SystemExit("strength: fewer than two pairs in the logs")
    game, a, b, _ = keys.pop()
    mean, ci = interval(list(pairs.values()))
    seeds = sorted(pairs)
    print(f"{game}: A={a} vs B={b}, {len(pairs)} duplicate deal pairs (seeds {seeds[0]}.."
          f"{seeds[-1]}, pooled): A - B per deal {mean:+.3f} +- {ci:.3f} (95%) -> "
          f"{verdict(mean, ci)}")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game", nargs="?")
    p.add_argument("--a")
    p.add_argument("--b")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rounds", type=int, default=1, help="deals of the match played per game")
    p.add_argument("--option", action="append", default=[])
    p.add_argument("--log", help="append each pair as a JSON line to this file")
    p.add_argument("--pool", nargs="+", metavar="LOG",
                   help="pool the pairs of these --log files into one interval")
    args = p.parse_args(argv)
    if args.pool:
        pool(args.pool)
        return
    if not (args.game and args.a and args.b):
        p.error("give a game, --a and --b (or --pool)")
    # the command line's reading of game options (true/false, numbers)
    opts = options_from_text(args.game, parse_pairs(args.option, "--option"))
    game = solver.load_game(args.game, **opts)
    log = open(args.log, "a") if args.log else None
    try:
        mean, ci, secs = compare(game, args.a, args.b, args.deals, args.seed, args.rounds, log)
    finally:
        if log is not None:
            log.close()
    print(f"{game!r}: A={args.a} vs B={args.b}, {args.deals} duplicate deal pairs: "
          f"A - B per deal {mean:+.3f} +- {ci:.3f} (95%) -> {verdict(mean, ci)} "
          f"[{secs:.1f} s]")


if __name__ == "__main__":
    main()
