"""dix (``solver/games/dix/game.py`` has the rules in words): the game and
its options (``game``), the rules as a state machine (``state``), the seat
views' world model and sampler (``views``), and what the search layer
needs from it (``search``: the kernel's search and the exact solve's round
result; ``heuristic``: the rules player).  Importing this package registers
the game; ``search`` and ``heuristic`` are imported by the search layer."""

from .game import DixGame
from .state import NUM_ACTIONS, SEVENTEEN, STANDARD, TEN_TRICK_PENALTY, DixState
from .views import DixWorldSampler

__all__ = ["DixGame", "DixState", "DixWorldSampler", "NUM_ACTIONS", "SEVENTEEN", "STANDARD",
           "TEN_TRICK_PENALTY"]
