"""Game packages: importing this package registers the built-in games.

``PACKAGES`` is the one list of the game packages under this folder (trix
and tricks share ``contract_match``); importing this package imports each.
A game package outside this folder (a test's game, a user's own game)
registers with one call, ``register_package("mygames.hearts")``, which
imports it the same way.

A game package is the whole of a game: its rules and seat views (the
package itself, whose import registers its ``Game`` class), what the
searches need (its ``search.py``) and its exact adapter (its ``exact.py``).
The layers above never list games: each asks for a part of every
registered package by its module's name (``import_parts``: the search
layer ``search``, solver/search/games/__init__.py; the double-dummy layer
``exact``, solver/dd/adapters/__init__.py), and a package registered later
has the parts asked for so far imported when it registers.  A new built-in
game adds its package and its line in ``PACKAGES``; any other game adds its
package and one ``register_package`` call (docs/architecture.md, "Adding
a game")."""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from types import ModuleType

from ..errors import OptionError
from ..front import N_
from ..game import _REGISTRY, Game, register_game
from ..said import Quote, phrase

# the registry's errors (solver/errors.py)
NO_PACKAGE = phrase("no_package", N_("no game package {package} to register"))
NOT_OUTSIDE = phrase("not_outside_package", N_("{package} is not a registered outside package"))

#: the game packages, one line a game
PACKAGES = (
    "contract_match",
    "dix",
    "dix_exchange",
    "dixie_rook",
    "tricks",
    "trix",
)

#: every registered package by its full module name, in registration order
_PACKAGES: list[str] = []
#: the parts the layers above asked for (``import_parts``), in that order
_PARTS: list[str] = []
#: the game classes each package registered when it was first imported (a
#: package registered again after ``unregister_package`` is imported from
#: the cache, so its classes are registered again from here)
_GAMES: dict[str, list[type[Game]]] = {}


def _import_part(package: str, part: str) -> None:
    if find_spec(f"{package}.{part}") is not None:
        import_module(f"{package}.{part}")


def register_package(package: str) -> ModuleType:
    """Import the game package ``package`` (a full module name,
    ``"mygames.hearts"``), which registers its games, and the parts of it
    the layers above have asked for (``import_parts``); registering a
    package twice does nothing more.  ``OptionError`` when no such
    package exists."""
    if not isinstance(package, str) or find_spec(package) is None:
        raise OptionError(NO_PACKAGE(package=Quote(package)))
    before = set(_REGISTRY.values())
    module = import_module(package)
    if package not in _PACKAGES:
        if package in _GAMES:
            for cls in _GAMES[package]:
                register_game(cls)
        else:
            _GAMES[package] = [cls for cls in _REGISTRY.values() if cls not in before]
        _PACKAGES.append(package)
        for part in _PARTS:
            _import_part(package, part)
    return module


def unregister_package(package: str) -> list[str]:
    """Forget a package ``register_package`` registered, and its games
    (their names are free again; what its parts registered with the layers
    above stays, keyed by game classes that nothing loads by name any
    more; ``register_package`` registers them again).  A test that
    registers a game for itself undoes it with this, so the games the rest
    of the run sees are the built-in ones.  Returns the names of the games
    forgotten."""
    if package not in _PACKAGES or package.startswith(f"{__name__}."):
        raise OptionError(NOT_OUTSIDE(package=Quote(package)))
    _PACKAGES.remove(package)
    names = [name for name, cls in _REGISTRY.items() if cls in _GAMES.get(package, ())]
    for name in names:
        del _REGISTRY[name]
    return names


def registered_packages() -> tuple[str, ...]:
    """Every registered game package's full module name, the built-in ones first."""
    return tuple(_PACKAGES)


def import_parts(part: str) -> None:
    """Import the module ``part`` (``"search"``, ``"exact"``) of every
    registered package that has one, and of every package registered from
    now on: how a layer above finds what each game declares for it."""
    if part not in _PARTS:
        _PARTS.append(part)
    for package in _PACKAGES:
        _import_part(package, part)


for _name in PACKAGES:
    register_package(f"{__name__}.{_name}")

__all__ = ["PACKAGES", "register_package", "unregister_package", "registered_packages",
           "import_parts"]
