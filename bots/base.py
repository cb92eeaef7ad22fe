"""The bot interface, small on purpose (after OpenSpiel's ``spiel_bots.h``):
three calls are all a match, a ladder or a front end needs of a player.

A bot plays one seat of one game.  ``step(state)`` returns the action to
play when it is the bot's turn; ``inform_action(state, seat, action)`` tells
it about every action taken (its own included), after the action is applied;
``restart()`` resets it for a new game.  Bots are seeded: the same seed and
the same game give the same choices.

Bots are made by name with a settings string by the registry
(``bots/registry.py``): ``make_bot("random", game, seat, seed=1)``,
``make_bot("ismcts:time=0.2", ...)``.

The contract: a fair bot decides from what its seat knows.  ``step``
receives the ``State`` (a search bot's sampled worlds and the match
runner's real game are States, and reading them directly is fast), but
its choice must be a function of ``state.information_state(seat)`` and
its seed only: given two worlds that its seat cannot tell apart, it plays
the same action (``tests/bots/test_no_peeking.py`` checks every fair bot
on random positions of every game).  A front end that holds only a seat
view calls ``step_view(view)``, which plays from one world the view
allows.  ``cheat`` is the one unfair bot (``fair = False``): it sees every
card and exists only as an upper bound for measurements.
"""

from __future__ import annotations

import math
import random
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

from solver.errors import LimitError, OptionError
from solver.front import N_
from solver.game import Game, State
from solver.said import Quote, Said, phrase
from solver.search.limits import MAX_COUNT, MAX_NODES, MAX_SECONDS

# a bot setting's refusals (solver/errors.py: a code and its parameters)
UNKNOWN_VALUE = phrase("setting_choice", N_("unknown {name} {got}: {name} must be one of "
                                            "{choices}"))
SETTING_INT = phrase("setting_int", N_("{name} must be an integer, got {got}"))
SETTING_NUMBER = phrase("setting_number", N_("{name} must be a number, got {got}"))
SETTING_INT_RANGE = phrase("setting_int_range", N_("{name} must be an integer {low}..{high}, "
                                                   "got {got}"))
SETTING_RANGE = phrase("setting_range", N_("{name} must be a number in [{low}, {high}], "
                                           "got {got}"))
SETTING_ABOVE = phrase("setting_above", N_("{name} must be a number in ({low}, {high}], "
                                           "got {got}"))
BOT_SETTING = phrase("bot_unknown_setting", N_("bot {bot}: unknown setting {key}"))

#: the names ``make_bot`` gives every bot itself: never a setting of a
#: settings string (``ismcts:seed=5`` would name the bot's seed twice)
RESERVED = ("game", "seat", "seed", "self", "settings")


@dataclass(frozen=True)
class Setting:
    """One setting a bot's settings string may give (``ismcts:iterations=
    2000``): its ``name``; its ``kind``, ``int``, ``float`` (a number, an
    integer too), ``str`` (free text: a file, a command) or a tuple of the
    values it takes; for a number its range ``low``..``high`` (``low``
    itself excluded when ``above``).  ``make_bot`` checks a string against
    its bot's settings (``check``) and the HTTP API's schema states them
    (``pattern``), so the two say the same.  A number out of its range is a
    ``LimitError`` when ``limit`` (how much to search), else an
    ``OptionError``, as the bots' own checks have always said."""

    name: str
    kind: type | tuple
    low: float | None = None
    high: float | None = None
    above: bool = False
    limit: bool = False

    def what(self) -> str:
        """What the value must be, in words."""
        if isinstance(self.kind, tuple):
            return "one of " + ", ".join(str(c) for c in self.kind)
        if self.kind is str:
            return "text"
        noun = "an integer" if self.kind is int else "a number"
        if self.low is None or self.high is None:
            return noun
        if self.kind is int:
            return f"{noun} {int(self.low)}..{int(self.high)}"
        return f"{noun} in {'(' if self.above else '['}{self.low:g}, {self.high:g}]"

    def check(self, value: Any, where: str) -> Any:
        """``value`` as the bot takes it (``where`` names the bot's settings
        in the error)."""
        if isinstance(self.kind, tuple):
            if value not in self.kind or isinstance(value, bool):
                raise OptionError(UNKNOWN_VALUE(name=self.name, got=Quote(value),
                                                choices=", ".join(str(c) for c in self.kind)),
                                  where)
            return value
        if self.kind is str:
            return value if isinstance(value, str) else str(value)
        number = (int,) if self.kind is int else (int, float)
        ok = not isinstance(value, bool) and isinstance(value, number) and \
            (isinstance(value, int) or math.isfinite(value))
        if ok and self.low is not None:
            ok = value > self.low if self.above else value >= self.low
        if ok and self.high is not None:
            ok = value <= self.high
        if not ok:
            error = LimitError if self.limit else OptionError
            raise error(self._refusal(value), where)
        return value

    def _refusal(self, value: Any) -> Said:
        """A number refused, in ``what``'s words."""
        said = dict(name=self.name, got=Quote(value))
        noun = self.kind is int
        if self.low is None or self.high is None:
            return (SETTING_INT if noun else SETTING_NUMBER)(**said)
        if noun:
            return SETTING_INT_RANGE(low=int(self.low), high=int(self.high), **said)
        return (SETTING_ABOVE if self.above else SETTING_RANGE)(
            low=f"{self.low:g}", high=f"{self.high:g}", **said)

    def pattern(self) -> str | None:
        """A regular expression of the values' text that ``check`` takes
        (a part of them: numbers written plainly), for the API's schema;
        None for text (a file or a command on the server's own disk is not
        a request's to name)."""
        if isinstance(self.kind, tuple):
            return "|".join(re.escape(str(c)) for c in self.kind)
        if self.kind is str:
            return None
        low = 0 if self.low is None else int(self.low)
        high = int(self.high) if self.high is not None else 10**18
        if self.kind is int:
            return integer_pattern(low + (1 if self.above else 0), high)
        # at most 9 decimals: the settings' reader takes a number of at most
        # 30 characters (registry._setting_value), longer text stays text
        parts = []
        start = low + 1 if self.above else low
        if start < high:
            parts.append(f"(?:{integer_pattern(start, high - 1)})(?:\\.[0-9]{{1,9}})?")
        parts.append(f"{high}(?:\\.0{{1,9}})?")
        if self.above:        # low itself is out, a fraction above it is in
            parts.append(f"{low}\\.[0-9]{{0,8}}[1-9]")
        return "|".join(parts)


