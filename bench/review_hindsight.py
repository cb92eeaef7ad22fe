"""A game review's hindsight solves (bots/review.py) on one table kept
across a deal's positions against each position solved on an empty table
(the module-level session the review used before started afresh at each
earlier position).

    python bench/review_hindsight.py                       # seeds 0-4, every row
    python bench/review_hindsight.py --seeds 10 --games trix --nodes 1000000

Each row plays the deal with ``rules`` at every seat (trix / tricks: the
deal named; dix: the seventeen variant's first round, every card known;
dixie-rook: the first hand), makes the review's hindsight task (every seat
at every action of the deal) and solves it twice, interleaved, from its end
back to its start with the review's node bound a solve: ``kept`` on one
``solver.dd.Solver`` (the review's way), ``fresh`` with the table emptied
before every solve.  It prints the positions solved, the seats given up
(their earlier positions untried), the nodes (of the positions both
solved, and every node searched, the solves given up included) and the CPU
seconds of each, and checks that every value solved by both is the same.
Node counts are exact; the seconds depend on the machine's load.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import solver
from bots import review as reviews
from bots.registry import make_bot
from solver.dd import Solver

#: row -> (game, options, deal reviewed)
ROWS = {
    "trix": ("trix", {}, 3),
    "tricks": ("tricks", {}, 3),
    "dix seventeen": ("dix", {"variant": "seventeen"}, 1),
    "dixie-rook": ("dixie-rook", {}, 1),
}


class _Fresh:
    """A solver whose table is emptied before every solve."""

    def __init__(self, inner: Solver):
        self.inner = inner

    def solve(self, *args, **kwargs):
        self.inner.clear()
        return self.inner.solve(*args, **kwargs)


def _task(name: str, options: dict, deal: int, seed: int, nodes: int) -> dict:
    game = solver.load_game(name, **options)
    state = game.new_initial_state(seed=seed)
    bots = [make_bot("rules", game, s, seed=seed * 10 + s) for s in range(game.num_players)]
    while not state.is_terminal() and state.round_index() < deal:
        state.apply_action(bots[state.current_player()].step(state))
    p = reviews.plan(solver.to_json(state), deal=deal)
    d = next(d for d in p.deals if d.deal == deal)
    return {"record": d.record, "actions": d.actions, "nodes": nodes,
            "wanted": {str(k): sorted(v) for k, v in d.wanted.items()}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--games", default=",".join(ROWS))
    ap.add_argument("--nodes", type=int, default=reviews.DEFAULT_NODES)
    args = ap.parse_args(argv)
    rows = [r.strip() for r in args.games.split(",")]
    print(f"hindsight of one deal a seed, seeds 0-{args.seeds - 1}, at most {args.nodes:,} "
          f"nodes a solve, load average {os.getloadavg()[0]:.2f}")
    print("| row | positions solved, kept / fresh | seats given up, kept / fresh "
          "| nodes of the positions both solved, kept / fresh | every node searched, "
          "kept / fresh | CPU seconds, kept / fresh |")
    print("|---|---|---|---|---|---|")
    with Solver(reviews.HINDSIGHT_TT_MB, private=True) as kept_solver:
        fresh = _Fresh(kept_solver)
        for row in rows:
            name, options, deal = ROWS[row]
            solved = [0, 0]
            gave = [0, 0]
            spent = [0, 0]          # every node searched, the solves given up too
            common = [0, 0]         # the nodes of the positions both solved
            secs = [0.0, 0.0]
            for seed in range(args.seeds):
                task = _task(name, options, deal, seed, args.nodes)
                got = []
                for i, s in enumerate((kept_solver, fresh)):
                    kept_solver.clear()
                    n0 = kept_solver.nodes
                    t0 = time.process_time()
                    out = reviews._hindsight_on(s, task)
                    secs[i] += time.process_time() - t0
                    spent[i] += kept_solver.nodes - n0
                    solved[i] += len(out["solved"])
                    gave[i] += len(out["gave_up"])
                    got.append({(x["offset"], x["seat"]): x for x in out["solved"]})
                both = got[0].keys() & got[1].keys()
                assert all(got[0][k]["values"] == got[1][k]["values"] for k in both), (row, seed)
                for i in (0, 1):
                    common[i] += sum(got[i][k]["nodes"] for k in both)
            print(f"| {row} | {solved[0]} / {solved[1]} | {gave[0]} / {gave[1]} "
                  f"| {common[0]:,} / {common[1]:,} = {common[0] / max(1, common[1]):.2f} "
                  f"| {spent[0]:,} / {spent[1]:,} = {spent[0] / max(1, spent[1]):.2f} "
                  f"| {secs[0]:.1f} / {secs[1]:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
