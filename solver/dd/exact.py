"""Exact search over the game protocol, for small games and small endings.

``solve_protocol(state, seat)`` is alpha-beta minimax over
``clone``/``apply_action``, to the end of the current deal (the horizon of
``round_index()``), scoring ``round_returns(horizon)``:

* ``seat`` given, ``team`` not: *paranoid* -- the best result ``seat`` can
  guarantee when every other seat plays against it;
* ``team`` given (a set of seats): the team's summed result, the team
  maximizing and every other seat minimizing.

Every legal action at the root gets its exact value (a full window per
action).  It needs every card known: a state, not a seat view.  It is the
solver of record for dix-exchange rounds (a round is a few dozen decisions)
and an independent oracle for the trick-game kernels on tiny endings.
"""

from __future__ import annotations

import math
import time as _time
from dataclasses import dataclass

from ..game import State


@dataclass(frozen=True)
class ExactResult:
    value: float
    action_values: dict      # action int -> value
    nodes: int
    seconds: float


def solve_protocol(state: State, seat: int | None = None, team=None,
                   max_nodes: int = 5_000_000) -> ExactResult:
    if state.is_terminal():
        raise ValueError("the game is over")
    if seat is None:
        seat = state.current_player()
    side = frozenset(team) if team is not None else frozenset([seat])
    horizon = state.round_index()
    counter = [0]
    start = _time.perf_counter()

    def value(st: State) -> float:
        return sum(st.round_returns(horizon)[s] for s in side)

    def search(st: State, alpha: float, beta: float) -> float:
        counter[0] += 1
        if counter[0] > max_nodes:
            raise OverflowError(f"exact search exceeded {max_nodes} nodes")
        if st.is_terminal() or st.round_index() != horizon:
            return value(st)
        maximize = st.current_player() in side
        best = -math.inf if maximize else math.inf
        for a in st.legal_actions():
            child = st.clone()
            child.apply_action(a)
            v = search(child, alpha, beta)
            if maximize:
                if v > best:
                    best = v
                alpha = max(alpha, v)
            else:
                if v < best:
                    best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    values = {}
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        values[a] = search(child, -math.inf, math.inf)
    maximize = state.current_player() in side
    root = max(values.values()) if maximize else min(values.values())
    return ExactResult(root, values, counter[0], _time.perf_counter() - start)
