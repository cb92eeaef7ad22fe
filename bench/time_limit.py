"""Is ``best_move``'s time limit honoured?  For each game and search bot,
seeded positions of every decision kind (random play from the deal), one
``best_move(view, Limit(time=T))`` each; the wall time of the whole call
(view validation and world-sampler preparation included) against T:
median, worst and the share of calls within 10%.

    python bench/time_limit.py [--time 0.5] [--positions 20]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import solver
from solver import Limit, best_move


def positions(game, n, seed0=0):
    out, seed = [], seed0
    while len(out) < n:
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        seed += 1
        for _ in range(rng.randrange(0, 60)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            out.append(state)
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--time", type=float, default=0.5)
    p.add_argument("--positions", type=int, default=20)
    p.add_argument("--games", nargs="*", default=solver.registered_games())
    args = p.parse_args(argv)
    print(f"best_move(view, Limit(time={args.time})): wall time of the call / limit, "
          f"{args.positions} positions a row")
    print("| game | bot | median | worst | within 10% |\n|---|---|---|---|---|")
    for name in args.games:
        game = solver.load_game(name)
        states = positions(game, args.positions)
        for bot in ("ismcts", "pimc"):
            ratios = []
            for i, st in enumerate(states):
                t0 = time.perf_counter()
                best_move(st, Limit(time=args.time), bot=bot, seed=i)
                ratios.append((time.perf_counter() - t0) / args.time)
            within = sum(r <= 1.10 for r in ratios) / len(ratios)
            print(f"| {name} | {bot} | {statistics.median(ratios):.3f} | {max(ratios):.3f} | "
                  f"{100 * within:.0f}% |", flush=True)


if __name__ == "__main__":
    main()
