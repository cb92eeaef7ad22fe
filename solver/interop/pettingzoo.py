"""Every game as a PettingZoo AEC environment (extra ``pettingzoo``).

>>> from solver.interop.pettingzoo import env
>>> e = env("trix")                      # or env("dix", variant="seventeen", horizon=2)
>>> e.reset(seed=1)

Agents are ``seat_0`` .. ``seat_{n-1}``; one acts at a time (the protocol's
``current_player``).  An episode is the first ``horizon`` deals (default 1)
of a match, or the whole match if it ends sooner (``common.py``); each
agent's reward, given at the end, is the sum of its deals' results
(``round_returns``) in the game's points.  ``reset(seed=s)`` deals with the
game's own seeded generator: the same seed and actions give the same
episode, and the resets after it without a seed follow from it.

Observations are dicts: ``observation`` a float32 vector
(``common.Encoder``: the seat's hand, the cards it has seen this deal, the
last n actions; ``perfect_recall=True`` gives the whole episode's actions
instead) and ``action_mask`` (int8, one entry per action id).  An action
the mask forbids raises ``IllegalActionError`` (a ``ValueError``) naming it
and why; the environment is unchanged (or, with ``illegal_reward``,
PettingZoo's ``TerminateIllegalWrapper`` ends the episode).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from ..errors import install_hint

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(f"solver.interop.pettingzoo needs PettingZoo: "
                      f"{install_hint('pettingzoo')} (pettingzoo and gymnasium)") from exc

from ..errors import IllegalActionError, OptionError
from ..game import AGENT_ACTION_INT, AGENT_ACTION_RANGE, ENV_OPTIONS, RENDER_MODE, Game, State, load_game
from ..said import Quote
from .common import Encoder, adapted_games, check_horizon, episode_over, episode_returns, info_string, spec_of


class DixtrixEnv(AECEnv):
    """A PettingZoo AEC environment of one game (with its options)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "dixtrix_v0",
                "is_parallelizable": False}

    def __init__(self, game: str | Game = "dix", horizon: int = 1, perfect_recall: bool = False,
                 render_mode: str | None = None, **options):
        super().__init__()
        self.game: Game = game if isinstance(game, Game) else load_game(game, **options)
        if isinstance(game, Game) and options:
            raise OptionError(ENV_OPTIONS())
        self.horizon = check_horizon(horizon)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise OptionError(RENDER_MODE(choices=list(self.metadata["render_modes"]),
                                          got=Quote(render_mode)))
        self.render_mode = render_mode
        self.perfect_recall = bool(perfect_recall)
        self.encoder = Encoder(self.game, self.horizon)
        spec_of(self.game)                   # a clear error for a game without an adapter
        self.num_actions = self.game.num_distinct_actions
        n = self.game.num_players
        self.possible_agents = [f"seat_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        size = self.encoder.size(self.perfect_recall)
        self._obs_size = size
        self._obs_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0.0, self.encoder.high(), (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8)})
            for a in self.possible_agents}
        self._act_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self.metadata = dict(self.metadata, name=f"dixtrix_{self.game.name.replace('-', '_')}_v0")
        self.state_: State | None = None
        self._seeds: random.Random | None = None

    # ---- spaces ----
    def observation_space(self, agent):
        return self._obs_spaces[agent]

    def action_space(self, agent):
        return self._act_spaces[agent]

    # ---- the episode ----
    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            # later resets without a seed continue from this one
            self._seeds = random.Random(seed)
        elif self._seeds is not None:
            seed = self._seeds.randrange(1 << 62)
        else:
            seed = random.SystemRandom().randrange(1 << 62)
        self.state_ = self.game.new_initial_state(seed=seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._settle()

    def current_state(self) -> State:
        """The game in play (``reset`` starts one)."""
        if self.state_ is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state_

    def _settle(self) -> None:
        if episode_over(self.current_state(), self.horizon):
            result = episode_returns(self.current_state(), self.horizon)
            for a in self.agents:
                self.rewards[a] = float(result[self._seat[a]])
                self.terminations[a] = True
            # the last agent to act collects first; then every other seat
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self.current_state().current_player()]

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            a = int(action)
        except (TypeError, ValueError):
            raise IllegalActionError(action, AGENT_ACTION_RANGE(agent=agent,
                                                                top=self.num_actions - 1)) from None
        if a != action:
            raise IllegalActionError(action, AGENT_ACTION_INT(agent=agent))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.current_state().apply_action(a)    # IllegalActionError (legality first: nothing changes)
        self._settle()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ---- what an agent sees ----
    def observe(self, agent):
        seat = self._seat[agent]
        vec = np.zeros(self._obs_size, np.float32)
        planes, i = {}, 0
        for name, shape in self.encoder.pieces(self.perfect_recall):
            size = int(np.prod(shape))
            planes[name] = vec[i:i + size].reshape(shape)
            i += size
        over = episode_over(self.current_state(), self.horizon)
        to_move = None if over else self.current_state().current_player()
        self.encoder.fill(planes, self.current_state(), seat, self.perfect_recall, to_move=to_move)
        mask = np.zeros(self.num_actions, np.int8)
        if not over and self.current_state().current_player() == seat:
            mask[self.current_state().legal_actions()] = 1
        return {"observation": vec, "action_mask": mask}

    def information_state_string(self, agent) -> str:
        """The exact information state of ``agent`` (canonical JSON of its
        seat view, within the horizon)."""
        return info_string(self.current_state(), self._seat[agent], self.horizon)

    def render(self):
        if self.render_mode is None:
            return None
        text = self.state_.to_text() if self.state_ is not None else ""
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


def raw_env(game: str = "dix", **kwargs) -> DixtrixEnv:
    """The bare AEC environment of ``game`` (options, ``horizon``,
    ``perfect_recall`` and ``render_mode`` as keywords)."""
    return DixtrixEnv(game, **kwargs)


def env(game: str = "dix", illegal_reward: float | None = None, **kwargs):
    """The AEC environment of ``game`` as PettingZoo ships its own:
    wrapped in ``OrderEnforcingWrapper`` (stepping before ``reset`` is an
    error).  ``illegal_reward``: instead of raising on an action the mask
    forbids, end the episode with that reward for the seat that played it
    (PettingZoo's ``TerminateIllegalWrapper``, as its classic games do).
    ``env.unwrapped`` is the :class:`DixtrixEnv`."""
    e = DixtrixEnv(game, **kwargs)
    if illegal_reward is not None:
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=float(illegal_reward))
    return wrappers.OrderEnforcingWrapper(e)


class _Envs(Mapping):
    """The environment constructor of every game the adapters serve, read
    from the registry at each use, so a game registered later has one."""

    def __getitem__(self, name: str) -> functools.partial:
        if name not in adapted_games():
            raise KeyError(name)
        return functools.partial(env, name)

    def __iter__(self) -> Iterator[str]:
        return iter(adapted_games())

    def __len__(self) -> int:
        return len(adapted_games())


#: one environment constructor per game (``ENVS["trix"](horizon=2)``)
ENVS = _Envs()
