"""Double-dummy (perfect-information) solver of the layout game.

The layout game is the Trix contract of ``trix`` and the Jacks game of
``tricks`` (RULINGS.md): a jack starts its suit's row, a row grows J-Q-K-A
upward and J-10-...-2 downward, a seat must play a legal card if it has
one and otherwise passes (forced), seats out of cards are skipped, and the
finishing order scores +200, +150, +100, +50.

``solve_layout`` checks its input once and hands the position to the Cython
kernel ``solver.dd._layoutdd`` (or, with ``DIXTRIX_PUREPYTHON=1`` or without a
build, to the pure-Python oracle ``solver.reference.layout_oracle``, which
is exponential: small endings only).  Objectives (docs/solver.md):

* paranoid (default): the finishing score ``seat`` can guarantee when the
  three other seats play against it;
* ``partnership=True``: seats {0, 2} against {1, 3}; the value is the total
  of ``seat``'s team under exact team minimax.  Both teams' points always
  sum to 500, so this is the same game as maximising team - opponents
  (= 2 * value - 500, see ``LayoutSolution.margin``).

Values include the points already earned by the finishers listed in
``finished``.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..cards import FRENCH
from ..errors import LimitError, PositionError

if os.environ.get("DIXTRIX_PUREPYTHON", "") not in ("", "0"):
    from ..reference.layout_oracle import IMPLEMENTATION, PASS, LayoutSolver
else:
    try:
        # the same interface as the twin's (solver/reference/layout_oracle.py)
        from ._layoutdd import IMPLEMENTATION, PASS, LayoutSolver  # type: ignore[assignment]
    except ImportError:  # pragma: no cover - only without a build
        from ..reference.layout_oracle import IMPLEMENTATION, PASS, LayoutSolver

__all__ = ["solve_layout", "LayoutSolution", "PASS", "IMPLEMENTATION", "PLACE_POINTS",
           "MAX_TT_MB"]

PLACE_POINTS = (200, 150, 100, 50)
UNIT = 50                      # the kernel counts in units of 50 points
JACK = 11
MAX_TT_MB = 65536              # larger tables are refused as absurd (LimitError)

_solvers: dict[int, LayoutSolver] = {}   # one kernel (and its table) per table size, reused
_lock = threading.Lock()           # the kernel releases the GIL: one solve at a time


@dataclass(frozen=True)
class LayoutSolution:
    """Exact values of a layout position.

    ``value``: points of ``seat`` (paranoid) or of ``seat``'s team
    (partnership) under best play, including points already earned.
    ``actions``: every action of the seat to move -> its value (same
    perspective); the legal cards by card index, or ``{PASS: value}`` when
    the seat to move holds no legal card; empty when the game is over.
    """

    value: int
    actions: Mapping[int, int]
    seat: int
    partnership: bool
    to_move: int
    nodes: int
    seconds: float

    @property
    def margin(self) -> int:
        """Partnership: team points minus opponents' points (2 * value - 500)."""
        return 2 * self.value - sum(PLACE_POINTS)

    @property
    def best_actions(self) -> tuple[int, ...]:
        """The actions achieving the value for the seat to move (ascending)."""
        return tuple(a for a, v in sorted(self.actions.items()) if v == self.value)


