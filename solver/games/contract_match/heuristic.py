"""The trix / tricks heuristic player.  It reads only its own hand and the
public facts of the deal (contract, cards on the table, the layout).

Contract choice (owner / dealer): each contract still available gets an
estimated result for the chooser's hand, and the best is called.
  * tricks it will probably take: A 0.9, K 0.65, Q 0.4, J 0.2, less in a
    long suit (length >= 5: its low cards are lost late, its top cards
    still win); Ltoosh costs 15 a trick;
  * King of Hearts: holding KH with three hearts or fewer is the danger
    (-75 x 0.6); with more, or AH alone above it, less (0.3); not holding it
    0.15 (it may still be discarded on the chooser's trick);
  * Queens: each queen held unprotected (two or fewer of its suit) 0.6 of
    25, protected 0.3; plus 0.1 per expected trick;
  * Diamonds: 10 per diamond above 9 held, plus 3 per expected trick;
  * the layout (Trix / Jacks): +125 on average, +15 a jack and a high
    card next to it, -25 a two, -10 a three or four ("try not to call
    Jacks if you have a 2").
Doubling (trix): reveal KH with five hearts or more; reveal a queen with
five or more cards of its suit; else "reveal done".
Redeal (tricks): always order a redeal with a bad hand.
Trick play, avoiding penalties:
  * following: the highest card that still loses the trick; if every card
    wins, the lowest -- except when last to play, then the highest (the
    trick is ours anyway); a penalty card is played whenever it loses;
  * void: discard the penalty card first (KH, a queen, the highest
    diamond), else the highest card of the shortest suit;
  * leading: the lowest card of the suit with the most low cards, never a
    penalty card if another lead exists.
Layout: play the card that helps our own hand most and others least: a card
scores +1 for each own card it brings nearer (same suit, beyond it in its
direction) and -0.4 for each unseen card it brings nearer; a jack is held
unless we have low cards of its suit.
"""

from __future__ import annotations

from ...cards import ACE, HEARTS, JACK, KING, QUEEN, TWO, make_card, rank_of, suit_of
from ...cardset import cards_of
from ...search.heuristics.policy import Policy
from .state import (
    CHOOSE,
    CLAIM,
    CONTRACT_BASE,
    DECLARE,
    LAYOUT_PLAY,
    NO_REDEAL,
    PASS,
    REDEAL,
    REVEAL_BASE,
    REVEAL_DONE,
    TRICKS,
)
from .trick_play import DIAMONDS_CONTRACT, KH, KING_OF_HEARTS, LTOOSH, PENALTY_RULES, QUEENS

_TRICK_CHANCE = {ACE: 0.9, KING: 0.65, QUEEN: 0.4, JACK: 0.2}


def _suit_cards(hand: list, s: int) -> list:
    return [c for c in hand if suit_of(c) == s]


def expected_tricks(hand: list) -> float:
    total = 0.0
    for s in range(4):
        cards = _suit_cards(hand, s)
        long_suit = len(cards) >= 5
        for c in cards:
            p = _TRICK_CHANCE.get(rank_of(c), 0.0)
            if long_suit and rank_of(c) < JACK:
                p += 0.1
            total += p
    return total


def contract_estimate(contract: int, hand: list) -> float:
    """Estimated result (points, higher is better) of calling ``contract``."""
    t = expected_tricks(hand)
    if contract == LTOOSH:
        return -15 * t
    if contract == KING_OF_HEARTS:
        hearts = _suit_cards(hand, HEARTS)
        if KH in hand:
            p = 0.6 if len(hearts) <= 3 and make_card(HEARTS, ACE) not in hand else 0.3
        else:
            p = 0.15
        return -75 * p
    if contract == QUEENS:
        cost = 0.0
        for s in range(4):
            if make_card(s, QUEEN) in hand:
                cost += 25 * (0.6 if len(_suit_cards(hand, s)) <= 2 else 0.3)
        return -cost - 2.5 * t
    if contract == DIAMONDS_CONTRACT:
        high = sum(1 for c in hand if suit_of(c) == 1 and rank_of(c) > 9)
        return -10 * high - 3 * t
    # the layout
    value = 125.0
    for c in hand:
        r = rank_of(c)
        if r == JACK:
            value += 15
        elif r in (QUEEN, 10) and make_card(suit_of(c), JACK) in hand:
            value += 15
        elif r == TWO:
            value -= 25
        elif r in (3, 4):
            value -= 10
    return value


