"""dixtrix: rules engines, positions and search for five card games.

>>> import solver
>>> game = solver.load_game("dix", variant="seventeen")
>>> state = game.new_initial_state(seed=1)

The public search API: ``solver.best_move(position, limit)``,
``solver.evaluate(position)``, ``solver.solve(position)`` (see ``solver.api``).
"""

from . import errors
from .errors import (DixtrixError, HiddenInformationError, IllegalActionError, LimitError,
                     NotationError, OptionError, PositionError, UnsupportedPositionError)
from .game import TERMINAL, Game, InfoState, State, load_game, registered_games
from .position import from_json, loads, to_json
from .api import Evaluation, Limit, PlayResult, Solution, best_move, evaluate, solve

__version__ = "0.1.0"

__all__ = ["load_game", "registered_games", "Game", "State", "InfoState", "TERMINAL",
           "from_json", "to_json", "loads", "errors", "DixtrixError", "NotationError",
           "OptionError", "PositionError", "IllegalActionError", "LimitError",
           "HiddenInformationError", "UnsupportedPositionError",
           "solve", "best_move", "evaluate", "Limit", "PlayResult", "Evaluation", "Solution"]
