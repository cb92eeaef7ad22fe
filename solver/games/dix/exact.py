"""dix: card play from trick 14 (the stock empty) in the standard variant,
any time in ``seventeen``; solved by the two-seat solver of the
lexicographic objective (``solver.dd.dix``), or by the generic kernel under
``DIXTRIX_DIX_SOLVER=generic`` (for comparison) and the pure-Python oracle
under ``DIXTRIX_PUREPYTHON=1``.  The double-dummy contract is derived from
the game's rulebook (``solver/games/dix/rules.py``): ``dix_contract``,
``dix_position``."""

from __future__ import annotations

from types import MappingProxyType

from ...dd import trick as dd
from ...dd.adapters.common import check_seat, named_brackets
from ...dd.adapters.registry import register
from ...dd.dix import difference_brackets, dix_engine
from ...dd.solution import Solution
from ...errors import SearchAborted, UnsupportedPositionError
from ...front import N_
from ...games.dix import DixGame
from ...games.dix.rules import round_rules, state_rules
from ...said import phrase

#: what a round's value measures (``Solution.objective_said``)
OBJECTIVE = phrase("objective.dix", N_("dix round score difference"))

# the errors raised here (solver/errors.py: a code and its parameters)
DIX_OVER = phrase("dix_over", N_("the dix match is over: nothing to solve"))
DIX_STOCK = phrase("dix_stock", N_(
    "dix: the stock still holds {n} cards (trick {trick}); the double-dummy solver starts at "
    "trick 14, when the stock is empty and both hands are known (or use variant 'seventeen')"))


def dix_contract(trump: int, joker_rank: int | None) -> dd.Contract:
    """Dix: two seats, trumps (-1 none), the joker as a trump of
    ``joker_rank`` (None: the joker is turned up, not in play); +1 a trick,
    -3 a ten-trick; the lexicographic objective (``solver.dd.decode_dix``)."""
    return dd.contract_of(round_rules(trump, joker_rank))


def dix_position(state) -> dd.TrickPosition:
    """The card-play position of a dix state whose hands are both known:
    from trick 14 on (stock empty) in the standard variant, any time in
    ``seventeen``.  While the stock lasts the draws make it a game of chance
    (UnsupportedPositionError, see docs/solver.md)."""
    if state.is_terminal():
        raise UnsupportedPositionError(DIX_OVER())
    if state.stock_pos < len(state.stock):
        raise UnsupportedPositionError(DIX_STOCK(n=len(state.stock) - state.stock_pos,
                                                 trick=state.tricks_done + 1))
    contract = dd.contract_of(state_rules(state))
    return dd.TrickPosition(contract, tuple(state.hands), state.leader, tuple(state.trick),
                            points=tuple(state.round_scores()), tricks=tuple(state.tricks_won),
                            tens=tuple(state.tens))


def dix_solution(res: dd.DDResult, seat: int, names: dict, tie_key=None,
                 tie_break: bool = True) -> Solution:
    """A dix answer: the score difference with the round's winner per
    action, the raw lexicographic values kept (``tie_break`` False: the
    solve settled the round results only, so there are none to keep).
    ``best_actions``: every
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
                    seat, OBJECTIVE().english(), best, res.engine,
                    seat if res.value > 0 else 1 - seat, MappingProxyType(winners),
                    res.value if tie_break else None,
                    MappingProxyType(raw) if tie_break else None,
                    objective_said=OBJECTIVE())


@register(DixGame)
def solve_dix_state(solver, state, seat, max_nodes=None, kind=None, tie_break=False) -> Solution:
    if seat is None:
        seat = state.current_player()
    check_seat(seat, 2)
    pos = dix_position(state)
    try:
        res = dix_engine(solver, pos, seat, max_nodes, tie_break)
    except SearchAborted as exc:
        raise named_brackets(difference_brackets(exc, pos, seat), state.action_to_string) from None
    return dix_solution(res, seat, {c: state.action_to_string(c) for c in res.card_values},
                        state.tie_key, tie_break)
