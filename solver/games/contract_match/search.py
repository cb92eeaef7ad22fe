"""trix and tricks (each registers its own key in its package's
``search``): the Cython searches of the trick contracts and the layout,
the contract choice judged over the kingdom (trix) or the dealer's set
(tricks), and where PIMC's exact solve is a poor model of the table."""

from __future__ import annotations

from ...cards import FRENCH, mask_of
from ...cardset import popcount
from ...dd import Solver
from ...dd.trick import TrickPosition, contract_of
from ...errors import SearchAborted
from ...search.pimc import native_module
from ...search.support import GameSupport, register
from ...trickrules import kernel_table
from .exact import maxn_tried
from .game import ContractGame
from .heuristic import ContractRules
from .kernel import native_contract_search
from .model import ContractModel
from .rules import deal_rules
from .state import CHOOSE, LAYOUT_PLAY, TRICKS
from .trick_play import PENALTY_RULES, RANK_TABLE
from .views import SeenDeal


class ContractSupport(GameSupport):
    heuristic = ContractRules
    leaf_cards = 5
    #: the baselines' key of this game (``trix`` adds ``:partners``)
    key = "contract"

    def native(self, sampler, policy, keep, equivalence):
        return native_contract_search(sampler, policy, keep, equivalence)

    def cheat_settings(self, game):
        # trix, 200 duplicate pairs against ismcts at 10,000 iterations
        # (docs/search.md, "The all-seeing player"): the search of the true world beats it
        # by +9.3 +- 4.7 a deal, where the paranoid solve plus that search
        # loses by -12.3 +- 5.2 (the paranoid value, three seats as one,
        # marks every card lost alike once the coalition can force a card);
        # max^n solves in the last seven tricks, +4.7 +- 4.4, lose to the
        # search alone head to head; in tricks the searching cheat beats
        # ismcts by +13.6 +- 3.7, the old one loses by -7.7 +- 4.3.  With
        # partners the solve is team minimax, the exact value of two
        # sides: with it the trix cheat beats the same cheat without it by
        # +33.5 +- 7.2 (and ismcts by +55.4 +- 11.0), so it stays on.
        if game.options.get("partners", False):
            return {"search": "ismcts"}
        return {"search": "ismcts", "exact": "off"}

    def kind_tried(self, world, kind):
        # partners: the solve gives team minimax, the exact value of two sides
        return kind != "maxn" or bool(world.game.options.get("partners")) or maxn_tried(world)

    def native_seen(self, state, policy, keep, equivalence):
        if state.is_terminal() or state.deal_logs[-1].hands is None:
            return None
        return native_contract_search(SeenDeal(state), policy, keep, equivalence)

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

    def native_playouts(self, world, seat, policy, leaf_nodes, solver=None):
        if policy != "rules" or world.is_terminal() or world.phase != TRICKS:
            return None
        mod = native_module()
        return None if mod is None else NativeTrickWorlds(mod, world, seat, leaf_nodes,
                                                          self.leaf_cards if leaf_nodes else 0,
                                                          solver)

    def probe_cards(self, game):
        # under 2 M nodes (PIMC's default bound) the solver takes few trix
        # and tricks worlds at 44 cards in play or more, and half or more
        # at 40 (docs/solver.md, "Under PIMC", has the figures and the script
        # that measured them)
        return 40

    def cards_in_play(self, world):
        if world.phase != TRICKS:
            return None
        play = world.log.play
        return sum(popcount(h) for h in play.hands) + len(play.trick)

    def hand_left(self, world):
        if world.phase != TRICKS or world.log.play.trick:
            return None
        return bin(world.log.play.hands[world.current_player()]).count("1")

    def opponent_model(self, game):
        # partners play as individuals do, but for their partner's tricks
        # (the card features' give_mate): one model a game
        return ContractModel(f"model-{game.name}.json")

    def baseline_key(self, game):
        return self.key + (":partners" if game.options.get("partners") else "")

    def is_contract_choice(self, state):
        return not state.is_terminal() and state.phase == CHOOSE


class NativeTrickWorlds:
    """PIMC's trick-contract play-outs in C (csrc/search/pimc.pyx,
    ``TrickWorlds``): the rules player at every seat; at a trick boundary
    where the seat to lead holds ``leaf_cards`` cards or fewer the rest is
    solved (``solver.dd``, the decision's solver, bounded by ``leaf_nodes``;
    past the bound the play-out goes on), as
    ``solver.search.pimc._rollout_values`` does.  The deal's rules
    (contract, reveals, must-discard: its rulebook,
    solver/games/contract_match/rules.py) are read from the decision's
    first world."""

    def __init__(self, mod, world, seat: int, leaf_nodes: int, leaf_cards: int, solver):
        book = deal_rules(world)
        table = kernel_table(book)
        self.round = world.round_index()
        self.contract = contract_of(book)
        self.seat, self.leaf_cards, self.leaf_nodes = seat, leaf_cards, leaf_nodes
        self.solver = solver
        self._worlds = mod.TrickWorlds(table["points"], table["revealer"], table["trick_points"],
                                       table["discard_mask"], table["penalty_mask"])

    def values(self, world, legal) -> dict:
        if world.round_index() != self.round:
            raise ValueError("a world of another deal than the decision's")
        play = world.log.play
        k = self.contract
        teams = k.team_ids
        so_far = world.round_returns()
        first = [k.teams.index(t) for t in teams]
        seat_team = k.teams[self.seat]
        solver = self.solver if self.solver is not None else Solver()
        out = {}
        for a in legal:
            st = self._worlds.run(play.hands, play.trick, play.leader, play.tricks_done, a,
                                  self.leaf_cards)
            value = None
            while True:
                leaf, hands, leader, done, points, tricks = st
                team_pts = [so_far[first[i]] + sum(points[s] for s in range(4)
                                                   if k.teams[s] == t)
                            for i, t in enumerate(teams)]
                if not leaf:
                    value = team_pts[teams.index(seat_team)]
                    break
                pos = TrickPosition(k, hands, leader, (), points=tuple(int(p) for p in team_pts),
                                    tricks=tuple(sum(play.tricks_won[s] + tricks[s]
                                                     for s in range(4) if k.teams[s] == t)
                                                 for t in teams))
                try:
                    # the position's value alone: one null-window driver
                    # from the leaf, not one for each of the leader's cards
                    value = solver.value(pos, max_team=seat_team, objective="own",
                                         max_nodes=self.leaf_nodes)
                    break
                except SearchAborted:
                    pass
                nxt = self._worlds.run(hands, (), leader, done, -1, self.leaf_cards, True)
                st = (nxt[0], nxt[1], nxt[2], nxt[3],
                      tuple(p + q for p, q in zip(points, nxt[4], strict=True)),
                      tuple(p + q for p, q in zip(tricks, nxt[5], strict=True)))
            out[a] = float(value)
        return out


register(ContractGame, ContractSupport())
