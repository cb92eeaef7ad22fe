"""The solving facade (STYLE 9): ``solve`` -- the exact double-dummy value of
a perfect-information position and of every legal action, through one
adapter per game (``ADAPTERS``).

``solve(position_or_state, seat=None, tt_mb=64)`` accepts a game record
(``solver.position.Record`` or its JSON dict / text), a ``State``, or a
``solver.dd.TrickPosition``.  A seat view (unknown cards) is refused with
``HiddenInformationError``: hidden cards need the sampling search
(``best_move`` / ``evaluate``), not a double-dummy solve.

Games with a double-dummy adapter: ``dix`` (from trick 14 on in the standard
variant, any time in ``seventeen``; solved by the two-seat dix solver
``solver.dd.dix``; see docs/solver.md).  trix / tricks card play and the layout,
dixie-rook card play and dix-exchange rounds have adapters too; bridge and
other trick games reach the generic kernel through a ``solver.dd.trick``
contract (a ``TrickPosition``).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable, Mapping

from . import dix as dixdd
from . import trick as dd
from ..errors import (HiddenInformationError, PositionError, SearchAborted,
                      UnsupportedPositionError, short_repr)
from ..game import State
from ..position import Record, SeatView, from_json


@dataclass(frozen=True)
class Solution:
    """Exact values for ``seat`` (higher is better for it).

    ``value``: the position's value under best play by everyone;
    ``action_values``: the value after each legal action (canonical
    notation), EVERY legal action listed; ``best_actions``: the actions
    reaching ``value``; ``nodes`` searched and ``time`` (s); ``objective``
    names what ``value`` measures (docs/solver.md).

    dix: ``value`` is the seat's round score minus the opponent's at the
    end of the round (already-won tricks included); ``round_winner`` the
    seat that wins the round under best play (tie-breaks applied: fewer
    ten-tricks, then the last trick) and ``action_winners`` the same per
    action.  ``raw_value``/``raw_action_values`` are the kernel's
    lexicographic values (``solver.dd.decode_dix``)."""

    value: int
    action_values: Mapping[str, int]
    nodes: int
    time: float
    seat: int
    objective: str
    best_actions: tuple
    engine: str = "cython"
    round_winner: int | None = None
    action_winners: Mapping[str, int] | None = None
    raw_value: int | None = None
    raw_action_values: Mapping[str, int] | None = None


def _to_state(position) -> State | dd.TrickPosition:
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


def _hidden(seat) -> HiddenInformationError:
    return HiddenInformationError(
        f"this is a seat view (seat {short_repr(seat)}): other hands are unknown, so there is no "
        f"double-dummy value; use the sampling search (solver.best_move / "
        f"solver.evaluate), or give solve a complete record")


def _dix_engine(pos: dd.TrickPosition, seat, tt_mb, max_nodes) -> dd.DDResult:
    """dix through the specialised solver (solver.dd.dix), or through the
    generic kernel when ``DIXTRIX_DIX_SOLVER=generic`` (for comparison) and
    the pure-Python oracle under ``DIXTRIX_PUREPYTHON=1``."""
    if dd.pure_python() or dixdd.generic_requested():
        return dd.solve_position(pos, max_team=seat, objective="dix", tt_mb=tt_mb,
                                 max_nodes=max_nodes)
    return dixdd.solve_dix(pos, seat, tt_mb=tt_mb, max_nodes=max_nodes)


def _solve_dix(state, seat, tt_mb, max_nodes=None) -> Solution:
    if seat is None:
        seat = state.current_player()
    if seat not in (0, 1):
        raise PositionError(f"seat must be 0 or 1, got {seat!r}")
    pos = dd.dix_position(state)
    res = _dix_engine(pos, seat, tt_mb, max_nodes)
    names = {c: state.action_to_string(c) for c in res.card_values}
    raw = {names[c]: v for c, v in res.card_values.items()}
    decoded = {a: dd.decode_dix(v) for a, v in raw.items()}
    values = {a: d[0] for a, d in decoded.items()}
    winners = {a: seat if raw[a] > 0 else 1 - seat for a in raw}
    best = tuple(a for a in raw if raw[a] == res.value)
    return Solution(dd.decode_dix(res.value)[0], MappingProxyType(values), res.nodes, res.time,
                    seat, "dix round score difference", best, res.engine,
                    seat if res.value > 0 else 1 - seat, MappingProxyType(winners), res.value,
                    MappingProxyType(raw))


def _solve_trick_position(pos: dd.TrickPosition, seat, tt_mb, max_nodes=None) -> Solution:
    if seat is None:
        seat = pos.seat_to_play
    if not (isinstance(seat, int) and 0 <= seat < pos.contract.nseats):
        raise PositionError(f"seat must be 0..{pos.contract.nseats - 1}, got {seat!r}")
    k = pos.contract
    objective = "dix" if k.name == "dix" else "own"
    if dixdd.is_dix_position(pos):
        res = _dix_engine(pos, seat, tt_mb, max_nodes)
    else:
        res = dd.solve_position(pos, max_team=k.teams[seat], objective=objective,
                                tt_mb=tt_mb, max_nodes=max_nodes)
    deck = {"french": dd.FRENCH, "dix": dd.DIX, "rook": dd.ROOK}[k.deck]
    values = {deck.to_string(c): v for c, v in res.card_values.items()}
    best = tuple(a for a, v in values.items() if v == res.value)
    return Solution(res.value, MappingProxyType(values), res.nodes, res.time, seat,
                    f"{k.name}: {objective}", best, res.engine)


def _card_play_only(state, what: str):
    return UnsupportedPositionError(
        f"{state.game.name}: solve() gives exact values of card play; this is {what}, "
        f"a decision before the cards are known to play out: use best_move / evaluate")


def _solve_contract(state, seat, tt_mb, max_nodes=None) -> Solution:
    """trix / tricks: a trick contract through the trick kernel, the layout
    through the layout solver.  Individual: the best deal result ``seat``
    can guarantee against the other three (paranoid); ``partners``: the
    team's result, exact team minimax."""
    from ..games.contract_match import LAYOUT_PLAY, TRICKS
    from ..games.tricks_core import (DIAMONDS_CONTRACT, KING_OF_HEARTS, LTOOSH, QUEENS)
    if seat is None:
        seat = state.current_player()
    if not (isinstance(seat, int) and 0 <= seat < 4):
        raise PositionError(f"seat must be 0..3, got {seat!r}")
    partners = bool(state.game.options.get("partners", False))
    log = state.log
    if state.phase == TRICKS:
        play = log.play
        kind = {KING_OF_HEARTS: "king", QUEENS: "queens", DIAMONDS_CONTRACT: "diamonds",
                LTOOSH: "ltoosh"}[log.contract]
        contract = dd.penalty_contract(kind, partners=partners,
                                       doubled={c: r for r, c in log.reveals},
                                       must_discard=play.must_discard)
        so_far = state.round_returns()
        teams = contract.team_ids
        points = tuple(int(so_far[contract.teams.index(t)]) for t in teams)
        tricks = tuple(sum(play.tricks_won[s] for s in range(4) if contract.teams[s] == t)
                       for t in teams)
        pos = dd.TrickPosition(contract, tuple(play.hands), play.leader, tuple(play.trick),
                               points=points, tricks=tricks)
        res = dd.solve_position(pos, max_team=contract.teams[seat], objective="own",
                                tt_mb=tt_mb, max_nodes=max_nodes)
        values = {state.action_to_string(c): v for c, v in res.card_values.items()}
        best = tuple(a for a, v in values.items() if v == res.value)
        return Solution(res.value, MappingProxyType(values), res.nodes, res.time, seat,
                        f"{kind}: the {'team' if partners else 'seat'}'s deal score "
                        f"({'team minimax' if partners else 'paranoid'})", best, res.engine)
    if state.phase == LAYOUT_PLAY:
        from .layout import PASS, solve_layout
        from ..cards import cards_of
        play = log.play
        lay = play.layout
        rows = {s: (lay.lo[s], lay.hi[s]) for s in range(4) if lay.lo[s]}
        res = solve_layout([cards_of(h) for h in play.hands], rows, play.turn,
                           list(play.finish), seat=seat, partnership=partners, tt_mb=tt_mb)
        from ..games.contract_match import PASS as PASS_ACTION
        values = {state.action_to_string(PASS_ACTION if a == PASS else a): v
                  for a, v in res.actions.items()}
        best = tuple(a for a, v in values.items() if v == res.value)
        return Solution(res.value, MappingProxyType(values), res.nodes, res.seconds, seat,
                        f"layout: the {'team' if partners else 'seat'}'s finishing points "
                        f"({'team minimax' if partners else 'paranoid'})", best, "cython")
    raise _card_play_only(state, "a contract choice, a declaration or a redeal claim")


