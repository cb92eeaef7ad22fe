"""The ``learned`` bot: the game's learned policy alone, no search
(``solver.search.learned``): the most likely action for its own cards and
what is public, in well under a millisecond a decision.  The level for
front ends that serve many tables; a decision the model does not describe
(a kind it leaves out) is the rules bot's."""

from __future__ import annotations

from solver.game import State
from solver.search.heuristics import has_heuristic, make_policy
from solver.search.learned import action_probabilities, best_action, check_model, model_of

from .base import Bot, Setting


class LearnedBot(Bot):
    """Plays the learned policy's most likely action (it reads only its
    seat's cards and what is public; ``tests/bots/test_no_peeking.py``);
    ``model``: a model file of the game's (default: the one it ships)."""

    name = "learned"
    settings_spec = (Setting("model", str),)

    def __init__(self, game, seat: int, seed: int | None = None, model=None, **settings):
        super().__init__(game, seat, seed, **settings)
        params = None if model is None else check_model(game, model, f"{self.name}: model")
        self.model = model_of(game, params)
        self.fallback = make_policy("rules", game, seat, seed) if has_heuristic(game) else None

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        probs = None if self.model is None else action_probabilities(*self.model, state)
        if probs is not None:
            return best_action(probs)
        if self.fallback is not None:
            return self.fallback.step(state)
        return self.rng.choice(legal)

    def restart(self) -> None:
        super().restart()
        if self.fallback is not None:
            self.fallback.restart()
