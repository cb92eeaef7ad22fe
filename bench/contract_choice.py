"""Does the search choose contracts better than the rules player? (issue #13)

Duplicate-dealt kingdoms (trix) or dealer's sets (tricks): the same seed
deals the same five hands whatever is chosen, and the chooser's five
contract choices are made by

* ``search``: ``solver.search.contract_choice.choose_contract`` (every open
  contract played out by the rules heuristic in the same sampled worlds,
  judged against its value on an average deal),
* ``rules``: the rules heuristic's contract estimate,
* ``random``: a random open contract,

while every other decision of every seat is the rules heuristic's (the same
seeds in every arm), so only the contract choice differs. The score is the
chooser's total over the five deals; the table gives the mean per-kingdom
difference with its 95% interval.

    python bench/contract_choice.py --game trix --pairs 200 --worlds 40
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import solver
from solver.games.contract_match.state import CHOOSE
from solver.search.contract_choice import choose_contract
from solver.search.heuristics import make_policy

ARMS = ("search", "rules", "random")


def kingdom(game, seed: int, arm: str, worlds: int) -> tuple[float, list]:
    """The first chooser's total over the first kingdom, and its hands."""
    state = game.new_initial_state(seed=seed)
    pols = [make_policy("rules", game, s, seed=seed * 10 + s) for s in range(4)]
    rng = random.Random(seed)
    first = state.round_no
    owner = None
    total, hands = 0.0, []
    while not state.is_terminal() and state.round_no == first:
        seat = state.current_player()
        if state.phase == CHOOSE:
            owner = seat if owner is None else owner
            deal = state.round_index()
            hands.append(tuple(state.deal_logs[-1].hands[seat]))
            legal = state.legal_actions()
            if arm == "search" and len(legal) > 1:
                view = state.information_state(seat).view
                sampler = game.world_sampler(view)
                action, _ = choose_contract(sampler.sample, seat, legal, game, worlds=worlds,
                                            rng=random.Random(seed * 7 + deal))
            elif arm == "random":
                action = rng.choice(legal)
            else:
                action = pols[seat].step(state)
            state.apply_action(action)
            while not state.is_terminal() and state.round_index() == deal:
                state.apply_action(pols[state.current_player()].step(state))
            total += state.round_returns(deal)[owner]
            continue
        state.apply_action(pols[seat].step(state))
    return total, hands


def interval(xs):
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else math.inf
    return mean, 1.96 * sd / math.sqrt(n)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="trix", choices=("trix", "trix:partners", "tricks"))
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--worlds", type=int, default=40, help="search: worlds a choice")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    name, _, opt = args.game.partition(":")
    game = solver.load_game(name, **({"partners": True} if opt else {}))
    scores = {arm: [] for arm in ARMS}
    same_hands = 0
    t0 = time.perf_counter()
    for k in range(args.pairs):
        seed = args.seed * 100_000 + k
        results = {arm: kingdom(game, seed, arm, args.worlds) for arm in ARMS}
        for arm in ARMS:
            scores[arm].append(results[arm][0])
        same_hands += len({tuple(results[a][1]) for a in ARMS}) == 1
    print(f"{args.game}: {args.pairs} duplicate kingdoms (the same hands in every arm: "
          f"{same_hands} of {args.pairs}); search {args.worlds} worlds a choice; "
          f"{time.perf_counter() - t0:.0f} s")
    print("| arm | chooser's kingdom total (mean +- 95%) |")
    print("|---|---|")
    for arm in ARMS:
        m, h = interval(scores[arm])
        print(f"| {arm} | {m:+.1f} +- {h:.1f} |")
    print("| difference | per kingdom, paired (mean +- 95%) |")
    print("|---|---|")
    for a, b in (("search", "rules"), ("search", "random"), ("rules", "random")):
        m, h = interval([x - y for x, y in zip(scores[a], scores[b], strict=True)])
        print(f"| {a} - {b} | {m:+.1f} +- {h:.1f} |")


if __name__ == "__main__":
    main()
