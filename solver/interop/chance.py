"""The deal as explicit chance outcomes, for frameworks that want chance
nodes (OpenSpiel).  No framework is imported here.

A state of the protocol draws its chance inside itself (``solver.game.Chance``):
every deal, draw and cut is made by the game's generator from Python's
``random``, and every draw the generators make reduces to uniform integers
``_randbelow(n)`` (``shuffle`` makes one per card placed, ``sample`` one per
card taken, ``randrange`` one).  :class:`ExplicitChanceState` makes each such
uniform integer a chance node with ``n`` equally likely outcomes
``0..n-1``: a 52-card shuffle is 51 chance nodes (52, 51, ..., 2 outcomes),
card ``i`` of the shuffled deck being exchanged with position ``j``, exactly
as ``random.shuffle`` does.  The outcomes of one draw event feed the game's
own generator, so the distribution of deals is the game's, exactly, and the
same outcomes give the same deal as the seeded generator that drew them.

How: a player action (or the start of the game) runs with a generator that
replays the outcomes chosen so far; when the game asks for one more, it
raises :class:`NeedChance` (a ``BaseException``, so no game code swallows
it) and the state becomes a chance node; once the outcome is chosen the
action is run again, from a copy of the state before it, with one more
outcome.  A deal of n cards therefore runs its action n times.  The state
before an action is not copied in advance: when an action calls for chance
(between deals) it is rebuilt by replaying the deal record and the actions.

The horizon (``common.py``): a draw for the deal that starts after the
horizon (the deal kind's ``horizon``-th draw, or any draw once
``round_index()`` has reached the horizon) is made by a fixed generator
(``random.Random(0)``) instead of chance nodes: the episode ends there and
that deal is never seen.
"""

from __future__ import annotations

import random
import sys

from ..errors import IllegalActionError
from ..game import (
    CHANCE_FIRST,
    CHANCE_NOW,
    CHANCE_OUTCOME,
    EPISODE_OVER,
    NOT_CHANCE_NODE,
    Chance,
    Game,
    State,
)
from .common import episode_over, episode_returns, spec_of

#: the pending event is the start of the game (the first deal)
START = -1


class NeedChance(BaseException):
    """The game asked for one more uniform integer below ``n``."""

    def __init__(self, n: int, kind: str):
        super().__init__(n, kind)
        self.n = n
        self.kind = kind


class _Script(random.Random):
    """A ``random.Random`` whose uniform integers are the given outcomes; one
    more raises ``NeedChance``.  Anything else (floats, raw bits) is refused:
    the games draw only integers below a bound."""

    if sys.version_info < (3, 11):
        # before 3.11 ``random.Random.__new__`` seeds from the constructor's
        # argument, and a list of outcomes is no seed: seed 0 (never drawn)
        def __new__(cls, outcomes: list[int]) -> _Script:
            return super().__new__(cls, 0)  # type: ignore[call-arg]  # typeshed omits the seed

    def __init__(self, outcomes: list[int]):
        # no ``random.Random.__init__``: seeding the Mersenne Twister costs
        # more than a whole action, and this generator never uses it
        self.outcomes = outcomes
        self.pos = 0
        self.kind = ""

    def _randbelow(self, n: int) -> int:
        if self.pos < len(self.outcomes):
            v = self.outcomes[self.pos]
            self.pos += 1
            return v
        raise NeedChance(n, self.kind)

    def random(self) -> float:  # pragma: no cover - no game draws floats
        raise TypeError("the explicit-chance generator draws only integers below a bound")

    def getrandbits(self, k: int) -> int:  # pragma: no cover
        raise TypeError("the explicit-chance generator draws only integers below a bound")


class ScriptChance(Chance):
    """The chance source of a state whose draws are explicit chance nodes.

    ``horizon``: deals of ``deal_kind`` beyond the first ``horizon`` are
    drawn from ``random.Random(0)`` (never seen: the episode ends first)."""

    def __init__(self, log: list, outcomes: list[int], deal_kind: str | None, horizon: int,
                 seed: int = 0):
        self.seed = seed
        self.rng: _Script = _Script(outcomes)
        self._streams = {}
        self.scripted = []
        self.pos = 0
        self.log = list(log)
        self.deal_kind = deal_kind
        self.horizon = horizon
        #: the state drawing (set before each action): a draw made once its
        #: ``round_index()`` has reached the horizon is beyond it
        self.owner: State | None = None

    def stream(self, name: str) -> random.Random:
        return self.rng          # one sequence of outcomes, in the order drawn

    def draw(self, kind, generate):
        if self._beyond_horizon(kind):
            value = generate(random.Random(0))
        else:
            self.rng.kind = kind
            value = generate(self.rng)
        self.log.append((kind, value))
        return value

    def _beyond_horizon(self, kind: str) -> bool:
        if (self.deal_kind is not None and kind == self.deal_kind
                and sum(1 for k, _ in self.log if k == kind) >= self.horizon):
            return True
        return self.owner is not None and self.owner.round_index() >= self.horizon

    def clone(self) -> ScriptChance:
        return ScriptChance(self.log, list(self.rng.outcomes), self.deal_kind, self.horizon,
                            self.seed)


def with_script_chance(state: State, horizon: int, outcomes: list[int] | None = None) -> State:
    """``state`` with its chance source replaced by a :class:`ScriptChance`
    that keeps the log (what was dealt) and has ``outcomes`` to replay."""
    spec = spec_of(state.game)
    state.use_chance(ScriptChance(state.chance.log, list(outcomes or []), spec.deal_kind,
                                  horizon, getattr(state.chance, "seed", 0)))
    return state