class ContractRules(Policy):
    name = "rules"

    def step(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        phase = state.phase
        if phase == CHOOSE:
            return self._choose(state, legal)
        if phase == DECLARE:
            return self._declare(state, legal)
        if phase == CLAIM:
            return REDEAL if REDEAL in legal else NO_REDEAL
        if phase == TRICKS:
            return self._trick_card(state, legal)
        if phase == LAYOUT_PLAY:
            return self._layout_card(state, legal)
        return legal[0]

    def _own_hand(self, state) -> list:
        play = state.log.play
        if play is not None:
            return cards_of(play.hands[self.seat])
        return list(state.log.hands[self.seat])

    def _choose(self, state, legal):
        hand = self._own_hand(state)
        return max(legal, key=lambda a: (contract_estimate(a - CONTRACT_BASE, hand), -a))

    def _declare(self, state, legal):
        hand = self._own_hand(state)
        for a in legal:
            if a == REVEAL_DONE:
                continue
            card = a - REVEAL_BASE
            if len(_suit_cards(hand, suit_of(card))) >= 5:
                return a
        return REVEAL_DONE

    def _trick_card(self, state, legal):
        play = state.log.play
        rule = PENALTY_RULES[state.log.contract]
        trick = play.trick
        hand = self._own_hand(state)

        def danger(c):
            """How much we would like to be rid of ``c``."""
            if rule.mask >> c & 1:
                return 100 + rank_of(c)
            return rank_of(c)

        if not trick:                                   # leading
            safe = [c for c in legal if not (rule.mask >> c & 1)] or legal
            low_count = {s: sum(1 for c in hand if suit_of(c) == s and rank_of(c) <= 7)
                         for s in range(4)}
            return min(safe, key=lambda c: (rank_of(c), -low_count[suit_of(c)], c))
        led = suit_of(trick[0])
        if suit_of(legal[0]) != led:                    # void: discard
            lengths = {s: sum(1 for c in hand if suit_of(c) == s) for s in range(4)}
            return max(legal, key=lambda c: (danger(c), -lengths[suit_of(c)], c))
        top = max(rank_of(c) for c in trick if suit_of(c) == led)
        losers = [c for c in legal if rank_of(c) < top]
        if losers:
            return max(losers, key=lambda c: (danger(c), c))
        if len(trick) == 3:                             # the trick is ours: spend the top
            return max(legal, key=lambda c: (not (rule.mask >> c & 1), rank_of(c)))
        return min(legal, key=lambda c: (rule.mask >> c & 1, rank_of(c)))

    def _layout_card(self, state, legal):
        if legal == [PASS]:
            return PASS
        play = state.log.play
        hand = self._own_hand(state)
        layout = play.layout

        def score(c):
            s, r = suit_of(c), rank_of(c)
            own = [rank_of(x) for x in hand if suit_of(x) == s and x != c]
            if r == JACK:
                low = sum(1 for x in own if x < JACK)
                high = sum(1 for x in own if x > JACK)
                return (low + high) - 0.4 * (12 - low - high) - (0 if low else 3)
            up = r > JACK if layout.lo[s] else True
            beyond_own = sum(1 for x in own if (x > r if up else x < r))
            beyond_all = (ACE - r) if up else (r - TWO)
            return beyond_own - 0.4 * (beyond_all - beyond_own)

        return max(legal, key=lambda c: (score(c), -c))
