"""The dix opponent model (``solver/beliefs.py``): every decision is a card
(``solver.cardplay``), in four kinds: ``card:lead:stock``,
``card:follow:stock`` while the stock lasts (following suit is then
required unless ``free_play_while_stock``), ``card:lead:end``,
``card:follow:end`` after it.  The rules as data are derived from the
round's rulebook (solver/games/dix/rules.py): the joker a trump ranking
where the turned-up card would, every trick worth +1 to its taker and a
ten-trick -3 (``special_sum`` 10, ``special_value`` -4).  The parameters, fitted to the strongest bot's play,
are in ``data/model-dix.json`` (``model-dix-seventeen.json`` for the
seventeen variant) with the command and seed that made them.

Rows (``DixWorldSampler``): one place a slot of the round's interval
sampler; the opponent's hand when it played in trick ``t`` is the cards of
the slots acquired by then (its initial hand, its draws after tricks before
``t``) less the cards it had played."""

from __future__ import annotations

from ...beliefs import Observation, OpponentModel, RulesTable
from ...cardplay import CARD_FEATURES, CardPlay, TrickRules
from ...trickrules import trick_rules
from .rules import state_rules


def dix_rules(state) -> TrickRules:
    """The round's trick rules, derived from its rulebook
    (solver/games/dix/rules.py)."""
    return trick_rules(state_rules(state))


class DixModel(OpponentModel):
    """The opponent model of dix (see the module docstring)."""

    features = {f"card:{p}:{w}": CARD_FEATURES for p in ("lead", "follow")
                for w in ("stock", "end")}

    def __init__(self, variant: str = "standard"):
        #: the seventeen variant (no stock) plays its own way: its own fit
        self.data = "model-dix.json" if variant == "standard" else f"model-dix-{variant}.json"


    def decision(self, state, action: int, table: RulesTable) -> Observation | None:
        rules = dix_rules(state)
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
        return dix_rules(state), (("card:lead:stock", "card:follow:stock"),
                                                     ("card:lead:end", "card:follow:end"))

    def hand(self, state, seat: int) -> int:
        return state.hands[seat]
