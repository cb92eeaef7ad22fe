"""The trix / tricks opponent model (``solver/beliefs.py``): how each
decision of a deal looks to the beliefs, and the parameters fitted to the
strongest bot's play (``data/model-trix.json``, ``data/model-tricks.json``;
the command and seed that made them are in each file).

Kinds of decision and their features:

* ``contract``: the chooser's contract, among the open ones; each contract
  its own bias and its own weights on the hand (expected tricks, hearts,
  the King of Hearts and whether it is short, queens and bare queens, high
  diamonds, diamonds, jacks, twos, threes and fours, aces);
* ``reveal:kinghearts``, ``reveal:queens`` (trix doubling): reveal a
  penalty card held (its suit's length, the cards held above and below it)
  or be done (the reference): a seat that holds the King of Hearts and does
  not double it says something, one that holds none says nothing;
* ``claim`` (tricks): order a redeal with a bad hand (a bias), or not;
* ``card:<contract>:lead`` / ``card:<contract>:follow``: a card in a trick
  contract (``solver.cardplay``: the penalties to the taker, doubled when
  revealed, and Ltoosh's -15 a trick; derived from the deal's rulebook,
  solver/games/contract_match/rules.py);
* ``layout``: a card placed in the layout (a jack, the own and the others'
  cards it opens the way to, its distance from the jack, the suit's length
  held).  A pass is forced (it proves no card fitted: a hard fact of the
  sampler), so it is not weighed.

Rows (``ContractWorldSampler``): one place a seat other than the viewer's,
holding its unseen cards now; a seat's hand at a decision of the deal in
play is its place plus the cards the view knows it held then (played later
or revealed)."""

from __future__ import annotations

from functools import cache

from ...beliefs import Action, Observation, OpponentModel, RulesTable, Term
from ...cardplay import CARD_FEATURES, CardPlay, TrickRules
from ...cards import ACE, DIAMONDS, FRENCH, HEARTS, JACK, KING, QUEEN, SUIT_RANK_MASK, make_card, mask_of
from ...trickrules import trick_rules
from .layout import LayoutDeal
from .rules import deal_rules
from .state import (
    CHOOSE,
    CLAIM,
    CONTRACT_BASE,
    DECLARE,
    LAYOUT_PLAY,
    PASS,
    REDEAL,
    REVEAL_BASE,
    REVEAL_DONE,
    TRICKS,
)
from .trick_play import KH, NUM_SEATS, PENALTY_RULES, TrickDeal
from .views import BAD_PATTERNS

#: the contracts' names in the model (the games name them their own way)
CONTRACT_KEYS = ("kinghearts", "queens", "diamonds", "ltoosh", "layout")


def _rank_mask(rank: int) -> int:
    return mask_of(make_card(s, rank) for s in range(4))


#: the chooser's hand, as counted features: name -> ((mask, coef) ...) or a
#: special shape below
_SUITS = [SUIT_RANK_MASK[s] & FRENCH.mask for s in range(4)]
_HEARTS = _SUITS[HEARTS]
_HIGH_DIAMONDS = mask_of(make_card(DIAMONDS, r) for r in range(10, ACE + 1))
HAND_FEATURES = ("tricks", "hearts", "kh", "kh_short", "queens", "queens_bare",
                 "high_diamonds", "diamonds", "jacks", "twos", "low", "aces")


def _hand_terms(block: dict[str, int]) -> list[Term]:
    """The chooser's hand features as terms (``block``: feature -> index)."""
    t = [Term(block["tricks"], 0.9 / 4, _rank_mask(ACE)),
         Term(block["tricks"], 0.65 / 4, _rank_mask(KING)),
         Term(block["tricks"], 0.4 / 4, _rank_mask(QUEEN)),
         Term(block["tricks"], 0.2 / 4, _rank_mask(JACK)),
         Term(block["hearts"], 1 / 13, _HEARTS),
         Term(block["kh"], 1.0, 1 << KH, 1, 1),
         Term(block["kh_short"], 1.0, 1 << KH, 1, 1, _HEARTS, 0, 3),
         Term(block["queens"], 1 / 4, _rank_mask(QUEEN)),
         Term(block["high_diamonds"], 1 / 5, _HIGH_DIAMONDS),
         Term(block["diamonds"], 1 / 13, _SUITS[DIAMONDS]),
         Term(block["jacks"], 1 / 4, _rank_mask(JACK)),
         Term(block["twos"], 1 / 4, _rank_mask(2)),
         Term(block["low"], 1 / 8, _rank_mask(3) | _rank_mask(4)),
         Term(block["aces"], 1 / 4, _rank_mask(ACE))]
    for s in range(4):
        t.append(Term(block["queens_bare"], 1 / 4, 1 << make_card(s, QUEEN), 1, 1, _SUITS[s], 0, 2))
    return t


CONTRACT_FEATURES = tuple(f"{k}.{f}" for k in CONTRACT_KEYS for f in ("bias",) + HAND_FEATURES)
REVEAL_FEATURES = ("bias", "suit_len", "above", "below")
LAYOUT_FEATURES = ("jack", "own_beyond", "others_beyond", "distance", "own_suit")
CLAIM_FEATURES = ("bias",)