def _script(state: State) -> ScriptChance:
    """``state``'s chance source, a ``ScriptChance`` (``with_script_chance``
    put it there)."""
    chance = state.chance
    if not isinstance(chance, ScriptChance):
        raise TypeError(f"expected a state with explicit chance, got {type(chance).__name__}")
    return chance


class ExplicitChanceState:
    """A protocol state whose chance is explicit (one node per uniform
    integer the game draws), cut at ``horizon`` deals.

    ``state``: the protocol state at rest (a decision node or the end), or
    at a chance node the state before the pending action (``None`` before
    the first deal); ``pending``: the action waiting for its chance
    outcomes (``START``: the start of the game), ``outcomes`` the outcomes
    chosen so far for it, ``need``/``kind`` the next draw."""

    __slots__ = ("game", "horizon", "state", "pending", "outcomes", "need", "kind", "over",
                 "memo")

    def __init__(self, game: Game, horizon: int):
        self.game = game
        self.horizon = horizon
        self.state: State | None = None
        self.pending: int | None = START
        self.outcomes: list[int] = []
        self.need = 0
        self.kind = ""
        self.over = False
        #: what callers computed from this state (strings), until it changes
        self.memo: dict = {}
        self._run()

    # ---- wrapping a complete state (a resampled world, a loaded record) ----
    @classmethod
    def wrap(cls, state: State, horizon: int) -> ExplicitChanceState:
        new = cls.__new__(cls)
        new.game = state.game
        new.horizon = horizon
        new.state = with_script_chance(state, horizon)
        new.pending = None
        new.outcomes = []
        new.need = 0
        new.kind = ""
        new.over = episode_over(new.state, horizon)
        new.memo = {}
        return new

    def copy(self) -> ExplicitChanceState:
        new = ExplicitChanceState.__new__(ExplicitChanceState)
        new.game = self.game
        new.horizon = self.horizon
        new.state = None if self.state is None else self.state.clone()
        new.pending = self.pending
        new.outcomes = list(self.outcomes)
        new.need = self.need
        new.kind = self.kind
        new.over = self.over
        new.memo = {}
        return new

    def at_rest(self) -> State:
        """``state``: None only at the chance nodes before the first deal,
        where no caller reads it (``pending`` is checked first)."""
        if self.state is None:
            raise IllegalActionError("?", CHANCE_FIRST(kind=self.kind))
        return self.state

    # ---- the protocol, seen from a framework ----
    def is_chance(self) -> bool:
        return self.pending is not None

    def current_player(self) -> int:
        """The seat to act; -1 at a chance node; ``TERMINAL`` (-4) at the end."""
        if self.pending is not None:
            return -1
        if self.over:
            return -4
        return self.at_rest().current_player()

    def legal_actions(self) -> list[int]:
        if self.pending is not None:
            return list(range(self.need))
        if self.over:
            return []
        return self.at_rest().legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.need
        return [(j, p) for j in range(self.need)]

    def apply_chance(self, outcome: int) -> None:
        if self.pending is None:
            raise IllegalActionError(outcome, NOT_CHANCE_NODE())
        if isinstance(outcome, bool) or not isinstance(outcome, int) or not 0 <= outcome < self.need:
            raise IllegalActionError(outcome, CHANCE_OUTCOME(top=self.need - 1, kind=self.kind))
        self.memo = {}
        self.outcomes.append(outcome)
        self._run()

    def apply_action(self, action: int) -> None:
        if self.pending is not None:
            raise IllegalActionError(action, CHANCE_NOW(kind=self.kind))
        if self.over:
            raise IllegalActionError(action, EPISODE_OVER())
        self.memo = {}
        state = self.at_rest()
        drawn = len(state.chance.log)
        _script(state).owner = state
        try:
            state.apply_action(action)   # checks legality first (IllegalActionError)
        except NeedChance as need:
            # the action stopped half-way: rebuild the state before it
            self.state = self._rebuild(drawn, state.history())
            self.pending = action
            self.outcomes = []
            self.need, self.kind = need.n, need.kind
            return
        self._settle()

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * self.game.num_players
        return episode_returns(self.at_rest(), self.horizon)

    # ---- inside ----
    def _rebuild(self, drawn: int, actions: list[int]) -> State:
        """The state after the first ``drawn`` chance outcomes of the log
        and ``actions``: a replay (only when an action calls for chance,
        between deals; copying the state before every action would cost
        more).  The outcomes are replayed as they were logged, a mid-match
        state's ``("match", ...)`` first, so the state is rebuilt as it
        started: no round trip through the deal's JSON form."""
        chance = self.at_rest().chance
        state = self.game.replay(actions, chance=Chance(chance.seed, chance.log[:drawn]))
        return with_script_chance(state, self.horizon)

    def _run(self) -> None:
        """Run the pending action with the outcomes chosen so far."""
        spec = spec_of(self.game)
        pending = self.pending
        if pending is None:                 # no action waits for chance
            return
        try:
            if pending == START:
                chance = ScriptChance([], self.outcomes, spec.deal_kind, self.horizon)
                done = self.game.replay([], chance=chance)
            else:
                before = self.at_rest()
                done = before.clone()
                done.use_chance(ScriptChance(before.chance.log, self.outcomes,
                                             spec.deal_kind, self.horizon, before.chance.seed))
                _script(done).owner = done
                done.apply_action(pending)
        except NeedChance as need:
            self.need, self.kind = need.n, need.kind
            return
        _script(done).rng.outcomes = []
        _script(done).rng.pos = 0
        self.state = done
        self.pending = None
        self.outcomes = []
        self._settle()

    def _settle(self) -> None:
        self.over = episode_over(self.at_rest(), self.horizon)