def _solve_exchange(state, seat, tt_mb, max_nodes=None) -> Solution:
    """dix-exchange: every card known, full alpha-beta over the round
    (``solver.dd.exact``): the tokens ``seat`` can guarantee to keep this round
    against every other seat (paranoid)."""
    from .exact import solve_protocol
    if seat is None:
        seat = state.current_player()
    if not (isinstance(seat, int) and 0 <= seat < state.game.num_players):
        raise PositionError(f"seat must be 0..{state.game.num_players - 1}, got {seat!r}")
    try:
        res = solve_protocol(state, seat, max_nodes=max_nodes or 5_000_000)
    except OverflowError as exc:
        raise SearchAborted(str(exc), max_nodes or 5_000_000) from exc
    values = {state.action_to_string(a): int(v) for a, v in res.action_values.items()}
    best = tuple(a for a, v in values.items() if v == res.value)
    return Solution(int(res.value), MappingProxyType(values), res.nodes, res.seconds, seat,
                    "dix-exchange: tokens won (-lost) this round (paranoid)", best, "python")


def _solve_rook(state, seat, tt_mb, max_nodes=None) -> Solution:
    """dixie-rook card play (after the discards and the trump): the seat's
    team's captured points at the end of the hand under team minimax --
    count taken so far, the nest's count to the last trick's taker, the +20
    for most tricks (a tie: 10 each, the expectation of the fair cut)."""
    from ..games.dixie_rook import PLAY, card_count
    if seat is None:
        seat = state.current_player()
    n = state.game.num_players
    if not (isinstance(seat, int) and 0 <= seat < n):
        raise PositionError(f"seat must be 0..{n - 1}, got {seat!r}")
    if state.phase != PLAY:
        raise _card_play_only(state, "the auction, the nest or the trump")
    contract = dd.rook_contract(n, state.trump, sum(card_count(c) for c in state.discards))
    pos = dd.TrickPosition(contract, tuple(state.hands), state.leader, tuple(state.trick),
                           points=tuple(state.count), tricks=tuple(state.tricks_won))
    res = dd.solve_position(pos, max_team=contract.teams[seat], objective="own", tt_mb=tt_mb,
                            max_nodes=max_nodes)
    values = {state.action_to_string(c): v for c, v in res.card_values.items()}
    best = tuple(a for a, v in values.items() if v == res.value)
    return Solution(res.value, MappingProxyType(values), res.nodes, res.time, seat,
                    "dixie-rook: the team's captured points (count, nest, most tricks)",
                    best, res.engine)


