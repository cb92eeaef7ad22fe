"""Heuristic policies: the documented rule-of-thumb player of each game.

They are the search layer's priors and play-out policies (ISMCTS's PUCT
prior and play-outs, PIMC's play-outs, ``evaluate``'s roll-outs), and the
``rules`` bot wraps them (``bots.rules``).  A policy decides for the seat
to move from what that seat knows: its own cards and the public record of
the deal (the ``tests/bots/test_no_peeking.py`` contract); it is seeded and
deterministic.

``make_policy(name, game, seat, seed)``: ``"rules"`` (the game's heuristic;
``OptionError`` for a game without one) or ``"random"`` (a uniformly random
legal action).
"""

from __future__ import annotations

import random

from ...errors import OptionError

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


from .contract import ContractRules  # noqa: E402
from .dix import DixRules  # noqa: E402
from .dix_exchange import DixExchangeRules  # noqa: E402
from .dixie_rook import DixieRookRules  # noqa: E402


def heuristic_for(game):
    """The game's rules policy class (its ``GameSupport.heuristic``), or None."""
    from ..support import support_for
    return support_for(game).heuristic


def has_heuristic(game) -> bool:
    """Whether the game has a ``rules`` heuristic."""
    return heuristic_for(game) is not None


def make_policy(name: str, game, seat: int, seed: int | None = None) -> Policy:
    """The policy ``name`` (``"rules"`` or ``"random"``) for ``seat``."""
    if name == "random":
        return RandomPolicy(game, seat, seed)
    if name == "rules":
        cls = heuristic_for(game)
        if cls is None:
            raise OptionError(f"no 'rules' heuristic for {game.name!r}")
        return cls(game, seat, seed)
    raise OptionError(f"unknown policy {name!r} (known: {', '.join(POLICIES)})")


__all__ = ["Policy", "RandomPolicy", "POLICIES", "has_heuristic", "heuristic_for",
           "make_policy", "ContractRules", "DixRules", "DixExchangeRules", "DixieRookRules"]
