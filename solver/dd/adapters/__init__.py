"""The per-game double-dummy adapters: each turns a game's ``State`` into
the right solver's input and its answer into a ``solver.dd.Solution``.
Each lives in its game's package (``solver/games/<game>/exact.py``;
``contract_match`` for trix and tricks) and registers its function under
the game's class (``registry.register``); ``solver.dd.solve`` finds it by
the state's game (``adapter_for``, along the class's bases).  Importing
this package imports the built-in games' adapters: a new game adds its
module and one line here, and nothing else in ``solver.dd``.

An adapter is ``fn(solver, state, seat, max_nodes) -> Solution`` with
``solver`` a ``solver.dd.Solver`` (its tables serve every call of a
session), ``seat`` None for the seat to act."""

from __future__ import annotations

# the built-in games' adapters register when imported
from ...games.contract_match import exact as _contract_match  # noqa: F401
from ...games.dix import exact as _dix  # noqa: F401
from ...games.dix_exchange import exact as _dix_exchange  # noqa: F401
from ...games.dixie_rook import exact as _dixie_rook  # noqa: F401
from .registry import ADAPTERS, adapter_for, known_games, register

__all__ = ["ADAPTERS", "register", "adapter_for", "known_games"]
