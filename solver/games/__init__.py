"""Built-in games: importing this package registers them all."""

from . import (
    dix,  # noqa: F401
    dix_exchange,  # noqa: F401
    dixie_rook,  # noqa: F401
    tricks,  # noqa: F401
    trix,  # noqa: F401
)
