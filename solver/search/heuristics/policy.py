"""The policy base class that every game's heuristic subclasses, and the
uniformly random policy (a module of its own, so that the heuristics
import it without importing the package that lists them)."""

from __future__ import annotations

import random

#: the names ``make_policy`` takes
POLICIES = ("rules", "random")


class Policy:
    """A seeded decision rule for one seat: ``step(state)`` is the action
    for the seat to move (``state.current_player() == seat``), read from
    the seat's information only; ``restart()`` re-seeds it."""

    name = "policy"

    def __init__(self, game, seat: int, seed: int | None = None):
        self.game = game
        self.seat = seat
        self.seed = seed
        self.rng = random.Random(seed)

    def step(self, state) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def restart(self) -> None:
        self.rng = random.Random(self.seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seat={self.seat}, seed={self.seed})"


class RandomPolicy(Policy):
    """A uniformly random legal action."""

    name = "random"

    def step(self, state) -> int:
        return self.rng.choice(state.legal_actions())