#: game name -> solve function(state, seat, tt_mb)
ADAPTERS: dict[str, Callable] = {"dix": _solve_dix, "trix": _solve_contract,
                                 "tricks": _solve_contract, "dix-exchange": _solve_exchange,
                                 "dixie-rook": _solve_rook}


def solve(position_or_state, seat: int | None = None, tt_mb=dd.DEFAULT_TT_MB,
          max_nodes: int | None = None) -> Solution:
    """The exact value of a perfect-information position for ``seat``
    (default: the seat to act) and of every legal action.  ``tt_mb``: the
    transposition table's size in MiB (``LimitError`` if absurd).
    ``max_nodes``: give up past that many search nodes with
    ``SearchAborted`` (a ``LimitError``) instead of an answer; the layout
    solver (sub-millisecond to milliseconds on full deals) is not limited."""
    dd.check_tt_mb(tt_mb)
    dd.check_max_nodes(max_nodes)
    target = _to_state(position_or_state)
    if isinstance(target, dd.TrickPosition):
        return _solve_trick_position(target, seat, tt_mb, max_nodes)
    name = target.game.name
    if name not in ADAPTERS:
        raise UnsupportedPositionError(
            f"no double-dummy adapter for {name!r} yet (known: {', '.join(ADAPTERS)}); "
            f"build a solver.dd.TrickPosition from its contract and pass that")
    if target.is_terminal():
        raise UnsupportedPositionError(f"the {name} game is over: nothing to solve")
    return ADAPTERS[name](target, seat, tt_mb, max_nodes)

def principal_line(position_or_state, seat: int | None = None, plies: int = 8,
                   tt_mb=dd.DEFAULT_TT_MB, max_nodes: int | None = None,
                   total_nodes: int | None = None, stop=None) -> list[tuple]:
    """The expected line of play from a perfect-information position: up to
    ``plies`` actions under best play by everyone, valued for ``seat``
    (default: the seat to act): its side takes a best action, the others
    the action worst for it (the minimax line of ``solve``'s objective).
    Returns ``[(seat to act, action string, value for seat), ...]``; it
    stops early at the end of the deal or where the solver has no answer.
    Ties go to the first action in the game's order, so the line is
    deterministic.  ``max_nodes`` bounds each ply's solve, ``total_nodes``
    the whole line's; ``stop`` (an event) ends the line before the next
    ply: a line cut short by either is the plies found so far."""
    state = _to_state(position_or_state)
    if isinstance(state, dd.TrickPosition):
        raise UnsupportedPositionError("principal_line takes a State or a record")
    state = state.clone()
    if seat is None:
        seat = state.current_player()
    horizon = state.round_index()
    line = []
    partners = state.game.partnership
    spent = 0
    for _ in range(plies):
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
            cap = max_nodes
            if total_nodes is not None:
                if total_nodes - spent <= 0:
                    break
                cap = total_nodes - spent if cap is None else min(cap, total_nodes - spent)
            try:
                sol = solve(state, seat=seat, tt_mb=tt_mb, max_nodes=cap)
            except (UnsupportedPositionError, SearchAborted):
                break
            spent += sol.nodes
            ours = mover == seat or (partners and mover % 2 == seat % 2)
            pick = max if ours else min
            text = pick(sol.action_values, key=lambda a: (sol.action_values[a]
                                                          if ours else sol.action_values[a]))
            action, value = state.string_to_action(text), sol.action_values[text]
        line.append((mover, state.action_to_string(action), value))
        state.apply_action(action)
    return line


__all__ = ["Solution", "solve", "ADAPTERS", "principal_line"]
