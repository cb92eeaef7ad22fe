"""toy's seat views: the exact world sampler.

Every bid and every card played is public, so a seat knows its own
hand, every bid, every card played and by whom, and each other seat's
voids (a seat that did not follow the suit led holds none of it).  The cards it has not seen lie
with the three other seats, as many with each as it has left; every
placement that respects the voids is one world, and
``solver.sampler.HolderSampler`` draws among them uniformly and counts
them exactly.  The bids say nothing the rules hold a seat to (a seat
may bid what it likes): they are replayed, and weigh no world."""

from __future__ import annotations

import random

from solver.cards import suit_of
from solver.errors import NotationError, PositionError
from solver.game import Game, State, WorldSampler
from solver.games.common import parse_card_list
from solver.sampler import HolderSampler, InconsistentConstraints

from .state import HAND, SEATS, TOY, is_bid, parse_action, trick_winner


class ToyWorldSampler(WorldSampler):
    """The complete states consistent with one validated seat view."""

    def __init__(self, game: Game, view: dict):
        self.game = game
        self.seat = seat = view["seat"]
        deals = view["deal"].get("deals") if isinstance(view.get("deal"), dict) else None
        if not isinstance(deals, list) or len(deals) != 1 or not isinstance(deals[0], dict):
            raise PositionError("a view of the deal lists it, one object", "deal.deals")
        where = f"deal.deals[0].hands[{seat}]"
        hands = deals[0].get("hands")
        if not isinstance(hands, list) or len(hands) != SEATS:
            raise PositionError(f"expected {SEATS} hands", "deal.deals[0].hands")
        own = parse_card_list(TOY, hands[seat], where)
        if len(own) != HAND:
            raise PositionError(f"seat {seat} holds {HAND} cards, got {len(own)}", where)
        self.own = tuple(sorted(own))
        self.actions: list[int] = []
        for i, text in enumerate(view["actions"]):
            try:
                self.actions.append(parse_action(text, i))
            except NotationError as exc:
                raise PositionError(str(exc), f"actions[{i}]") from None
        # the public play: who played what, and who showed out of which suit
        played: list[list[int]] = [[] for _ in range(SEATS)]
        voids: list[set[int]] = [set() for _ in range(SEATS)]
        leader, seen = game.options["first_leader"], set(self.own)
        trick: list[int] = []
        for i, action in enumerate(self.actions):
            if (i < SEATS) != is_bid(action):
                raise PositionError(f"the {SEATS} seats bid first, then play: "
                                    f"{view['actions'][i]!r} is out of turn", f"actions[{i}]")
        for i, card in enumerate(self.actions[SEATS:], start=SEATS):
            player = (leader + len(trick)) % SEATS
            if (player == seat) != (card in self.own) or (player != seat and card in seen):
                raise PositionError(f"seat {player} cannot have played "
                                    f"{TOY.to_string(card)}", f"actions[{i}]")
            seen.add(card)
            if trick and suit_of(card) != suit_of(trick[0]):
                voids[player].add(suit_of(trick[0]))
            played[player].append(card)
            trick.append(card)
            if len(trick) == SEATS:
                leader, trick = trick_winner(leader, trick, SEATS), []
        self.played = played
        self.others = [s for s in range(SEATS) if s != seat]
        hidden = [c for c in TOY.cards if c not in seen]
        capacities = [HAND - len(played[s]) for s in self.others]
        cards = [(c, sum(1 << h for h, s in enumerate(self.others) if suit_of(c) not in voids[s]))
                 for c in hidden]
        try:
            self.holders = HolderSampler(capacities, cards)
        except InconsistentConstraints as exc:
            raise PositionError(f"no deal is consistent with the view: {exc}", "actions") from None

    def deal(self, rng: random.Random) -> dict:
        """A deal object (the game record's) drawn uniformly among the worlds."""
        drawn = self.holders.sample(rng)
        hands: list[list[int]] = [[] for _ in range(SEATS)]
        hands[self.seat] = list(self.own)
        for h, s in enumerate(self.others):
            hands[s] = self.played[s] + drawn[h]
        return {"deals": [{"hands": [TOY.format_cards(h) for h in hands]}]}

    def sample(self, rng: random.Random) -> State:
        return self.game.replay(self.actions, deal=self.deal(rng))

    def worlds(self) -> int:
        return self.holders.count
