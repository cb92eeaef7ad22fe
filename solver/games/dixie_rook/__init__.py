"""dixie-rook (``solver/games/dixie_rook/game.py`` has the rules in
words): the game and its options (``game``), the action ids and their
notation (``notation``), the auction (``auction``), the rules as a state
machine (``state``), the seat views' world model and sampler (``views``),
and what the search layer needs from it (``search``; ``heuristic``: the
rules player).  Importing this package registers the game; ``search`` and
``heuristic`` are imported by the search layer."""

from .auction import Auction
from .game import DixieRookGame
from .notation import (
    AUCTION,
    BID_BASE,
    BID_STEP,
    DISCARD,
    DISCARD_BASE,
    MAX_BID,
    MIN_BID,
    MOST_TRICKS_BONUS,
    NUM_ACTIONS,
    PASS,
    PLAY,
    TRUMP,
    TRUMP_BASE,
    card_count,
    format_action,
    parse_action,
    team_of,
)
from .state import DixieRookState
from .views import RookWorldSampler

__all__ = ["Auction", "DixieRookGame", "DixieRookState", "RookWorldSampler", "AUCTION",
           "BID_BASE", "BID_STEP", "DISCARD", "DISCARD_BASE", "MAX_BID", "MIN_BID",
           "MOST_TRICKS_BONUS", "NUM_ACTIONS", "PASS", "PLAY", "TRUMP", "TRUMP_BASE",
           "card_count", "format_action", "parse_action", "team_of"]
