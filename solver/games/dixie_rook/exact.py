"""dixie-rook card play (after the discards and the trump): the seat's
team's captured points at the end of the hand under team minimax -- count
taken so far, the nest's count to the last trick's taker, the +20 for most
tricks (a tie: 10 each, the expectation of the fair cut); the contract
derived from the hand's rulebook (solver/games/dixie_rook/rules.py)."""

from __future__ import annotations

from types import MappingProxyType

from ...dd import trick as dd
from ...dd.adapters.common import card_play_only, check_seat, named_brackets
from ...dd.adapters.registry import register
from ...dd.solution import Solution, best_in_tie_order
from ...errors import SearchAborted
from ...front import N_
from ...games.dixie_rook import PLAY, DixieRookGame
from ...games.dixie_rook.rules import hand_rules, state_rules
from ...said import phrase

#: what a hand's value measures (``Solution.objective_said``)
OBJECTIVE = phrase("objective.dixie_rook", N_("dixie-rook: the team's captured points "
                                              "(count, nest, most tricks)"))

# the errors raised here (solver/errors.py: a code and its parameters)
NOT_CARD_PLAY = phrase("rook_not_card_play", N_("the auction, the nest or the trump"))


def rook_contract(nseats: int, trump: int, nest_count: int) -> dd.Contract:
    """Dixie-rook card play: 4 or 6 seats in two teams by parity, ``trump``
    colour 0..3, the count (``card_count``: every 5 = 5, every 10 = 10,
    every 13 = 10) to its taker, the nest's count to the last trick's taker
    (+1 trick), most tricks +20 (a tie: 10 each, the cut's expectation)."""
    return dd.contract_of(hand_rules(nseats, trump, nest_count))


def deal_position(state) -> dd.TrickPosition:
    """The card-play position of a dixie-rook state in its play phase."""
    contract = dd.contract_of(state_rules(state))
    return dd.TrickPosition(contract, tuple(state.hands), state.leader, tuple(state.trick),
                            points=tuple(state.count), tricks=tuple(state.tricks_won))


@register(DixieRookGame)
def solve_rook_state(solver, state, seat, max_nodes=None, kind=None) -> Solution:
    if seat is None:
        seat = state.current_player()
    check_seat(seat, state.game.num_players)
    if state.phase != PLAY:
        raise card_play_only(state, NOT_CARD_PLAY())
    pos = deal_position(state)
    try:
        res = solver.solve_position(pos, max_team=pos.contract.teams[seat], objective="own",
                                    max_nodes=max_nodes)
    except SearchAborted as exc:
        raise named_brackets(exc, state.action_to_string) from None
    values = {state.action_to_string(c): v for c, v in res.card_values.items()}
    best = best_in_tie_order(state, values, res.value)
    return Solution(res.value, MappingProxyType(values), res.nodes, res.time, seat,
                    OBJECTIVE().english(), best, res.engine, objective_said=OBJECTIVE())
