"""The registry of each game's ``GameSupport`` (``solver.search.support``):
what the generic searches need from a game lives in its own package (its
``search.py``).  Importing this package imports the ``search.py`` of every
registered game package, and of every package registered later
(``solver.games.import_parts``): a new game needs no line here."""

from ...games import import_parts

import_parts("search")
