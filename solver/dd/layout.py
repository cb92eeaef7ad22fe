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
from ..errors import NAMED_SEAT, LimitError, PositionError
from ..front import N_
from ..said import Quote, phrase
from .trick import TT_ALLOCATE

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

# the errors raised here (solver/errors.py: a code and its parameters)
LAYOUT_HANDS = phrase("layout_hands", N_("hands must be a list of 4 lists of card indices"))
LAYOUT_HAND = phrase("layout_hand", N_("hand {seat} must be a list of card indices, got {got}"))
LAYOUT_INDEX = phrase("layout_index", N_("{got} is not a card index of the 52-card deck"))
LAYOUT_TWICE = phrase("layout_twice", N_("duplicate card {card} (twice in hand)"))
LAYOUT_ALSO = phrase("layout_also", N_("duplicate card {card} (also in hand {seat})"))
LAYOUT_ROWS = phrase("layout_rows", N_("rows must be a dict suit -> (low, high)"))
LAYOUT_ROW_KEY = phrase("layout_row_key", N_("row key {got} is not a suit 0..3"))
LAYOUT_ROW = phrase("layout_row", N_("row of suit {suit} must be (low, high), got {got}"))
LAYOUT_ROW_ENDS = phrase("layout_row_ends", N_("impossible row ({low}, {high}) for suit {suit}: "
                                               "rows run from 2..11 up to 11..14 and always "
                                               "hold the jack"))
LAYOUT_BOTH = phrase("layout_both", N_("{card} is both on the layout and in hand {seat}"))
LAYOUT_NEITHER = phrase("layout_neither", N_("{card} is neither on the layout nor in a hand "
                                             "(all 52 cards are dealt)"))
LAYOUT_FINISHED = phrase("layout_finished",
                         N_("finished must be a list of seats in finishing order"))
LAYOUT_FINISHED_TWICE = phrase("layout_finished_twice",
                               N_("a seat is listed twice in finished {seats}"))
LAYOUT_OUT_HOLDS = phrase("layout_out_holds", N_("seat {seat} is listed as out but holds cards"))
LAYOUT_NOT_FINISHED = phrase("layout_not_finished",
                             N_("seat {seat} holds no cards but is not listed in finished"))
LAYOUT_OUT_TO_MOVE = phrase("layout_out_to_move",
                            N_("seat {seat} is out and cannot be the seat to move"))
LAYOUT_PARTNERSHIP = phrase("layout_partnership",
                            N_("partnership must be True or False, got {got}"))
LAYOUT_TT_MB = phrase("layout_tt_mb", N_("tt_mb must be a number of MiB in 1..{top}, got {got}"))

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
        raise PositionError(NAMED_SEAT(name=what, top=3, got=Quote(x)), what)
    return x


def _normalize(hands, rows, to_move, finished):
    """Validate a position; returns (masks, lo, hi, nout, earned-by-seat)."""
    if not isinstance(hands, (list, tuple)) or len(hands) != 4:
        raise PositionError(LAYOUT_HANDS(), "hands")
    masks = [0, 0, 0, 0]
    owner: dict[int, int] = {}
    for i, hand in enumerate(hands):
        if not isinstance(hand, (list, tuple, set, frozenset)):
            raise PositionError(LAYOUT_HAND(seat=i, got=Quote(hand)), f"hands[{i}]")
        for c in hand:
            if isinstance(c, bool) or not isinstance(c, int) or c not in FRENCH:
                raise PositionError(LAYOUT_INDEX(got=Quote(c)), f"hands[{i}]")
            if c in owner:
                card = FRENCH.to_string(c)
                raise PositionError(LAYOUT_TWICE(card=card) if owner[c] == i
                                    else LAYOUT_ALSO(card=card, seat=owner[c]), f"hands[{i}]")
            owner[c] = i
            masks[i] |= 1 << c
    if not isinstance(rows, Mapping):
        raise PositionError(LAYOUT_ROWS(), "rows")
    lo = [0, 0, 0, 0]
    hi = [0, 0, 0, 0]
    for s, ends in rows.items():
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < 4:
            raise PositionError(LAYOUT_ROW_KEY(got=Quote(s)), "rows")
        if (not isinstance(ends, (list, tuple)) or len(ends) != 2
                or not all(isinstance(e, int) and not isinstance(e, bool) for e in ends)):
            raise PositionError(LAYOUT_ROW(suit=s, got=Quote(ends)), f"rows[{s}]")
        low, high = ends
        if not (2 <= low <= JACK <= high <= 14):
            raise PositionError(LAYOUT_ROW_ENDS(low=low, high=high, suit=s), f"rows[{s}]")
        lo[s], hi[s] = low, high
    for c in FRENCH.cards:
        s, r = c >> 4, c & 15
        on_layout = lo[s] != 0 and lo[s] <= r <= hi[s]
        if on_layout and c in owner:
            raise PositionError(LAYOUT_BOTH(card=FRENCH.to_string(c), seat=owner[c]),
                                f"hands[{owner[c]}]")
        if not on_layout and c not in owner:
            raise PositionError(LAYOUT_NEITHER(card=FRENCH.to_string(c)), f"rows[{s}]")
    to_move = _seat(to_move, "to_move")
    if not isinstance(finished, (list, tuple)):
        raise PositionError(LAYOUT_FINISHED(), "finished")
    for i, f in enumerate(finished):
        _seat(f, f"finished[{i}]")
    if len(set(finished)) != len(finished):
        raise PositionError(LAYOUT_FINISHED_TWICE(seats=list(finished)), "finished")
    empty = {i for i in range(4) if masks[i] == 0}
    for i, f in enumerate(finished):
        if masks[f]:
            raise PositionError(LAYOUT_OUT_HOLDS(seat=f), f"finished[{i}]")
    missing = empty - set(finished)
    if missing and not (len(empty) == 4 and len(finished) == 3):
        raise PositionError(LAYOUT_NOT_FINISHED(seat=min(missing)), "finished")
    nout = len(finished)
    earned = [0, 0, 0, 0]
    for place, f in enumerate(finished):
        earned[f] = PLACE_POINTS[place]
    if nout >= 3:                      # game over: the seat left is fourth
        for i in range(4):
            if i not in finished:
                earned[i] = PLACE_POINTS[3]
    elif masks[to_move] == 0:
        raise PositionError(LAYOUT_OUT_TO_MOVE(seat=to_move), "to_move")
    return masks, lo, hi, nout, earned


def _tt_bytes(tt_mb) -> int:
    if isinstance(tt_mb, bool) or not isinstance(tt_mb, (int, float)) \
            or not math.isfinite(tt_mb) or not 1 <= tt_mb <= MAX_TT_MB:
        raise LimitError(LAYOUT_TT_MB(top=MAX_TT_MB, got=Quote(tt_mb)))
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
        raise PositionError(LAYOUT_PARTNERSHIP(got=Quote(partnership)), "partnership")
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
                raise LimitError(TT_ALLOCATE(mb=tt_mb)) from exc
            _solvers[nbytes] = solver
        value, actions, nodes = solver.solve(masks, lo, hi, to_move, nout, score_mask)
    table = MappingProxyType({a: already + UNIT * v for a, v in actions})
    return LayoutSolution(already + UNIT * value, table, seat, partnership, to_move,
                          nodes, time.perf_counter() - t0)
