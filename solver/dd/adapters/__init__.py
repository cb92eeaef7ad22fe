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

from collections.abc import Callable

#: game class -> adapter
ADAPTERS: dict[type, Callable] = {}


def register(*game_classes: type) -> Callable:
    """Decorator: ``fn`` solves states of these game classes (and of their
    subclasses)."""
    def deco(fn: Callable) -> Callable:
        for cls in game_classes:
            ADAPTERS[cls] = fn
        return fn
    return deco


def adapter_for(game) -> Callable | None:
    """The adapter registered for ``game``'s class or the nearest base."""
    for cls in type(game).__mro__:
        fn = ADAPTERS.get(cls)
        if fn is not None:
            return fn
    return None


def known_games() -> list[str]:
    """The names of the registered games with an adapter (for error
    messages)."""
    from ...game import _REGISTRY
    return sorted(name for name, cls in _REGISTRY.items()
                  if any(base in ADAPTERS for base in cls.__mro__))


# the built-in games' adapters register when imported
from . import contracts, dix, dix_exchange, dixie_rook  # noqa: E402,F401

__all__ = ["ADAPTERS", "register", "adapter_for", "known_games"]
