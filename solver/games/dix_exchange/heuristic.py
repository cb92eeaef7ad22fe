"""The dix-exchange heuristic player (it sees only its information state).

* Its own turn (not the dealer): ask to exchange when its card is a 2 or
  lower (the Chat-Joker counts as the Lion: lowest), keep otherwise.  A
  random card from the 55-card deck is worth about 3.6, so a 3 is kept.
* Asked for its card: with a 6-10 it blocks (a blocking card keeps a high
  card, and Loup and Putois cost the asker a token); otherwise accepting is
  forced anyway.
* The dealer: draws from the stock with a 2 or lower, keeps otherwise.
"""

from __future__ import annotations

from ...search.heuristics.policy import Policy
from .notation import ACCEPT, ASK, BLOCK, DRAW, KEEP, RANK, VALUE_INDEX

ASK_AT_OR_BELOW = 2


class DixExchangeRules(Policy):
    name = "rules"

    def step(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        card = state.information_state(self.seat).known["card"]
        rank = RANK[VALUE_INDEX[card]]
        blocks = [a for a in legal if a >= BLOCK]
        if blocks:
            return blocks[0]
        if ASK in legal:
            return ASK if rank <= ASK_AT_OR_BELOW else KEEP
        if DRAW in legal:
            return DRAW if rank <= ASK_AT_OR_BELOW else KEEP
        return ACCEPT if ACCEPT in legal else legal[0]
