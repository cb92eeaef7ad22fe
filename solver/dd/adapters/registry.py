"""The registry of what each game declares for the double-dummy layer:
game class -> adapter (``register``), and game class -> its table of
contracts (``register_table``, for ``solver.dd.tables.contract_table``).
Its own module, below the adapters that register with it, so that they
need not import the package that imports them."""

from __future__ import annotations

from collections.abc import Callable

from ...game import game_class, registered_games

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


#: game class -> its table of contracts:
#: ``fn(solver, state, seats, max_nodes, contracts) -> {contract: {seat: value}}``
TABLES: dict[type, Callable] = {}


def register_table(*game_classes: type) -> Callable:
    """Decorator: ``fn`` is the table of contracts of these game classes
    (and of their subclasses): ``solver.dd.tables.contract_table``."""
    def deco(fn: Callable) -> Callable:
        for cls in game_classes:
            TABLES[cls] = fn
        return fn
    return deco


def _nearest(table: dict[type, Callable], game) -> Callable | None:
    for cls in type(game).__mro__:
        fn = table.get(cls)
        if fn is not None:
            return fn
    return None


def adapter_for(game) -> Callable | None:
    """The adapter registered for ``game``'s class or the nearest base."""
    return _nearest(ADAPTERS, game)


def table_for(game) -> Callable | None:
    """The table of contracts registered for ``game``'s class or the nearest base."""
    return _nearest(TABLES, game)


def known_games() -> list[str]:
    """The names of the registered games with an adapter (for error
    messages)."""
    return _known(ADAPTERS)


def known_tables() -> list[str]:
    """The names of the registered games with a table of contracts."""
    return _known(TABLES)


def _known(table: dict[type, Callable]) -> list[str]:
    return [name for name in registered_games()
            if any(base in table for base in game_class(name).__mro__)]


__all__ = ["ADAPTERS", "TABLES", "register", "register_table", "adapter_for", "table_for",
           "known_games", "known_tables"]
