"""tricks: the search support shared with the other contract match
(``solver/games/contract_match/search.py``), under its own baselines' key."""

from __future__ import annotations

from ...search.support import register
from ..contract_match.search import ContractSupport
from .game import TricksGame


class TricksSupport(ContractSupport):
    key = "tricks"


register(TricksGame, TricksSupport())
