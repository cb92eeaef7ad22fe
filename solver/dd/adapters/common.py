"""Helpers the game adapters share."""

from __future__ import annotations

from ...errors import PositionError, UnsupportedPositionError


def check_seat(seat, nseats: int) -> int:
    """A seat number 0..nseats-1 (a typed error otherwise)."""
    if isinstance(seat, bool) or not (isinstance(seat, int) and 0 <= seat < nseats):
        raise PositionError(f"seat must be 0..{nseats - 1}, got {seat!r}")
    return seat


def card_play_only(state, what: str) -> UnsupportedPositionError:
    return UnsupportedPositionError(
        f"{state.game.name}: solve() gives exact values of card play; this is {what}, "
        f"a decision before the cards are known to play out: use best_move / evaluate")
