"""dix -- Dix by Fred Blundun, 2 players (seed 000, RULINGS "dix").

Read top to bottom as the rules:

* 53 cards (52 + joker).  Deal 13 each, turn up one card: its suit is
  trumps; a turned-up joker means no trumps.  The joker is a trump ranking
  exactly where the turned-up card would.  (``seventeen``: 17 each.)
* The dealer leads trick 1; the trick winner leads the next.  Follow suit if
  able (also while the stock lasts unless ``free_play_while_stock``).
* After each of tricks 1-13 the winner draws first, then the loser.
* Pips: A=1, 2-10 face, courts and joker 0.  A trick totalling 10 is a
  ten-trick.  Round score = tricks - 4 x ten-tricks.  Round winner: higher
  score, then fewer ten-tricks, then the winner of the last trick.
* Match to ``target``: ends after the first round in which a player has
  reached it; higher total wins; equal totals -> that round's tie-breaks.

Actions are card indices (``solver.cards``); the only decisions are cards.
"""

from __future__ import annotations

import random
from typing import ClassVar

from ...cards import DIX
from ...errors import HAND_SIZE as HAND_SIZE_ERROR
from ...errors import HANDS_COUNT, NOT_AN_OBJECT, SEAT_RANGE, PositionError
from ...facts import Fact
from ...front import N_, NP_
from ...game import Game, InteropSpec, Option, State, register_game
from ...games.common import TOTAL_NOT_INTEGER, TOTALS_COUNT
from ...said import Quote, phrase
from ...shapes import Card, Cards, Fields, ListOf, PerSeat, Seat, Whole
from ..common import (
    MAX_MATCH_NUMBER,
    check_distinct,
    check_keys,
    match_number,
    need,
    parse_card_list,
)
from .front import DixFront
from .state import NUM_ACTIONS, SEVENTEEN, STANDARD, DixState
from .views import DixWorldSampler, _complete_view

# the errors raised here (solver/errors.py: a code and its parameters)
ROUNDS_MAKE_NO_TOTALS = phrase('rounds_make_no_totals', *NP_(
    'no {n} round of {per} tricks make these totals (they sum to {sum} less 4 per ten-trick)',
    'no {n} rounds of {per} tricks make these totals (they sum to {sum} less 4 per ten-trick)'))
TOTAL_REACHED_TARGET_MATCH = phrase("total_reached_target_match", N_("a total reached the target "
                                                                     "{options}: the match is already over"))
STOCK_HAS_CARDS = phrase("stock_has_cards", N_("the stock has {stock_size} cards, got {n_stock}"))
TOTAL_RANGE_DIX = phrase('total_range_dix', *NP_('after {n} round a total lies in {low}..{high}, got {got}',
                                                 'after {n} rounds a total lies in {low}..{high}, got {got}'))


