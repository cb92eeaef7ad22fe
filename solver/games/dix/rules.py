"""dix's trick rules, declared once (``solver.trickrules.Rulebook``): two
seats, the dix deck, the turned-up card's suit trumps and the joker a trump
of its rank (a turned-up joker: no trumps, the joker out of play); every
trick +1 to its taker, a ten-trick (pips 10) ``1 - TEN_TRICK_PENALTY`` =
-3 instead; the round won lexicographically (the score difference, fewer
ten-tricks, the last trick: ``solver.dd.decode_dix``); following suit is
required but while the stock lasts under ``free_play_while_stock``.  The
double-dummy contract (``solver/games/dix/exact.py``), the opponent model's
rules (``solver/games/dix/model.py``) and the search kernel's table
(``solver/games/dix/kernel.py``) are derived from it."""

from __future__ import annotations

from functools import cache

from ...cards import JOKER, rank_of, suit_of
from ...trickrules import Rulebook
from .state import TEN_TRICK_PENALTY

#: the rules every round shares (the trump and the joker come with the deal)
DIX_RULES = Rulebook("dix", 2, (0, 1), deck="dix", trick_points=1, ten_total=10,
                     ten_points=1 - TEN_TRICK_PENALTY, objective="dix")


@cache
def round_rules(trump: int, joker_rank: int | None, free_play: bool = False) -> Rulebook:
    """A round's rules: ``trump`` -1 none, the joker a trump of
    ``joker_rank`` (None: out of play); ``free_play``: the game's
    ``free_play_while_stock``."""
    return DIX_RULES.with_deal(trump=trump, joker_rank=joker_rank,
                               free_play_while_stock=free_play)


def turn_up_rules(turn_up: int, free_play: bool = False) -> Rulebook:
    """The rules of a round whose turned-up card is ``turn_up``."""
    if turn_up == JOKER:
        return round_rules(-1, None, free_play)
    return round_rules(suit_of(turn_up), rank_of(turn_up), free_play)


def state_rules(state) -> Rulebook:
    """The rules of a dix state's round."""
    return turn_up_rules(state.turn_up, bool(state.game.options["free_play_while_stock"]))


__all__ = ["DIX_RULES", "round_rules", "state_rules", "turn_up_rules"]
