"""toy -- a four-seat trick game small enough to solve at once.

Read top to bottom as the rules:

* 16 cards: the jack, queen, king and ace of clubs, diamonds, hearts and
  spades.  Each of the four seats is dealt 4.
* The auction: before any card, each seat in turn from seat
  ``first_leader`` (option, default 0) bids the tricks it will take, once:
  0 ("nil") to 4.  Every bid is public.
* Seat ``first_leader`` leads the first trick; the trick's winner leads
  the next.  Follow suit if able; no trumps: the highest card of the suit
  led wins.
* The game is one deal of 4 tricks, scored by the bids, each seat on its
  own: nil made (no trick taken) +10, missed -10; a bid of n made (n
  tricks or more) 10 x n, and 1 a trick over it; missed, -10 x n.

Actions are card indices (``solver.cards``), written as French cards
(``AS``, ``JD``), and the bids, ids 64 to 68 above every card's, written
``bid 0`` to ``bid 4`` (``nil`` is read as ``bid 0``).  The deal object
is ``{"deals": [{"hands": ["AS KS JH QC", ...]}]}``, one hand a seat; a
seat's view shows its own hand and the number of cards of the others.

What the front ends show of it is declared here too (``ToyFront``): the
bids' words (nil too in a hint's facts), a "bids" panel, a line under
each seat, the deal's summary;
its words' French is its own ``locale/fr.po``."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from solver.errors import PositionError
from solver.facts import Fact
from solver.front import N_, BoardView, Front, Words, panel, seat_row, text_row
from solver.game import Game, InteropSpec, Option, State, register_game
from solver.games.common import check_distinct, check_keys, need, parse_card_list
from solver.said import Word
from solver.shapes import Cards, Fields, ListOf, PerSeat, Text, Whole

from .state import AUCTION, BID, HAND, MAX_BID, SEATS, TOY, ToyState, score
from .views import ToyWorldSampler

#: a bid of no trick, in words
NIL = N_("nil")


def _bid_words(bid: int, words: Words) -> str:
    """A bid in words: nil, or its tricks."""
    return words(NIL) if bid == 0 else str(bid)


class ToyFront(Front):
    """The toy as the front ends show it: its cards as written (the
    defaults), its bids in words, the auction's panel, each seat's bid and
    tricks under it, and each deal's bids and tricks in its summary."""

    round_unit = N_("points this deal, by the bids")
    actions: ClassVar[dict[str, str]] = {"bid": N_("Bid {n}"), "bid 0": N_("Bid nil")}
    seat_facts: ClassVar[dict[str, str]] = {"bids": N_("Bids")}

    def seat_fact_value(self, key: str, value: int) -> Any:
        """A bid of no trick as the panel says it: nil."""
        return Word(NIL) if key == "bids" and value == 0 else value

    def panels(self, view: BoardView, words: Words) -> list[dict[str, Any]]:
        bids = view.known.get("bids")
        if not isinstance(bids, list) or len(bids) != len(view.names):
            return []
        rows = [text_row(words(N_("{name}: no bid yet"), name=name) if bid < 0 else
                         words(N_("{name} bid {bid}"), name=name, bid=_bid_words(bid, words)))
                for name, bid in zip(view.names, bids, strict=True)]
        return [panel("bids", words(N_("Bids")), rows)]

    def notes(self, view: BoardView, words: Words) -> list[str]:
        if view.known.get("phase") == AUCTION:
            return [words(N_("The auction: each seat bids the tricks it will take"))]
        return []

    def seat_notes(self, view: BoardView, words: Words) -> list[str]:
        bids, won = view.known.get("bids"), view.known.get("tricks_won")
        if not isinstance(bids, list) or not isinstance(won, list):
            return super().seat_notes(view, words)
        return ["" if bid < 0 else words(N_("bid {bid}, took {took}"),
                                         bid=_bid_words(bid, words), took=took)
                for bid, took in zip(bids, won, strict=True)]

    def deal_summaries(self, state: Any, words: Words) -> list[dict[str, Any]]:
        if not state.is_terminal():
            return []
        return [{"bids": list(state.bids), "tricks": list(state.tricks_won)}]

    def summary_words(self, entry: Mapping[str, Any], view: BoardView,
                      words: Words) -> dict[str, Any]:
        return {"heading": None, "lines": [],
                "rows": [seat_row("bids", words(N_("Bids")), entry["bids"], ""),
                         seat_row("tricks", words(N_("Tricks taken")), entry["tricks"], "")]}


