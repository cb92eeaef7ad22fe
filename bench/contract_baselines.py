"""What each contract is worth to its chooser on an average deal (issue #13):
the baselines the contract choice of trix and tricks compares against
(``solver/search/contract_choice.py``).

Whole matches are played by the rules heuristic at every seat, except that
every contract is chosen uniformly at random among those still open, so
that which hand meets which contract does not depend on the hand: each
contract's mean deal score for its chooser (``round_returns``) is then its
value on an average deal.  Written to ``solver/search/data/
contract_baselines.json`` with the 95% interval of each mean and the
command that made it.

    python bench/contract_baselines.py --matches 400
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import solver  # noqa: E402
from solver.games.contract_match.state import CHOOSE, CONTRACT_BASE  # noqa: E402
from solver.search.heuristics import make_policy  # noqa: E402

OUT = os.path.join(ROOT, "solver", "search", "data", "contract_baselines.json")
#: the game settings that change what a contract is worth
SETTINGS = {"trix": {}, "trix:partners": {"partners": True}, "tricks": {}}


def measure(name: str, options: dict, matches: int, seed: int) -> dict:
    game: Any = solver.load_game(name.split(":")[0], **options)   # a contract game
    rng = random.Random(seed)
    sums: dict = {}
    for m in range(matches):
        state: Any = game.new_initial_state(seed=seed * 100_000 + m)   # a contract game's
        pols = [make_policy("rules", game, s, seed=m * 10 + s) for s in range(4)]
        while not state.is_terminal():
            seat = state.current_player()
            if state.phase == CHOOSE:
                deal, chooser = state.round_index(), seat
                action = rng.choice(state.legal_actions())
                contract = game.contract_names[action - CONTRACT_BASE]
                state.apply_action(action)
                # play the deal out, then score it for the chooser
                while not state.is_terminal() and state.round_index() == deal:
                    state.apply_action(pols[state.current_player()].step(state))
                v = state.round_returns(deal)[chooser]
                n, s, s2 = sums.get(contract, (0, 0.0, 0.0))
                sums[contract] = (n + 1, s + v, s2 + v * v)
                continue
            state.apply_action(pols[seat].step(state))
    out = {}
    for contract, (n, s, s2) in sorted(sums.items()):
        mean = s / n
        sd = math.sqrt(max(0.0, (s2 - n * mean * mean) / (n - 1))) if n > 1 else math.inf
        out[contract] = {"mean": round(mean, 3), "ci95": round(1.96 * sd / math.sqrt(n), 3),
                         "deals": n}
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args(argv)
    doc = {"about": "each contract's mean deal score for its chooser on an average deal: "
                    "contracts chosen at random, every other decision by the rules "
                    "heuristic (bench/contract_baselines.py)",
           "command": f"python bench/contract_baselines.py --matches {args.matches} "
                      f"--seed {args.seed}",
           "games": {}}
    for key, options in SETTINGS.items():
        t0 = time.perf_counter()
        doc["games"][key] = measure(key, options, args.matches, args.seed)
        print(f"{key}: {doc['games'][key]} ({time.perf_counter() - t0:.0f} s)", flush=True)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
