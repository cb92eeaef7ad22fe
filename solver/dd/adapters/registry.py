"""The registry of the double-dummy adapters: game class -> adapter.  Its
own module, below the adapters that register with it, so that they need
not import the package that imports them."""

from __future__ import annotations

from collections.abc import Callable

from ...game import _REGISTRY

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
    return sorted(name for name, cls in _REGISTRY.items()
                  if any(base in ADAPTERS for base in cls.__mro__))


__all__ = ["ADAPTERS", "register", "adapter_for", "known_games"]
