"""toy: a small trick-taking game that lives outside ``solver/games``, the
proof that a game is one package plus one registration line
(``solver.games.register_package("tests.toygame")``; tests/test_toy_game.py,
docs/architecture.md "Adding a game").

The package has what every game package has: the game and its deal
object (``game``), the rules as a state machine (``state``), the seat
views' exact world sampler (``views``), its rules player (``heuristic``),
what the searches need (``search``) and its exact adapter with its
double-dummy contract (``exact``).  Importing the package registers the
game; the search and double-dummy layers import ``search`` and ``exact``
themselves."""

from .game import ToyGame
from .state import TOY, ToyState
from .views import ToyWorldSampler

__all__ = ["TOY", "ToyGame", "ToyState", "ToyWorldSampler"]