@register_game
class DixGame(Game):
    name = "dix"
    #: a seat's facts beyond the widget facts (solver/facts.py)
    facts: ClassVar[dict[str, Fact]] = {
        "tens": Fact(ListOf(Whole()), "tricks whose two cards made ten (3 points each), one a "
                     "seat"),
    }
    deal_required = {"record": ("first_dealer", "rounds"), "view": ("first_dealer", "rounds"),
                     "mid_record": ("rounds",), "mid_view": ("rounds",)}
    deal_fields = {"first_dealer": Seat(), "rounds": ListOf(Fields(
        {"hands": PerSeat(Cards()), "turn_up": Card(), "stock": Cards()},
        optional=("stock",)))}            # no stock in the seventeen variant
    deal_before_match = ("first_dealer",)
    #: how the front ends show the game (solver/front.py)
    front_class = DixFront
    zero_sum = True                  # returns: +1 match winner, -1 loser
    conformance_configs = ({}, {"variant": SEVENTEEN}, {"free_play_while_stock": True})
    round_scale = 30.0
    round_unit = "round score difference (yours minus the opponent's; a tie-break win +0.5)"
    demo_hint_after = 28               # trick 15: the stock is empty, every card known: exact
    notation = ("Cards are rank then suit: A K Q J T 9 8 7 6 5 4 3 2 (T is the ten; 10D "
                "is read as TD) and S H D C (spades, hearts, diamonds, clubs): AS is the ace "
                "of spades; JK is the joker. Every action is a card: type it (case does not "
                "matter).")
    description = "Dix (Fred Blundun): 2 players, trumps and a joker, ten-tricks cost 3"
    #: the frameworks' adapters: a round a ``rounds`` entry, the 53 cards
    #: shuffled card by card; every round zero-sum (a score difference)
    interop = InteropSpec(deal_kind="round", deal_key="rounds", deck=DIX, min_players=2,
                          max_players=2, max_chance_outcomes=DIX.size, zero_sum_deals=True)
    options_spec = {
        "variant": Option(STANDARD, "standard: 13 cards and a 26-card stock, 26 tricks; "
                          "seventeen: 17 cards, no stock, 17 tricks",
                          choices=(STANDARD, SEVENTEEN)),
        "target": Option(50, "the match ends after the first round in which a player has "
                         "reached this total", min=1, max=100000),
        "free_play_while_stock": Option(False, "if true, following suit is not required "
                                        "while the stock lasts"),
    }

    @property
    def num_players(self) -> int:
        return 2

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def max_deal_length(self) -> int:
        # every action is a card played: two per trick
        return 2 * self.tricks_per_round

    @property
    def hand_size(self) -> int:
        return 17 if self.options["variant"] == SEVENTEEN else 13

    @property
    def tricks_per_round(self) -> int:
        return 17 if self.options["variant"] == SEVENTEEN else 26

    @property
    def stock_size(self) -> int:
        return 0 if self.options["variant"] == SEVENTEEN else 26

    # ------------------------------------------------------------------
    # chance: the first dealer, then one deal per round

    def generate_round(self, rng: random.Random) -> tuple:
        cards = list(DIX.cards)
        rng.shuffle(cards)
        n = self.hand_size
        hands = (tuple(sorted(cards[:n])), tuple(sorted(cards[n:2 * n])))
        turn_up = cards[2 * n]
        stock = tuple(cards[2 * n + 1:2 * n + 1 + self.stock_size])
        return hands, turn_up, stock

    # ------------------------------------------------------------------
    # mid-match positions: {"round": r, "dealer": seat, "totals": [a, b]}

    # a round scores -3 .. +1 a trick (RULINGS "dix"): the totals' bounds
    # after the most rounds a position may give, the round's own in parse_match
    match_fields = {"round": Whole(1, MAX_MATCH_NUMBER), "dealer": Seat(),
                    "totals": ListOf(Whole(-3 * 26 * MAX_MATCH_NUMBER, 26 * MAX_MATCH_NUMBER),
                                     2, 2)}

    def parse_match(self, match: dict, seat: int | None = None) -> dict:
        check_keys(match, self.match_keys, "match")
        rnd = match_number(match, "round")
        dealer = need(match, "dealer", "match", int)
        if dealer not in (0, 1):
            raise PositionError(SEAT_RANGE(top=1, got=dealer), "match.dealer")
        totals = need(match, "totals", "match", list)
        if len(totals) != 2:
            raise PositionError(TOTALS_COUNT(want=2, got=len(totals)), "match.totals")
        per, done = self.tricks_per_round, rnd - 1
        for s, t in enumerate(totals):
            if isinstance(t, bool) or not isinstance(t, int):
                raise PositionError(TOTAL_NOT_INTEGER(got=Quote(t)),
                                    f"match.totals[{s}]")
            # a round scores between -3 x tricks (every trick a ten-trick) and +tricks
            if not -3 * per * done <= t <= per * done:
                raise PositionError(TOTAL_RANGE_DIX(n=done, low=-3 * per * done, high=per * done, got=t),
                                    f"match.totals[{s}]")
        tens4 = per * done - sum(totals)       # 4 x the ten-tricks made so far
        if tens4 < 0 or tens4 % 4 or tens4 > 4 * per * done:
            raise PositionError(ROUNDS_MAKE_NO_TOTALS(n=done, per=per, sum=per * done), "match.totals")
        if max(totals) >= self.options["target"]:
            raise PositionError(TOTAL_REACHED_TARGET_MATCH(options=self.options['target']), "match.totals")
        return {"round": rnd, "dealer": dealer, "totals": list(totals)}

    def parse_deal(self, deal: dict, mid: bool = False) -> list:
        if not isinstance(deal, dict):
            raise PositionError(NOT_AN_OBJECT(), "deal")
        if mid:
            check_keys(deal, ("rounds",), "deal")
            out = []
        else:
            check_keys(deal, ("first_dealer", "rounds"), "deal")
            first = need(deal, "first_dealer", "deal", int)
            if first not in (0, 1):
                raise PositionError(SEAT_RANGE(top=1, got=first), "deal.first_dealer")
            out = [("first_dealer", first)]
        rounds = need(deal, "rounds", "deal", list)
        for r, rnd in enumerate(rounds):
            out.append(("round", self._parse_round(rnd, f"deal.rounds[{r}]")))
        return out

    def _parse_round(self, rnd, path: str) -> tuple:
        keys = ("hands", "turn_up") + (("stock",) if self.stock_size else ())
        if not isinstance(rnd, dict):
            raise PositionError(NOT_AN_OBJECT(), path)
        check_keys(rnd, keys, path)
        hands_raw = need(rnd, "hands", path, list)
        if len(hands_raw) != 2:
            raise PositionError(HANDS_COUNT(want=2, got=len(hands_raw)), f"{path}.hands")
        hands = [parse_card_list(DIX, h, f"{path}.hands[{s}]") for s, h in enumerate(hands_raw)]
        turn_up = parse_card_list(DIX, [need(rnd, "turn_up", path, str)], f"{path}.turn_up")[0]
        stock = []
        if self.stock_size:
            stock = parse_card_list(DIX, need(rnd, "stock", path), f"{path}.stock")
        # a card given twice first: it also makes a hand too long, and the
        # duplicate is what was meant
        check_distinct(DIX, [(f"{path}.hands[0]", hands[0]), (f"{path}.hands[1]", hands[1]),
                             (f"{path}.turn_up", [turn_up]), (f"{path}.stock", stock)], path)
        for s, cards in enumerate(hands):
            if len(cards) != self.hand_size:
                raise PositionError(HAND_SIZE_ERROR(seat=s, want=self.hand_size, got=len(cards)),
                                    f"{path}.hands[{s}]")
        if self.stock_size and len(stock) != self.stock_size:
            raise PositionError(STOCK_HAS_CARDS(stock_size=self.stock_size, n_stock=len(stock)),
                                f"{path}.stock")
        return (tuple(sorted(hands[0])), tuple(sorted(hands[1]))), turn_up, tuple(stock)

    def _format_deal(self, outcomes: list, mid: bool) -> dict:
        out: dict = {"rounds": []} if mid else {"first_dealer": 0, "rounds": []}
        for kind, value in outcomes:
            if kind == "first_dealer":
                out["first_dealer"] = value
            else:
                hands, turn_up, stock = value
                rnd = {"hands": [DIX.format_cards(h) for h in hands],
                       "turn_up": DIX.to_string(turn_up)}
                if self.stock_size:
                    rnd["stock"] = DIX.format_cards(stock, sort=False)
                out["rounds"].append(rnd)
        return out

    # ------------------------------------------------------------------
    # seat views

    def world_sampler(self, view: dict, base: State | None = None) -> DixWorldSampler:
        return DixWorldSampler(self, view, base)

    def complete_view(self, view: dict, rng: random.Random) -> dict:
        """A complete record (``deal`` and ``actions``) consistent with a
        seat view; every action in dix is public, so only the deal is new."""
        return {"deal": _complete_view(self, view, rng), "actions": list(view["actions"])}


DixGame.state_class = DixState
