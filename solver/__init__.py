"""dixtrix: rules engines, positions and search for five card games.

>>> import solver
>>> game = solver.load_game("dix", variant="seventeen")
>>> state = game.new_initial_state(seed=1)

The public search API: ``solver.best_move(position, limit, settings=...)``
(how much to search: ``Limit``; how: ``SearchSettings``),
``solver.evaluate(position)`` (``solver.search``), ``solver.solve(position)``
(``solver.dd``).  The layers: docs/architecture.md.
"""

from . import (
    errors,
    games,  # noqa: F401  (importing it registers the built-in games)
)
from .dd import Solution, solve
from .errors import (
    DixtrixError,
    HiddenInformationError,
    IllegalActionError,
    LimitError,
    NotationError,
    OptionError,
    PositionError,
    UnsupportedPositionError,
)
from .game import TERMINAL, Game, InfoState, State, load_game, registered_games
from .games import register_package, registered_packages
from .position import from_json, loads, to_json
from .search import Evaluation, Limit, PlayResult, SearchSettings, best_move, evaluate

__version__ = "0.1.0"

__all__ = ["load_game", "registered_games", "register_package", "registered_packages",
           "Game", "State", "InfoState", "TERMINAL",
           "from_json", "to_json", "loads", "errors", "DixtrixError", "NotationError",
           "OptionError", "PositionError", "IllegalActionError", "LimitError",
           "HiddenInformationError", "UnsupportedPositionError",
           "solve", "best_move", "evaluate", "Limit", "SearchSettings", "PlayResult",
           "Evaluation", "Solution"]