def _seat(x, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < 4:
        raise PositionError(f"{what} must be a seat 0..3, got {x!r}", what)
    return x


def _normalize(hands, rows, to_move, finished):
    """Validate a position; returns (masks, lo, hi, nout, earned-by-seat)."""
    if not isinstance(hands, (list, tuple)) or len(hands) != 4:
        raise PositionError("hands must be a list of 4 lists of card indices", "hands")
    masks = [0, 0, 0, 0]
    owner: dict[int, int] = {}
    for i, hand in enumerate(hands):
        if not isinstance(hand, (list, tuple, set, frozenset)):
            raise PositionError(f"hand {i} must be a list of card indices, got {hand!r}",
                                f"hands[{i}]")
        for c in hand:
            if isinstance(c, bool) or not isinstance(c, int) or c not in FRENCH:
                raise PositionError(f"{c!r} is not a card index of the 52-card deck",
                                    f"hands[{i}]")
            if c in owner:
                where = "twice in hand" if owner[c] == i else f"also in hand {owner[c]}"
                raise PositionError(f"duplicate card {FRENCH.to_string(c)} ({where})",
                                    f"hands[{i}]")
            owner[c] = i
            masks[i] |= 1 << c
    if not isinstance(rows, Mapping):
        raise PositionError("rows must be a dict suit -> (low, high)", "rows")
    lo = [0, 0, 0, 0]
    hi = [0, 0, 0, 0]
    for s, ends in rows.items():
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < 4:
            raise PositionError(f"row key {s!r} is not a suit 0..3", "rows")
        if (not isinstance(ends, (list, tuple)) or len(ends) != 2
                or not all(isinstance(e, int) and not isinstance(e, bool) for e in ends)):
            raise PositionError(f"row of suit {s} must be (low, high), got {ends!r}",
                                f"rows[{s}]")
        low, high = ends
        if not (2 <= low <= JACK <= high <= 14):
            raise PositionError(f"impossible row ({low}, {high}) for suit {s}: rows run "
                                f"from 2..11 up to 11..14 and always hold the jack",
                                f"rows[{s}]")
        lo[s], hi[s] = low, high
    for c in FRENCH.cards:
        s, r = c >> 4, c & 15
        on_layout = lo[s] != 0 and lo[s] <= r <= hi[s]
        if on_layout and c in owner:
            raise PositionError(f"{FRENCH.to_string(c)} is both on the layout and in "
                                f"hand {owner[c]}", f"hands[{owner[c]}]")
        if not on_layout and c not in owner:
            raise PositionError(f"{FRENCH.to_string(c)} is neither on the layout nor in a "
                                f"hand (all 52 cards are dealt)", f"rows[{s}]")
    to_move = _seat(to_move, "to_move")
    if not isinstance(finished, (list, tuple)):
        raise PositionError("finished must be a list of seats in finishing order", "finished")
    for i, f in enumerate(finished):
        _seat(f, f"finished[{i}]")
    if len(set(finished)) != len(finished):
        raise PositionError(f"a seat is listed twice in finished {list(finished)!r}",
                            "finished")
    empty = {i for i in range(4) if masks[i] == 0}
    for i, f in enumerate(finished):
        if masks[f]:
            raise PositionError(f"seat {f} is listed as out but holds cards",
                                f"finished[{i}]")
    missing = empty - set(finished)
    if missing and not (len(empty) == 4 and len(finished) == 3):
        raise PositionError(f"seat {min(missing)} holds no cards but is not listed in "
                            f"finished", "finished")
    nout = len(finished)
    earned = [0, 0, 0, 0]
    for place, f in enumerate(finished):
        earned[f] = PLACE_POINTS[place]
    if nout >= 3:                      # game over: the seat left is fourth
        for i in range(4):
            if i not in finished:
                earned[i] = PLACE_POINTS[3]
    elif masks[to_move] == 0:
        raise PositionError(f"seat {to_move} is out and cannot be the seat to move",
                            "to_move")
    return masks, lo, hi, nout, earned


def _tt_bytes(tt_mb) -> int:
    if isinstance(tt_mb, bool) or not isinstance(tt_mb, (int, float)) \
            or not math.isfinite(tt_mb) or not 1 <= tt_mb <= MAX_TT_MB:
        raise LimitError(f"tt_mb must be a number of MiB in 1..{MAX_TT_MB}, got {tt_mb!r}")
    return int(tt_mb * (1 << 20))


def solve_layout(hands, rows, to_move: int, finished=(), seat: int | None = None,
                 partnership: bool = False, tt_mb: float = 64) -> LayoutSolution:
    """Exact values of a layout position and of every action of the seat to move.

    ``hands``: 4 lists of card indices (suit * 16 + rank, ``solver.cards``);
    ``rows``: suit -> (low, high) ranks on the layout, a suit absent when its
    row is not started; every card not on the layout must be in a hand.
    ``finished``: seats already out, in finishing order.  ``seat``: whose
    points (or team's, with ``partnership``) are the value; default the seat
    to move.  ``tt_mb``: transposition-table size in MiB (allocated once per
    size and reused; never grows).
    """
    t0 = time.perf_counter()
    masks, lo, hi, nout, earned = _normalize(hands, rows, to_move, finished)
    seat = to_move if seat is None else _seat(seat, "seat")
    if not isinstance(partnership, bool):
        raise PositionError(f"partnership must be True or False, got {partnership!r}",
                            "partnership")
    nbytes = _tt_bytes(tt_mb)
    scoring = (seat, seat ^ 2) if partnership else (seat,)
    score_mask = sum(1 << s for s in scoring)
    already = sum(earned[s] for s in scoring)
    if nout >= 3:
        return LayoutSolution(already, MappingProxyType({}), seat, partnership, to_move,
                              0, time.perf_counter() - t0)
    with _lock:
        solver = _solvers.get(nbytes)
        if solver is None:
            _solvers.clear()           # keep one table alive at a time
            try:
                solver = LayoutSolver(nbytes)
            except MemoryError as exc:
                raise LimitError(f"cannot allocate a {tt_mb} MiB transposition "
                                 f"table") from exc
            _solvers[nbytes] = solver
        value, actions, nodes = solver.solve(masks, lo, hi, to_move, nout, score_mask)
    table = MappingProxyType({a: already + UNIT * v for a, v in actions})
    return LayoutSolution(already + UNIT * value, table, seat, partnership, to_move,
                          nodes, time.perf_counter() - t0)
