"""trix -- Trix, 4 players, individual or partnership (seed 001, RULINGS "trix").

Read top to bottom as the rules:

* 52 cards, ace high; everything in seat order (seat i+1 is "to the right").
* Whoever holds 7H in the first deal owns kingdom 1 and chooses a contract
  for that very hand.  Kingdoms pass to seat owner+1: 4 kingdoms x 5
  contracts = 20 deals.  The owner chooses after seeing the new hand, each
  contract once per kingdom; the fifth is forced (an action with one legal
  choice).
* Trick contracts (``contract_match.trick_play``): the owner leads trick 1, follow suit,
  highest of the suit led wins, the winner leads.  King of Hearts -75,
  Queens -25 each, Diamonds -10 each, Ltoosh -15 per trick.  Option
  ``must_discard_penalty``: a void player holding a penalty card of the
  contract must play one.  Option ``stop_when_decided``: the deal ends when
  every penalty card is taken, and the layout when three players are out
  (identical scores either way).
* Doubling (King of Hearts and Queens): after the contract and before the
  first lead, in seat order from the owner, every seat declares which of its
  penalty cards it reveals: ``reveal KH`` / ``reveal QS`` (alias
  ``double QS``) ... one at a time,
  then ``reveal done`` (aliases ``no reveal``, ``done``).  A seat holding no
  unrevealed penalty card has ``reveal done`` as its one legal action, so the
  holders stay secret, as at a table where everyone says "no double".
  Revealed cards are public.  Another seat taking a revealed card scores
  twice its penalty and the revealer gains its value; the revealer taking
  it scores the normal penalty only.
* Trix, the layout (``layout``): the owner acts first; +200/+150/+100/+50.
* ``partners``: seats 0+2 vs 1+3, individual arithmetic, then team totals
  (a revealed card taken by the revealer's partner thus costs the team
  exactly its undoubled value).  ``returns()`` gives each seat the final
  total of its team (individually: its own total); both sum to zero.
* Highest total after 20 deals wins; equal totals share the win.

Contract notation: ``contract kinghearts`` (aliases ``king``, ``kh``,
``kingofhearts``), ``contract queens`` (``queen``), ``contract diamonds``
(``diamond``), ``contract ltoosh`` (``tricks``, ``latoosh``),
``contract trix`` (``layout``, ``jacks``); case and spaces are free.
"""

from __future__ import annotations

from typing import ClassVar

from ...cards import FRENCH, HEARTS, SEVEN, make_card
from ...errors import SEAT_RANGE, PositionError
from ...facts import Fact
from ...front import N_
from ...game import Option, register_game
from ...said import Quote, phrase
from ...shapes import Card, Cards, ListOf, MapOf, PerSeat, Seat, Whole
from ..common import need
from ..contract_match.game import ContractGame
from ..contract_match.state import DECLARE, REVEAL_BASE, REVEAL_DONE, ContractMatchState
from ..contract_match.trick_play import KING_OF_HEARTS, LAYOUT, NUM_SEATS, PENALTY_RULES, QUEENS
from .front import TrixFront

# the errors raised here (solver/errors.py: a code and its parameters)
NEEDS_FIRST_DEAL_FOLLOWS = phrase("needs_first_deal_follows", N_("needs the first deal (it follows from "
                                                                 "who holds 7H)"))
SEAT_HOLDS_H_FIRST = phrase("seat_holds_h_first", N_("seat {holder} holds 7H in the first deal, so it "
                                                     "owns kingdom 1, not seat {owner}"))
KINGDOM_BEFORE_ANY_CONTRACT = phrase("kingdom_before_any_contract", N_("kingdom 1 before any contract is "
                                                                       "the first deal of the match: seat "
                                                                       "{holder} holds 7H, so it owns "
                                                                       "kingdom 1, not seat {match}"))

SEVEN_OF_HEARTS = make_card(HEARTS, SEVEN)
CONTRACT_NAMES = ("kinghearts", "queens", "diamonds", "ltoosh", "trix")
CONTRACT_ALIASES = {"king": 0, "kh": 0, "kingofhearts": 0, "kingheart": 0,
                    "queen": 1, "q": 1, "diamond": 2, "tricks": 3, "latoosh": 3,
                    "layout": 4, "jacks": 4}
DOUBLING_CONTRACTS = (KING_OF_HEARTS, QUEENS)


