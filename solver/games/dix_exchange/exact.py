"""dix-exchange: every card known, full alpha-beta over the round
(``solver.dd.exact``): the tokens the seat can guarantee to keep this round
against every other seat (paranoid; ``kind="maxn"`` has no solver here
and gives it too, ``Solution.kind`` says so)."""

from __future__ import annotations

from types import MappingProxyType

from ...dd.adapters.common import check_seat
from ...dd.adapters.registry import register
from ...dd.exact import solve_protocol
from ...dd.solution import KIND_WORDS, Solution, best_in_tie_order
from ...errors import SearchAborted
from ...front import N_
from ...games.dix_exchange import DixExchangeGame
from ...said import Word, phrase

#: what a round's value measures (``Solution.objective_said``)
OBJECTIVE = phrase("objective.dix_exchange", N_("dix-exchange: tokens won (-lost) this round "
                                                "({kind})"))


@register(DixExchangeGame)
def solve_exchange_state(solver, state, seat, max_nodes=None, kind=None) -> Solution:
    if seat is None:
        seat = state.current_player()
    check_seat(seat, state.game.num_players)
    try:
        res = solve_protocol(state, seat, max_nodes=max_nodes or 5_000_000)
    except OverflowError as exc:
        raise SearchAborted(str(exc), max_nodes or 5_000_000) from exc
    values = {state.action_to_string(a): int(v) for a, v in res.action_values.items()}
    best = best_in_tie_order(state, values, res.value)
    said = OBJECTIVE(kind=Word(KIND_WORDS["paranoid"]))
    return Solution(int(res.value), MappingProxyType(values), res.nodes, res.seconds, seat,
                    said.english(), best, "python", kind="paranoid", objective_said=said)
