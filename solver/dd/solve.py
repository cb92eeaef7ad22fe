"""The solving facade, one call over every solver: ``solve`` -- the exact double-dummy value of
a perfect-information position and of every legal action, through one
adapter per game (``solver.dd.adapters``, found by the state's game class).

``solve(position_or_state, seat=None, tt_mb=64)`` accepts a game record
(``solver.position.Record`` or its JSON dict / text), a ``State``, or a
``solver.dd.TrickPosition``.  A seat view (unknown cards) is refused with
``HiddenInformationError``: hidden cards need the sampling search
(``best_move`` / ``evaluate``), not a double-dummy solve.

Games with a double-dummy adapter: dix (from trick 14 on in the standard
variant, any time in ``seventeen``; the two-seat dix solver
``solver.dd.dix``; see docs/solver.md), trix / tricks card play and the
layout, dixie-rook card play, dix-exchange rounds; bridge and other trick
games reach the generic kernel through a ``solver.dd.trick`` contract (a
``TrickPosition``).  ``solve`` runs on the default session of
``solver.dd.session`` (its table kept while the same deal goes on); a
``solver.dd.Solver`` keeps its tables across any calls.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from ..errors import (
    HiddenInformationError,
    PositionError,
    SearchAborted,
    UnsupportedPositionError,
    short_repr,
)
from ..game import State
from ..games.dix.exact import dix_engine, dix_solution
from ..position import Record, SeatView, from_json
from . import defaults
from . import dix as dixdd
from . import trick as dd
from .adapters import ADAPTERS, adapter_for, known_games
from .adapters.common import check_seat
from .solution import Solution

#: a ``solver.dd.session.Solver`` (the session module is above this one: it
#: solves through these functions, so they name it only in words)
Solver = Any


def _to_state(position: Any) -> State | dd.TrickPosition:
    if isinstance(position, (State, dd.TrickPosition)):
        return position
    if isinstance(position, SeatView):
        raise _hidden(position.seat)
    if isinstance(position, Record):
        return position.state()
    if isinstance(position, (str, bytes, bytearray, dict)):
        pos = from_json(position)           # the input limits and every check
        if isinstance(pos, SeatView):
            raise _hidden(pos.seat)
        return pos.state()
    raise PositionError(f"solve expects a Record, a record JSON dict, a State or a "
                        f"TrickPosition, got {type(position).__name__}")


def _hidden(seat: object) -> HiddenInformationError:
    return HiddenInformationError(
        f"this is a seat view (seat {short_repr(seat)}): other hands are unknown, so there is no "
        f"double-dummy value; use the sampling search (solver.best_move / "
        f"solver.evaluate), or give solve a complete record")


def _solve_trick_position(solver: Solver, pos: dd.TrickPosition, seat: int | None,
                          max_nodes: int | None = None) -> Solution:
    """A ``TrickPosition``: the value for ``seat``'s team under the
    contract's own objective (``Contract.objective``)."""
    if seat is None:
        seat = pos.seat_to_play
    check_seat(seat, pos.contract.nseats)
    k = pos.contract
    deck = dd.DECKS[k.deck]
    if dixdd.is_dix_position(pos):
        res = dix_engine(solver, pos, seat, max_nodes)
    else:
        res = solver.solve_position(pos, max_team=k.teams[seat], objective=k.objective,
                                    max_nodes=max_nodes)
    values = {deck.to_string(c): v for c, v in res.card_values.items()}
    best = tuple(a for a, v in values.items() if v == res.value)
    return Solution(res.value, MappingProxyType(values), res.nodes, res.time, seat,
                    f"{k.name}: {k.objective}", best, res.engine)


def solve_with(solver: Solver, position_or_state: Any, seat: int | None = None,
               max_nodes: int | None = None) -> Solution:
    """``solve`` on a given solver session (``Solver.solve``)."""
    dd.check_max_nodes(max_nodes)
    target = _to_state(position_or_state)
    if isinstance(target, dd.TrickPosition):
        return _solve_trick_position(solver, target, seat, max_nodes)
    adapter = adapter_for(target.game)
    if adapter is None:
        raise UnsupportedPositionError(
            f"no double-dummy adapter for {target.game.name!r} yet (known: "
            f"{', '.join(known_games())}); build a solver.dd.TrickPosition from its contract "
            f"and pass that")
    if target.is_terminal():
        raise UnsupportedPositionError(f"the {target.game.name} game is over: nothing to solve")
    solution: Solution = adapter(solver, target, seat, max_nodes)
    return solution


