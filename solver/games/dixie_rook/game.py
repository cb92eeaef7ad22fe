"""dixie-rook -- Dixie Rook, 4 or 6 players in partnerships (seed 003,
RULINGS "dixie-rook").

Read top to bottom as the rules:

* 56 Rook cards (colours R G Y B, ranks 1-14, 14 high; no bird card).
  Count: every 5 = 5, every 10 = 10, every 13 = 10 (100 in all); most
  tricks +20: 120 points per hand.
* 4 players: 13 each and a nest of 4; 6 players: 9 each and a nest of 2.
  Partners are seats of the same parity.  The first dealer is drawn; the deal
  passes to the next seat every hand (also after a hand passed out).
* Auction from seat dealer+1: bid (70..120, multiples of 5, each higher than
  the last; outbidding a partner is allowed) or pass (final).  One bidder
  left wins; a bid of 120 ends the auction at once.  The last seat after all
  others passed without a bid may bid (and wins) or pass; all pass: no score,
  a new deal by the next dealer.  ``dealer_must_bid``: that last seat (the
  dealer) must bid.
* The bid winner takes the nest, discards 4 (6 players: 2) cards face down
  one action at a time, then names trumps.
* Seat dealer+1 leads trick 1; follow colour if able, else any card;
  highest trump wins, else highest of the colour led; the winner leads.
* The last trick's winner takes the nest: its count and one extra trick.
  A tie for most tricks is broken by a cut from a separate seeded stream
  (``cut``): each seat cuts a card, the higher team rank total gets the 20,
  equal totals cut again.  The main stream is never touched by a cut.
* Opponents score what they took; the bidding team scores what it took if
  that reaches the bid, else minus the bid.  Game to ``target`` (300): after
  a hand in which a team has reached it, the higher total wins; exactly
  equal totals play another hand.  ``lose_at`` (default 0, off) is a house
  rule beyond the rulings: the game also ends once a team falls to
  ``-lose_at``; random players overbid and are set nearly every hand, so
  without it their games rarely end (the conformance configs use it).

Actions (sorted ranges): 0..63 play a card (its index); 64 + card discard
it; 128 + value bid ``value``; ``PASS``; ``TRUMP_BASE`` + colour name
trumps.  Notation: ``R14``, ``discard R14``, ``bid 85``, ``pass``,
``trump red``.  Aliases (case-insensitive): a bare number for a bid
(``85``), ``p`` for pass, ``trump R`` / ``trumps red`` for trumps.

Information: bids, trumps and cards played are public; the nest and the
discards are seen by the bid winner only (not the partner) until the nest
is turned up after the last trick, when both are public.  In seat views the
hidden discards are ``"?"`` and the hidden nest is its size.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from ...cards import ROOK, rank_of
from ...errors import HAND_SIZE as HAND_SIZE_ERROR
from ...errors import HANDS_COUNT, NOT_AN_OBJECT, SEAT_RANGE, PositionError
from ...facts import Fact
from ...front import N_, NP_
from ...game import Game, InteropSpec, Option, State, register_game
from ...games.common import NEST_SIZE, TOTAL_NOT_INTEGER
from ...said import Quote, phrase
from ...shapes import Cards, CardText, Fields, Flag, ListOf, PerSeat, Seat, Text, Whole
from ..common import (
    MAX_MATCH_NUMBER,
    check_distinct,
    check_keys,
    match_number,
    need,
    parse_card_list,
)
from .front import RookFront
from .notation import BID_STEP, MAX_BID, MIN_BID, NUM_ACTIONS, team_of
from .state import DixieRookState
from .views import RookWorldSampler, _complete_view

# the errors raised here (solver/errors.py: a code and its parameters)
TOTAL_TEAM = phrase("total_team", N_("one total per team (2), got {n_totals}"))
TOTALS_END_GAME_ALREADY = phrase("totals_end_game_already", N_("totals {totals} : {totals2} end the game: "
                                                               "it is already over"))
EVERY_SCORE_MULTIPLE = phrase("score_step", N_("every score is a multiple of {step}, got {got}"))
TOTAL_RANGE_ROOK = phrase("total_range_rook", *NP_(
    "after {n} hand a total lies in -{bound}..{bound}, got {got}",
    "after {n} hands a total lies in -{bound}..{bound}, got {got}"))
CUT_CARD_SEAT = phrase("cut_card_seat", N_("a cut is one card per seat ({num_players}), got {n_cards}"))
EVERY_CUT_BUT_LAST = phrase("every_cut_but_last", N_("every cut but the last must tie (team totals {tot} "
                                                     ": {tot2})"))


@register_game
class DixieRookGame(Game):
    name = "dixie-rook"
    #: a seat's facts beyond the widget facts (solver/facts.py)
    facts: ClassVar[dict[str, Fact]] = {
        "phase": Fact(Text(), "the hand's part: auction, nest, trump, play or over"),
        "hand_no": Fact(Whole(), "the hand in play, counted from 0"),
        "high_bid": Fact(Whole(), "the highest bid so far (0: none)"),
        "high_bidder": Fact(Seat(none=True), "the seat that made it"),
        "passed": Fact(PerSeat(Flag()), "which seats have passed in the auction"),
        "bid_winner": Fact(Seat(none=True), "the seat that won the auction"),
        "bid": Fact(Whole(), "the winning bid (0 until the auction ends)"),
        "nest": Fact(CardText(), "the nest, seen by the bid winner only", optional=True,
                     own=True),
        "discards": Fact(CardText(), "the cards the bid winner put back in the nest, seen by it "
                         "only", optional=True, own=True),
        "count": Fact(ListOf(Whole()), "count points taken in this hand, one a team"),
    }
    deal_required = {"record": ("first_dealer", "deals"), "view": ("first_dealer", "deals"),
                     "mid_record": ("deals",), "mid_view": ("deals",)}
    deal_fields = {"first_dealer": Seat(), "deals": ListOf(Fields(
        {"hands": PerSeat(Cards()), "nest": Cards(), "cuts": ListOf(Cards())},
        optional=("cuts",)))}             # cuts only after a hand's tie for most tricks
    deal_before_match = ("first_dealer",)
    #: how the front ends show the game (solver/front.py)
    front_class = RookFront
    notation = ("Cards are colour then number: R G Y B (red, green, yellow, black) and 1 to "
                "14, 14 high: R14 is the red 14. Count: every 5 is worth 5, every 10 and 13 "
                "is worth 10. The auction: bid 70 .. bid 120 in fives (or the number alone: "
                "85), or pass (p). The bid winner takes the nest: discard R5 for each card put "
                "back, then trump red (trump R) names trumps.")
    zero_sum = True                # returns: +1 each seat of the winning team, -1 the others
    #: bound on ``round_returns``: a hand's score difference (120 made vs 0,
    #: or -120 set vs +120)
    round_scale = 240.0
    round_unit = "hand score difference (your team minus the other)"
    partnership = True
    scores_by_team = True
    description = ("Dixie Rook: 4 or 6 players in partnerships, bidding, a nest, count "
                   "cards, game to 300")
    # random play overbids and is set nearly every hand, driving both totals
    # down for ever: the conformance games end by ``lose_at`` as well
    conformance_configs = ({"target": 120, "lose_at": 300},
                           {"players": 6, "target": 120, "lose_at": 300},
                           {"dealer_must_bid": True, "target": 120, "lose_at": 300})
    #: the frameworks' adapters: a hand a ``deals`` entry, the 56 cards
    #: shuffled card by card; the two teams' points sum to zero each hand
    interop = InteropSpec(deal_kind="deal", deal_key="deals", deck=ROOK, min_players=4,
                          max_players=6, max_chance_outcomes=ROOK.size, zero_sum_deals=True)
    options_spec = {
        "players": Option(4, "4 players (13 cards each, nest of 4) or 6 (9 each, nest of "
                          "2); partners are the seats of the same parity", choices=(4, 6)),
        "dealer_must_bid": Option(False, "if true, a dealer reached with every other seat "
                                  "passed and no bid made must bid"),
        "target": Option(300, "the game ends after a hand in which a team has reached this "
                         "total: the higher total wins (equal totals: another hand)",
                         min=1, max=100000),
        "lose_at": Option(0, "0: off (scores may fall without limit, as the rulings say); "
                          "N > 0: a house rule, the game also ends after a hand in which a "
                          "team's total fell to -N or below (the higher total wins)",
                          min=0, max=100000),
    }

    @property
    def num_players(self) -> int:
        return self.options["players"]

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def max_deal_length(self) -> int:
        # the bids MIN_BID..MAX_BID by BID_STEP and one pass per seat, the
        # trump, and every card of the deck: the nest's discards plus every
        # card played
        bids = (MAX_BID - MIN_BID) // BID_STEP + 1
        return bids + self.num_players + 1 + len(ROOK.cards)

    def game_decided(self, totals) -> bool:
        """Whether the game ends after a hand with these totals (if they
        differ): a team reached ``target``, or, with ``lose_at``, fell to
        ``-lose_at`` or below."""
        lose_at = self.options["lose_at"]
        return max(totals) >= self.options["target"] or (lose_at > 0 and
                                                         min(totals) <= -lose_at)

    @property
    def hand_size(self) -> int:
        return 13 if self.num_players == 4 else 9

    @property
    def nest_size(self) -> int:
        return 4 if self.num_players == 4 else 2

    # ------------------------------------------------------------------
    # chance: the first dealer, one deal per hand, tie cuts (own stream)

    def generate_deal(self, rng: random.Random) -> tuple:
        cards = list(ROOK.cards)
        rng.shuffle(cards)
        n = self.hand_size
        hands = tuple(tuple(sorted(cards[s * n:(s + 1) * n])) for s in range(self.num_players))
        nest = tuple(sorted(cards[self.num_players * n:]))
        return hands, nest

    def generate_cut(self, rng: random.Random) -> tuple:
        """One card per seat (seat order) from a freshly shuffled deck."""
        return tuple(rng.sample(ROOK.cards, self.num_players))

    def cut_totals(self, cut) -> list[int]:
        return [sum(rank_of(c) for s, c in enumerate(cut) if team_of(s) == t) for t in (0, 1)]

    # ------------------------------------------------------------------
    # mid-match positions: {"hand": h, "dealer": seat, "totals": [team 0, team 1]}

    # a hand scores -120 .. +120 for a team, in fives (parse_match bounds
    # the totals by the hand's number)
    match_fields = {"hand": Whole(1, MAX_MATCH_NUMBER), "dealer": Seat(),
                    "totals": ListOf(Whole(-MAX_BID * MAX_MATCH_NUMBER, MAX_BID * MAX_MATCH_NUMBER,
                                           BID_STEP), 2, 2)}

    def parse_match(self, match: dict, seat: int | None = None) -> dict:
        check_keys(match, self.match_keys, "match")
        hand = match_number(match, "hand")
        n = self.num_players
        dealer = need(match, "dealer", "match", int)
        if not 0 <= dealer < n:
            raise PositionError(SEAT_RANGE(top=n - 1, got=dealer), "match.dealer")
        totals = need(match, "totals", "match", list)
        if len(totals) != 2:
            raise PositionError(TOTAL_TEAM(n_totals=len(totals)), "match.totals")
        bound = MAX_BID * (hand - 1)         # a hand scores -120..+120 for a team
        for t, v in enumerate(totals):
            where = f"match.totals[{t}]"
            if isinstance(v, bool) or not isinstance(v, int):
                raise PositionError(TOTAL_NOT_INTEGER(got=Quote(v)), where)
            if v % BID_STEP:
                raise PositionError(EVERY_SCORE_MULTIPLE(step=BID_STEP, got=v), where)
            if abs(v) > bound:
                raise PositionError(TOTAL_RANGE_ROOK(n=hand - 1, bound=bound, got=v), where)
        if self.game_decided(totals) and totals[0] != totals[1]:
            raise PositionError(TOTALS_END_GAME_ALREADY(totals=totals[0], totals2=totals[1]), "match.totals")
        return {"hand": hand, "dealer": dealer, "totals": list(totals)}

    def parse_deal(self, deal: dict, mid: bool = False) -> list:
        if not isinstance(deal, dict):
            raise PositionError(NOT_AN_OBJECT(), "deal")
        if mid:
            check_keys(deal, ("deals",), "deal")
            out: list[tuple[str, Any]] = []
        else:
            check_keys(deal, ("first_dealer", "deals"), "deal")
            out = [("first_dealer", self._parse_first_dealer(deal))]
        for h, d in enumerate(need(deal, "deals", "deal", list)):
            path = f"deal.deals[{h}]"
            if not isinstance(d, dict):
                raise PositionError(NOT_AN_OBJECT(), path)
            check_keys(d, ("hands", "nest", "cuts"), path)
            hands_raw = need(d, "hands", path, list)
            if len(hands_raw) != self.num_players:
                raise PositionError(HANDS_COUNT(want=self.num_players, got=len(hands_raw)), f"{path}.hands")
            hands = [parse_card_list(ROOK, raw, f"{path}.hands[{s}]")
                     for s, raw in enumerate(hands_raw)]
            nest = parse_card_list(ROOK, need(d, "nest", path), f"{path}.nest")
            # a card given twice first: it also makes a hand too long, and
            # the duplicate is what was meant
            check_distinct(ROOK, [(f"{path}.hands[{s}]", hands[s])
                                  for s in range(self.num_players)] +
                           [(f"{path}.nest", nest)], path)
            for s, cards in enumerate(hands):
                if len(cards) != self.hand_size:
                    raise PositionError(HAND_SIZE_ERROR(seat=s, want=self.hand_size, got=len(cards)),
                                        f"{path}.hands[{s}]")
            if len(nest) != self.nest_size:
                raise PositionError(NEST_SIZE(want=self.nest_size, got=len(nest)),
                                    f"{path}.nest")
            out.append(("deal", (tuple(tuple(sorted(h)) for h in hands), tuple(sorted(nest)))))
            for cut in self._parse_cuts(d, path):
                out.append(("cut", cut))
        return out

    def _parse_first_dealer(self, deal: dict) -> int:
        first = need(deal, "first_dealer", "deal", int)
        if not 0 <= first < self.num_players:
            raise PositionError(SEAT_RANGE(top=self.num_players - 1, got=first),
                                "deal.first_dealer")
        return first

    def _parse_cuts(self, d: dict, path: str) -> list[tuple]:
        """A hand's tie cuts: every one but the last is a tie, the last is not."""
        if "cuts" not in d:
            return []
        raw = need(d, "cuts", path, list)
        cuts = []
        for i, c in enumerate(raw):
            cp = f"{path}.cuts[{i}]"
            cards = parse_card_list(ROOK, c, cp)
            if len(cards) != self.num_players:
                raise PositionError(CUT_CARD_SEAT(num_players=self.num_players, n_cards=len(cards)), cp)
            check_distinct(ROOK, [(cp, cards)], cp)
            tot = self.cut_totals(cards)
            if (tot[0] == tot[1]) != (i < len(raw) - 1):
                raise PositionError(EVERY_CUT_BUT_LAST(tot=tot[0], tot2=tot[1]), cp)
            cuts.append(tuple(cards))
        return cuts

    def _format_deal(self, outcomes: list, mid: bool) -> dict:
        out: dict = {"deals": []} if mid else {"first_dealer": 0, "deals": []}
        for kind, value in outcomes:
            if kind == "first_dealer":
                out["first_dealer"] = value
            elif kind == "deal":
                hands, nest = value
                out["deals"].append({"hands": [ROOK.format_cards(h) for h in hands],
                                     "nest": ROOK.format_cards(nest)})
            else:
                out["deals"][-1].setdefault("cuts", []).append(
                    ROOK.format_cards(value, sort=False))
        return out

    # ------------------------------------------------------------------
    # seat views

    def complete_view(self, view: dict, rng: random.Random) -> dict:
        """A complete record consistent with a seat view: the unseen hands,
        nests and hidden discards chosen (see ``_complete_hand``)."""
        return _complete_view(self, view, rng)

    def world_sampler(self, view: dict, base: State | None = None) -> RookWorldSampler:
        """Worlds drawn exactly uniformly among those consistent with a
        (validated) seat view (see ``RookWorldSampler``)."""
        return RookWorldSampler(self, view, base=base)


DixieRookGame.state_class = DixieRookState
