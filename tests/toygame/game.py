"""toy -- a four-seat trick game small enough to solve at once.

Read top to bottom as the rules:

* 16 cards: the jack, queen, king and ace of clubs, diamonds, hearts and
  spades.  Each of the four seats is dealt 4.
* Seat ``first_leader`` (option, default 0) leads the first trick; the
  trick's winner leads the next.  Follow suit if able; no trumps: the
  highest card of the suit led wins.
* Each trick taken scores its taker 1 point; the game is one deal of 4
  tricks, and each seat's result is its tricks.

Actions are card indices (``solver.cards``), written as French cards
(``AS``, ``JD``); the only decisions are cards.  The deal object is
``{"deals": [{"hands": ["AS KS JH QC", ...]}]}``, one hand a seat; a seat's
view shows its own hand and the number of cards of the others."""

from __future__ import annotations

import random
from typing import ClassVar

from solver.errors import PositionError
from solver.game import Game, InteropSpec, Option, State, register_game
from solver.games.common import check_distinct, check_keys, need, parse_card_list
from solver.shapes import Cards, Fields, ListOf, PerSeat

from .state import HAND, SEATS, TOY, ToyState
from .views import ToyWorldSampler


@register_game
class ToyGame(Game):
    name = "toy"
    description = "toy: 4 seats, 16 cards, 4 tricks, no trumps, a point a trick"
    conformance_configs = ({}, {"first_leader": 2})
    round_scale = float(HAND)
    round_unit = "tricks this deal"
    notation = ("Cards are rank then suit: A K Q J and S H D C (AS is the ace of spades). "
                "Every action is a card: type it (case does not matter).")
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
        return 64

    @property
    def max_deal_length(self) -> int:
        return SEATS * HAND

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
