"""tricks: the search support shared with the other contract match
(``solver/games/contract_match/search.py``), under its own baselines' key."""

from __future__ import annotations

from ...search.support import register
from ..contract_match.search import ContractSupport
from .game import TricksGame


class TricksSupport(ContractSupport):
    key = "tricks"
    #: the learned policy at every card node: stronger at equal time (0.05 s a
    #: decision, one tree: +2.36 +- 2.06 points a deal over 200 duplicate
    #: pairs; docs/search.md, "Learned play measured")
    prior = "learned"


register(TricksGame, TricksSupport())
