"""Built-in games: importing this package registers them all.

``PACKAGES`` is the one list of the game packages under this folder (trix
and tricks share ``contract_match``): importing this package imports each,
and the layers above find a package's parts from it (its ``search.py``:
``solver/search/games/__init__.py``; its ``exact.py``:
``solver/dd/adapters/__init__.py``).  A new game adds its package and one
line here."""

from importlib import import_module

#: the game packages, one line a game
PACKAGES = (
    "contract_match",
    "dix",
    "dix_exchange",
    "dixie_rook",
    "tricks",
    "trix",
)

for _name in PACKAGES:
    import_module(f"{__name__}.{_name}")
