"""The specialised two-seat solver of the lexicographic dix objective
(``csrc/dd/dixdd.pyx``): a kernel for a kind of contract, which
``solver.dd.solve`` picks by the position's rules (``is_dix_position``), as
it picks the generic kernel for the others.

``solve_dix(pos, seat, tt_mb=64, max_nodes=None)`` takes a dix
:class:`solver.dd.TrickPosition` (the dix adapter, solver/games/dix/exact.py,
builds one from a state) and returns a :class:`solver.dd.DDResult` with the same numbers as
``solver.dd.solve_position(pos, seat, "dix")`` (the generic kernel): the
lexicographic dix value (``solver.dd.decode_dix``) of EVERY legal card for
``seat``, what is already won included.  ``solver.dd.solve`` uses it for
dix; ``DIXTRIX_DIX_SOLVER=generic`` routes dix to the generic kernel instead
(for comparison).

``max_nodes`` bounds the search: past it the solve stops and raises
:class:`solver.errors.SearchAborted` (nothing half-done is returned).
Input is validated here, once; the kernel trusts it, so the search pays
for no check and a check has one place to be right.
"""

from __future__ import annotations

import os
from types import MappingProxyType
from typing import TYPE_CHECKING

from ..cards import DIX
from ..errors import PositionError, SearchAborted
from ..front import N_
from ..said import phrase
from . import defaults
from .trick import (
    DECKS,
    DEFAULT_TT_MB,
    DIX_OBJECTIVE,
    DIX_SCALE,
    DDResult,
    TrickPosition,
    allocate,
    check_tt_mb,
    decode_dix,
    probing_now,
    pure_python,
    value_range,
)

if TYPE_CHECKING:
    from . import _dixdd

# the errors raised here (solver/errors.py: a code and its parameters)
NOT_DIX_POSITION = phrase("not_dix_position", N_("solve_dix expects a dix TrickPosition "
                                                 "(solver/games/dix/exact.py dix_position)"))

#: the process's dix solvers (one table each), by build: (MiB, solver)
_SOLVERS: dict = {}


def generic_requested() -> bool:
    """``DIXTRIX_DIX_SOLVER=generic``: dix through the generic kernel."""
    return os.environ.get("DIXTRIX_DIX_SOLVER", "") == "generic"


def solver_for(tt_mb=DEFAULT_TT_MB, probe: bool | None = None):
    """The (cached) dix solver with a table of at most ``tt_mb`` MiB: the
    shipped build, or the measuring one (``probe``; default: inside
    ``solver.dd.trick.probing()``)."""
    probe = probing_now() if probe is None else probe
    kind = "probe" if probe else "shipped"
    held = _SOLVERS.get(kind)
    if held is not None and type(tt_mb) is int and held[0] == tt_mb:
        return held[1]          # the table is there: no memory to ask for (trick.kernel_for)
    mb = check_tt_mb(tt_mb)
    if held is None or held[0] != mb:
        _SOLVERS.pop(kind, None)        # keep one table alive per build, not one per size
        factory: type[_dixdd.DixSolver]
        if probe:
            # each build is loaded when first asked for: a checkout without the
            # build (DIXTRIX_PUREPYTHON) imports this module too
            from . import _dixprobe
            factory, nbytes = _dixprobe.ProbeDixSolver, _dixprobe.BUCKET_BYTES
        else:
            # the kernel's build, loaded when first asked for (as above)
            from . import _dixdd
            factory, nbytes = _dixdd.DixSolver, _dixdd.BUCKET_BYTES
        _SOLVERS[kind] = (mb, allocate(factory, nbytes, mb))
    return _SOLVERS[kind][1]


