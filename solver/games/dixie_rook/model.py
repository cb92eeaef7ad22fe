"""The dixie-rook opponent model (``solver/beliefs.py``): how each decision
of a hand looks to the beliefs.  The parameters, fitted to the strongest
bot's play, are in ``data/model-dixie-rook.json`` (six seats:
``model-dixie-rook-6.json``) with the command and seed that made them.

Kinds of decision and their features:

* ``bid``: pass (the reference) or a bid; every bid shares the hand's
  strength (long colours: each card past the third of a colour, up to the
  eighth; 14s; 13s;
  the count held; all scaled to a 13-card hand) and differs by how far it
  jumps over the lowest bid and how high it is; whether the partner holds
  the high bid is public, a bid's own feature;
* ``trump``: the colour named (its length, its high cards, its count in
  the hand kept after the discards);
* ``discard``: a card put back into the nest (its count, rank, colour's
  length, whether it is a 14): seen by nobody until the hand ends, so the
  beliefs never weigh it, but the fit reports it like every kind;
* ``card:lead``, ``card:follow``: a card in a trick (``solver.cardplay``:
  each card's count to the taker, partners' tricks).

Rows (``RookWorldSampler``): a place a holder (each other seat's unseen
hand, the nest during the auction or the discards after it) and, when
another seat won the bid, the nest within the cards it took up: its hand
at the auction is those cards less the nest."""

from __future__ import annotations

from functools import cache

from ...beliefs import Action, Observation, OpponentModel, RulesTable, Term
from ...cardplay import CARD_FEATURES, CardPlay, TrickRules
from ...cards import ROOK, mask_of
from ...trickrules import trick_rules
from .notation import (
    AUCTION,
    BID_BASE,
    DISCARD,
    DISCARD_BASE,
    PASS,
    PLAY,
    TRUMP,
    TRUMP_BASE,
    card_count,
    team_of,
)
from .rules import hand_rules
from .views import cards_played

BID_FEATURES = ("bias", "jump", "level", "partner_high", "long", "aces", "kings", "count",
                "long_x_level", "count_x_level")
TRUMP_FEATURES = ("length", "high", "count")
DISCARD_FEATURES = ("count", "rank", "length", "ace")

_COLOURS = [mask_of(c for c in ROOK.cards if c >> 4 == col) for col in range(4)]
_RANK = [mask_of(c for c in ROOK.cards if c & 15 == r) for r in range(16)]
_HIGH = [_COLOURS[col] & (_RANK[11] | _RANK[12] | _RANK[13] | _RANK[14]) for col in range(4)]


@cache
def _strength_terms(scale: float, level: float) -> tuple[Term, ...]:
    """The hand's strength as ``BID_FEATURES`` terms (``scale``: 13 over
    the hand size; ``level``: the bid's height, for the interactions that
    let a strong hand bid higher)."""
    f = {name: i for i, name in enumerate(BID_FEATURES)}
    terms = []
    for col in range(4):
        for k in range(4, 9):
            # every card of a colour past the third (up to the eighth)
            terms.append(Term(f["long"], scale / 4, _COLOURS[col], k, 14))
            terms.append(Term(f["long_x_level"], scale * level / 4, _COLOURS[col], k, 14))
    terms += [Term(f["aces"], scale / 4, _RANK[14]), Term(f["kings"], scale / 4, _RANK[13])]
    for rank, pts in ((5, 5), (10, 10), (13, 10)):
        terms.append(Term(f["count"], scale * pts / 100, _RANK[rank]))
        terms.append(Term(f["count_x_level"], scale * level * pts / 100, _RANK[rank]))
    return tuple(terms)


def played_cards(state) -> int:
    """The cards played in the hand so far, the table's included (public)."""
    played = 0
    for h in range(state.game.num_players):
        played |= cards_played(state, h)
    return played


def rook_rules(state) -> TrickRules:
    """The trick rules of the hand in play (colours, 14 high, each card's
    count to the trick's taker), derived from its rulebook
    (solver/games/dixie_rook/rules.py)."""
    return trick_rules(hand_rules(state.game.num_players, state.trump))


class RookModel(OpponentModel):
    """The opponent model of dixie-rook (see the module docstring)."""

    features = {"bid": BID_FEATURES, "trump": TRUMP_FEATURES, "discard": DISCARD_FEATURES,
                "card:lead": CARD_FEATURES, "card:follow": CARD_FEATURES}

    def __init__(self, players: int = 4):
        #: six seats (9-card hands, a nest of 2) bid and play their own way
        self.data = "model-dixie-rook.json" if players == 4 else \
            f"model-dixie-rook-{players}.json"


    def decision(self, state, action: int, table: RulesTable) -> Observation | None:
        seat = state.current_player()
        phase = state.phase
        if phase == AUCTION:
            return self._bid(state, seat, action)
        if phase == TRUMP:
            return self._trump(state, seat, action)
        if phase == DISCARD:
            return self._discard(state, seat, action)
        if phase == PLAY:
            n = state.game.num_players
            rules = rook_rules(state)
            trick = tuple(((state.leader + i) % n, c) for i, c in enumerate(state.trick))
            facts = CardPlay.of(rules, table.index(rules), trick, seat, n,
                                hand_rules(n).teams, played_cards(state))
            return Observation(seat, f"card:{'lead' if facts.leading else 'follow'}", action,
                               card=facts)
        return None

    def card_kinds(self, state):
        if state.is_terminal() or state.phase != PLAY:
            return None
        return rook_rules(state), (("card:lead", "card:follow"),)

    def _bid(self, state, seat: int, action: int) -> Observation | None:
        legal = state.legal_actions()
        if len(legal) < 2:
            return None
        f = {name: i for i, name in enumerate(BID_FEATURES)}
        auction = state.auction
        scale = 13 / state.game.hand_size
        partner = auction.high_bidder >= 0 and team_of(auction.high_bidder) == team_of(seat)
        lowest = auction.lowest_bid()
        acts = []
        for a in legal:
            if a == PASS:
                acts.append(Action())
                continue
            value = a - BID_BASE
            level = (value - 70) / 50
            acts.append(Action(base=((f["bias"], 1.0), (f["jump"], (value - lowest) / 10),
                                     (f["level"], level),
                                     (f["partner_high"], 1.0 if partner else 0.0)),
                               terms=_strength_terms(scale, level)))
        return Observation(seat, "bid", legal.index(action), tuple(acts))

    def _trump(self, state, seat: int, action: int) -> Observation:
        scale = 13 / state.game.hand_size
        acts = []
        for col in range(4):
            acts.append(Action(terms=(Term(0, scale / 13, _COLOURS[col]),
                                      Term(1, 1 / 4, _HIGH[col]),
                                      Term(2, 5 / 100, _COLOURS[col] & _RANK[5]),
                                      Term(2, 10 / 100, _COLOURS[col] & (_RANK[10] | _RANK[13])))))
        return Observation(seat, "trump", action - TRUMP_BASE, tuple(acts))

    def _discard(self, state, seat: int, action: int) -> Observation:
        acts = []
        taken = -1
        hand = state.hands[seat]
        m = hand
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            acts.append(Action(card=c, base=((0, card_count(c) / 10), (1, (c & 15) / 14),
                                             (3, 1.0 if c & 15 == 14 else 0.0)),
                               terms=(Term(2, 1 / 13, _COLOURS[c >> 4]),)))
            if DISCARD_BASE + c == action:
                taken = len(acts) - 1
        return Observation(seat, "discard", taken, tuple(acts))

    # ---- whose cards -------------------------------------------------------
    def hand(self, state, seat: int) -> int:
        return state.hands[seat]
