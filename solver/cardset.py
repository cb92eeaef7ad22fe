"""Card-set kernel: the Cython module when built, else the pure-Python twin.

``DIXTRIX_PUREPYTHON=1`` in the environment forces the twin, so that the
same tests run on both (``tests/test_cardset.py``).
``IMPLEMENTATION`` says which one is in use ("cython" or "python").

A *rank table* (``make_rank_table``) is 128 bytes: entry ``c`` is the suit
card ``c`` counts as, entry ``64 + c`` its strength in that suit.  Plain
decks use the card's own suit and rank; dix puts the joker in the trump
suit with the turned-up card's rank.
"""

from __future__ import annotations

import os

if os.environ.get("DIXTRIX_PUREPYTHON", "") not in ("", "0"):
    from .reference.cardset import (
        IMPLEMENTATION,
        cards_of,
        dix_pips,
        dix_trick_pips,
        lowest_bit,
        popcount,
        suit_cards,
        trick_winner,
    )
else:
    try:
        from ._cardset import (
            IMPLEMENTATION,
            cards_of,
            dix_pips,
            dix_trick_pips,
            lowest_bit,
            popcount,
            suit_cards,
            trick_winner,
        )
    except ImportError as exc:  # pragma: no cover - only without a build
        raise ImportError(
            "the Cython extension solver._cardset is not built; install the package "
            "(pip install .) or set DIXTRIX_PUREPYTHON=1 for the pure-Python twin"
        ) from exc

__all__ = ["IMPLEMENTATION", "cards_of", "dix_pips", "dix_trick_pips", "lowest_bit",
           "popcount", "suit_cards", "trick_winner", "make_rank_table"]


def make_rank_table(joker_suit: int = -1, joker_rank: int = 0) -> bytes:
    """A rank table where every card counts as its own suit and rank; the
    joker (index 0), if ``joker_suit`` >= 0, counts as ``joker_suit`` with
    strength ``joker_rank``."""
    table = bytearray(128)
    for c in range(64):
        table[c] = c >> 4
        table[64 + c] = c & 15
    if joker_suit >= 0:
        table[0] = joker_suit
        table[64] = joker_rank
    else:
        table[0] = 255  # never a suit: the joker is not in play
    return bytes(table)
