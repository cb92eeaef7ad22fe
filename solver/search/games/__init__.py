"""The registry of each built-in game's ``GameSupport``
(``solver.search.support``): what the generic searches need from a game
lives in its own package (``solver/games/<game>/search.py``).  Importing
this package imports the ``search.py`` of every package that
``solver.games.PACKAGES`` lists, which registers them all: a new game
needs no line here."""

from importlib import import_module
from importlib.util import find_spec

from ...games import PACKAGES

for _name in PACKAGES:
    if find_spec(f"solver.games.{_name}.search") is not None:
        import_module(f"solver.games.{_name}.search")