def _beyond(card: int) -> int:
    """The cards of ``card``'s suit it opens the way to in the layout (a
    jack: the whole suit)."""
    s, r = card >> 4, card & 15
    if r == JACK:
        ranks = [x for x in range(2, ACE + 1) if x != JACK]
    elif r > JACK:
        ranks = list(range(r + 1, ACE + 1))
    else:
        ranks = list(range(2, r))
    return mask_of(make_card(s, x) for x in ranks)


class ContractModel(OpponentModel):
    """The opponent model of trix and tricks (see the module docstring)."""

    features = {"contract": CONTRACT_FEATURES, "claim": CLAIM_FEATURES,
                "layout": LAYOUT_FEATURES,
                **{f"reveal:{CONTRACT_KEYS[c]}": REVEAL_FEATURES for c in PENALTY_RULES},
                **{f"card:{CONTRACT_KEYS[c]}:{p}": CARD_FEATURES
                   for c in PENALTY_RULES for p in ("lead", "follow")}}

    def __init__(self, data: str):
        self.data = data


    # ---- what a decision looks like ------------------------------------
    def decision(self, state, action: int, table: RulesTable) -> Observation | None:
        phase = state.phase
        seat = state.current_player()
        if phase == TRICKS:
            return self._card(state, seat, action, table)
        if phase == LAYOUT_PLAY:
            return None if action == PASS else self._layout(state, seat, action)
        if phase == CHOOSE:
            legal = state.legal_actions()
            if len(legal) < 2:
                return None
            return Observation(seat, "contract", legal.index(action),
                               tuple(self._contract_action(a - CONTRACT_BASE) for a in legal))
        if phase == DECLARE:
            return self._reveal(state, seat, action)
        if phase == CLAIM:
            return Observation(seat, "claim", 1 if action == REDEAL else 0,
                               (Action(), Action(need=tuple(BAD_PATTERNS), base=((0, 1.0),))))
        return None

    @staticmethod
    @cache
    def _contract_action(contract: int) -> Action:
        key = CONTRACT_KEYS[contract]
        block = {f: CONTRACT_FEATURES.index(f"{key}.{f}") for f in ("bias",) + HAND_FEATURES}
        return Action(base=((block["bias"], 1.0),), terms=tuple(_hand_terms(block)))

    def _reveal(self, state, seat: int, action: int) -> Observation:
        rule = PENALTY_RULES[state.log.contract]
        acts = [Action()]
        taken = 0
        m = rule.mask & ~state.revealed
        while m:
            low = m & -m
            card = low.bit_length() - 1
            m ^= low
            suit = _SUITS[card >> 4]
            above = suit & ~((2 << card) - 1)
            acts.append(Action(card=card, base=((0, 1.0),),
                               terms=(Term(1, 1 / 13, suit), Term(2, 1.0, above),
                                      Term(3, 1 / 13, suit & ~above & ~low))))
            if action == REVEAL_BASE + card:
                taken = len(acts) - 1
        if action != REVEAL_DONE and taken == 0:
            raise ValueError(f"not a doubling action: {action}")
        return Observation(seat, f"reveal:{CONTRACT_KEYS[state.log.contract]}", taken,
                           tuple(acts))

    def _rules(self, state) -> TrickRules:
        return trick_rules(deal_rules(state))

    def card_kinds(self, state):
        if state.is_terminal() or state.phase != TRICKS:
            return None
        key = CONTRACT_KEYS[state.log.contract]
        return self._rules(state), ((f"card:{key}:lead", f"card:{key}:follow"),)

    def _card(self, state, seat: int, action: int, table: RulesTable) -> Observation:
        play: TrickDeal = state.log.play
        book = deal_rules(state)
        rules = trick_rules(book)
        trick = tuple(((play.leader + i) % NUM_SEATS, c) for i, c in enumerate(play.trick))
        facts = CardPlay.of(rules, table.index(rules), trick, seat, NUM_SEATS, book.teams,
                            play.played, book.must_follow, book.discard)
        lead = "lead" if facts.leading else "follow"
        return Observation(seat, f"card:{CONTRACT_KEYS[state.log.contract]}:{lead}", action,
                           card=facts)

    def _layout(self, state, seat: int, action: int) -> Observation:
        play: LayoutDeal = state.log.play
        played = mask_of(c for _, c in play.plays)
        acts = []
        taken = -1
        m = play.layout.fitting()
        while m:
            low = m & -m
            card = low.bit_length() - 1
            m ^= low
            beyond = _beyond(card)
            live = beyond & ~played
            r = card & 15
            acts.append(Action(card=card, base=((0, 1.0 if r == JACK else 0.0),
                                                (2, live.bit_count() / 6),
                                                (3, abs(r - JACK) / 6)),
                               terms=(Term(1, 1 / 6, beyond), Term(2, -1 / 6, live),
                                      Term(4, 1 / 13, _SUITS[card >> 4]))))
            if card == action:
                taken = len(acts) - 1
        if taken < 0:
            raise ValueError(f"not a fitting card: {action}")
        return Observation(seat, "layout", taken, tuple(acts))

    # ---- whose cards -------------------------------------------------------
    def hand(self, state, seat: int) -> int:
        play = state.log.play
        if play is not None:
            return play.hands[seat]
        return mask_of(state.log.hands[seat])


__all__ = ["CONTRACT_FEATURES", "ContractModel", "HAND_FEATURES", "LAYOUT_FEATURES",
           "REVEAL_FEATURES"]
