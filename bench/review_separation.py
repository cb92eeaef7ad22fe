"""How often a game review shows the seat that plays ``random`` (the others
play ``rules``) with a larger total expected loss than every other seat
(bots/review.py; tests/test_review.py checks seeds 0-1 of each row).

    python bench/review_separation.py                  # seeds 0-5, every game
    python bench/review_separation.py --seeds 10 --games trix,dix

Each row: the deals reviewed (trix and tricks: the first kingdom or
dealer's set, whose five contracts the random seat calls as its owner;
Rook two hands; DIX four rounds; dix one round), the ISMCTS iterations of
a decision and of a decision searched in Python, how many seeds show the
random seat worst, the mean loss of the random seat and of the worst
other seat, and seconds a seed.  Iteration limits: the table is the same
on any machine, the seconds are not.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import solver
from bots.registry import make_bot
from bots.review import review
from solver.search import Limit

#: game -> (deals, iterations, Python iterations, the random seat owns the first kingdom)
ROWS = {
    "dix": (1, 1000, 100, False),
    "trix": (5, 1000, 100, True),
    "tricks": (5, 1000, 100, True),
    "dixie-rook": (2, 10_000, 100, False),
    "dix-exchange": (4, 3000, 300, False),
}


def one(name: str, seed: int, deals: int, iterations: int, py: int, owner: bool):
    game = solver.load_game(name)
    state = game.new_initial_state(seed=seed)
    bad = state.current_player() if owner else seed % game.num_players
    bots = [make_bot("random" if s == bad else "rules", game, s, seed=seed * 10 + s)
            for s in range(game.num_players)]
    while not state.is_terminal() and state.round_index() < deals:
        state.apply_action(bots[state.current_player()].step(state))
    doc = review(solver.to_json(state), limit=Limit(iterations=iterations), py_iterations=py,
                 hindsight=False)
    loss = {s["seat"]: s["loss"] for s in doc["summary"]}
    other = max(v for s, v in loss.items() if s != bad)
    return loss[bad] > other, loss[bad], other


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seeds", type=int, default=6)
    p.add_argument("--games", default=",".join(ROWS))
    args = p.parse_args(argv)
    print("| game | deals | iterations (Python) | random seat worst | random's loss | "
          "worst other | s a seed |")
    print("|---|---|---|---|---|---|---|")
    for name in args.games.split(","):
        deals, its, py, owner = ROWS[name]
        wins, mine, others, t0 = 0, [], [], time.perf_counter()
        for seed in range(args.seeds):
            ok, a, b = one(name, seed, deals, its, py, owner)
            wins += ok
            mine.append(a)
            others.append(b)
        secs = (time.perf_counter() - t0) / args.seeds
        print(f"| {name} | {deals} | {its} ({py}) | {wins}/{args.seeds} | "
              f"{sum(mine) / len(mine):.1f} | {sum(others) / len(others):.1f} | {secs:.1f} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
