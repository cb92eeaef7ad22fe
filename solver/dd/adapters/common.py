"""Helpers the game adapters share."""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

from ...errors import PositionError, SearchAborted, UnsupportedPositionError


def check_seat(seat, nseats: int) -> int:
    """A seat number 0..nseats-1 (a typed error otherwise)."""
    if isinstance(seat, bool) or not (isinstance(seat, int) and 0 <= seat < nseats):
        raise PositionError(f"seat must be 0..{nseats - 1}, got {seat!r}")
    return seat


def card_play_only(state, what: str) -> UnsupportedPositionError:
    return UnsupportedPositionError(
        f"{state.game.name}: solve() gives exact values of card play; this is {what}, "
        f"a decision before the cards are known to play out: use best_move / evaluate")


def named_brackets(exc: SearchAborted, name: Callable[[int], str]) -> SearchAborted:
    """``exc`` with its brackets (card -> proved ``(lo, hi)``) keyed by
    ``name(card)``, the game's notation (the same exception, to raise
    again)."""
    if exc.brackets is not None:
        exc.brackets = MappingProxyType({name(c): b for c, b in exc.brackets.items()})
    return exc
