"""trix (``solver/games/trix/game.py`` has the rules in words): what it
adds to the contract match it shares with tricks
(``solver/games/contract_match/``), and its search support's key
(``search``).  Importing this package registers the game."""

from .game import TrixGame, TrixState

__all__ = ["TrixGame", "TrixState"]
