"""dix-exchange (``solver/games/dix_exchange/game.py`` has the rules in
words): the game and its options (``game``), the notation of values,
actions and deals (``notation``), the rules as a state machine
(``state``), the seat views' world model and sampler (``views``), and what
the search layer needs from it (``search``; ``heuristic``: the rules
player).  Importing this package registers the game; ``search`` and
``heuristic`` are imported by the search layer."""

from .game import DixExchangeGame
from .notation import (
    ACCEPT,
    ASK,
    BLOCK,
    DRAW,
    KEEP,
    NUM_ACTIONS,
    OVER,
    RANK,
    RESPOND,
    TURN,
    VALUE_INDEX,
    parse_value,
    value_text,
)
from .state import DixExchangeState
from .views import DixExchangeWorldSampler

__all__ = ["DixExchangeGame", "DixExchangeState", "DixExchangeWorldSampler", "ACCEPT", "ASK",
           "BLOCK", "DRAW", "KEEP", "NUM_ACTIONS", "OVER", "RANK", "RESPOND", "TURN",
           "VALUE_INDEX", "parse_value", "value_text"]
