"""trix and tricks (each registers its own key in its package's
``search``): the Cython searches of the trick contracts and the layout,
the contract choice judged over the kingdom (trix) or the dealer's set
(tricks), and where PIMC's exact solve is a poor model of the table."""

from __future__ import annotations

from ...cards import FRENCH, mask_of
from ...search.support import GameSupport, register
from .game import ContractGame
from .heuristic import ContractRules
from .kernel import native_contract_search
from .state import CHOOSE, LAYOUT_PLAY, TRICKS
from .trick_play import PENALTY_RULES, RANK_TABLE


class ContractSupport(GameSupport):
    heuristic = ContractRules
    leaf_cards = 5
    #: the baselines' key of this game (``trix`` adds ``:partners``)
    key = "contract"

    def native(self, sampler, policy, keep, equivalence):
        return native_contract_search(sampler, policy, keep, equivalence)

    def card_rules(self, state):
        if state.phase != TRICKS:
            return None
        log = state.log
        play = log.play
        rule = PENALTY_RULES[log.contract]
        revealer = {card: seat for seat, card in log.reveals}

        def attribute(card: int):
            return (rule.mask >> card & 1, revealer.get(card, -1))

        hand = play.hands[state.current_player()]
        return FRENCH.mask, RANK_TABLE, play.played & ~mask_of(play.trick), attribute, hand

    def root_solve(self, world):
        # the individual layout: the paranoid solve (three seats blocking the
        # fourth) values most cards alike and plays worse than play-outs
        return world.game.partnership or world.phase != LAYOUT_PLAY

    def hand_left(self, world):
        if world.phase != TRICKS or world.log.play.trick:
            return None
        return bin(world.log.play.hands[world.current_player()]).count("1")

    def baseline_key(self, game):
        return self.key + (":partners" if game.options.get("partners") else "")

    def is_contract_choice(self, state):
        return not state.is_terminal() and state.phase == CHOOSE


register(ContractGame, ContractSupport())
