"""dixie-rook's trick rules, declared once (``solver.trickrules.Rulebook``):
4 or 6 seats in two teams by parity, the rook deck (colours, 14 high), the
named colour trumps; each card's count (``card_count``) to its taker, the
nest's count to the last trick's taker with one trick more, most tricks
``MOST_TRICKS_BONUS`` (a tie: half each, the expectation of the fair cut).
The double-dummy contract (``solver/games/dixie_rook/exact.py``), the
opponent model's rules (``solver/games/dixie_rook/model.py``) and the
search kernel's table (``solver/games/dixie_rook/kernel.py``) are derived
from it."""

from __future__ import annotations

from functools import cache

from ...cards import ROOK
from ...trickrules import Rulebook
from .notation import MOST_TRICKS_BONUS, card_count


@cache
def hand_rules(nseats: int, trump: int = -1, nest_count: int = 0) -> Rulebook:
    """A hand's rules: ``trump`` the colour named (-1: not yet), the
    nest's count ``nest_count``."""
    return Rulebook("dixie-rook", nseats, tuple(s % 2 for s in range(nseats)), deck="rook",
                    trump=trump, card_points=tuple((c, card_count(c)) for c in ROOK.cards),
                    last_points=nest_count, last_extra_tricks=1,
                    most_tricks_bonus=MOST_TRICKS_BONUS)


def state_rules(state) -> Rulebook:
    """The rules of a dixie-rook state's hand in play (its nest's count
    the discards')."""
    return hand_rules(state.game.num_players, state.trump,
                      sum(card_count(c) for c in state.discards))


__all__ = ["hand_rules", "state_rules"]
