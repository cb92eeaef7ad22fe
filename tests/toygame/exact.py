"""toy's exact adapter: card play through the generic double-dummy kernel
(``solver.dd.trick``), with the game's rules as a ``Contract``: four seats
each its own team, no trumps.  The value is the seat's points by its bid
against the three others (paranoid).  The points never fall with a trick
more (a bid of 1 or more) or a trick fewer (nil): the kernel finds the
seat's most tricks (nil: its fewest, at -1 a trick), and the points of
that count are the points' minimax.  The auction is no card play: a bid
has no exact value (``best_move`` searches it)."""

from __future__ import annotations

from types import MappingProxyType

from solver.dd import trick as dd
from solver.dd.adapters.common import card_play_only, check_seat, named_brackets
from solver.dd.adapters.registry import register
from solver.dd.solution import Solution, best_in_tie_order
from solver.errors import SearchAborted
from solver.front import N_
from solver.said import Word

from .game import ToyGame
from .state import AUCTION, score

#: what solve() refuses before the cards, in the game's own words (tests/toygame/locale/)
NOT_CARD_PLAY = Word(N_("the auction"))


def toy_contract(nil: bool = False) -> dd.Contract:
    """The rules as the kernel reads them: French cards, no trumps,
    follow suit, +1 a trick to its taker (a nil bidder's: -1)."""
    return dd.Contract("toy", 4, (0, 1, 2, 3), deck="french", trump=-1,
                       trick_points=-1 if nil else 1)


def deal_position(state, seat: int) -> dd.TrickPosition:
    """The card-play position of a toy state for ``seat`` (the tricks
    already taken count)."""
    nil = state.bids[seat] == 0
    won = tuple(state.tricks_won)
    return dd.TrickPosition(toy_contract(nil), tuple(state.hands), state.leader,
                            tuple(state.trick), points=tuple(-t if nil else t for t in won),
                            tricks=won)


@register(ToyGame)
def solve_toy_state(solver, state, seat, max_nodes=None, kind=None) -> Solution:
    if seat is None:
        seat = state.current_player()
    check_seat(seat, state.game.num_players)
    if state.phase == AUCTION:
        raise card_play_only(state, NOT_CARD_PLAY)
    bid = state.bids[seat]

    def points(v: int) -> int:
        return score(bid, -v if bid == 0 else v)

    pos = deal_position(state, seat)
    try:
        res = solver.solve_position(pos, max_team=seat, objective="own", max_nodes=max_nodes)
    except SearchAborted as exc:
        if exc.brackets is not None:
            exc.brackets = {c: (points(lo), points(hi)) for c, (lo, hi) in exc.brackets.items()}
        if exc.span is not None:
            exc.span = (points(exc.span[0]), points(exc.span[1]))
        raise named_brackets(exc, state.action_to_string) from None
    values = {state.action_to_string(c): points(v) for c, v in res.card_values.items()}
    value = points(res.value)
    best = best_in_tie_order(state, values, value)
    return Solution(value, MappingProxyType(values), res.nodes, res.time, seat,
                    "toy: the seat's points by its bid this deal (paranoid)", best, res.engine,
                    kind="paranoid")
