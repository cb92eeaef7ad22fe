"""The bots by name: the built-in bots, ``register_bot`` for more, and
``make_bot``, which makes one from a settings string.

This module imports every built-in bot, so that the bots themselves
(``bots/base.py``'s interface, the rules, search and engine players) need
not know the registry: the imports run one way, from here down to them.
A bot defined elsewhere (a benchmark's, say) registers with
``register_bot(name, factory)``.

A settings string is a bot's name, or a level (``easy``, ``medium``,
``hard``, ``expert``: ``bots/levels.py``), optionally followed by
``:key=value,key=value`` (``"ismcts:iterations=2000,c=0.7"``); each value
is read as an integer, else a number, else kept as text, and the bot
checks its settings when it is made (``OptionError`` / ``LimitError``).
"""

from __future__ import annotations

from collections.abc import Callable

from solver.errors import OptionError, short_repr
from solver.game import Game, parse_pairs

from .base import Bot, RandomBot
from .engine_client import EngineBot
from .learned import LearnedBot
from .levels import LEVELS, is_level, level_settings
from .rules import RulesBot
from .searchbots import CheatBot, ISMCTSBot, PIMCBot

#: every bot by its name: the built-in ones, then those ``register_bot`` adds
_BOTS: dict[str, Callable[..., Bot]] = {
    bot.name: bot for bot in (RandomBot, RulesBot, LearnedBot, ISMCTSBot, PIMCBot, CheatBot,
                              EngineBot)}


def register_bot(name: str, factory: Callable[..., Bot]) -> None:
    """Make ``factory(game, seat, seed=..., **settings)`` a bot named ``name``."""
    _BOTS[name] = factory


def registered_bots() -> list[str]:
    return sorted(_BOTS)


def parse_settings(spec: str) -> tuple[str, dict]:
    """``"ismcts:iterations=2000,c=0.7"`` -> ``("ismcts", {"iterations":
    2000, "c": 0.7})``: the name and the settings, each value typed
    (``OptionError`` for text that is not a settings string)."""
    if not isinstance(spec, str):
        raise OptionError(f"a bot is named by a settings string like 'ismcts:time=0.5', "
                          f"got {short_repr(spec)}")
    if len(spec) > 1000:
        raise OptionError(f"bot settings of {len(spec)} characters (at most 1000)")
    name, _, rest = spec.partition(":")
    settings = {key: _setting_value(text)
                for key, text in parse_pairs(rest.split(","), f"bot settings {spec!r}").items()}
    return name.strip(), settings


def _setting_value(text: str) -> int | float | str:
    """A bot setting's value: an integer, else a number, else the text (a
    bot declares no types for its settings; each checks its own)."""
    if len(text) <= 30:
        for conv in (int, float):
            try:
                return conv(text)
            except ValueError:
                continue
    return text


def make_bot(spec: str, game: Game, seat: int, seed: int | None = None) -> Bot:
    """A bot from ``"name"`` or ``"name:key=value,key=value"``, or a level
    (``easy``, ``medium``, ``hard``, ``expert``: ``bots.levels``); every
    argument is checked here (``OptionError`` / ``LimitError``)."""
    name, settings = parse_settings(spec)
    if not isinstance(game, Game):
        raise OptionError(f"make_bot: game must be a solver Game (solver.load_game(...)), "
                          f"got {short_repr(game)}")
    if isinstance(seat, bool) or not isinstance(seat, int) or \
            not 0 <= seat < game.num_players:
        raise OptionError(f"make_bot: seat must be 0..{game.num_players - 1}, "
                          f"got {short_repr(seat)}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise OptionError(f"make_bot: seed must be an integer or None, got {short_repr(seed)}")
    if is_level(name):
        # a level (easy, medium, hard, expert) is the game's own settings string
        if settings:
            raise OptionError(f"level {name!r} takes no settings (it is "
                              f"{level_settings(name, game)!r}; give that string to change it)")
        name, settings = parse_settings(level_settings(name, game))
    if name not in _BOTS:
        raise OptionError(f"unknown bot {name!r} (known: {', '.join(registered_bots())}; "
                          f"levels: {', '.join(LEVELS)})")
    return _BOTS[name](game, seat, seed=seed, **settings)


__all__ = ["make_bot", "register_bot", "registered_bots", "parse_settings"]
