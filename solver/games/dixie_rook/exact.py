"""dixie-rook card play (after the discards and the trump): the seat's
team's captured points at the end of the hand under team minimax -- count
taken so far, the nest's count to the last trick's taker, the +20 for most
tricks (a tie: 10 each, the expectation of the fair cut)."""

from __future__ import annotations

from types import MappingProxyType

from ...cards import ROOK
from ...dd import trick as dd
from ...dd.adapters.common import card_play_only, check_seat, named_brackets
from ...dd.adapters.registry import register
from ...dd.solution import Solution, best_in_tie_order
from ...errors import SearchAborted
from ...games.dixie_rook import PLAY, DixieRookGame, card_count


def rook_contract(nseats: int, trump: int, nest_count: int) -> dd.Contract:
    """Dixie-rook card play: 4 or 6 seats in two teams by parity, ``trump``
    colour 0..3, the count (``card_count``: every 5 = 5, every 10 = 10,
    every 13 = 10) to its taker, the nest's count to the last trick's taker
    (+1 trick), most tricks +20 (a tie: 10 each, the cut's expectation)."""
    teams = tuple(s % 2 for s in range(nseats))
    points = {c: card_count(c) for c in ROOK.cards if card_count(c)}
    return dd.Contract("dixie-rook", nseats, teams, deck="rook", trump=trump, card_points=points,
                       last_points=nest_count, last_extra_tricks=1, most_tricks_bonus=20)


def deal_position(state) -> dd.TrickPosition:
    """The card-play position of a dixie-rook state in its play phase."""
    n = state.game.num_players
    contract = rook_contract(n, state.trump, sum(card_count(c) for c in state.discards))
    return dd.TrickPosition(contract, tuple(state.hands), state.leader, tuple(state.trick),
                            points=tuple(state.count), tricks=tuple(state.tricks_won))


@register(DixieRookGame)
def solve_rook_state(solver, state, seat, max_nodes=None, kind=None) -> Solution:
    if seat is None:
        seat = state.current_player()
    check_seat(seat, state.game.num_players)
    if state.phase != PLAY:
        raise card_play_only(state, "the auction, the nest or the trump")
    pos = deal_position(state)
    try:
        res = solver.solve_position(pos, max_team=pos.contract.teams[seat], objective="own",
                                    max_nodes=max_nodes)
    except SearchAborted as exc:
        raise named_brackets(exc, state.action_to_string) from None
    values = {state.action_to_string(c): v for c, v in res.card_values.items()}
    best = best_in_tie_order(state, values, res.value)
    return Solution(res.value, MappingProxyType(values), res.nodes, res.time, seat,
                    "dixie-rook: the team's captured points (count, nest, most tricks)",
                    best, res.engine)
