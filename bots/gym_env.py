"""A Gymnasium single-agent environment: one seat of a game, every other
seat played by bots (extra ``pettingzoo``, which brings gymnasium).

>>> from bots.gym_env import SeatEnv
>>> env = SeatEnv("dix", seat=0, opponents="rules", variant="seventeen")
>>> obs, info = env.reset(seed=1)

It wraps the PettingZoo environment (``solver.interop.pettingzoo``): the same
observation dict (``observation`` vector and ``action_mask``), the same
episode (``horizon`` deals) and the same reward (the seat's sum of the
deals' results, given when the episode ends).  ``opponents`` is one bot
spec for every other seat (``"rules"``, ``"ismcts:iterations=200"``...) or a
list with one spec per other seat, in seat order.  The bots are seeded from
``reset``'s seed, so a seed fixes the whole episode given the agent's
actions.  An action the mask forbids raises ``IllegalActionError``.  It lives
in ``bots/`` because it seats players.
"""

from __future__ import annotations

from typing import Any

from solver.errors import install_hint

try:
    import gymnasium as gym
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(f"bots.gym_env needs Gymnasium: {install_hint('pettingzoo')} "
                      "(pettingzoo and gymnasium)") from exc

from solver.errors import OptionError
from solver.front import N_
from solver.game import wrap_seed
from solver.interop.pettingzoo import DixtrixEnv
from solver.said import Quote, phrase

from .registry import make_bot

# the errors raised here (solver/errors.py: a code and its parameters)
ENV_SEAT = phrase("env_seat", N_("seat must be 0..{last} for {game}, got {got}"))
ENV_OPPONENTS = phrase("env_opponents", N_("opponents: one bot spec, or a list of {n} (one per "
                                           "other seat), got {got}"))
ENV_OVER = phrase("env_over", N_("the episode is over: call reset()"))


class SeatEnv(gym.Env):
    """One seat of a game against bots, as a Gymnasium environment."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str = "dix", seat: int = 0, opponents="random", horizon: int = 1,
                 perfect_recall: bool = False, render_mode: str | None = None, **options):
        self.aec = DixtrixEnv(game, horizon=horizon, perfect_recall=perfect_recall,
                              render_mode=render_mode, **options)
        n = self.aec.game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise OptionError(ENV_SEAT(last=n - 1, game=self.aec.game.name, got=Quote(seat)))
        others = [s for s in range(n) if s != seat]
        if isinstance(opponents, str):
            opponents = [opponents] * len(others)
        if not isinstance(opponents, (list, tuple)) or len(opponents) != len(others):
            raise OptionError(ENV_OPPONENTS(n=len(others), got=Quote(opponents)))
        self.seat = seat
        self.opponent_specs = dict(zip(others, opponents, strict=True))
        for s, spec in self.opponent_specs.items():      # fail early on a bad spec
            make_bot(spec, self.aec.game, s, 0)
        self.agent = self.aec.possible_agents[seat]
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = render_mode
        self.bots: dict[int, Any] = {}

    def _play_bots(self) -> None:
        aec = self.aec
        while not all(aec.terminations.values()) and aec.agent_selection != self.agent:
            seat = aec._seat[aec.agent_selection]
            aec.step(self.bots[seat].step(aec.current_state()))

    def _result(self):
        obs = self.aec.observe(self.agent)
        done = self.aec.terminations[self.agent]
        reward = self.aec.rewards[self.agent] if done else 0.0
        return obs, float(reward), done

    def reset(self, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(1 << 62))
        self.aec.reset(seed=seed)
        self.bots = {s: make_bot(spec, self.aec.game, s, wrap_seed(seed * 31 + s))
                     for s, spec in self.opponent_specs.items()}
        self._play_bots()
        obs, _, _ = self._result()
        return obs, {}

    def step(self, action):
        if self.aec.terminations[self.agent]:
            raise OptionError(ENV_OVER())
        self.aec.step(action)
        self._play_bots()
        obs, reward, done = self._result()
        return obs, reward, done, False, {}

    def action_masks(self):
        """The legal actions now (for maskable learners)."""
        return self.aec.observe(self.agent)["action_mask"].astype(bool)

    def render(self):
        return self.aec.current_state().to_text() if self.render_mode == "ansi" else None
