"""Heuristic policies: the documented rule-of-thumb player of each game
(``solver/games/<game>/heuristic.py``, registered as its ``GameSupport.heuristic``).

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

from ...errors import OptionError
from ...front import N_
from ...said import Quote, phrase
from ..support import support_for
from .policy import POLICIES, Policy, RandomPolicy

# the errors raised here (solver/errors.py: a code and its parameters)
NO_RULES_HEURISTIC = phrase("no_rules_heuristic", N_("no 'rules' heuristic for {game}"))
POLICY_NAME = phrase("policy_name", N_("unknown policy {policy} (known: {known})"))


def heuristic_for(game):
    """The game's rules policy class (its ``GameSupport.heuristic``), or None."""
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
            raise OptionError(NO_RULES_HEURISTIC(game=Quote(game.name)))
        return cls(game, seat, seed)
    raise OptionError(POLICY_NAME(policy=Quote(name), known=list(POLICIES)))


__all__ = ["Policy", "RandomPolicy", "POLICIES", "has_heuristic", "heuristic_for",
           "make_policy"]
