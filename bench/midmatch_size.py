"""Whole-match seat views against mid-match views late in a match: the
size of the JSON a user edits and the time to load it (``from_json``
validates by completing and replaying the view), per game.

    python bench/midmatch_size.py            # one seeded match per game
    python bench/midmatch_size.py --seed 4 --repeat 5

Each game is played by a seeded random player about three quarters of the
way through its match; the seat to move's view is written both ways.
Timings are wall clock (min of ``--repeat``) on whatever machine runs it.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import solver  # noqa: E402
from solver.position import from_json  # noqa: E402

GAMES = [("dix", {"target": 50}), ("trix", {}), ("tricks", {}),
         ("dixie-rook", {"target": 300, "lose_at": 300}), ("dix-exchange", {})]


def late_state(name, options, seed):
    """The state about three quarters into a seeded random match."""
    game = solver.load_game(name, **options)
    whole = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    actions = []
    while not whole.is_terminal():
        a = rng.choice(whole.legal_actions())
        actions.append(a)
        whole.apply_action(a)
    state = game.new_initial_state(seed=seed)
    for a in actions[:len(actions) * 3 // 4]:
        state.apply_action(a)
    return state


def timed(fn, repeat):
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    print("| game | deal in play | whole view: chars | load | mid-match view: chars | load |")
    print("|---|---|---|---|---|---|")
    for name, options in GAMES:
        state = late_state(name, options, args.seed)
        seat = state.current_player()
        whole = state.information_state(seat).view
        mid = from_json(whole).from_current_deal().to_json()
        tw = timed(functools.partial(from_json, whole), args.repeat)
        tm = timed(functools.partial(from_json, mid), args.repeat)
        where = ", ".join(f"{k} {v}" for k, v in mid["match"].items() if k in
                          ("round", "kingdom", "set", "hand"))
        print(f"| {name} | {where} | {len(json.dumps(whole)):,} | {tw * 1000:.0f} ms | "
              f"{len(json.dumps(mid)):,} | {tm * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
