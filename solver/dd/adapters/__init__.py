"""Per-game double-dummy adapters: each turns a game's ``State`` into the
right solver's input and its answer into a ``solver.dd.Solution``.  One
module a game (``dix``, ``contracts`` for trix and tricks, ``dixie_rook``,
``dix_exchange``); each registers its function under the game's class
(``register``), and ``solver.dd.solve`` finds it by the state's game
(``adapter_for``, along the class's bases): adding a game is one module
here and nothing else in ``solver.dd``.

An adapter is ``fn(solver, state, seat, max_nodes) -> Solution`` with
``solver`` a ``solver.dd.Solver`` (its tables serve every call of a
session), ``seat`` None for the seat to act."""

from __future__ import annotations

# the built-in games' adapters register when imported
from . import contracts, dix, dix_exchange, dixie_rook  # noqa: F401
from .registry import ADAPTERS, adapter_for, known_games, register

__all__ = ["ADAPTERS", "register", "adapter_for", "known_games"]
