"""toy's rules player (it reads only its own hand, its bid and the trick
on the table).  It bids its aces and half its kings (a king with a card
of its suit beside it takes a trick about half the time), nil with
neither.  Then, while it wants tricks (it bid some and has not taken
them): lead the highest card of its longest suit; follow with the lowest
card that beats the trick when one does, else with its lowest card of
the suit.  Once it wants none (nil, or its bid taken): lead its lowest
card, follow with the highest card that does not beat the trick.  Void,
throw its highest card while it wants none, else its lowest."""

from __future__ import annotations

from solver.cards import cards_of, rank_of, suit_of
from solver.search.heuristics.policy import Policy

from .state import AUCTION, BID, MAX_BID

ACE, KING = 14, 13


def bid_of(hand: list[int]) -> int:
    """The bid for a hand (card ids): its aces and half its kings."""
    aces = sum(1 for c in hand if rank_of(c) == ACE)
    kings = sum(1 for c in hand if rank_of(c) == KING)
    return min(MAX_BID, aces + kings // 2)


def low(card: int) -> tuple[int, int]:
    """A card's place from the lowest up."""
    return rank_of(card), card


class ToyRules(Policy):
    name = "rules"

    def step(self, state) -> int:
        if state.phase == AUCTION:
            return BID + bid_of(cards_of(state.hands[self.seat]))
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        bid, took = state.bids[self.seat], state.tricks_won[self.seat]
        wants = bid > took
        trick = state.trick
        if not trick:
            if not wants:
                return min(legal, key=low)
            hand = cards_of(state.hands[self.seat])
            length = {s: sum(1 for c in hand if suit_of(c) == s) for s in range(4)}
            return max(legal, key=lambda c: (length[suit_of(c)], rank_of(c), -c))
        led = suit_of(trick[0])
        if suit_of(legal[0]) != led:
            return min(legal, key=low) if wants else max(legal, key=low)
        top = max(rank_of(c) for c in trick if suit_of(c) == led)
        if wants:
            winners = [c for c in legal if rank_of(c) > top]
            return min(winners or legal, key=low)
        losers = [c for c in legal if rank_of(c) < top]
        return max(losers, key=low) if losers else min(legal, key=low)
