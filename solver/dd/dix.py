"""The specialised two-seat dix double-dummy solver (``csrc/dixdd.pyx``).

``solve_dix(pos, seat, tt_mb=64, max_nodes=None)`` takes a dix
:class:`solver.dd.TrickPosition` (``solver.dd.dix_position`` builds one from
a state) and returns a :class:`solver.dd.DDResult` with the same numbers as
``solver.dd.solve_position(pos, seat, "dix")`` (the generic kernel): the
lexicographic dix value (``solver.dd.decode_dix``) of EVERY legal card for
``seat``, what is already won included.  ``solver.api.solve`` uses it for
dix; ``DIXTRIX_DIX_SOLVER=generic`` routes dix to the generic kernel instead
(for comparison).

``max_nodes`` bounds the search: past it the solve stops and raises
:class:`solver.errors.SearchAborted` (nothing half-done is returned).
Input is validated here, once (STYLE 5); the kernel trusts it.
"""

from __future__ import annotations

import os
import threading
import time
from types import MappingProxyType

from ..cards import JOKER, cards_of
from .trick import (allocate, DDResult, DIX_SCALE, TrickPosition, check_max_nodes, check_tt_mb,
                    DEFAULT_TT_MB, probing_now)
from ..errors import PositionError, SearchAborted

_SOLVERS: dict = {}
#: one solver (one table) per process: solves are serialised, the search
#: itself runs without the GIL
_LOCK = threading.Lock()


def generic_requested() -> bool:
    """``DIXTRIX_DIX_SOLVER=generic``: dix through the generic kernel."""
    return os.environ.get("DIXTRIX_DIX_SOLVER", "") == "generic"


def solver_for(tt_mb=DEFAULT_TT_MB, probe: bool | None = None):
    """The (cached) dix solver with a table of at most ``tt_mb`` MiB: the
    shipped build, or the measuring one (``probe``; default: inside
    ``solver.dd.trick.probing()``)."""
    probe = probing_now() if probe is None else probe
    mb = check_tt_mb(tt_mb)
    kind = "probe" if probe else "shipped"
    held = _SOLVERS.get(kind)
    if held is None or held[0] != mb:
        _SOLVERS.pop(kind, None)        # keep one table alive per build, not one per size
        if probe:
            from . import _dixprobe  # type: ignore
            factory, nbytes = _dixprobe.ProbeDixSolver, _dixprobe.BUCKET_BYTES
        else:
            from . import _dixdd  # type: ignore
            factory, nbytes = _dixdd.DixSolver, _dixdd.BUCKET_BYTES
        _SOLVERS[kind] = (mb, allocate(factory, nbytes, mb))
    return _SOLVERS[kind][1]


def is_dix_position(pos) -> bool:
    """Whether ``pos`` is a dix card-play position this solver handles."""
    k = getattr(pos, "contract", None)
    return (isinstance(pos, TrickPosition) and k.name == "dix" and k.nseats == 2
            and k.deck == "dix" and k.ten_total == 10 and k.ten_points == -3
            and k.trick_points == 1 and not k.card_points and k.must_follow
            and not k.last_points and not k.most_tricks_bonus and not k.discard_cards)


def solve_dix(pos: TrickPosition, seat=None, tt_mb=DEFAULT_TT_MB, max_nodes=None,
              options: dict | None = None) -> DDResult:
    """The dix value (lexicographic, ``solver.dd.decode_dix``) of every
    legal card for ``seat`` (default: the seat to play).  ``options``
    (switches for measurements: ``relative_keys``, ``follow_tt``,
    ``driver``, ``exact_k``, ``trick_bounds``, ``keep_table``) leave the
    values unchanged; any but ``keep_table`` runs the measuring build
    (``solver.dd._dixprobe``, as inside ``solver.dd.trick.probing()``)."""
    if not is_dix_position(pos):
        raise PositionError("solve_dix expects a dix TrickPosition (solver.dd.dix_position)")
    if seat is None:
        seat = pos.seat_to_play
    if seat not in (0, 1) or isinstance(seat, bool):
        raise PositionError(f"seat must be 0 or 1, got {seat!r}")
    check_tt_mb(tt_mb)
    limit = check_max_nodes(max_nodes)
    k = pos.contract
    joker_slot = -1
    if k.joker_rank is not None:
        joker_slot = k.trump * 16 + k.joker_rank

    def slot(c: int) -> int:
        return joker_slot if c == JOKER else c

    def slots(mask: int) -> int:
        out = 0
        for c in cards_of(mask):
            out |= 1 << slot(c)
        return out

    mover = pos.seat_to_play
    lead = slot(pos.trick[0]) if pos.trick else -1
    with _LOCK:
        sol = solver_for(tt_mb, probe=True if set(options or ()) - {"keep_table"} else None)
        saved = {name: getattr(sol, name) for name in (options or {})}
        for name, value in (options or {}).items():
            setattr(sol, name, value)
        t0 = time.perf_counter()
        sol.load(slots(pos.hands[0]), slots(pos.hands[1]), k.trump, joker_slot, mover, lead)
        future = sol.solve_all(limit)
        elapsed = time.perf_counter() - t0
        nodes = sol.nodes
        for name, value in saved.items():
            setattr(sol, name, value)
    if future is None:
        raise SearchAborted(f"the dix solve stopped at its node limit (max_nodes="
                            f"{max_nodes}) before an answer", nodes)
    opp = 1 - seat
    offset = (DIX_SCALE * (pos.points[seat] - pos.points[opp])
              + 4 * (pos.tens[opp] - pos.tens[seat]))
    sign = 1 if mover == seat else -1
    card_of = {slot(c): c for c in cards_of(pos.hands[mover])}
    values = {card_of[s]: sign * v + offset for s, v in future.items()}
    values = dict(sorted(values.items()))
    maximizing = mover == seat
    best = max(values.values()) if maximizing else min(values.values())
    return DDResult(best, MappingProxyType(values), nodes, elapsed, "cython", maximizing)


__all__ = ["solve_dix", "is_dix_position", "generic_requested", "solver_for"]