@register_game
class TrixGame(ContractGame):
    name = "trix"
    facts: ClassVar[dict[str, Fact]] = {
        **ContractGame.facts,
        "first_owner": Fact(Seat(none=True), "the seat that held the seven of hearts in the "
                            "first deal (its kingdom comes first)"),
        "revealed": Fact(MapOf(Card(), Seat()), "the penalty cards doubled in this deal, each "
                         "with the seat that doubled it"),
        "team_totals": Fact(ListOf(Whole()), "with partners, the match's score so far, one a "
                            "team"),
    }
    #: how the front ends show the game (solver/front.py)
    front_class = TrixFront
    notation = ("Cards are rank then suit: A K Q J T 9 8 7 6 5 4 3 2 (T is the ten; 10D "
                "is read as TD) and S H D C (spades, hearts, diamonds, clubs): QS is the "
                "queen of spades. "
                "Contracts: contract kinghearts (king, kh), contract queens (queen), contract "
                "diamonds (diamond), contract ltoosh (tricks), contract trix (layout). "
                "Doubling, before the first lead: reveal KH or reveal QS (double QS), then "
                "reveal done (done). In the trix layout: a card that fits, or pass.")
    zero_sum = True   # returns: final (team) totals, every kingdom sums to zero
    #: bound on one deal's result for a seat (a team: 200 + 150 in the layout)
    round_scale = 350.0
    round_unit = "points this deal"

    @property
    def partnership(self) -> bool:
        return bool(self.options["partners"])
    description = ("Trix: 4 kingdoms x 5 contracts (King of Hearts, Queens, Diamonds, "
                   "Ltoosh, the Trix layout), doubling, individual or partnership")
    # must_discard_penalty and stop_when_decided=False are covered by
    # tests/games/test_trix.py (a full conformance config costs ~10 s)
    conformance_configs = ({}, {"partners": True})
    options_spec = {
        "partners": Option(False, "seats 0+2 against 1+3: team totals decide"),
        "stop_when_decided": Option(True, "end a deal as soon as every penalty card is "
                                    "taken (or three players are out of the layout); the "
                                    "scores are identical either way"),
        "must_discard_penalty": Option(False, "a player who cannot follow suit and holds a "
                                       "penalty card of the contract must play one"),
    }
    contract_names = CONTRACT_NAMES
    contract_titles = ("King of Hearts", "Queens", "Diamonds", "Ltoosh", "Trix")
    contract_aliases = CONTRACT_ALIASES
    round_word = "kingdom"
    chooser_word = "owner"
    has_reveals = True
    deal_keys = ("first_owner", "deals")
    # a record's deals default to none (the seed deals them); a view lists
    # them as its seat saw them, with the owner of the first kingdom
    deal_required = {"view": ("first_owner", "deals"), "mid_view": ("deals",)}
    deal_fields = {"first_owner": Seat(), "deals": ListOf(PerSeat(Cards()))}
    deal_before_match = ("first_owner",)

    # the deal object: {"first_owner": seat holding 7H in deal 1, "deals": [...]}
    def _check_parsed(self, deal: dict, outcomes: list) -> None:
        if "first_owner" not in deal:
            return
        owner = deal["first_owner"]
        if isinstance(owner, bool) or not isinstance(owner, int) or owner not in range(4):
            raise PositionError(SEAT_RANGE(top=3, got=Quote(owner)), "deal.first_owner")
        if not outcomes:
            raise PositionError(NEEDS_FIRST_DEAL_FOLLOWS(),
                                "deal.first_owner")
        holder = _seven_holder(outcomes[0][1])
        if owner != holder:
            raise PositionError(SEAT_HOLDS_H_FIRST(holder=holder, owner=owner), "deal.first_owner")

    def _format_prefix(self, outcomes: list, out: dict) -> None:
        if outcomes:
            out["first_owner"] = _seven_holder(outcomes[0][1])

    def _view_prefix(self, deal: dict, seat: int) -> tuple[list, dict]:
        owner = need(deal, "first_owner", "deal", int)
        if owner not in range(4):
            raise PositionError(SEAT_RANGE(top=3, got=Quote(owner)), "deal.first_owner")
        return [], {"first_owner": owner}

    def _mid_view_prefix(self, match: dict) -> tuple[list, dict]:
        prefix, facts = super()._mid_view_prefix(match)
        if _starts_match(match):
            facts["first_owner"] = match["owner"]
        return prefix, facts

    def _dummy_deal(self, d: int, facts: dict) -> tuple:
        hands = [list(h) for h in super()._dummy_deal(d, facts)]
        owner = facts.get("first_owner")
        holder = _seven_holder(hands)
        if d == 0 and owner is not None and holder != owner:
            hands[holder].remove(SEVEN_OF_HEARTS)
            hands[holder].append(hands[owner].pop())
            hands[owner].append(SEVEN_OF_HEARTS)
        return tuple(tuple(sorted(h)) for h in hands)

    def _forced(self, d: int, facts: dict) -> dict:
        return {SEVEN_OF_HEARTS: facts["first_owner"]} if d == 0 and "first_owner" in facts \
            else {}


