"""The ``rules`` bot: each game's documented heuristic
(``solver.search.heuristics``), the kind of play a casual human finds
sensible.  ``make_bot("rules", game, seat)`` picks the game's heuristic."""

from __future__ import annotations

from solver.errors import OptionError
from solver.front import N_
from solver.game import State
from solver.said import Quote, phrase
from solver.search.heuristics import has_heuristic, make_policy

from .base import Bot

# the error raised here (solver/errors.py: a code and its parameters)
NO_HEURISTIC = phrase("rules_no_heuristic", N_("bot 'rules' has no heuristic for {game}"))


class RulesBot(Bot):
    """Plays the game's heuristic policy (it reads only its seat's
    information; ``tests/bots/test_no_peeking.py``)."""

    name = "rules"
    settings_spec = ()          # the game's heuristic has no knobs

    def __init__(self, game, seat: int, seed: int | None = None, **settings):
        super().__init__(game, seat, seed, **settings)
        if not has_heuristic(game):
            raise OptionError(NO_HEURISTIC(game=Quote(game.name)))
        self.policy = make_policy("rules", game, seat, seed)

    def step(self, state: State) -> int:
        return self.policy.step(state)

    def restart(self) -> None:
        super().restart()
        self.policy.restart()


def has_rules_bot(game) -> bool:
    return has_heuristic(game)
