"""Where the learned bot's choices beat the rules bot's: the learned bot
playing its own choice only where the policy prefers it to the rules bot's
choice by a margin, the rules bot's elsewhere, against the rules bot on
duplicate deals (``bench/strength.py``'s pairs and interval).

    python bench/learned_margin.py dix --margins 0 0.2 0.4 0.6 --deals 300 --seed 4000000

A margin of 0 is the ``learned`` bot itself; a large margin is the rules
bot.  If the policy knew something the rules do not, some margin would
put the mixture above the rules: docs/search.md ("Learned play measured")
gives the figures and what they say about the policy.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import solver
from bots import make_bot
from bots.learned import LearnedBot
from bots.match import play_deals
from solver.game import options_from_text, parse_pairs
from solver.search.learned import action_probabilities, best_action
from strength import interval


class MarginBot(LearnedBot):
    """The learned bot where its policy prefers its choice to the rules
    bot's by at least ``margin`` (in probability), the rules bot's choice
    elsewhere."""

    def __init__(self, game, seat, seed=None, margin=0.0):
        super().__init__(game, seat, seed)
        if self.fallback is None:
            raise SystemExit(f"{game}: no rules bot to compare with")
        self.margin = margin

    def step(self, state):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        ruled = self.fallback.step(state)
        probs = None if self.model is None else action_probabilities(*self.model, state)
        if probs is not None:
            mine = best_action(probs)
            if probs[mine] - probs.get(ruled, 0.0) >= self.margin:
                return mine
        return ruled


def compare(game, margin, deals, first_seed):
    """A - B a deal over ``deals`` duplicate pairs, the mixture against the
    rules bot."""
    n = game.num_players
    diffs = []
    for d in range(deals):
        seed = first_seed + d
        total = 0.0
        for parity in (0, 1):
            bots = [MarginBot(game, s, seed=seed * 100 + s, margin=margin) if s % 2 == parity
                    else make_bot("rules", game, s, seed=seed * 100 + s) for s in range(n)]
            res = play_deals(game, bots, seed, 1)
            mine = [res[s] for s in range(n) if s % 2 == parity]
            theirs = [res[s] for s in range(n) if s % 2 != parity]
            total += sum(mine) / len(mine) - sum(theirs) / len(theirs)
        diffs.append(total / 2)
    return interval(diffs)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--option", default="")
    ap.add_argument("--margins", type=float, nargs="+", default=[0.0, 0.2, 0.4, 0.6])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=4000000)
    args = ap.parse_args(argv)
    opts = options_from_text(args.game, parse_pairs(args.option, "--option"))
    game = solver.load_game(args.game, **opts)
    for margin in args.margins:
        mean, ci = compare(game, margin, args.deals, args.seed)
        print(f"{game}: margin {margin:g}: mixture - rules {mean:+.2f} +- {ci:.2f} "
              f"(95%, {args.deals} pairs)", flush=True)


if __name__ == "__main__":
    main()