def solve(position_or_state: Any, seat: int | None = None, tt_mb: int = dd.DEFAULT_TT_MB,
          max_nodes: int | None = None) -> Solution:
    """The exact value of a perfect-information position for ``seat``
    (default: the seat to act) and of every legal action.  ``tt_mb``: the
    transposition table's size in MiB (``LimitError`` if absurd).
    ``max_nodes``: give up past that many search nodes with
    ``SearchAborted`` (a ``LimitError``) instead of an answer; the layout
    solver (sub-millisecond to milliseconds on full deals) is not limited."""
    dd.check_tt_mb(tt_mb)
    dd.check_max_nodes(max_nodes)
    return solve_with(defaults.default_solver(tt_mb), position_or_state, seat, max_nodes)


def line_with(solver: Solver, position_or_state: Any, seat: int | None = None, plies: int = 8,
              max_nodes: int | None = None, total_nodes: int | None = None,
              stop: Any = None, *,
              values: Callable[[State, int, Solution], Mapping[str, Any]] | None = None,
              first: Solution | None = None) -> list[tuple[int, str, Any]]:
    """``principal_line`` on a given solver session: every ply's solve on
    its tables (the next position of a deal finds the entries the solve
    before it stored).  ``values(state, seat, solution)``: each action's
    value in another unit than the solver's objective (``bots.exact``: the
    game's deal result), the line then minimax in that unit, ties by the
    game's rule among equal actions (``State.tie_key``); ``first``: the
    solve of the starting position already made."""
    state = _to_state(position_or_state)
    if isinstance(state, dd.TrickPosition):
        raise UnsupportedPositionError("principal_line takes a State or a record")
    state = state.clone()
    if seat is None:
        seat = state.current_player()
    horizon = state.round_index()
    line: list[tuple[int, str, Any]] = []
    partners = state.game.partnership
    spent = 0
    for ply in range(plies):
        if state.is_terminal() or state.round_index() != horizon:
            break
        if stop is not None and stop.is_set():
            break
        mover = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
            value = None
        else:
            try:
                if ply == 0 and first is not None:
                    sol = first
                else:
                    cap = max_nodes
                    if total_nodes is not None:
                        if total_nodes - spent <= 0:
                            break
                        cap = total_nodes - spent if cap is None else min(cap, total_nodes - spent)
                    sol = solver.solve(state, seat=seat, max_nodes=cap)
                    spent += sol.nodes
                vals = sol.action_values if values is None else values(state, seat, sol)
            except (UnsupportedPositionError, SearchAborted):
                break
            ours = mover == seat or (partners and mover % 2 == seat % 2)
            target = (max if ours else min)(vals.values())
            ids = {t: state.string_to_action(t) for t in vals if vals[t] == target}
            text = min(ids, key=lambda t: state.tie_key(ids[t]))
            action, value = ids[text], vals[text]
        line.append((mover, state.action_to_string(action), value))
        state.apply_action(action)
    return line


def principal_line(position_or_state: Any, seat: int | None = None, plies: int = 8,
                   tt_mb: int = dd.DEFAULT_TT_MB, max_nodes: int | None = None,
                   total_nodes: int | None = None,
                   stop: Any = None) -> list[tuple[int, str, int | None]]:
    """The expected line of play from a perfect-information position: up to
    ``plies`` actions under best play by everyone, valued for ``seat``
    (default: the seat to act): its side takes a best action, the others
    the action worst for it (the minimax line of ``solve``'s objective).
    Returns ``[(seat to act, action string, value for seat), ...]``; it
    stops early at the end of the deal or where the solver has no answer.
    Ties go to the first action in the game's order, so the line is
    deterministic.  ``max_nodes`` bounds each ply's solve, ``total_nodes``
    the whole line's; ``stop`` (an event) ends the line before the next
    ply: a line cut short by either is the plies found so far.  The
    default session serves the line: each ply is a later position of the
    same deal, so the table of the ply before (and of a ``solve`` of the
    same position just before, as a hint does) is kept."""
    dd.check_tt_mb(tt_mb)
    return line_with(defaults.default_solver(tt_mb), position_or_state, seat, plies, max_nodes,
                     total_nodes, stop)


__all__ = ["Solution", "solve", "solve_with", "ADAPTERS", "principal_line",
           "dix_solution"]
