"""tricks -- Tricks by Ayman Khouri, 4 players (seed 004, RULINGS "tricks").

Read top to bottom as the rules:

* 52 cards, ace high, no trumps; everything in seat order.
* Draw for first deal: one card each (seat order), highest deals; a tie for
  highest rank is a full redraw (suits never break ties).  Every draw is a
  chance outcome, public to all.
* Each dealer deals a set of 5 hands and, after seeing each hand, picks one
  of Diamonds (-10 per diamond), Queens (-25 per queen), Tricks (-15 per
  trick), King of Hearts (-75), Jacks (the layout, +200/+150/+100/+50), each
  once per set; the fifth is forced.  Four sets, 20 hands; the next set is
  dealt by seat dealer+1.  No doubling.
* Trick games (``contract_match.trick_play``): the dealer leads trick 1, follow suit,
  highest of the suit led wins; as trix's default ``stop_when_decided``, a
  hand ends once every penalty card is taken (Tricks plays all 13 tricks)
  and Jacks once three players are out -- the scores cannot change after
  that.  Jacks (``layout``): the dealer plays first.
* Bad hand: all four 2s, or three 2s plus 3s in at least two of the suits of
  those 2s.  After the dealer calls Jacks, each other seat in seat order
  from dealer+1 -- and then the dealer, only when Jacks is the last game of
  its set -- says ``redeal`` (aliases ``claim``, ``bad hand``) or
  ``no redeal`` (``keep``).  ``redeal`` is legal only for a bad hand; a claim
  on a good hand is rejected (``IllegalActionError``, reason "hand is not
  bad").  Every asked seat acts, bad hand or not, so nobody learns a hand
  from who is asked.  A redeal deals four new hands through chance; the game
  is still Jacks and the claims start again.  Redeals are unlimited.
* Every set sums to zero; the highest total wins, equal totals share the
  win.  ``returns()`` gives each seat its final total.

Contract notation: ``contract diamonds`` (alias ``diamond``), ``contract
queens`` (``queen``), ``contract tricks`` (``ltoosh``, ``trick``),
``contract kinghearts`` (``king``, ``kh``, ``kingofhearts``),
``contract jacks`` (``layout``, ``trix``).
"""

from __future__ import annotations

import random
from typing import ClassVar

from ...cards import FRENCH, mask_of, rank_of
from ...errors import MUST_BE_LIST, PositionError
from ...facts import Fact
from ...front import N_
from ...game import register_game
from ...said import phrase
from ...shapes import Cards, Flag, ListOf, PerSeat
from ..common import check_distinct, parse_card_list
from ..contract_match.game import ContractGame
from ..contract_match.state import (
    CLAIM,
    DEALS_PER_ROUND,
    REDEAL,
    ContractMatchState,
    bad_hand_line,
)
from ..contract_match.trick_play import LAYOUT, NUM_SEATS
from .front import TricksFront

# the errors raised here (solver/errors.py: a code and its parameters)
DRAW_FIRST_DEAL_COMES = phrase("draw_first_deal_comes", N_("the draw for first deal comes before the deals"))
VIEW_NEEDS_WHOLE_DRAW = phrase("view_needs_whole_draw", N_("a view needs the whole draw for first deal"))
DRAW_CARD_SEAT = phrase("draw_card_seat", N_("a draw is one card per seat (4), got {n_cards}"))
DRAW_DECIDES_DEALER_SO = phrase("draw_decides_dealer_so", N_("this draw decides the dealer, so no redraw "
                                                             "follows it"))
TIE_HIGHEST_CARD_NEEDS = phrase("tie_highest_card_needs", N_("a tie for highest card needs a redraw "
                                                             "before the deals"))

CONTRACT_NAMES = ("kinghearts", "queens", "diamonds", "tricks", "jacks")
CONTRACT_ALIASES = {"king": 0, "kh": 0, "kingofhearts": 0, "kingheart": 0,
                    "queen": 1, "q": 1, "diamond": 2, "ltoosh": 3, "trick": 3,
                    "layout": 4, "trix": 4, "jack": 4}

def is_bad_hand(mask: int) -> bool:
    """All four 2s, or three 2s and the 3s of at least two of their suits."""
    twos = [s for s in range(4) if (mask >> (s * 16 + 2)) & 1]
    if len(twos) == 4:
        return True
    if len(twos) < 3:
        return False
    return sum(1 for s in twos if (mask >> (s * 16 + 3)) & 1) >= 2


