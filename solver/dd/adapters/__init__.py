"""The per-game double-dummy adapters: each turns a game's ``State`` into
the right solver's input and its answer into a ``solver.dd.Solution``.
Each lives in its game's package (``solver/games/<game>/exact.py``;
``contract_match`` for trix and tricks) and registers its function under
the game's class (``registry.register``); ``solver.dd.solve`` finds it by
the state's game (``adapter_for``, along the class's bases).  Importing
this package imports the adapter of every package ``solver.games.PACKAGES``
lists: a new game adds its module and nothing in ``solver.dd``.

An adapter is ``fn(solver, state, seat, max_nodes) -> Solution`` with
``solver`` a ``solver.dd.Solver`` (its tables serve every call of a
session), ``seat`` None for the seat to act."""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec

from ...games import PACKAGES
from .registry import ADAPTERS, adapter_for, known_games, register

# the built-in games' adapters register when imported: the ``exact.py`` of
# every package that solver.games.PACKAGES lists
for _name in PACKAGES:
    if find_spec(f"solver.games.{_name}.exact") is not None:
        import_module(f"solver.games.{_name}.exact")

__all__ = ["ADAPTERS", "register", "adapter_for", "known_games"]