@register_game
class ToyGame(Game):
    name = "toy"
    description = "toy: 4 seats, 16 cards, bids of 0 (nil) to 4 tricks, 4 tricks, no trumps"
    conformance_configs = ({}, {"first_leader": 2})
    round_scale = float(score(MAX_BID, HAND))
    round_unit = "points this deal, by the bids"
    notation = ("Cards are rank then suit: A K Q J and S H D C (AS is the ace of spades). "
                "A bid is 'bid 0' (or 'nil') to 'bid 4'. Case does not matter.")
    front_class = ToyFront
    #: a seat's facts beyond the widget facts (solver/facts.py)
    facts: ClassVar[Mapping[str, Fact]] = {
        "phase": Fact(Text(), "the deal's part: auction, play or over"),
        "bids": Fact(ListOf(Whole()), "each seat's bid in tricks, 0 for nil, -1 until it bids"),
    }
    options_spec: ClassVar[dict[str, Option]] = {
        "first_leader": Option(0, "the seat that leads the first trick", min=0, max=SEATS - 1),
    }
    interop = InteropSpec(deal_kind="deal", deal_key="deals", deck=TOY, min_players=SEATS,
                          max_players=SEATS, max_chance_outcomes=TOY.size)
    #: the deal object's shape (solver/shapes.py): what the HTTP API's schema
    #: of a toy position says, with no line of the server naming the game
    deal_required = {"record": ("deals",), "view": ("deals",)}
    deal_fields = {"deals": ListOf(Fields({"hands": PerSeat(Cards())}), 0, 1)}

    @property
    def num_players(self) -> int:
        return SEATS

    @property
    def num_distinct_actions(self) -> int:
        return BID + MAX_BID + 1

    @property
    def max_deal_length(self) -> int:
        return SEATS * HAND + SEATS

    def generate_deal(self, rng: random.Random) -> tuple:
        cards = list(TOY.cards)
        rng.shuffle(cards)
        return tuple(tuple(sorted(cards[s * HAND:(s + 1) * HAND])) for s in range(SEATS))

    def parse_deal(self, deal: dict, mid: bool = False) -> list:
        if not isinstance(deal, dict):
            raise PositionError("expected an object", "deal")
        check_keys(deal, ("deals",), "deal")
        deals = need(deal, "deals", "deal", list)
        if len(deals) > 1:
            raise PositionError(f"the game is one deal, got {len(deals)}", "deal.deals")
        out = []
        for d, one in enumerate(deals):
            path = f"deal.deals[{d}]"
            if not isinstance(one, dict):
                raise PositionError("expected an object", path)
            check_keys(one, ("hands",), path)
            raw = need(one, "hands", path, list)
            if len(raw) != SEATS:
                raise PositionError(f"expected {SEATS} hands, got {len(raw)}", f"{path}.hands")
            hands = []
            for s, h in enumerate(raw):
                cards = parse_card_list(TOY, h, f"{path}.hands[{s}]")
                if len(cards) != HAND:
                    raise PositionError(f"seat {s} must hold {HAND} cards, got {len(cards)}",
                                        f"{path}.hands[{s}]")
                hands.append(cards)
            check_distinct(TOY, [(f"{path}.hands[{s}]", h) for s, h in enumerate(hands)], path)
            out.append(("deal", tuple(tuple(sorted(h)) for h in hands)))
        return out

    def _format_deal(self, outcomes: list, mid: bool) -> dict:
        return {"deals": [{"hands": [TOY.format_cards(h) for h in value]}
                          for _, value in outcomes]}

    def world_sampler(self, view: dict, base: State | None = None) -> ToyWorldSampler:
        # ``base`` (the state the view was taken from) goes unused: drawing the
        # hidden hands and replaying the public plays costs the toy next to
        # nothing, and the worlds are the same either way
        return ToyWorldSampler(self, view)

    def complete_view(self, view: dict, rng: random.Random) -> dict:
        """Every action is public: only the other seats' hands are new."""
        return {"deal": ToyWorldSampler(self, view).deal(rng), "actions": list(view["actions"])}


ToyGame.state_class = ToyState
