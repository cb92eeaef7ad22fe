"""The solving facade, one call over every solver: ``solve`` -- the exact double-dummy value of
a perfect-information position and of every legal action, through one
adapter per game (``solver.dd.adapters``, found by the state's game class).

``solve(position_or_state, seat=None, tt_mb=64)`` accepts a game record
(``solver.position.Record`` or its JSON dict / text), a ``State``, or a
``solver.dd.TrickPosition``.  A seat view (unknown cards) is refused with
``HiddenInformationError``: hidden cards need the sampling search
(``best_move`` / ``evaluate``), not a double-dummy solve.

Every game with an ``exact.py`` in its package has an adapter (the
registered ones: ``solver.dd.adapters.known_games()``; docs/solver.md says
what each solves); bridge and other trick games reach the kernels through
a ``solver.dd.trick`` contract (a ``TrickPosition``).  ``solve`` runs on the default session of
``solver.dd.session`` (its table kept while the same deal goes on); a
``solver.dd.Solver`` keeps its tables across any calls.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..errors import (
    HiddenInformationError,
    OptionError,
    PositionError,
    SearchAborted,
    UnsupportedPositionError,
)
from ..front import N_
from ..game import State
from ..position import Record, SeatView, from_json
from ..said import Quote, Word, phrase
from . import defaults
from . import dix as dixdd
from . import trick as dd
from .adapters import ADAPTERS, adapter_for, known_games
from .adapters.common import AFTER_MAXN, check_seat, named_brackets
from .dix import dix_engine
from .solution import KIND_WORDS, Solution

# the errors raised here (solver/errors.py: a code and its parameters)
SOLVE_EXPECTS = phrase("solve_expects", N_("solve expects a Record, a record JSON dict, a State "
                                           "or a TrickPosition, got {got}"))
SEAT_VIEW_NO_DD = phrase("seat_view_no_dd", N_(
    "this is a seat view (seat {seat}): other hands are unknown, so there is no double-dummy "
    "value; use the sampling search (solver.best_move / solver.evaluate), or give solve a "
    "complete record"))
KIND_VALUE = phrase("kind_value", N_("kind must be 'paranoid' or 'maxn' (or None: the game's "
                                     "own), got {got}"))
NO_DD_ADAPTER = phrase("no_dd_adapter", N_(
    "no double-dummy adapter for {game} yet (known: {known}); build a solver.dd.TrickPosition "
    "from its contract and pass that"))
SOLVE_GAME_OVER = phrase("solve_game_over", N_("the {game} game is over: nothing to solve"))
NO_TIE_BREAK = phrase("no_tie_break", N_("tie_break: the {game} solver's values have no "
                                         "tie-break part to settle"))
LINE_EXPECTS = phrase("line_expects", N_("principal_line takes a State or a record"))

# what a trick position's value measures (``Solution.objective_said``):
# its contract's name and objective as the position states them (a bare
# position has no game to give them words), and the kind in words
OBJECTIVE_TRICK = phrase("objective.trick", N_("{contract}: {objective}"))
OBJECTIVE_TRICK_KIND = phrase("objective.trick_kind", N_("{contract}: {objective} ({kind})"))

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
    raise PositionError(SOLVE_EXPECTS(got=Quote(position)))


def _hidden(seat: object) -> HiddenInformationError:
    return HiddenInformationError(SEAT_VIEW_NO_DD(seat=Quote(seat)))


#: the kinds of value ``solve`` may be asked for (``kind=``; None: the
#: game's own, paranoid for the individual games); solver/dd/solution.py
#: ``KINDS`` says what each means
ASKED_KINDS = (None, "paranoid", "maxn")


def check_kind(kind: Any) -> str | None:
    """A kind of value ``solve`` takes (``ASKED_KINDS``), else ``OptionError``."""
    if kind is None:
        return None
    if kind not in ASKED_KINDS:
        raise OptionError(KIND_VALUE(got=Quote(kind)))
    return str(kind)


def _solve_trick_position(solver: Solver, pos: dd.TrickPosition, seat: int | None,
                          max_nodes: int | None = None, kind: str | None = None,
                          tie_break: bool = True) -> Solution:
    """A ``TrickPosition``: the value for ``seat``'s team under the
    contract's own objective (``Contract.objective``); with ``kind="maxn"``
    and four individual seats, the max^n value where its search finishes
    within ``max_nodes`` (``Solution.kind`` says which)."""
    if seat is None:
        seat = pos.seat_to_play
    check_seat(seat, pos.contract.nseats)
    k = pos.contract
    deck = dd.DECKS[k.deck]
    individual = dd.maxn_contract_ok(k)
    spent = 0
    if kind == "maxn" and individual:
        try:
            mx = solver.solve_maxn(pos, seat, max_nodes)
        except SearchAborted as exc:
            spent = exc.nodes
        else:
            vectors = {deck.to_string(c): v for c, v in mx.vectors.items()}
            values = {deck.to_string(c): v for c, v in mx.card_values.items()}
            top = max(values.values())
            said = OBJECTIVE_TRICK_KIND(contract=k.name, objective=k.objective,
                                        kind=Word(KIND_WORDS["maxn"]))
            return Solution(mx.value, MappingProxyType(values), mx.nodes, mx.time, seat,
                            said.english(), tuple(a for a, v in values.items() if v == top),
                            "cython", kind="maxn", action_vectors=MappingProxyType(vectors),
                            choice=deck.to_string(mx.choice), objective_said=said)
    if dixdd.is_dix_position(pos):
        # a TrickPosition's answer is the kernel's value itself (brackets
        # too): the whole lexicographic value unless the caller asked for less
        try:
            res = dix_engine(solver, pos, seat, max_nodes, tie_break)
        except SearchAborted as exc:
            raise named_brackets(exc, deck.to_string) from None
    else:
        bound = None if max_nodes is None else max(1, max_nodes - spent)
        try:
            res = solver.solve_position(pos, max_team=k.teams[seat], objective=k.objective,
                                        max_nodes=bound)
        except SearchAborted as exc:
            named_brackets(exc, deck.to_string)
            if not spent:
                raise
            raise SearchAborted(AFTER_MAXN(error=exc.as_message(), spent=spent),
                                exc.nodes + spent, exc.brackets, exc.span) from exc
    values = {deck.to_string(c): v for c, v in res.card_values.items()}
    best = tuple(a for a, v in values.items() if v == res.value)
    said = OBJECTIVE_TRICK(contract=k.name, objective=k.objective)
    return Solution(res.value, MappingProxyType(values), res.nodes + spent, res.time, seat,
                    said.english(), best, res.engine,
                    kind="paranoid" if individual else "minimax", objective_said=said)


def solve_with(solver: Solver, position_or_state: Any, seat: int | None = None,
               max_nodes: int | None = None, kind: str | None = None,
               tie_break: bool | None = None) -> Solution:
    """``solve`` on a given solver session (``Solver.solve``).
    ``tie_break`` None: the default of what is solved (a game's state:
    False; a ``TrickPosition``: the kernel's whole value, True)."""
    dd.check_max_nodes(max_nodes)
    check_kind(kind)
    target = _to_state(position_or_state)
    if isinstance(target, dd.TrickPosition):
        return _solve_trick_position(solver, target, seat, max_nodes, kind,
                                     True if tie_break is None else bool(tie_break))
    adapter = adapter_for(target.game)
    if adapter is None:
        raise UnsupportedPositionError(NO_DD_ADAPTER(game=Quote(target.game.name),
                                                     known=list(known_games())))
    if target.is_terminal():
        raise UnsupportedPositionError(SOLVE_GAME_OVER(game=target.game.name))
    extra = {}
    if tie_break:
        # only an adapter whose values have a tie-break part takes it (dix's)
        if "tie_break" not in inspect.signature(adapter).parameters:
            raise OptionError(NO_TIE_BREAK(game=target.game.name))
        extra["tie_break"] = True
    solution: Solution = adapter(solver, target, seat, max_nodes, kind, **extra)
    return solution


def solve(position_or_state: Any, seat: int | None = None, tt_mb: int = dd.DEFAULT_TT_MB,
          max_nodes: int | None = None, kind: str | None = None,
          tie_break: bool | None = None) -> Solution:
    """The exact value of a perfect-information position for ``seat``
    (default: the seat to act) and of every legal action.  ``tt_mb``: the
    transposition table's size in MiB (``LimitError`` if absurd).
    ``max_nodes``: give up past that many search nodes with
    ``SearchAborted`` (a ``LimitError``) instead of an answer; the layout
    solver (sub-millisecond to milliseconds on full deals) is not limited.
    ``kind``: the kind of value in the games of four individual seats
    (trix, tricks without partners): None or ``"paranoid"`` (the seat
    against the three others as one side) or ``"maxn"`` (every seat for
    its own score, ties against the seat: where that search finishes
    within ``max_nodes`` and the contract's adapter tries it, else the
    paranoid value); two-sided games give their minimax value whatever is
    asked.  ``Solution.kind`` says which value it is.  ``tie_break``
    (dix): True settles the whole lexicographic value of every action
    (``raw_action_values``: the ten-tricks and the last trick too); the
    default for a game's state settles each action's round result only
    (the score difference, and the round's winner where the scores tie:
    all any face and search reads), ``raw_action_values`` None; a
    ``TrickPosition`` is answered with the kernel's whole value."""
    dd.check_tt_mb(tt_mb)
    dd.check_max_nodes(max_nodes)
    return solve_with(defaults.default_solver(tt_mb), position_or_state, seat, max_nodes, kind,
                      tie_break)


@dataclass(frozen=True)
class Bounded:
    """A solve under a node budget (``solve_within``): ``finished`` (False:
    the budget ran out first), the ``solution`` (None then), the ``kind``
    of value it is or was going to be (solver/dd/solution.py ``KINDS``),
    the ``nodes`` searched and the ``time`` (s).

    ``brackets``: every legal action (the game's notation) -> ``(lo, hi)``,
    the interval its value of that ``kind`` is proved to lie in: ``lo ==
    hi ==`` its value where its search finished (every action of a
    finished solve), what the null-window questions that finished proved
    where the budget ran out, within the game's own range of values from
    here (``span``: no play of the rest of the deal ends outside it).
    None where the solver proves no bound as it goes (the plain search of
    ``solver.dd.exact``).  In the unit of the solution it would have been
    (``Solution.action_values``: a dix state's score differences, a dix
    ``TrickPosition``'s lexicographic values).
    ``solver.dd.solution.bracket_words`` words one."""

    finished: bool
    solution: Solution | None
    kind: str
    nodes: int
    time: float
    brackets: Mapping[str, tuple[int, int]] | None = None
    span: tuple[int, int] | None = None


def solve_within(position_or_state: Any, max_nodes: int, seat: int | None = None,
                 kind: str | None = None, solver: Solver | None = None,
                 tt_mb: int = dd.DEFAULT_TT_MB) -> Bounded:
    """``solve`` under a node budget, for a face that must answer in time
    (an analysis board's exact mode): never raises ``SearchAborted``; says
    whether the solve finished and which kind of value it holds, and every
    action's proved bracket (``Bounded.brackets``).  Positions
    no solver takes still raise ``UnsupportedPositionError`` (and a seat
    view ``HiddenInformationError``).  ``solver``: a ``solver.dd.Solver``
    whose tables to use (default: the module-level session).

    From the same table (the default session starts afresh after a search
    that stopped), a larger budget never widens a bracket: the search is
    deterministic, so it asks the same questions up to the smaller
    budget's end, and each later question only narrows."""
    dd.check_max_nodes(max_nodes)
    check_kind(kind)
    if solver is None:
        dd.check_tt_mb(tt_mb)
        solver = defaults.default_solver(tt_mb)
    t0 = time.perf_counter()
    try:
        sol = solve_with(solver, position_or_state, seat, max_nodes, kind)
    except SearchAborted as exc:
        return Bounded(False, None, kind_asked(position_or_state), exc.nodes,
                       time.perf_counter() - t0, exc.brackets, exc.span)
    exact = MappingProxyType({a: (v, v) for a, v in sol.action_values.items()})
    return Bounded(True, sol, sol.kind, sol.nodes, time.perf_counter() - t0, exact)


def kind_asked(position_or_state: Any) -> str:
    """The kind of value a solve that did not finish was giving (its
    brackets' kind): the
    paranoid one in a game of individual seats (the max^n value falls back
    to it), else minimax."""
    target = _to_state(position_or_state)
    if isinstance(target, dd.TrickPosition):
        return "paranoid" if dd.maxn_contract_ok(target.contract) else "minimax"
    game = target.game
    return "minimax" if getattr(game, "partnership", False) or game.num_players == 2 else "paranoid"


def line_with(solver: Solver, position_or_state: Any, seat: int | None = None, plies: int = 8,
              max_nodes: int | None = None, total_nodes: int | None = None,
              stop: Any = None, *,
              values: Callable[[State, int, Solution], Mapping[str, Any]] | None = None,
              first: Solution | None = None, kind: str | None = None) -> list[tuple[int, str, Any]]:
    """``principal_line`` on a given solver session: every ply's solve on
    its tables (the next position of a deal finds the entries the solve
    before it stored).  ``values(state, seat, solution)``: each action's
    value in another unit than the solver's objective (``bots.exact``: the
    game's deal result), the line then minimax in that unit, ties by the
    game's rule among equal actions (``State.tie_key``); ``first``: the
    solve of the starting position already made."""
    state = _to_state(position_or_state)
    if isinstance(state, dd.TrickPosition):
        raise UnsupportedPositionError(LINE_EXPECTS())
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
                    sol = solver.solve(state, seat=seat, max_nodes=cap, kind=kind)
                    spent += sol.nodes
                vals = sol.action_values if values is None else values(state, seat, sol)
            except (UnsupportedPositionError, SearchAborted):
                break
            if sol.kind == "maxn" and sol.choice is not None:
                # every seat plays for itself: the mover's own choice
                text = sol.choice
                action, value = state.string_to_action(text), vals[text]
            else:
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


__all__ = ["Solution", "solve", "solve_with", "solve_within", "Bounded", "ADAPTERS",
           "principal_line", "ASKED_KINDS", "check_kind", "kind_asked"]
