"""The search bots: thin players over ``solver.search``.

* ``ismcts`` -- information-set MCTS (``solver.search.ismcts``; the Cython
  kernels where a game's card play has one, else the Python search with
  the rules heuristic as prior and play-out policy);
* ``pimc`` -- perfect-information Monte Carlo (``solver.search.pimc``);
* ``cheat`` -- PIMC on the TRUE state: it sees every card.  The upper bound
  of the strength tables, never a fair player (``fair = False``).

Each fair bot builds its search from ``state.information_state(seat)``
only, so hidden cards cannot reach its decision.
"""

from __future__ import annotations

import math

from solver.errors import LimitError, OptionError
from solver.game import Game, State
from solver.search import contracts
from solver.search.ismcts import SearchStats, ismcts_search, python_policies, run_native
from solver.search.equivalence import card_classes
from solver.search.native import ALL_CARDS, check_ismcts_policy, native_search, root_keep
from solver.search.pimc import PIMCStats, check_limits, check_policy, choose, pimc_search

from .base import Bot, register_bot


class ISMCTSBot(Bot):
    """``ismcts:iterations=2000,c=0.7`` or ``ismcts:time=0.5``; ``threads``
    for the Cython search, ``py_iterations`` for decisions searched in
    Python.  The Python searches (decisions other than card play: bids,
    contracts, the nest, exchanges...) play out with ``policy`` (``rules``,
    the default where the game has a rules bot, or ``random``) and select
    with ``prior`` (``rules``, the default: PUCT with the rules bot's action
    as the favoured prior; ``none``: UCB1).

    Chooses the most visited root action (robust child)."""

    name = "ismcts"

    def __init__(self, game: Game, seat: int, seed: int | None = None, iterations=None,
                 time=None, c: float = 0.7, threads: int = 1, py_iterations=None,
                 policy: str = "rules", prior: str = "rules", equivalence: str = "on",
                 **settings):
        super().__init__(game, seat, seed, **settings)
        check_ismcts_policy(policy)
        if equivalence not in ("on", "off"):
            raise OptionError(f"ismcts: equivalence must be 'on' or 'off', got {equivalence!r}")
        #: the Cython searches try one card of each class of equivalent
        #: cards ("off": every card, to measure what that is worth)
        self.equivalence = equivalence == "on"
        if prior not in ("none", "rules"):
            raise OptionError(f"ismcts: prior must be 'none' or 'rules', got {prior!r}")
        #: tree policy of the Python search: "none" is UCB1, "rules" PUCT
        #: with the rules bot's action as the favoured prior (_select_puct)
        self.prior = prior
        #: play-out policy: the Python search's "rules" plays the game's
        #: heuristic at every seat; the Cython searches' "rules" is the
        #: kernels' own greedy follower (dix, trick contracts, Rook; the layout: random)
        self.policy = policy
        if iterations is None and time is None:
            iterations = 1000
        if iterations is not None and (not isinstance(iterations, int) or
                                       not 1 <= iterations <= 10**9):
            raise LimitError(f"ismcts: iterations must be an integer 1..1e9, got {iterations!r}")
        if time is not None and (not isinstance(time, (int, float)) or not 0 < time <= 86400):
            raise LimitError(f"ismcts: time must be seconds in (0, 86400], got {time!r}")
        if not isinstance(c, (int, float)) or not 0 <= c <= 100:
            raise LimitError(f"ismcts: c must be in [0, 100], got {c!r}")
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 64:
            raise LimitError(f"ismcts: threads must be 1..64, got {threads!r}")
        if py_iterations is not None and (not isinstance(py_iterations, int) or
                                          not 1 <= py_iterations <= 10**9):
            raise LimitError(f"ismcts: py_iterations must be an integer 1..1e9, got "
                             f"{py_iterations!r}")
        self.iterations, self.time, self.c = iterations, time, float(c)
        self.threads = threads
        #: iterations for decisions searched in Python (no Cython search for
        #: them: contract choices, bids, the layout...); default: iterations
        self.py_iterations = py_iterations
        self.last: SearchStats | None = None

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if contracts.applies(state):
            return self._contract(state, legal)
        self.last = self.search(state)
        return max(legal, key=lambda a: (self.last.visits.get(a, 0),
                                         self.last.values.get(a, -math.inf)))

    def _contract(self, state, legal):
        """Judged for the whole kingdom (solver.search.contracts)."""
        sampler = self.game.world_sampler(state.information_state(self.seat).view)
        its = self.py_iterations if self.py_iterations is not None else self.iterations
        # a play-out a contract a world: the same work as that many iterations
        worlds = None if its is None else max(1, its // len(legal))
        action, self.last = contracts.choose_contract(sampler.sample, self.seat, legal,
                                                      self.game, worlds=worlds,
                                                      seconds=self.time, rng=self.rng)
        return action

    def search(self, state: State, progress=None) -> SearchStats:
        view = state.information_state(self.seat).view
        sampler = self.game.world_sampler(view)
        keep = root_keep(card_classes(state, state.legal_actions())) if self.equivalence \
            else ALL_CARDS
        native = native_search(self.game, sampler, self.policy, keep, self.equivalence)
        if native is not None:
            return run_native(native, self.game, self.iterations, self.time, self.c,
                              self.threads, self.rng.getrandbits(64))
        its = self.py_iterations if self.py_iterations is not None else self.iterations
        rollout, prior = python_policies(self.game, self.policy, self.prior, self.rng)
        return ismcts_search(sampler, self.seat, state.legal_actions(), self.game,
                             iterations=its, seconds=self.time, c=self.c,
                             rng=self.rng, rollout=rollout, prior=prior, progress=progress)


class PIMCBot(Bot):
    """``pimc:worlds=40``, ``pimc:time=0.5``; ``nodes`` bounds one world's
    double-dummy solve, ``policy`` plays the rollouts (default ``rules``),
    ``leaf=0`` plays them to the end (default: the last tricks solved).
    A decision with one legal action is played without search."""

    name = "pimc"
    cheat = False

    def __init__(self, game: Game, seat: int, seed: int | None = None, worlds=None,
                 time=None, nodes=None, policy: str = "rules", leaf: int = 1, **settings):
        super().__init__(game, seat, seed, **settings)
        if worlds is None and time is None:
            worlds = 1 if self.cheat else 40
        check_limits(worlds, time, nodes)
        check_policy(policy)
        if leaf not in (0, 1):
            raise LimitError(f"pimc: leaf must be 0 or 1, got {leaf!r}")
        self.worlds, self.time, self.nodes, self.policy = worlds, time, nodes, policy
        self.leaf = bool(leaf)
        self.last: PIMCStats | None = None

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if contracts.applies(state) and not self.cheat:
            sampler = self.game.world_sampler(state.information_state(self.seat).view)
            action, self.last = contracts.choose_contract(
                sampler.sample, self.seat, legal, self.game, worlds=self.worlds,
                seconds=self.time, rng=self.rng)
            return action
        self.last = self.search(state)
        return choose(self.last, legal)

    def search(self, state: State, progress=None) -> PIMCStats:
        if self.cheat:
            def sample(rng, _state=state):
                return _state.clone()
        else:
            sampler = self.game.world_sampler(state.information_state(self.seat).view)
            sample = sampler.sample
        return pimc_search(sample, self.seat, state.legal_actions(), self.game,
                           worlds=self.worlds, seconds=self.time, nodes=self.nodes,
                           policy=self.policy, leaf=self.leaf, rng=self.rng,
                           progress=progress)


class CheatBot(PIMCBot):
    """Sees every card: the double-dummy value of the true state where the
    solver applies, else rollouts from the true state (``worlds`` of them,
    default 1).  An upper bound for strength tables, not a fair player."""

    name = "cheat"
    cheat = True
    fair = False


register_bot("ismcts", ISMCTSBot)
register_bot("pimc", PIMCBot)
register_bot("cheat", CheatBot)
