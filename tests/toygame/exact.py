"""toy's exact adapter: card play through the generic double-dummy kernel
(``solver.dd.trick``), with the game's rules as a ``Contract``: four seats
each its own team, no trumps, a point a trick.  The value is the most
tricks the seat can take against the three others (paranoid)."""

from __future__ import annotations

from types import MappingProxyType

from solver.dd import trick as dd
from solver.dd.adapters.common import check_seat
from solver.dd.adapters.registry import register
from solver.dd.solution import Solution, best_in_tie_order

from .game import ToyGame


def toy_contract() -> dd.Contract:
    """The rules as the kernel reads them: French cards, no trumps,
    follow suit, +1 a trick to its taker."""
    return dd.Contract("toy", 4, (0, 1, 2, 3), deck="french", trump=-1, trick_points=1)


def deal_position(state) -> dd.TrickPosition:
    """The card-play position of a toy state (the tricks already taken
    count)."""
    won = tuple(state.tricks_won)
    return dd.TrickPosition(toy_contract(), tuple(state.hands), state.leader,
                            tuple(state.trick), points=won, tricks=won)


@register(ToyGame)
def solve_toy_state(solver, state, seat, max_nodes=None, kind=None) -> Solution:
    if seat is None:
        seat = state.current_player()
    check_seat(seat, state.game.num_players)
    pos = deal_position(state)
    res = solver.solve_position(pos, max_team=seat, objective="own", max_nodes=max_nodes)
    values = {state.action_to_string(c): v for c, v in res.card_values.items()}
    best = best_in_tie_order(state, values, res.value)
    return Solution(res.value, MappingProxyType(values), res.nodes, res.time, seat,
                    "toy: the seat's tricks this deal (paranoid)", best, res.engine,
                    kind="paranoid")
