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

import random
from abc import ABC, abstractmethod

from solver.errors import OptionError
from solver.game import Game, State


class Bot(ABC):
    name = "bot"
    #: False only for a bot that reads hidden cards (``cheat``)
    fair = True

    def __init__(self, game: Game, seat: int, seed: int | None = None, **settings):
        self.game = game
        self.seat = seat
        self.seed = seed
        self.rng = random.Random(seed)
        if settings:
            raise OptionError(f"bot {self.name!r}: unknown setting {sorted(settings)[0]!r}")

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
    """Plays a uniformly random legal action."""

    name = "random"

    def step(self, state: State) -> int:
        return self.rng.choice(state.legal_actions())
