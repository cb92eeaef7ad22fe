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
is read as an integer, else a number, else kept as text.  Each bot
declares the settings it takes (``Bot.settings_spec``: name, type, range);
``make_bot`` checks a string against them before the bot is made, so a
setting the bot does not have -- one of the names ``make_bot`` passes
itself (``game``, ``seat``, ``seed``) among them -- or a value out of its
type or range is an ``OptionError`` / ``LimitError`` naming the setting
and listing those the bot has.  ``settings_pattern`` states the same
declarations as a regular expression (the HTTP API's schema of a bot).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from solver.errors import LimitError, OptionError
from solver.front import N_
from solver.game import Game, check_given_seed, parse_pairs
from solver.said import Quote, phrase

from .base import RESERVED, Bot, RandomBot, Setting
from .engine_client import EngineBot
from .learned import LearnedBot
from .levels import LEVELS, is_level, level_settings
from .rules import RulesBot
from .searchbots import CheatBot, ISMCTSBot, PIMCBot

#: every bot by its name: the built-in ones, then those ``register_bot`` adds
_BOTS: dict[str, Callable[..., Bot]] = {
    bot.name: bot for bot in (RandomBot, RulesBot, LearnedBot, ISMCTSBot, PIMCBot, CheatBot,
                              EngineBot)}
#: each bot's declared settings by its name (None: a factory registered
#: without a declaration, which checks its own settings)
_SETTINGS: dict[str, tuple[Setting, ...] | None] = {
    name: getattr(bot, "settings_spec", None) for name, bot in _BOTS.items()}

# the bots' settings refused (solver/errors.py: a code and its parameters)
UNKNOWN_BOT = phrase("unknown_bot", N_("unknown bot {bot} (known: {known})"))
UNKNOWN_BOT_LEVEL = phrase("unknown_bot_level", N_("unknown bot {bot} (known: {known}; levels: "
                                                   "{levels})"))
HAS = phrase("bot_settings", N_("its settings: {names}"))
HAS_MAKER = phrase("bot_settings_maker", N_("its settings: as its maker checks them"))
RESERVED_KEY = phrase("reserved_setting", N_("{key} is not a setting: make_bot gives every bot "
                                             "its game, seat and seed itself ({has})"))
UNKNOWN_SETTING = phrase("unknown_setting", N_("unknown setting {key} ({has})"))
#: a setting's value refused (``why``), with the bot's settings listed
REFUSED = phrase("setting_refused", N_("{why} ({has})"))
NOT_SPEC = phrase("bot_not_spec", N_("a bot is named by a settings string like "
                                     "'ismcts:time=0.5', got {got}"))
SPEC_LONG = phrase("bot_spec_long", N_("bot settings of {size} characters (at most {most})"))
NOT_GAME = phrase("bot_not_game", N_("make_bot: game must be a solver Game "
                                     "(solver.load_game(...)), got {got}"))
BOT_SEAT = phrase("bot_seat", N_("make_bot: seat must be 0..{top}, got {got}"))
LEVEL_SETTINGS = phrase("level_settings", N_("level {level} takes no settings (it is {spec}; "
                                             "give that string to change it)"))


def register_bot(name: str, factory: Callable[..., Bot],
                 settings: tuple[Setting, ...] | None = None) -> None:
    """Make ``factory(game, seat, seed=..., **settings)`` a bot named
    ``name``; ``settings``: what its settings string may give (default: the
    factory's ``settings_spec`` when it is a ``Bot`` class, else undeclared)."""
    _BOTS[name] = factory
    _SETTINGS[name] = settings if settings is not None else getattr(factory, "settings_spec", None)


def bot_settings(name: str) -> tuple[Setting, ...] | None:
    """The settings bot ``name`` declares (None: undeclared)."""
    if name not in _BOTS:
        raise OptionError(UNKNOWN_BOT(bot=repr(name), known=", ".join(registered_bots())))
    return _SETTINGS.get(name)


def check_settings(name: str, settings: dict) -> dict:
    """``settings`` of bot ``name`` checked against its declaration: each
    value as the bot takes it; an unknown or reserved setting, or a value
    of the wrong type or range, is refused naming the setting and listing
    the bot's settings."""
    declared = bot_settings(name)
    where = f"bot {name!r}"
    if declared is None:
        has = HAS_MAKER()
    else:
        has = HAS(names=", ".join(s.name for s in declared) or "none")
    by_name = {s.name: s for s in declared or ()}
    out = {}
    for key, value in settings.items():
        if key in RESERVED:
            raise OptionError(RESERVED_KEY(key=repr(key), has=has), where)
        if declared is None:
            out[key] = value
            continue
        if key not in by_name:
            raise OptionError(UNKNOWN_SETTING(key=Quote(key), has=has), where)
        try:
            out[key] = by_name[key].check(value, where)
        except (OptionError, LimitError) as exc:
            raise type(exc)(REFUSED(why=exc.as_message(), has=has), exc.where) from None
    return out


def settings_pattern(names) -> str:
    """A regular expression of the settings strings of the bots ``names``
    (with the levels): each bot's name and, after a colon, its declared
    settings, each with a value its declaration takes; what the HTTP API's
    schema states a bot string to be (``bots/server/models.py``).  A bot
    without a declaration is named alone; a setting of free text (a model
    file, a command) is left out."""
    alternatives = [re.escape(level) for level in LEVELS]
    for name in names:
        declared = [s for s in bot_settings(name) or () if s.pattern() is not None]
        if not declared:
            alternatives.append(re.escape(name))
            continue
        pair = "(?:" + "|".join(f"{re.escape(s.name)}=(?:{s.pattern()})" for s in declared) + ")"
        alternatives.append(f"{re.escape(name)}(?::{pair}(?:,{pair})*)?")
    return "^(?:" + "|".join(alternatives) + ")$"


def registered_bots() -> list[str]:
    return sorted(_BOTS)


def parse_settings(spec: str) -> tuple[str, dict]:
    """``"ismcts:iterations=2000,c=0.7"`` -> ``("ismcts", {"iterations":
    2000, "c": 0.7})``: the name and the settings, each value typed
    (``OptionError`` for text that is not a settings string)."""
    if not isinstance(spec, str):
        raise OptionError(NOT_SPEC(got=Quote(spec)))
    if len(spec) > 1000:
        raise OptionError(SPEC_LONG(size=len(spec), most=1000))
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
        raise OptionError(NOT_GAME(got=Quote(game)))
    if isinstance(seat, bool) or not isinstance(seat, int) or \
            not 0 <= seat < game.num_players:
        raise OptionError(BOT_SEAT(top=game.num_players - 1, got=Quote(seat)))
    if seed is not None:
        # the one seed range of every face (a negative seed is no seed of its own)
        check_given_seed(seed, "make_bot: seed")
    if is_level(name):
        # a level (easy, medium, hard, expert) is the game's own settings string
        if settings:
            raise OptionError(LEVEL_SETTINGS(level=repr(name),
                                             spec=repr(level_settings(name, game))))
        name, settings = parse_settings(level_settings(name, game))
    if name not in _BOTS:
        raise OptionError(UNKNOWN_BOT_LEVEL(bot=repr(name), known=", ".join(registered_bots()),
                                            levels=", ".join(LEVELS)))
    return _BOTS[name](game, seat, seed=seed, **check_settings(name, settings))


__all__ = ["make_bot", "register_bot", "registered_bots", "parse_settings", "bot_settings",
           "check_settings", "settings_pattern"]
