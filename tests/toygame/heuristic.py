"""toy's rules player (it reads only its own hand and the trick on the
table): lead the highest card of its longest suit; follow with the lowest
card that beats the trick when one does, else with its lowest card of the
suit; void, throw its lowest card."""

from __future__ import annotations

from solver.cards import cards_of, rank_of, suit_of
from solver.search.heuristics.policy import Policy


class ToyRules(Policy):
    name = "rules"

    def step(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        trick = state.trick
        if not trick:
            hand = cards_of(state.hands[self.seat])
            length = {s: sum(1 for c in hand if suit_of(c) == s) for s in range(4)}
            return max(legal, key=lambda c: (length[suit_of(c)], rank_of(c), -c))
        led = suit_of(trick[0])
        if suit_of(legal[0]) != led:
            return min(legal, key=lambda c: (rank_of(c), c))
        top = max(rank_of(c) for c in trick if suit_of(c) == led)
        winners = [c for c in legal if rank_of(c) > top]
        return min(winners or legal, key=lambda c: (rank_of(c), c))