def integer_pattern(low: int, high: int) -> str:
    """A regular expression of the integers ``low``..``high`` (0 or more)
    written without leading zeros: ``integer_pattern(1, 64)`` is
    ``[1-9]|[1-5][0-9]|6[0-4]``."""
    parts = []
    for digits in range(len(str(low)), len(str(high)) + 1):
        a = max(low, 10 ** (digits - 1) if digits > 1 else 0)
        b = min(high, 10 ** digits - 1)
        if a <= b:
            parts += _same_length(str(a), str(b))
    return "|".join(parts)


def _same_length(a: str, b: str) -> list[str]:
    """The alternatives of the numerals ``a``..``b``, both of one length."""
    if a == b:
        return [a]
    if len(a) == 1:
        return [f"[{a}-{b}]"]
    rest = len(a) - 1
    if a[1:] == "0" * rest and b[1:] == "9" * rest:
        return [f"[{a[0]}-{b[0]}][0-9]{{{rest}}}"]
    if a[0] == b[0]:
        return [a[0] + f"(?:{'|'.join(_same_length(a[1:], b[1:]))})"]
    out = [a[0] + f"(?:{'|'.join(_same_length(a[1:], '9' * rest))})"]
    if int(b[0]) - int(a[0]) > 1:
        out.append(f"[{int(a[0]) + 1}-{int(b[0]) - 1}][0-9]{{{rest}}}")
    out.append(b[0] + f"(?:{'|'.join(_same_length('0' * rest, b[1:]))})")
    return out


#: the settings of a search's size, shared by every bot that searches
LIMIT_SETTINGS = (
    Setting("time", float, 0, MAX_SECONDS, above=True, limit=True),
    Setting("iterations", int, 1, MAX_COUNT, limit=True),
    Setting("worlds", int, 1, MAX_COUNT, limit=True),
)
NODES = Setting("nodes", int, 1, MAX_NODES, limit=True)


class Bot(ABC):
    name = "bot"
    #: False only for a bot that reads hidden cards (``cheat``)
    fair = True
    #: the settings its settings string may give, each with its type and
    #: range (``make_bot`` checks them; the HTTP API's schema states them)
    settings_spec: ClassVar[tuple[Setting, ...]] = ()

    def __init__(self, game: Game, seat: int, seed: int | None = None, **settings):
        self.game = game
        self.seat = seat
        self.seed = seed
        self.rng = random.Random(seed)
        if settings:
            raise OptionError(BOT_SETTING(bot=Quote(self.name), key=Quote(sorted(settings)[0])))

    @abstractmethod
    def step(self, state: State) -> int:
        """The action to play (``state.current_player() == self.seat``)."""

    def step_view(self, view) -> int:
        """The action from a seat view (``solver.position.SeatView``) alone:
        ``step`` on one world the view allows (any world gives a fair bot
        the same answer)."""
        return self.step(view.world(seed=0))

    # a hook, not abstract: most bots keep no memory between decisions
    def inform_action(self, state: State, seat: int, action: int) -> None:  # noqa: B027
        """Called after every action is applied (default: nothing)."""

    def restart(self) -> None:
        self.rng = random.Random(self.seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seat={self.seat}, seed={self.seed})"


class RandomBot(Bot):
    """Plays a uniformly random legal action (it takes no settings)."""

    name = "random"
    settings_spec = ()

    def step(self, state: State) -> int:
        return self.rng.choice(state.legal_actions())
