"""Bot levels: ``easy``, ``medium``, ``hard``, ``expert`` for every game.

A level is a name a player can choose, resolved per game to a bot settings
string (``bots.registry.make_bot``): the web table and the HTTP API offer the
levels, ``dixtrix ladder run --bots easy,medium,hard,expert`` rates them,
and programs keep the raw settings strings (``ismcts:iterations=2000``).

* ``easy`` plays a random legal action: a first opponent, for learning
  the rules.
* ``medium`` is the game's rules player (``bots.rules``): the heuristic a
  casual player finds sensible, instant.
* ``hard`` and ``expert`` are the decision service
  (``solver.search.best_move``, through ``bots.searchbots.ISMCTSBot``) at
  500 and 2,500 iterations, one tree (a table's bots share the server's
  workers).  Iteration counts, not seconds, so a seeded table replays the
  same on any machine.  Where a decision is still searched in Python
  (dixie-rook's bids, nest and trump), ``py_iterations`` bounds it so
  that a move stays under a second.
* dix-exchange is the exception: one card each and few decisions, so
  light searches are the medium and hard levels (ISMCTS at 30 and 300
  iterations) and the expert searches 10,000 iterations (measured above
  the rules player and the hard level: docs/levels.md).

The levels are ordered and spaced by measured strength: docs/levels.md
holds the ladder that shows every level above the one below it, with the
command that produced it.  Changing a level's settings changes what a
ladder database rated under that name: rate it again in a new database.
"""

from __future__ import annotations

import solver
from solver.errors import OptionError
from solver.front import N_
from solver.said import Quote, phrase

# the error raised here (solver/errors.py: a code and its parameters)
UNKNOWN_LEVEL = phrase("unknown_level", N_("unknown level {got} (one of: {levels})"))

#: the levels, weakest first
LEVELS = ("easy", "medium", "hard", "expert")

#: a level's settings string where the game declares none of its own
#: (the games' own: their ``Game.front``'s ``levels``, solver/games/*/front.py)
DEFAULT = {
    "easy": "random",
    "medium": "rules",
    "hard": "ismcts:iterations=500,trees=1",
    "expert": "ismcts:iterations=2500,trees=1",
}


def is_level(name) -> bool:
    return isinstance(name, str) and name in LEVELS


def level_settings(level: str, game) -> str:
    """The bot settings string of ``level`` for ``game`` (a ``Game`` or a
    game name): the game's own where it declares one (``Game.front``'s
    ``levels``), else ``DEFAULT``'s; ``OptionError`` for an unknown level."""
    if not is_level(level):
        raise OptionError(UNKNOWN_LEVEL(got=Quote(level), levels=list(LEVELS)))
    if isinstance(game, str):
        game = solver.load_game(game)
    return game.front.levels.get(level, DEFAULT[level])


def resolve(spec, game) -> str:
    """``spec`` itself, or the settings string of the level it names."""
    if is_level(spec):
        return level_settings(spec, game)
    return spec


def table(games=None) -> dict[str, dict[str, str]]:
    """``{game: {level: settings}}`` for every registered game (or ``games``)."""
    return {g: {lv: level_settings(lv, g) for lv in LEVELS}
            for g in (games or solver.registered_games())}


__all__ = ["LEVELS", "is_level", "level_settings", "resolve", "table"]
