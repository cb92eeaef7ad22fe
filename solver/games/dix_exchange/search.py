"""dix-exchange: its rules policy; PIMC plays its worlds out rather than
solving them, because the exact solve of a round is paranoid against every
other player at once (all of them conspiring to take the seat's token),
which values nearly every action alike, while play-outs by the rules
policies model the table."""

from __future__ import annotations

from ...search.support import GameSupport, register
from .game import DixExchangeGame
from .heuristic import DixExchangeRules
from .kernel import native_exchange_search
from .model import ExchangeModel


class DixExchangeSupport(GameSupport):
    heuristic = DixExchangeRules

    def native(self, sampler, policy, keep, equivalence):
        return native_exchange_search(sampler, policy, keep, equivalence)

    def root_solve(self, world):
        return False

    def opponent_model(self, game):
        return ExchangeModel()


register(DixExchangeGame, DixExchangeSupport())
