"""Each built-in game's ``GameSupport`` (``solver.search.support``): what the
generic searches need from it.  One module a game (trix and tricks share
``contract``); importing this package registers them all."""

from . import (
    contract,  # noqa: F401
    dix,  # noqa: F401
    dix_exchange,  # noqa: F401
    dixie_rook,  # noqa: F401
)
