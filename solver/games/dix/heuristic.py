"""The dix heuristic player.

It sees only its information state.  A ten-trick costs its *taker*, so:

* Following, each legal card is scored by the trick it makes, from the
  follower's side: lose a ten-trick (+3: the leader takes -3), win a plain
  trick (+1), lose a plain trick (-1), win a ten-trick (-3).  Ties: win with
  the cheapest winning card; lose with the least useful card (low pips that
  do not block, never a trump or a 9/10 if avoidable).
* Leading, prefer a card the opponent is least able to answer with its
  ten-complement: count the unseen cards whose pips complete it to ten
  (courts need a 10, an ace a 9, a 5 another 5 ...); then prefer a card of a
  long plain suit, low rather than high, and keep trumps, 9s and 10s (the
  seed's "powerful cards" that stop the opponent leading aces and courts).
"""

from __future__ import annotations

from ...cards import DIX, JOKER, rank_of
from ...cardset import dix_pips, trick_winner
from ...search.heuristics.policy import Policy


def _complement(pips: int) -> int:
    return 10 - pips if 0 <= 10 - pips <= 10 else -1


class DixRules(Policy):
    name = "rules"

    def step(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        info = state.information_state(self.seat)
        known = info.known
        trump = state.trump            # public: from the turn-up
        table = state.table            # public rank table of the round
        if known["trick"]:
            lead = DIX.parse(known["trick"][0])
            return max(legal, key=lambda c: self._follow_score(c, lead, trump, table))
        unseen = self._unseen(info)
        return min(legal, key=lambda c: self._lead_cost(c, unseen, legal, trump, table))

    def _follow_score(self, card, lead, trump, table):
        wins = trick_winner([lead, card], trump, table) == 1
        ten = dix_pips(lead) + dix_pips(card) == 10
        outcome = (-3 if ten else 1) if wins else (3 if ten else -1)
        strength = table[64 + card] + (20 if table[card] == trump else 0)
        keep = self._keep_value(card, trump, table)
        # win cheaply; lose with what we value least
        return (outcome, -strength if wins else -keep)

    @staticmethod
    def _keep_value(card, trump, table):
        value = table[64 + card]
        if table[card] == trump:
            value += 20
        if dix_pips(card) in (9, 10):
            value += 10
        return value

    @staticmethod
    def _unseen(info):
        view = info.view
        rnd = view["deal"]["rounds"][-1]
        seen = set(info.known["hand"].split()) | {rnd["turn_up"]}
        seen |= set(view["actions"])
        return [c for c in DIX.cards if DIX.to_string(c) not in seen]

    def _lead_cost(self, card, unseen, legal, trump, table):
        comp = _complement(dix_pips(card))
        danger = sum(1 for u in unseen if dix_pips(u) == comp and comp >= 0)
        suit_len = sum(1 for c in legal if table[c] == table[card])
        return (danger, self._keep_value(card, trump, table), -suit_len, rank_of(card),
                card == JOKER)
