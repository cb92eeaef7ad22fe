"""Contract choice for the whole kingdom (trix) or the dealer's set
(tricks).

The chooser must play every contract of the kingdom once, each on a fresh
deal.  A search of the current deal alone values each contract by what it
scores on THIS hand, so it always calls the contract worth most in
absolute terms (the Trix layout, +120 on an average hand) however the hand
suits it.  What the choice changes is which contract meets this hand: the
others are left for later, average, hands.  Choosing ``c`` now is worth
``v(c) + sum of the baselines of the others = v(c) - b(c) + sum of all
baselines``, so the right choice maximizes ``v(c) - b(c)``: what this hand
gains over that contract's value on an average deal.

``b(c)`` is measured by ``bench/contract_baselines.py`` (contracts chosen
at random, every other decision by the rules heuristic; 8,000 deals a
contract) and shipped in ``data/contract_baselines.json``, per game and
option set (trix, trix with ``partners``, tricks); the search values the
deal with the same play-out policy.  The approximation: later hands are
taken as average, and the later choices' own skill is not credited.
"""

from __future__ import annotations

import json
import os
import random
from functools import lru_cache

from .pimc import pimc_search
from .support import support_for

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                    "contract_baselines.json")

#: the unit of a contract decision's values
UNIT = "points this deal above the contract's value on an average deal"


@lru_cache(maxsize=1)
def baselines() -> dict:
    """``{setting: {contract: {"mean", "ci95", "deals"}}}`` from the data file."""
    with open(DATA, encoding="utf-8") as fh:
        return json.load(fh)["games"]


def setting(game) -> str | None:
    """The baselines' key for ``game`` (its ``GameSupport.baseline_key``),
    or None for a game without contracts."""
    return support_for(game).baseline_key(game)


def applies(state) -> bool:
    """Whether the decision at hand is the chooser's contract choice."""
    return setting(state.game) is not None and support_for(state.game).is_contract_choice(state)


def baseline(game, action_text: str) -> float:
    """``b(c)`` for the action ``"contract <name>"``."""
    name = action_text.split()[-1]
    return baselines()[setting(game)][name]["mean"]


def adjust(game, values: dict) -> dict:
    """Each contract's value (keyed by action string) minus its baseline."""
    return {a: v - baseline(game, a) for a, v in values.items()}




def choose_contract(sample, seat: int, legal: list, game, worlds=None, seconds=None,
                    rng=None):
    """The contract to call: every open contract played out by the rules
    heuristic in the same sampled worlds (``pimc_search``'s play-outs:
    equal work and paired comparisons), the best value over its baseline.
    Returns ``(action, stats)``."""
    stats = pimc_search(sample, seat, legal, game, worlds=worlds, seconds=seconds, rng=rng)
    state = sample(random.Random(0))
    base = {a: baseline(game, state.action_to_string(a)) for a in legal}
    action = max(legal, key=lambda a: (stats.values[a] - base[a], -a))
    return action, stats


__all__ = ["applies", "adjust", "baseline", "baselines", "setting", "choose_contract", "UNIT"]
