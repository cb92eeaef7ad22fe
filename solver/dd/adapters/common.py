"""Helpers the game adapters share."""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

from ...errors import NAMED_SEAT, PositionError, SearchAborted, UnsupportedPositionError
from ...front import N_
from ...said import Quote, Said, Word, phrase

# the errors raised here (solver/errors.py: a code and its parameters)
CARD_PLAY_ONLY = phrase("card_play_only", N_(
    "{game}: solve() gives exact values of card play; this is {what}, a decision before the "
    "cards are known to play out: use best_move / evaluate"))
AFTER_MAXN = phrase("after_maxn", N_("{error} (after a max^n search of {spent:,} nodes)"))


def check_seat(seat, nseats: int) -> int:
    """A seat number 0..nseats-1 (a typed error otherwise)."""
    if isinstance(seat, bool) or not (isinstance(seat, int) and 0 <= seat < nseats):
        raise PositionError(NAMED_SEAT(name="seat", top=nseats - 1, got=Quote(seat)))
    return seat


def card_play_only(state, what: Said | Word) -> UnsupportedPositionError:
    """``solve()`` refusing a decision before the cards (``what``: which, a
    phrase or a message id in the game's own words)."""
    return UnsupportedPositionError(CARD_PLAY_ONLY(game=state.game.name, what=what))


def named_brackets(exc: SearchAborted, name: Callable[[int], str]) -> SearchAborted:
    """``exc`` with its brackets (card -> proved ``(lo, hi)``) keyed by
    ``name(card)``, the game's notation (the same exception, to raise
    again)."""
    if exc.brackets is not None:
        exc.brackets = MappingProxyType({name(c): b for c, b in exc.brackets.items()})
    return exc