def _seven_holder(hands) -> int:
    return next(s for s in range(NUM_SEATS) if SEVEN_OF_HEARTS in hands[s])


def _starts_match(match: dict) -> bool:
    """A mid-match position at kingdom 1 before any contract: the first deal
    of the match, whose 7H decides the owner."""
    return match["kingdom"] == 1 and not match["played"]


class TrixState(ContractMatchState):
    """A Trix match (see the module docstring and ``ContractMatchState``)."""

    def _start_match(self) -> None:
        self._new_deal()

    def _on_dealt(self, log) -> None:
        match = self.match_object()
        if match is not None and len(self.deal_logs) == 1 and _starts_match(match):
            holder = _seven_holder(log.hands)
            if holder != match["owner"]:
                raise PositionError(KINGDOM_BEFORE_ANY_CONTRACT(holder=holder, match=match['owner']),
                                    "match.owner")
        if len(self.deal_logs) == 1 and match is None:
            self.chooser = _seven_holder(log.hands)
            self.events.append(f"seat {self.chooser} holds 7H in the first deal: it owns "
                               f"kingdom 1")

    def _after_choice(self, contract: int) -> None:
        if contract in DOUBLING_CONTRACTS:
            self.phase = DECLARE
            self.order = [(self.chooser + i) % NUM_SEATS for i in range(NUM_SEATS)]
            self.order_pos = 0
        elif contract == LAYOUT:
            self._start_layout()
        else:
            self._start_tricks()

    def _apply_declaration(self, action: int) -> None:
        seat = self.order[self.order_pos]
        if action == REVEAL_DONE:
            self.order_pos += 1
            if self.order_pos == NUM_SEATS:
                self._start_tricks()
            return
        card = action - REVEAL_BASE
        self.revealed |= 1 << card
        self.log.reveals.append((seat, card))
        self.events.append(f"  seat {seat} reveals {FRENCH.to_string(card)} (doubled, "
                           f"marked * when taken)")

    def _deal_scores(self, log) -> list[int]:
        scores = log.play.scores()
        value = PENALTY_RULES[log.contract].per_card if log.contract in PENALTY_RULES else 0
        for revealer, card in log.reveals:
            taker = log.play.taker_of(card)
            if taker >= 0 and taker != revealer:
                scores[taker] -= value
                scores[revealer] += value
        return scores

    # ---- teams ---------------------------------------------------------------
    @property
    def partners(self) -> bool:
        return self.game.options["partners"]

    def team_totals(self) -> list[int]:
        """Totals of team 0 (seats 0+2) and team 1 (seats 1+3)."""
        return [self.totals[0] + self.totals[2], self.totals[1] + self.totals[3]]

    def _table_extra_head(self) -> str:
        return f"{'team 0+2':>10}{'team 1+3':>10}" if self.partners else ""

    def _table_extra(self, scores) -> str:
        if not self.partners:
            return ""
        return f"{scores[0] + scores[2]:>10}{scores[1] + scores[3]:>10}"

    def _final_result(self) -> None:
        if self.partners:
            teams = self.team_totals()
            best = max(teams)
            self.winners = [s for s in range(NUM_SEATS) if teams[s % 2] == best]
            if teams[0] == teams[1]:
                self.events.append(f"match over: shared win, teams {teams[0]} : {teams[1]}")
            else:
                w = 0 if teams[0] > teams[1] else 1
                self.events.append(f"match over: team {w}+{w + 2} wins {teams[w]} to "
                                   f"{teams[1 - w]}")
            return
        super()._final_result()

    def _seat_view_of_scores(self, scores: list[int]) -> list[int]:
        if self.partners:
            return [scores[s] + scores[(s + 2) % 4] for s in range(NUM_SEATS)]
        return scores

    def returns(self) -> list[float]:
        ret = super().returns()
        if self.partners and self.winners is not None:
            teams = self.team_totals()
            return [float(teams[s % 2]) for s in range(NUM_SEATS)]
        return ret

    def _known(self, seat: int) -> dict:
        known = super()._known(seat)
        match = self.match_object()
        known["first_owner"] = (_seven_holder(self.deal_logs[0].hands) if match is None
                                else (match["owner"] - match["kingdom"] + 1) % NUM_SEATS)
        known["revealed"] = {FRENCH.to_string(c): s for s, c in self.log.reveals}
        if self.partners:
            known["team_totals"] = self.team_totals()
        return known


TrixGame.state_class = TrixState
