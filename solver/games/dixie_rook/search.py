"""dixie-rook: the Cython search of its card play, and the hand's score of
an exact solve: the solver counts the points a team captures (count, the
nest, the most-tricks bonus), the game scores the bid made or set."""

from __future__ import annotations

from ...cards import ROOK, mask_of
from ...cardset import popcount
from ...search.support import GameSupport, register
from .game import DixieRookGame
from .heuristic import DixieRookRules
from .kernel import native_rook_search
from .model import RookModel
from .notation import MOST_TRICKS_BONUS, PLAY, card_count, team_of


def _cards(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def deal_score(world, seat: int, captured: float) -> float:
    """The hand's score difference for ``seat``'s team (what ``round_returns``
    scores) when its team captures ``captured`` points (count, nest,
    most-tricks bonus; a tricks tie counted half, the cut's expectation):
    a bidder team short of its bid scores minus the bid."""
    in_play = sum(card_count(c) for h in world.hands for c in _cards(h))
    in_play += sum(card_count(c) for c in world.trick) + sum(card_count(c) for c in world.discards)
    pot = sum(world.count) + in_play + MOST_TRICKS_BONUS
    mine = team_of(seat)
    captured_by = {mine: captured, 1 - mine: pot - captured}
    bidder = team_of(world.bid_winner)
    score = dict(captured_by)
    if captured_by[bidder] < world.bid:
        score[bidder] = -world.bid
    return float(score[mine] - score[1 - mine])


class DixieRookSupport(GameSupport):
    heuristic = DixieRookRules
    leaf_cards = 5
    #: the searches weigh their worlds by the beliefs: measured stronger with
    #: four seats (docs/search.md, "Beliefs")
    inference = True

    def native(self, sampler, policy, keep, equivalence):
        return native_rook_search(sampler, policy, keep, equivalence)

    def opponent_model(self, game):
        return RookModel(game.num_players)

    def exact_values(self, world, seat, solution):
        return {world.string_to_action(a): deal_score(world, seat, v)
                for a, v in solution.action_values.items()}

    def exact_value(self, world, seat, solution):
        return deal_score(world, seat, solution.value)

    def exact_bracket(self, world, seat, lo, hi):
        # the score never falls as the team captures more (a bidder that
        # makes its bid scores more than one set by a point), so the ends
        # of the points' bracket score the ends of the score's
        return deal_score(world, seat, lo), deal_score(world, seat, hi)

    def card_rules(self, state):
        if state.phase != PLAY:
            return None
        dealt = mask_of(state.nest)
        for hand in state.initial_hands:
            dealt |= mask_of(hand)
        held = 0
        for hand in state.hands:
            held |= hand
        dead = dealt & ~held & ~mask_of(state.trick) & ~mask_of(state.discards)
        return ROOK.mask, state.table, dead, card_count, state.hands[state.current_player()]

    def probe_cards(self, game):
        # under 2 M nodes (PIMC's default bound) the solver takes a third
        # of the four-seat worlds at 40 cards in play and nearly all at 36;
        # over half of the six-seat ones at 42 (docs/solver.md, "Under PIMC")
        return 36 if game.num_players == 4 else 42

    def cards_in_play(self, world):
        if world.phase != PLAY:
            return None
        return sum(popcount(h) for h in world.hands) + len(world.trick)

    def hand_left(self, world):
        if world.phase != PLAY or world.trick:
            return None
        return bin(world.hands[world.current_player()]).count("1")


register(DixieRookGame, DixieRookSupport())
