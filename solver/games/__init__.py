"""Built-in games: importing this package registers them all."""

from . import dix  # noqa: F401