@register_game
class TricksGame(ContractGame):
    name = "tricks"
    facts: ClassVar[dict[str, Fact]] = {
        **ContractGame.facts,
        "bad_hand": Fact(Flag(), "the seat's hand is a bad hand it may claim a redeal for "
                         "(all four 2s, or three 2s and the 3s of two of their suits)"),
    }
    #: how the front ends show the game (solver/front.py)
    front_class = TricksFront
    notation = ("Cards are rank then suit: A K Q J T 9 8 7 6 5 4 3 2 (T is the ten; 10D "
                "is read as TD) and S H D C (spades, hearts, diamonds, clubs): QS is the "
                "queen of spades. "
                "Contracts: contract diamonds (diamond), contract queens (queen), contract "
                "tricks (ltoosh, trick), contract kinghearts (king, kh), contract jacks "
                "(layout). A bad hand in Jacks: redeal (claim, bad hand) or no redeal (keep). "
                "In the jacks layout: a card that fits, or pass.")
    zero_sum = True   # returns: final totals, every set sums to zero
    #: bound on one hand's result for a seat (the layout's +200)
    round_scale = 200.0
    round_unit = "points this deal"
    description = ("Tricks (Ayman Khouri): 4 dealers x 5 games (Diamonds, Queens, Tricks, "
                   "King of Hearts, Jacks layout), bad-hand redeals in Jacks")
    conformance_configs = ({},)
    options_spec = {}
    contract_names = CONTRACT_NAMES
    contract_titles = ("King of Hearts", "Queens", "Diamonds", "Tricks", "Jacks")
    contract_aliases = CONTRACT_ALIASES
    round_word = "set"
    chooser_word = "dealer"
    has_claims = True
    deal_keys = ("draws", "deals")
    # a record's deals and draws default to none (the seed deals them); a
    # view lists them as its seat saw them
    deal_required = {"view": ("draws", "deals"), "mid_view": ("deals",)}
    # a draw for the first deal: one card a seat, drawn again on a tie
    deal_fields = {"draws": ListOf(Cards()), "deals": ListOf(PerSeat(Cards()))}
    deal_before_match = ("draws",)

    def generate_draw(self, rng: random.Random) -> tuple:
        return tuple(rng.sample(FRENCH.cards, NUM_SEATS))

    # the deal object: {"draws": ["AS KH 2C 3D", ...] (seat order), "deals": [...]}
    def _parse_prefix(self, deal: dict) -> list:
        raw = deal.get("draws", [])
        if not isinstance(raw, list):
            raise PositionError(MUST_BE_LIST(got=type(raw).__name__), "deal.draws")
        out = []
        for i, d in enumerate(raw):
            path = f"deal.draws[{i}]"
            cards = parse_card_list(FRENCH, d, path)
            if len(cards) != NUM_SEATS:
                raise PositionError(DRAW_CARD_SEAT(n_cards=len(cards)), path)
            check_distinct(FRENCH, [(path, cards)], path)
            tied = draw_dealer(cards) is None
            last = i == len(raw) - 1
            if not tied and not last:
                raise PositionError(DRAW_DECIDES_DEALER_SO(),
                                    f"deal.draws[{i + 1}]")
            if tied and last and deal.get("deals"):
                raise PositionError(TIE_HIGHEST_CARD_NEEDS(),
                                    path)
            out.append(("draw", tuple(cards)))
        if not out and deal.get("deals"):
            raise PositionError(DRAW_FIRST_DEAL_COMES(), "deal.draws")
        return out

    def _format_prefix(self, outcomes: list, out: dict) -> None:
        out["draws"] = [FRENCH.format_cards(v, sort=False) for k, v in outcomes if k == "draw"]

    def _view_prefix(self, deal: dict, seat: int) -> tuple[list, dict]:
        prefix = self._parse_prefix(deal)
        if not prefix or draw_dealer(prefix[-1][1]) is None:
            raise PositionError(VIEW_NEEDS_WHOLE_DRAW(), "deal.draws")
        return prefix, {}


def draw_dealer(cards) -> int | None:
    """The seat with the single highest rank, or None on a tie."""
    ranks = [rank_of(c) for c in cards]
    best = max(ranks)
    return ranks.index(best) if ranks.count(best) == 1 else None


class TricksState(ContractMatchState):
    """A Tricks match (see the module docstring and ``ContractMatchState``)."""

    game: TricksGame   # this game's own options and helpers

    def _start_match(self) -> None:
        g: TricksGame = self.game
        while True:
            cards = self._chance.draw("draw", g.generate_draw)
            dealer = draw_dealer(cards)
            shown = " ".join(f"seat {s} {FRENCH.to_string(c)}" for s, c in enumerate(cards))
            if dealer is None:
                self.events.append(f"draw for deal: {shown}: tie for highest, draw again")
                continue
            self.events.append(f"draw for deal: {shown}: seat {dealer} deals first")
            break
        self.chooser = dealer
        self._new_deal()

    @staticmethod
    def is_bad_hand(mask: int) -> bool:
        return is_bad_hand(mask)

    def _after_choice(self, contract: int) -> None:
        if contract == LAYOUT:
            self._start_claims()
        else:
            self._start_tricks()

    def _start_claims(self) -> None:
        d = self.chooser
        self.order = [(d + i) % NUM_SEATS for i in (1, 2, 3)]
        if len(self.used) == DEALS_PER_ROUND:   # Jacks is the dealer's last game
            self.order.append(d)
        self.order_pos = 0
        self.phase = CLAIM

    def _apply_claim(self, action: int) -> None:
        seat = self.order[self.order_pos]
        if action == REDEAL:
            self.log.claim = seat
            self.events.append(bad_hand_line(seat, self.log.hands[seat]))
            self._new_deal(contract=LAYOUT)
            self._start_claims()
            return
        self.events.append(f"  seat {seat}: no redeal")
        self.order_pos += 1
        if self.order_pos == len(self.order):
            self._start_layout()

    def _known(self, seat: int) -> dict:
        known = super()._known(seat)
        known["bad_hand"] = is_bad_hand(mask_of(self.log.hands[seat]))
        return known


TricksGame.state_class = TricksState

__all__ = ["TricksGame", "TricksState", "is_bad_hand", "draw_dealer"]
