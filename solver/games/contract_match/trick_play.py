"""No-trump trick play and the penalty contracts shared by trix and tricks.

* :class:`PenaltyRule`: what a contract charges -- a value per penalty card
  taken (King of Hearts -75, each queen -25, each diamond -10) or per trick
  taken (Ltoosh / Tricks -15).  The four trick contracts charge
  75 + 100 + 130 + 195 = 500 in all, which the layout's +200 +150 +100 +50
  balances, so every kingdom / set sums to zero.
* :class:`TrickDeal`: one deal of no-trump trick play among four seats:
  follow suit if able, else any card (with ``must_discard``: a void player
  holding a penalty card of the contract must play one); the highest card of
  the suit led wins (``solver.cardset.trick_winner``); the winner leads.
  It records who took which cards and, for seat-view completion, every
  public fact about the hidden hands: who played which card, every failure
  to follow suit (a void), and with ``must_discard`` every void discard of a
  non-penalty card (proof of holding no penalty card).
* ``stop``: the deal ends as soon as every penalty card is taken (Ltoosh
  always plays all 13 tricks); the scores are the same either way.

Seats are 0..3 in the order of play; ``mask`` arguments are card bit masks
(``solver.cards``: index = suit * 16 + rank).

This module is the readable statement of these rules and the oracle of
their C ports: the search kernels' one copy, csrc/search/trickrules.pxd
(the trick and layout searches, the whole-deal search, the rules player's
C port and PIMC's play-outs all play by it), and the double-dummy kernel's
csrc/dd/trickstate.pxd.  tests/search/test_ismcts_native.py replays the
kernels' play-outs in the game, which plays by this module, card by card.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...cards import (
    DIAMONDS,
    FRENCH,
    HEARTS,
    KING,
    QUEEN,
    SUIT_NAMES,
    SUIT_RANK_MASK,
    make_card,
    mask_of,
    suit_of,
)
from ...cardset import make_rank_table, popcount, trick_winner
from ...front import N_
from ...game import MUST_FOLLOW, NOT_HELD
from ...said import Said, Word, phrase

#: a void seat that must play a penalty card (``must_discard_penalty``)
MUST_DISCARD = phrase("must_discard", N_("seat {seat} cannot follow suit and holds a penalty card of "
                                         "{contract}: it must play one"))

NUM_SEATS = 4
HAND_SIZE = 13
TRICKS_PER_DEAL = 13

#: Contract ids shared by both games (each game names them its own way).
KING_OF_HEARTS, QUEENS, DIAMONDS_CONTRACT, LTOOSH, LAYOUT = range(5)
NUM_CONTRACTS = 5

KH = make_card(HEARTS, KING)
QUEENS_MASK = mask_of(make_card(s, QUEEN) for s in range(4))
DIAMONDS_MASK = SUIT_RANK_MASK[DIAMONDS] & FRENCH.mask

#: No trumps, every card its own suit and rank.
RANK_TABLE = make_rank_table()


@dataclass(frozen=True)
class PenaltyRule:
    """What a trick contract charges: ``per_card`` points for each card of
    ``mask`` taken, ``per_trick`` points for each trick taken (both >= 0,
    charged as negatives)."""

    name: str
    mask: int
    per_card: int
    per_trick: int

    def charge(self, taken: int, tricks: int) -> int:
        """The (negative) score of a seat that took the cards ``taken`` in
        ``tricks`` tricks."""
        return -(popcount(taken & self.mask) * self.per_card + tricks * self.per_trick)


PENALTY_RULES = {
    KING_OF_HEARTS: PenaltyRule("King of Hearts", 1 << KH, 75, 0),
    QUEENS: PenaltyRule("Queens", QUEENS_MASK, 25, 0),
    DIAMONDS_CONTRACT: PenaltyRule("Diamonds", DIAMONDS_MASK, 10, 0),
    LTOOSH: PenaltyRule("Ltoosh", 0, 0, 15),
}


class TrickDeal:
    """One deal of no-trump trick play (see the module docstring).

    ``hands`` are masks; ``leader`` leads trick 1.  Attributes read by the
    games: ``trick`` (cards on the table, lead first), ``leader``,
    ``taken`` (mask per seat), ``tricks_won``, ``tricks_done``, ``done``,
    ``plays`` ([(seat, card)] in order), ``voids`` ([(seat, suit)]),
    ``no_penalty`` (seats proven to hold no penalty card), ``history``
    ([(leader, cards, winner)] of finished tricks)."""

    __slots__ = ("hands", "rule", "must_discard", "stop", "leader", "trick", "taken",
                 "tricks_won", "tricks_done", "played", "done", "plays", "voids",
                 "no_penalty", "history")

    def __init__(self, hands: list[int], leader: int, rule: PenaltyRule,
                 must_discard: bool = False, stop: bool = True):
        self.hands = list(hands)
        self.rule = rule
        self.must_discard = must_discard and rule.mask != 0
        self.stop = stop
        self.leader = leader
        self.trick: list[int] = []
        self.taken = [0] * NUM_SEATS
        self.tricks_won = [0] * NUM_SEATS
        self.tricks_done = 0
        self.played = 0
        self.done = False
        self.plays: list[tuple[int, int]] = []
        self.voids: list[tuple[int, int]] = []
        self.no_penalty: set[int] = set()
        self.history: list[tuple[int, tuple, int]] = []

    def copy(self) -> TrickDeal:
        new = TrickDeal.__new__(TrickDeal)
        new.hands = list(self.hands)
        new.rule = self.rule
        new.must_discard = self.must_discard
        new.stop = self.stop
        new.leader = self.leader
        new.trick = list(self.trick)
        new.taken = list(self.taken)
        new.tricks_won = list(self.tricks_won)
        new.tricks_done = self.tricks_done
        new.played = self.played
        new.done = self.done
        new.plays = list(self.plays)
        new.voids = list(self.voids)
        new.no_penalty = set(self.no_penalty)
        new.history = list(self.history)
        return new

    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % NUM_SEATS

    def led_suit(self) -> int:
        return suit_of(self.trick[0]) if self.trick else -1

    def legal_mask(self) -> int:
        hand = self.hands[self.to_move()]
        if not self.trick:
            return hand
        follow = hand & SUIT_RANK_MASK[suit_of(self.trick[0])]
        if follow:
            return follow
        if self.must_discard and hand & self.rule.mask:
            return hand & self.rule.mask
        return hand

    def why_not(self, card: int) -> Said:
        """Why ``card`` is not playable now (it is a card of the deck)."""
        seat = self.to_move()
        text = FRENCH.to_string(card)
        if not (self.hands[seat] >> card) & 1:
            return NOT_HELD(seat=seat, card=text)
        if self.trick and self.hands[seat] & SUIT_RANK_MASK[suit_of(self.trick[0])]:
            return MUST_FOLLOW(seat=seat, suit=Word(SUIT_NAMES[suit_of(self.trick[0])]))
        return MUST_DISCARD(seat=seat, contract=self.rule.name)

    def play(self, card: int) -> tuple | None:
        """Play ``card`` for the seat to move; returns ``(leader, cards,
        winner)`` when it completes a trick, else ``None``."""
        seat = self.to_move()
        if self.trick:
            led = suit_of(self.trick[0])
            if suit_of(card) != led:
                self.voids.append((seat, led))
                if self.must_discard and not (1 << card) & self.rule.mask:
                    self.no_penalty.add(seat)
        self.hands[seat] &= ~(1 << card)
        self.played |= 1 << card
        self.plays.append((seat, card))
        self.trick.append(card)
        if len(self.trick) < NUM_SEATS:
            return None
        cards = tuple(self.trick)
        winner = (self.leader + trick_winner(cards, -1, RANK_TABLE)) % NUM_SEATS
        done = (self.leader, cards, winner)
        self.history.append(done)
        self.taken[winner] |= mask_of(cards)
        self.tricks_won[winner] += 1
        self.tricks_done += 1
        self.trick = []
        self.leader = winner
        if self.tricks_done == TRICKS_PER_DEAL or (self.stop and self.decided()):
            self.done = True
        return done

    def decided(self) -> bool:
        """Every penalty of the contract is settled: every penalty card taken
        (a per-trick contract is decided only after its last trick)."""
        if self.rule.per_trick:
            return self.tricks_done == TRICKS_PER_DEAL
        taken = self.taken[0] | self.taken[1] | self.taken[2] | self.taken[3]
        return taken & self.rule.mask == self.rule.mask

    def taker_of(self, card: int) -> int:
        """The seat that took ``card`` (-1 if nobody has yet)."""
        for s in range(NUM_SEATS):
            if (self.taken[s] >> card) & 1:
                return s
        return -1

    def scores(self) -> list[int]:
        """Each seat's (negative) penalty for this deal, without doubling."""
        return [self.rule.charge(self.taken[s], self.tricks_won[s]) for s in range(NUM_SEATS)]


SUIT_WORDS = {0: "clubs", 1: "diamonds", 2: "hearts", 3: "spades"}


def format_trick(leader: int, cards, winner: int) -> str:
    return (f"seat {leader} leads " + " ".join(FRENCH.to_string(c) for c in cards) +
            f" -> seat {winner}")


__all__ = ["PenaltyRule", "PENALTY_RULES", "TrickDeal", "KING_OF_HEARTS", "QUEENS",
           "DIAMONDS_CONTRACT", "LTOOSH", "LAYOUT", "KH", "QUEENS_MASK", "DIAMONDS_MASK",
           "NUM_SEATS", "HAND_SIZE", "format_trick"]
