"""The dix-exchange opponent model (``solver/beliefs.py``): every decision
is about the one card the seat holds (its value, as one bit of a mask).
The parameters, fitted to the strongest bot's play, are in
``data/model-dix-exchange.json`` with the command and seed that made them.

Kinds of decision and their features:

* ``turn``: a seat other than the dealer keeps (the reference) or asks;
  asking weighs the card's rank, whether it is low (2 or less), middling
  (3 to 5) or the Chat-Joker, and the seats still to play after it (a
  later seat keeps more often: fewer exchanges can reach its card) and its
  tokens;
* ``respond``: a seat asked for its card accepts (the reference) or, with a
  6 to 10, blocks with it: each blocking value its own weight (a Loup and a
  Putois cost the asker a token, a Hotel or Hibou only cancel, a
  Saute-lapin passes the request on); a seat that accepts with a 6 to 10
  says so, one with 5 or less had no choice;
* ``dealer``: the dealer keeps (the reference) or swaps with the stock, as
  a turn (without the seats after it).

The view places the card a seat held at each decision: the stock position
it held (public: every exchange is), one place of the sampler's rows; a
position the viewer has seen tells nothing and is not weighed."""

from __future__ import annotations

from ...beliefs import (
    Action,
    Observation,
    OpponentModel,
    RulesTable,
    Term,
)
from .notation import ACCEPT, ASK, BLOCK, CHAT_JOKER, DRAW, MIN_BLOCK_RANK, RANK, RESPOND

#: each value index's bit
_BIT = [1 << v for v in range(len(RANK))]
_LOW = sum(_BIT[v] for v in range(len(RANK)) if RANK[v] <= 2 and v != CHAT_JOKER)
_MID = sum(_BIT[v] for v in range(len(RANK)) if 3 <= RANK[v] <= 5)
_BLOCKERS = [v for v in range(len(RANK)) if RANK[v] >= MIN_BLOCK_RANK]

TURN_FEATURES = ("bias", "rank", "low", "mid", "joker", "after", "tokens")
RESPOND_FEATURES = tuple(f"block{RANK[v]}" for v in _BLOCKERS)
DEALER_FEATURES = ("bias", "rank", "low", "mid", "joker", "tokens")


def _card_terms(rank: int, low: int, mid: int, joker: int) -> tuple[Term, ...]:
    """The card's terms (feature indices of ``rank``, ``low``, ``mid``,
    ``joker``)."""
    terms = [Term(rank, RANK[v] / 10, _BIT[v]) for v in range(len(RANK)) if RANK[v]]
    return tuple(terms + [Term(low, 1.0, _LOW), Term(mid, 1.0, _MID),
                          Term(joker, 1.0, _BIT[CHAT_JOKER])])


_TURN_TERMS = _card_terms(1, 2, 3, 4)
_DEALER_TERMS = _card_terms(1, 2, 3, 4)


def describe(phase: str, seat: int, dealer: int, action: int, turn: int, tokens: int,
             seats: int) -> Observation:
    """A decision's description from its public facts: ``phase`` (turn or
    respond), the seat and the dealer, its place ``turn`` in the turn order
    of ``seats`` seats and its ``tokens``."""
    if phase == RESPOND:
        acts = [Action()] + [Action(card=v, base=((i, 1.0),)) for i, v in enumerate(_BLOCKERS)]
        taken = 0 if action == ACCEPT else 1 + _BLOCKERS.index(action - BLOCK)
        return Observation(seat, "respond", taken, tuple(acts))
    if seat == dealer:
        acts = [Action(), Action(base=((0, 1.0), (5, tokens / 3)), terms=_DEALER_TERMS)]
        return Observation(seat, "dealer", 1 if action == DRAW else 0, tuple(acts))
    after = (seats - 1 - turn) / 11
    acts = [Action(), Action(base=((0, 1.0), (5, after), (6, tokens / 3)), terms=_TURN_TERMS)]
    return Observation(seat, "turn", 1 if action == ASK else 0, tuple(acts))


class ExchangeModel(OpponentModel):
    """The opponent model of dix-exchange (see the module docstring)."""

    features = {"turn": TURN_FEATURES, "respond": RESPOND_FEATURES, "dealer": DEALER_FEATURES}
    data = "model-dix-exchange.json"


    def decision(self, state, action: int, table: RulesTable) -> Observation | None:
        seat = state.current_player()
        return describe(state.phase, seat, state.dealer, action, state.turn,
                        state.tokens[seat], len(state.order))

    def hand(self, state, seat: int) -> int:
        return _BIT[state.value(state.hand[seat])]
