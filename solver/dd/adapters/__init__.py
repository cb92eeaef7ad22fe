"""The per-game double-dummy adapters: each turns a game's ``State`` into
the right solver's input and its answer into a ``solver.dd.Solution``.
Each lives in its game's package (``solver/games/<game>/exact.py``;
``contract_match`` for trix and tricks) and registers its function under
the game's class (``registry.register``); ``solver.dd.solve`` finds it by
the state's game (``adapter_for``, along the class's bases).  Importing
this package imports the adapter of every registered game package, and of
every package registered later (``solver.games.import_parts``): a new game
adds its module and nothing in ``solver.dd``.

An adapter is ``fn(solver, state, seat, max_nodes, kind) -> Solution`` with
``solver`` a ``solver.dd.Solver`` (its tables serve every call of a
session), ``seat`` None for the seat to act.  One whose values have a
tie-break part beyond what a player reads (dix's lexicographic value)
also takes ``tie_break=True`` to settle it; ``solve`` passes it only when
asked.  Past ``max_nodes`` it raises the solver's ``SearchAborted`` with
the brackets named in the game's notation (``common.named_brackets``)."""

from __future__ import annotations

from ...games import import_parts
from .registry import ADAPTERS, adapter_for, known_games, register

# the games' adapters register when imported: the ``exact.py`` of every
# registered game package, now and later
import_parts("exact")

__all__ = ["ADAPTERS", "register", "adapter_for", "known_games"]
