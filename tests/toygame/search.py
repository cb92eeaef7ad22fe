"""What the searches need from toy: its rules player (its bids too).
Everything else is the defaults (``solver.search.support.GameSupport``):
the exact values are the solver's, in the deal's points by the bids,
which is what the deal scores (during the auction the solver has none,
and PIMC plays each world out); no opponent model
(the worlds are weighed alike), no Cython search (the Python ISMCTS and
PIMC play it)."""

from __future__ import annotations

from solver.search.support import GameSupport, register

from .game import ToyGame
from .heuristic import ToyRules


class ToySupport(GameSupport):
    heuristic = ToyRules


register(ToyGame, ToySupport())
