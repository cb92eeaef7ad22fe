"""dix: card play from trick 14 (the stock empty) in the standard variant,
any time in ``seventeen``; solved by the two-seat dix solver
(``solver.dd.dix``), or by the generic kernel under
``DIXTRIX_DIX_SOLVER=generic`` (for comparison) and the pure-Python oracle
under ``DIXTRIX_PUREPYTHON=1``."""

from __future__ import annotations

from types import MappingProxyType

from ...dd import trick as dd
from ...dd.adapters.common import check_seat
from ...dd.adapters.registry import register
from ...dd.dix import generic_requested
from ...dd.solution import Solution
from ...games.dix import DixGame


def dix_engine(solver, pos: dd.TrickPosition, seat, max_nodes) -> dd.DDResult:
    """A dix position's card values (lexicographic) for ``seat``."""
    if dd.pure_python() or generic_requested():
        return solver.solve_position(pos, seat, dd.DIX_OBJECTIVE, max_nodes)
    return solver.solve_dix(pos, seat, max_nodes)


def dix_solution(res: dd.DDResult, seat: int, names: dict, tie_key=None) -> Solution:
    """A dix answer: the score difference with the round's winner per
    action, the raw lexicographic values kept.  ``best_actions``: every
    card of the best round result (the score difference, and the round's
    winner, which the tie-breaks decide only when the scores tie: the
    ten-tricks and the last trick of an untied round are no part of its
    value), ordered by the game's rule among equal actions (``tie_key``:
    the card id's ``State.tie_key``; default the game's order)."""
    raw = {names[c]: v for c, v in res.card_values.items()}
    decoded = {a: dd.decode_dix(v) for a, v in raw.items()}
    values = {a: d[0] for a, d in decoded.items()}
    winners = {a: seat if raw[a] > 0 else 1 - seat for a in raw}
    result = {a: (values[a], winners[a] == seat) for a in raw}
    top = max(result.values())
    ids = {a: c for c, a in names.items()}
    best = tuple(sorted((a for a in raw if result[a] == top),
                        key=lambda a: tie_key(ids[a]) if tie_key else (ids[a],)))
    return Solution(dd.decode_dix(res.value)[0], MappingProxyType(values), res.nodes, res.time,
                    seat, "dix round score difference", best, res.engine,
                    seat if res.value > 0 else 1 - seat, MappingProxyType(winners), res.value,
                    MappingProxyType(raw))


@register(DixGame)
def solve_dix_state(solver, state, seat, max_nodes=None, kind=None) -> Solution:
    if seat is None:
        seat = state.current_player()
    check_seat(seat, 2)
    pos = dd.dix_position(state)
    res = dix_engine(solver, pos, seat, max_nodes)
    return dix_solution(res, seat, {c: state.action_to_string(c) for c in res.card_values},
                        state.tie_key)
