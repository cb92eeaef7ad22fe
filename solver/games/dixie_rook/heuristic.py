"""The dixie-rook heuristic player (``rules``).

It reads only what its seat knows: its own cards, the public auction,
trumps and the cards on the table (and, as bid winner, the nest).

* Bidding: a hand estimate for its best trump colour,
  ``25 + 5 x length + 7 x 14s + 3 x 13s + own count / 2`` (length scaled
  to a 13-card hand with 6 players).  It bids the lowest legal bid while
  that is within the estimate, never over its partner's bid; a dealer left
  with every other seat passed bids 70, so hands are not passed out for
  ever.
* Nest: it keeps its trump colour (longest, then strongest, over the 17
  cards) and its 14s, and buries the lowest non-count cards of its shortest
  other colours; then names that colour.
* Leading: a non-trump 14 first, else the lowest card of its longest
  non-trump colour, else its highest trump.
* Following: when its partner is winning the trick it adds its best count
  card it may play; otherwise it wins with the cheapest winning card if it
  has one, and else throws its least useful card (low, no count, not a
  trump).
"""

from __future__ import annotations

from ...cards import cards_of, rank_of, suit_of
from ...cardset import trick_winner
from ...search.heuristics.policy import Policy
from .notation import BID_BASE, DISCARD_BASE, MAX_BID, MIN_BID, PASS, TRUMP_BASE, card_count


def _colour_score(cards, colour):
    mine = [rank_of(c) for c in cards if suit_of(c) == colour]
    return (len(mine), sum(mine))


def best_trump(cards) -> int:
    """The longest colour, then the one with the higher rank sum."""
    return max(range(4), key=lambda col: _colour_score(cards, col))


def estimate(cards, hand_size: int) -> float:
    """Points the hand's team may expect with its best trump colour."""
    trump = best_trump(cards)
    length = sum(1 for c in cards if suit_of(c) == trump) * 13 / hand_size
    aces = sum(1 for c in cards if rank_of(c) == 14)
    kings = sum(1 for c in cards if rank_of(c) == 13)
    count = sum(card_count(c) for c in cards)
    return 25 + 5 * length + 7 * aces + 3 * kings + count / 2


class DixieRookRules(Policy):
    name = "rules"

    def step(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if state.phase == "auction":
            return self._bid(state, legal)
        mine = cards_of(state.hands[self.seat])
        if state.phase == "discard":
            return DISCARD_BASE + self._discard(mine)
        if state.phase == "trump":
            return TRUMP_BASE + best_trump(mine)
        if state.trick:
            return self._follow(state, legal)
        return self._lead(state, legal)

    # ---- auction ---------------------------------------------------------
    def _bid(self, state, legal) -> int:
        auction = state.auction
        bids = [a for a in legal if a != PASS]
        if PASS not in legal:
            return bids[0]
        n = state.game.num_players
        if auction.high_bidder < 0 and sum(auction.passed) == n - 1:
            return BID_BASE + MIN_BID            # the last seat keeps the game moving
        if auction.high_bidder >= 0 and auction.high_bidder % 2 == self.seat % 2:
            return PASS                          # never outbid the partner
        est = estimate(cards_of(state.hands[self.seat]), state.game.hand_size)
        lowest = bids[0] - BID_BASE if bids else MAX_BID + 1
        return bids[0] if lowest <= est else PASS

    # ---- nest --------------------------------------------------------------
    @staticmethod
    def _discard(mine) -> int:
        trump = best_trump(mine)
        length = {col: sum(1 for c in mine if suit_of(c) == col) for col in range(4)}

        def keep(c):
            return (suit_of(c) == trump, rank_of(c) == 14, card_count(c) > 0,
                    length[suit_of(c)], rank_of(c))

        return min(mine, key=keep)

    # ---- play ----------------------------------------------------------------
    @staticmethod
    def _lead(state, legal) -> int:
        trump = state.trump
        plain = [c for c in legal if suit_of(c) != trump]
        aces = [c for c in plain if rank_of(c) == 14]
        if aces:
            return aces[0]
        if plain:
            length = {col: sum(1 for c in plain if suit_of(c) == col) for col in range(4)}
            return min(plain, key=lambda c: (-length[suit_of(c)], card_count(c) > 0, rank_of(c)))
        return max(legal, key=rank_of)

    def _follow(self, state, legal) -> int:
        n = state.game.num_players
        trick, trump, table = state.trick, state.trump, state.table
        winner = (state.leader + trick_winner(trick, trump, table)) % n

        def useless(c):                       # lower is more useless
            return (suit_of(c) == trump, card_count(c), rank_of(c))

        if winner % 2 == self.seat % 2:
            return max(legal, key=lambda c: (card_count(c), -useless(c)[0], -rank_of(c)))
        wins = [c for c in legal if trick_winner(trick + [c], trump, table) == len(trick)]
        if wins:
            return min(wins, key=lambda c: (suit_of(c) == trump, rank_of(c)))
        return min(legal, key=useless)
