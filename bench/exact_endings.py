"""Does a search bot ever play worse than the exact value where its view
determines the deal?  (issue #25)

Dix after the stock is a game of perfect information: both hands are known
to both players.  For ``--positions`` such positions (the rules bots play
seeded rounds to a random trick from 14 on), each bot setting chooses a
card and the double-dummy solver values every legal card; a choice whose
exact value is below the best card's is a point (or more) conceded.  The
decision service solves these positions exactly, so the count should be 0;
``exact=off`` shows what the search alone does.

    python bench/exact_endings.py --positions 120 \\
        --bots "ismcts:time=0.1" "ismcts:time=0.5" "ismcts:time=0.1,exact=off"
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import solver
from bots import make_bot
from solver.dd import solve


def positions(count: int, seed: int) -> list:
    game = solver.load_game("dix")
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        state: Any = game.new_initial_state(seed=rng.randrange(1 << 30))   # a dix state
        bots = [make_bot("rules", game, s, seed=rng.randrange(1 << 30)) for s in range(2)]
        stop = rng.randrange(14, 24)
        while not state.is_terminal() and state.round_index() == 0 and state.tricks_done < stop:
            state.apply_action(bots[state.current_player()].step(state))
        if state.is_terminal() or state.round_index() != 0 or len(state.legal_actions()) < 2:
            continue
        out.append(state)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=120)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", nargs="+", default=["ismcts:time=0.1", "ismcts:time=0.5",
                                                 "ismcts:time=0.1,exact=off"])
    args = ap.parse_args(argv)
    pos = positions(args.positions, args.seed)
    print(f"{len(pos)} dix positions after the stock; load {os.getloadavg()[0]:.1f}")
    print("| bot | worse than the exact best | points conceded in all | mean seconds a move |")
    print("|---|---|---|---|")
    for spec in args.bots:
        worse, lost, secs = 0, 0.0, 0.0
        for i, state in enumerate(pos):
            seat = state.current_player()
            sol = solve(state)
            bot = make_bot(spec, state.game, seat, seed=i)
            t0 = time.perf_counter()
            card = state.action_to_string(bot.step(state))
            secs += time.perf_counter() - t0
            gap = sol.value - sol.action_values[card]
            if gap > 0:
                worse += 1
                lost += gap
        print(f"| `{spec}` | {worse} of {len(pos)} ({100 * worse / len(pos):.1f}%) | {lost:g} | "
              f"{secs / len(pos):.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
