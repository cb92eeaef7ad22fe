"""The registry of each built-in game's ``GameSupport``
(``solver.search.support``): what the generic searches need from it lives
in the game's own package (``solver/games/<game>/search.py``); importing
this package registers them all.  A new game adds one line here."""

from ...games.contract_match import search as _contract_match  # noqa: F401
from ...games.dix import search as _dix  # noqa: F401
from ...games.dix_exchange import search as _dix_exchange  # noqa: F401
from ...games.dixie_rook import search as _dixie_rook  # noqa: F401
from ...games.tricks import search as _tricks  # noqa: F401
from ...games.trix import search as _trix  # noqa: F401