def is_dix_position(pos) -> bool:
    """Whether ``pos`` is a dix card-play position this solver handles:
    two seats scored by the lexicographic dix objective, the dix deck, its
    ten rule and nothing else."""
    if not isinstance(pos, TrickPosition):
        return False
    k = pos.contract
    return (k.objective == DIX_OBJECTIVE and k.nseats == 2
            and DECKS[k.deck] is DIX and k.ten_total == 10 and k.ten_points == -3
            and k.trick_points == 1 and not k.card_points and k.must_follow
            and not k.last_points and not k.most_tricks_bonus and not k.discard_cards)


def solve_dix(pos: TrickPosition, seat=None, tt_mb=DEFAULT_TT_MB, max_nodes=None,
              options: dict | None = None) -> DDResult:
    """The dix value (lexicographic, ``solver.dd.decode_dix``) of every
    legal card for ``seat`` (default: the seat to play).  ``options``
    (switches for measurements: ``relative_keys``, ``follow_tt``,
    ``driver``, ``exact_k``, ``trick_bounds``, ``keep_table``) leave the
    values unchanged; any but ``keep_table`` runs the measuring build
    (``solver.dd._dixprobe``, as inside ``solver.dd.trick.probing()``).
    Runs on the default session (``solver.dd.session``)."""
    if not is_dix_position(pos):
        raise PositionError(NOT_DIX_POSITION())
    check_tt_mb(tt_mb)
    return defaults.default_solver(tt_mb).solve_dix(pos, seat, max_nodes, options)


def dix_span(pos: TrickPosition, seat: int) -> tuple[int, int]:
    """The round's own range of ``seat``'s score difference from ``pos``
    (what is already won included)."""
    lo, hi = value_range(pos, seat, DIX_OBJECTIVE)
    return decode_dix(lo)[0], decode_dix(hi)[0]


def difference_brackets(exc: SearchAborted, pos: TrickPosition, seat: int) -> SearchAborted:
    """``exc`` (a dix solve that stopped, its brackets lexicographic
    values) with its brackets and span as score differences, the unit of a
    dix state's answer (the same exception, to raise again): the
    tie-break part of a bracket tells a player nothing more.

    A value is ``DIX_SCALE * difference + past + future``, ``past`` the
    ten-tricks already taken (``4 * (the other's - the seat's)``) and
    ``future`` the rest's tie-break part, at most ``4 * tricks left + 1``
    either way; so a value in [lo, hi] has a difference in
    [ceil((lo - past - most) / DIX_SCALE), floor((hi - past + most) / DIX_SCALE)]:
    a question the solver settled at a border between differences (its
    own future's) gives one difference, as it would finished."""
    if exc.brackets is not None:
        past = 4 * (pos.tens[1 - seat] - pos.tens[seat])
        most = 4 * pos.tricks_left + 1
        exc.brackets = MappingProxyType({
            c: (-((past + most - lo) // DIX_SCALE), (hi - past + most) // DIX_SCALE)
            for c, (lo, hi) in exc.brackets.items()})
        exc.span = dix_span(pos, seat)
        exc.brackets = MappingProxyType({c: (max(lo, exc.span[0]), min(hi, exc.span[1]))
                                         for c, (lo, hi) in exc.brackets.items()})
    return exc


def dix_engine(solver, pos: TrickPosition, seat, max_nodes, tie_break: bool = True) -> DDResult:
    """A dix position's card values (lexicographic) for ``seat`` on a
    ``solver.dd.Solver`` session: this solver, or the generic kernel when
    asked (``DIXTRIX_DIX_SOLVER=generic``) and under the pure-Python build.
    ``tie_break`` False: this solver settles each card's round result only
    (``Solver.solve_dix``; the others settle the whole value anyway)."""
    if pure_python() or generic_requested():
        result: DDResult = solver.solve_position(pos, seat, DIX_OBJECTIVE, max_nodes)
        return result
    result = solver.solve_dix(pos, seat, max_nodes, tie_break=tie_break)
    return result


__all__ = ["solve_dix", "is_dix_position", "generic_requested", "solver_for", "dix_engine",
           "dix_span", "difference_brackets"]
