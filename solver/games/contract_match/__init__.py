"""What trix and tricks share: the contract match, four rounds of five
deals in which a chooser picks a contract for each new hand
(``solver/games/contract_match/game.py`` has it in words).  Its game base
class and options (``game``), the match as a state machine (``state``),
no-trump trick play and the penalty contracts (``trick_play``), the
layout (``layout``), the seat views' world model and sampler (``views``),
and what the search layer needs (``search``; ``heuristic``: the rules
player).  ``solver/games/trix/`` and ``solver/games/tricks/`` hold what
differs."""

from .game import ContractGame
from .state import ContractMatchState
from .views import ContractWorldSampler

__all__ = ["ContractGame", "ContractMatchState", "ContractWorldSampler"]
