"""tricks (``solver/games/tricks/game.py`` has the rules in words): what
it adds to the contract match it shares with trix
(``solver/games/contract_match/``), and its search support's key
(``search``).  Importing this package registers the game."""

from .game import TricksGame, TricksState

__all__ = ["TricksGame", "TricksState"]
