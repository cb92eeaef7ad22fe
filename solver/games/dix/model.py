"""The dix opponent model (``solver/beliefs.py``): every decision is a card
(``solver.cardplay``), in four kinds: ``card:lead:stock``,
``card:follow:stock`` while the stock lasts (following suit is then
required unless ``free_play_while_stock``), ``card:lead:end``,
``card:follow:end`` after it.  The rules as data: the rank table of the
round (the joker a trump ranking where the turned-up card would), every
trick worth +1 to its taker and a ten-trick -3 (``special_sum`` 10,
``special_value`` -4).  The parameters, fitted to the strongest bot's play,
are in ``data/model-dix.json`` (``model-dix-seventeen.json`` for the
seventeen variant) with the command and seed that made them.

Rows (``DixWorldSampler``): one place a slot of the round's interval
sampler; the opponent's hand when it played in trick ``t`` is the cards of
the slots acquired by then (its initial hand, its draws after tricks before
``t``) less the cards it had played."""

from __future__ import annotations

from functools import cache

from ...beliefs import Observation, OpponentModel, RulesTable
from ...cardplay import CARD_FEATURES, CardPlay, TrickRules
from ...cards import DIX
from ...cardset import dix_pips

#: a trick is worth +1 to its taker; a ten-trick -3 (``TEN_TRICK_PENALTY``)
TRICK_VALUE = 1.0
TEN_VALUE = -4.0


@cache
def dix_rules(table: bytes, trump: int) -> TrickRules:
    """The round's trick rules (``table``: the round's rank table)."""
    suit = tuple(table[c] if DIX.mask >> c & 1 and table[c] != 255 else -1 for c in range(64))
    strength = tuple(table[64 + c] for c in range(64))
    return TrickRules(suit, strength, trump, (0.0,) * 64, TRICK_VALUE, 3.0,
                      tuple(dix_pips(c) if DIX.mask >> c & 1 else 0 for c in range(64)),
                      10, TEN_VALUE)


class DixModel(OpponentModel):
    """The opponent model of dix (see the module docstring)."""

    features = {f"card:{p}:{w}": CARD_FEATURES for p in ("lead", "follow")
                for w in ("stock", "end")}

    def __init__(self, variant: str = "standard"):
        #: the seventeen variant (no stock) plays its own way: its own fit
        self.data = "model-dix.json" if variant == "standard" else f"model-dix-{variant}.json"


    def decision(self, state, action: int, table: RulesTable) -> Observation | None:
        rules = dix_rules(state.table, state.trump)
        seat = state.current_player()
        trick = tuple(((state.leader + i) % 2, c) for i, c in enumerate(state.trick))
        out = state.played | (1 << state.turn_up)
        facts = CardPlay.of(rules, table.index(rules), trick, seat, 2, (0, 1), out,
                            state._must_follow())
        stock = "stock" if state.stock_pos < len(state.stock) else "end"
        return Observation(seat, f"card:{'lead' if facts.leading else 'follow'}:{stock}",
                           action, card=facts)

    def card_kinds(self, state):
        if state.is_terminal():
            return None
        return dix_rules(state.table, state.trump), (("card:lead:stock", "card:follow:stock"),
                                                     ("card:lead:end", "card:follow:end"))

    def hand(self, state, seat: int) -> int:
        return state.hands[seat]
