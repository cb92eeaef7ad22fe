"""dix-exchange -- DIX by Dave De Vega, 4-12 players (seed 002, RULINGS
"dix-exchange").

Read top to bottom as the rules:

* Value cards, high to low: 10 Hibou, 9 Loup, 8 Putois, 7 Saute-lapin,
  6 Hotel, 5 .. 1, 0 Roc, 00 Ogre, 000 Masqueleon, 0000 Lion froussard; the
  Chat-Joker (CJ) ties with the Lion.  The deck is an option (default 55
  cards: four each of 10..1, three each of 0..0000, three Chat-Jokers).
* Every player starts with ``tokens`` (3).  First dealer random.  Each round
  the player after the dealer draws first, the dealer last; one hidden card
  each.
* Turns go from seat dealer+1 to the dealer (eliminated seats skipped).  A
  non-dealer keeps, or asks to exchange with the next seat R.  R holding 5
  or lower must accept; R holding 6-10 may accept, or block by showing the
  card: Hotel/Hibou cancel; Loup cancels and the asker loses a token;
  Putois cancels, the asker loses a token, the original drawer of the
  offered card loses a token (once only if that is the asker) and everyone
  takes back the card they drew; Saute-lapin passes the same request to the
  seat after R (wrapping past the dealer, lapsing if it would come back to
  the asker).  Turn order never changes.
* The dealer keeps, or swaps for the top stock card (and keeps that).
* Showdown: every holder of the lowest value loses a token; two or more
  Chat-Jokers: nobody loses and every player on zero re-enters with one
  token.  Tokens never go below zero; elimination is settled after the
  showdown; a round leaving nobody with a token is replayed from the
  tokens it started with.  The last player holding tokens wins.
* Stock: with 5+ active players (or ``carry_stock`` off) all cards are
  reshuffled every round; with fewer the stock carries over and the used
  cards are reshuffled into a new stock only when a card must be drawn from
  an empty stock.

Choices the rulings leave open, made here: the dealer who swaps takes the
top stock card first and then discards (so the discard is never reshuffled
into the stock it is drawn from), face down: only the dealer knows it.  The
offered card returned by a Putois is not shown.  A replayed round (nobody
left with a token) is dealt by the next active seat, like any round.
Returns: the winner +1, every other seat -1/(n-1) (zero-sum).

Physical cards: each card of the deck has an id (``0..size-1``, in deck
order); a stock is a shuffle of ids.  The record lists each shuffle by
values (the ids follow canonically: the lowest free id of that value), since
only values are ever seen.  Who holds which stock position is public at all
times (every request, acceptance and block is public); what a seat knows is
the value of some positions: its own draws, cards it received in a swap,
cards shown to block, the showdowns, and (the dealer) its stock draw and
discard.  A seat view is the record with every other position ``"?"``.
``DixExchangeGame.world_sampler`` counts the worlds a view allows exactly
and draws them uniformly (``DixExchangeWorldSampler``); ``complete_view``
draws through it.

Actions (canonical strings; aliases in parentheses, case-insensitive):
``keep`` (``stay``), ``ask`` (``exchange``, ``swap``), ``accept``
(``ok``), ``draw`` (``stock``: the dealer swaps with the stock), and
``block <card>`` for each value (``block 9``, ``block loup``; a bare
``block`` means the card of the seat answering the request).  Only
``block 6`` .. ``block 10`` can ever be legal.
"""

from __future__ import annotations

import random
from typing import ClassVar

from ...cards import EXCHANGE_VALUES
from ...errors import SEAT_RANGE, OptionError, PositionError
from ...facts import Fact
from ...front import N_
from ...game import Game, InteropSpec, Option, State, register_game
from ...said import Quote, phrase
from ...shapes import Cards, ListOf, PerSeat, Seat, Text, Whole
from ..common import MAX_MATCH_NUMBER, check_keys, compact_unseen, match_number, need
from .front import ExchangeFront
from .notation import (
    FULL_SHUFFLE_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_ACTIONS,
    STANDARD_COUNTS,
    DeckOption,
    _parse_deal,
    _parse_values,
    canonical_deck,
    deck_counts,
)
from .state import DixExchangeState
from .views import DixExchangeWorldSampler

# the errors raised here (solver/errors.py: a code and its parameters)
COUNT_SEAT = phrase("count_seat", N_("one count per seat ({n}), got {n_tokens}"))
FEWER_THAN_TWO_SEATS = phrase("fewer_than_two_seats", N_("fewer than two seats hold a token: the match is "
                                                         "already over"))
ROUND_STARTS_EVERY_SEAT = phrase("round_starts_every_seat", N_("round 1 starts with every seat holding "
                                                               "{start} tokens"))
SEAT_HOLDS_TOKEN_OUT = phrase("seat_holds_token_out", N_("seat {dealer} holds no token: it is out of the "
                                                         "match and does not deal"))
