"""Dix: the Cython search of its card play, and the round result of an
exact solve (the round's winner breaks a tied score by half a point, as
``DixState.round_returns`` does)."""

from __future__ import annotations

from ...cards import DIX, mask_of
from ...cardset import dix_pips
from ...search.pimc import native_module
from ...search.support import GameSupport, register
from .game import DixGame
from .heuristic import DixRules
from .kernel import DIX_VALUE_FEATURES, dix_value_features, native_dix_search
from .model import DixModel


class DixSupport(GameSupport):
    heuristic = DixRules
    leaf_cards = 6
    #: the learned policy at every card node: stronger at equal time in both
    #: variants (0.05 s a decision, one tree: +3.6 +- 1.1 points a round over
    #: 200 duplicate pairs, seventeen +2.0 +- 0.9 over 130; docs/search.md,
    #: "Learned play measured")
    prior = "learned"
    value_twin = staticmethod(dix_value_features)
    value_kind = "dix"
    value_features = DIX_VALUE_FEATURES

    def native(self, sampler, policy, keep, equivalence):
        return native_dix_search(sampler, policy, keep, equivalence)

    def opponent_model(self, game):
        return DixModel(game.options["variant"])

    @staticmethod
    def _round_result(value: float, winner: int, seat: int) -> float:
        if value == 0:
            return 0.5 if winner == seat else -0.5
        return float(value)

    def exact_values(self, world, seat, solution):
        return {world.string_to_action(a): self._round_result(v, solution.action_winners[a], seat)
                for a, v in solution.action_values.items()}

    def exact_value(self, world, seat, solution):
        return self._round_result(solution.value, solution.round_winner, seat)

    def exact_bracket(self, world, seat, lo, hi):
        # a score difference of 0 is a round the tie-break decides either
        # way (+-0.5, ``_round_result``), which a bracket's end does not know
        return (-0.5 if lo == 0 else float(lo)), (0.5 if hi == 0 else float(hi))

    def card_rules(self, state):
        # the turned-up card is set aside for the round: never in play
        deck = DIX.mask & ~(1 << state.turn_up)
        dead = state.played & ~mask_of(state.trick)
        hand = state.hands[state.current_player()]
        # the pips the other side's cards still in play have (unseen, stock,
        # the table): a card's pips matter only if one of them makes ten with it
        other = {dix_pips(c) for c in range(64) if (deck & ~dead & ~hand) >> c & 1}

        def attribute(card: int):
            pips = dix_pips(card)
            return pips if 10 - pips in other else None

        return deck, state.table, dead, attribute, hand

    def native_playouts(self, world, seat, policy, leaf_nodes, solver=None):
        if policy != "rules" or world.is_terminal():
            return None
        mod = native_module()
        return None if mod is None else NativeDixWorlds(mod, world, seat, leaf_nodes,
                                                        self.leaf_cards if leaf_nodes else 0)

    def hand_left(self, world):
        if world.trick or (world.game.options["variant"] != "seventeen"
                           and world.tricks_done < 13):
            return None
        return bin(world.hands[world.current_player()]).count("1")


class NativeDixWorlds:
    """PIMC's dix play-outs in C (csrc/search/pimc.pyx): the rules player
    at both seats, the last ``leaf_cards`` tricks solved.  The round's
    public facts (trump, turn-up, rank table) are read once, from the
    decision's first world."""

    def __init__(self, mod, world, seat: int, leaf_nodes: int, leaf_cards: int):
        game = world.game
        self.round = world.round_index()
        self._worlds = mod.DixWorlds(bytes(world.table), world.trump, world.turn_up, DIX.mask,
                                     len(world.stock), game.tricks_per_round,
                                     bool(game.options["free_play_while_stock"]), seat,
                                     leaf_cards, leaf_nodes)

    def values(self, world, legal) -> dict:
        if world.round_index() != self.round:
            raise ValueError("a world of another round than the decision's")
        return self._worlds.values(tuple(world.hands), tuple(world.stock), world.stock_pos,
                                   world.leader, world.trick[0] if world.trick else -1,
                                   world.tricks_done, tuple(world.tricks_won),
                                   tuple(world.tens), world.last_winner,
                                   mask_of(world.history()), legal)


register(DixGame, DixSupport())