SEAT_HOLDS_TOKENS = phrase("seat_holds_tokens", N_("a seat holds 0..{start} tokens, got {t}"))
MISSING_STOCK_SEATS_HOLDING = phrase("missing_stock_seats_holding", N_("missing 'stock': with {n_alive} "
                                                                       "seats holding tokens the stock "
                                                                       "carries over from round {rnd} "
                                                                       "(give its cards top first, or "
                                                                       "their count in a seat view)"))
ROUND_ONE_SHUFFLES = phrase("round_one_shuffles", N_("round 1 shuffles every card"))
NEVER_CARRIES = phrase("never_carries", N_("the stock never carries over (carry_stock is off)"))
ALL_SHUFFLED = phrase("all_shuffled", N_("{n} seats hold tokens, so every card is shuffled this round"))
CARRIED_STOCK_HERE = phrase("carried_stock_here", N_("no carried stock here: {why}"))

#: a deck too small for the players (solver/errors.py)
DECK_SHORT = phrase("deck_short", N_("option 'deck' has {cards} cards; {players} players need at least "
                                     "{least}"))

#: the most tokens a player may start with (option ``tokens``)
MAX_TOKENS = 20

# ----------------------------------------------------------------------
# the game

@register_game
class DixExchangeGame(Game):
    name = "dix-exchange"
    #: a seat's facts beyond the widget facts (solver/facts.py)
    facts: ClassVar[dict[str, Fact]] = {
        "tokens": Fact(ListOf(Whole()), "each seat's tokens"),
        "active": Fact(ListOf(Whole()), "the seats still in the game, by number"),
        "phase": Fact(Text(), "the round's part: the exchanges, the blocks, its end, as the "
                      "state names it"),
        "asker": Fact(Seat(none=True), "the seat asking to exchange now", optional=True),
        "target": Fact(Seat(none=True), "the seat asked to exchange", optional=True),
        "winner": Fact(Seat(none=True), "the game's winner, once it is over", optional=True),
    }
    deal_required = {"record": ("first_dealer", "shuffles"),
                     "view": ("first_dealer", "shuffles"),
                     "mid_record": ("shuffles",), "mid_view": ("shuffles",)}
    deal_fields = {"first_dealer": Seat(), "shuffles": ListOf(Cards(least=1))}
    deal_before_match = ("first_dealer",)
    #: how the front ends show the game (solver/front.py)
    front_class = ExchangeFront
    notation = ("Cards are values, high to low: 10 (Hibou), 9 (Loup), 8 (Putois), 7 "
                "(Saute-lapin), 6 (Hotel), 5, 4, 3, 2, 1, 0 (Roc), 00 (Ogre), 000 "
                "(Masqueleon), 0000 (Lion froussard); CJ (Chat-Joker) ranks with the Lion. "
                "Actions: keep (stay), ask (exchange, swap) the next seat for its card, "
                "accept (ok) a request, block 6 .. block 10 a request by showing that card, "
                "draw (stock): the dealer swaps with the stock.")
    zero_sum = True                 # winner +1, every other seat -1/(n-1)
    round_unit = "tokens won (+) or lost (-) this round"
    round_scale = 3.0          # a round costs a seat at most 3 tokens (Loup, Putois, showdown)
    description = ("DIX (Dave De Vega): 4-12 players, one hidden card each, exchange or "
                   "block, lowest card loses a token")
    conformance_configs = ({}, {"players": 7}, {"players": 12})
    #: the frameworks' adapters: no deal kind (a round starts without a
    #: draw of its own), a stock a ``shuffles`` entry; the cards are values,
    #: one plane place a value; the deck option sets the chance outcomes
    #: (``max_chance_outcomes``)
    interop = InteropSpec(deal_kind=None, deal_key="shuffles", deck=None, min_players=MIN_PLAYERS,
                          max_players=MAX_PLAYERS, values=EXCHANGE_VALUES)
    options_spec = {
        "players": Option(4, "number of players", min=MIN_PLAYERS, max=MAX_PLAYERS),
        "deck": DeckOption(canonical_deck(STANDARD_COUNTS),
                           "the deck as value:count pairs ('standard' = the 55 cards of "
                           "the rulings; a mapping value -> count is accepted too)"),
        "carry_stock": Option(True, "with fewer than 5 active players the stock carries over "
                              "between rounds (used cards reshuffled when it runs out); "
                              "false: reshuffle every round"),
        "tokens": Option(3, "tokens each player starts with", min=1, max=MAX_TOKENS),
    }

    def is_card(self, action: int) -> bool:
        # a seat holds one card and never plays it: every decision (keep,
        # ask, accept, block...) is something else
        return False

    def check_options(self) -> None:
        counts = deck_counts(self.options["deck"])
        n = self.options["players"]
        if sum(counts) < n + 1:
            raise OptionError(DECK_SHORT(cards=sum(counts), players=n, least=n + 1), self.name)
        self.counts = tuple(counts)
        #: value index of each physical card id, in deck order (high to low)
        self.id_value = tuple(v for v, c in enumerate(counts) for _ in range(c))
        self.size = len(self.id_value)

    @property
    def num_players(self) -> int:
        return self.options["players"]

    def max_chance_outcomes(self) -> int:
        # a stock is shuffled card by card: as many outcomes as cards
        return self.size

    def plane_high(self) -> float:
        # the seen plane counts each value a quarter a card: a deck option
        # with more than four of a value passes 1
        return max(1.0, max(self.counts, default=4) / 4.0)

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def max_deal_length(self) -> int:
        # a turn per seat, each turn answered by at most every other seat (a
        # Saute-lapin passes the request on): n + n (n - 1)
        return self.num_players ** 2

    # ------------------------------------------------------------------
    # the deal: the first dealer and every shuffle of a stock, by values

    def parse_deal(self, deal: dict, mid: bool = False) -> list:
        return _parse_deal(self, deal, unknown_ok=False, mid=mid)[0]

    def _format_deal(self, outcomes: list, mid: bool) -> dict:
        out: dict = {"shuffles": []} if mid else {"first_dealer": 0, "shuffles": []}
        for kind, value in outcomes:
            if kind == "first_dealer":
                out["first_dealer"] = value
            elif kind == "shuffle":
                out["shuffles"].append(" ".join(EXCHANGE_VALUES[v] for v in value))
        return out

    # ------------------------------------------------------------------
    # mid-match positions: {"round": r, "dealer": seat, "tokens": [per seat],
    # "stock": the carried stock, top first, when this round carries it}

    match_fields = {"round": Whole(1, MAX_MATCH_NUMBER), "dealer": Seat(),
                    "tokens": PerSeat(Whole(0, MAX_TOKENS)), "stock": Cards()}
    #: the stock only when the round carries it over (``carries_stock``)
    match_optional = ("stock",)

    def carries_stock(self, round_number: int, tokens) -> bool:
        """Whether round ``round_number`` (1-based) with these tokens at its
        start plays on with the stock left from the round before."""
        active = sum(1 for t in tokens if t > 0)
        return (round_number > 1 and self.options["carry_stock"]
                and active < FULL_SHUFFLE_PLAYERS)

    def parse_match(self, match: dict, seat: int | None = None) -> dict:
        check_keys(match, self.match_keys, "match")
        rnd = match_number(match, "round")
        n, start = self.num_players, self.options["tokens"]
        tokens = need(match, "tokens", "match", list)
        if len(tokens) != n:
            raise PositionError(COUNT_SEAT(n=n, n_tokens=len(tokens)), "match.tokens")
        for s, t in enumerate(tokens):
            if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= start:
                raise PositionError(SEAT_HOLDS_TOKENS(start=start, t=Quote(t)),
                                    f"match.tokens[{s}]")
        alive = [s for s in range(n) if tokens[s] > 0]
        if len(alive) < 2:
            raise PositionError(FEWER_THAN_TWO_SEATS(), "match.tokens")
        if rnd == 1 and any(t != start for t in tokens):
            raise PositionError(ROUND_STARTS_EVERY_SEAT(start=start),
                                "match.tokens")
        dealer = need(match, "dealer", "match", int)
        if not 0 <= dealer < n:
            raise PositionError(SEAT_RANGE(top=n - 1, got=dealer), "match.dealer")
        if tokens[dealer] == 0:
            raise PositionError(SEAT_HOLDS_TOKEN_OUT(dealer=dealer), "match.dealer")
        out = {"round": rnd, "dealer": dealer, "tokens": list(tokens)}
        if self.carries_stock(rnd, tokens):
            if "stock" not in match:
                raise PositionError(MISSING_STOCK_SEATS_HOLDING(n_alive=len(alive), rnd=rnd - 1), "match")
            vals = _parse_values(self, match["stock"], "match.stock", seat is not None)
            out["stock"] = (compact_unseen([EXCHANGE_VALUES[v] if v is not None else "?"
                                            for v in vals]) if seat is not None else
                            " ".join(EXCHANGE_VALUES[v] for v in vals))
        elif "stock" in match:
            why = (ROUND_ONE_SHUFFLES() if rnd == 1 else NEVER_CARRIES()
                   if not self.options["carry_stock"] else ALL_SHUFFLED(n=len(alive)))
            raise PositionError(CARRIED_STOCK_HERE(why=why), "match.stock")
        return out

    # ------------------------------------------------------------------
    # seat views

    def world_sampler(self, view: dict, base: State | None = None) -> DixExchangeWorldSampler:
        # its base is built from the view's outcomes (views.py), not a replay
        return DixExchangeWorldSampler(self, view)

    def complete_view(self, view: dict, rng: random.Random) -> dict:
        """A complete record consistent with a seat view, drawn uniformly
        (``PositionError`` naming the culprit when none exists); in the
        middle of a match with its ``match`` object completed (the cards of
        an unseen carried stock chosen)."""
        sampler = DixExchangeWorldSampler(self, view)
        outcomes = sampler.outcomes(rng)
        out = {"deal": self.format_deal(outcomes), "actions": list(view["actions"])}
        if outcomes[0][0] == "match":
            out["match"] = outcomes[0][1]
        return out


DixExchangeGame.state_class = DixExchangeState
