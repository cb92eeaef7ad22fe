# cython: language_level=3
"""Compact card-set kernel: 64-bit hand masks, trick winner, dix pips.

The pure-Python twin is ``solver/reference/cardset.py``; both are tested by
``tests/test_cardset.py`` on the same cases.  ``solver.cardset`` picks one.
"""
from libc.stdint cimport uint64_t, uint8_t
from bits cimport popcount as _popcount, lowest_bit as _lowest, dix_pips as _dix_pips, \
    trick_winner_c, suit_bits

IMPLEMENTATION = "cython"


cpdef int popcount(uint64_t mask):
    return _popcount(mask)


cpdef int lowest_bit(uint64_t mask):
    return _lowest(mask)


cpdef list cards_of(uint64_t mask):
    cdef list out = []
    while mask:
        out.append(_lowest(mask))
        mask &= mask - 1
    return out


cpdef uint64_t suit_cards(uint64_t mask, int suit):
    """The cards of ``suit`` in ``mask`` (never the joker)."""
    return mask & suit_bits(suit)


cpdef int dix_pips(int card):
    return _dix_pips(card)


cpdef int dix_trick_pips(object cards):
    cdef int total = 0
    for c in cards:
        total += _dix_pips(c)
    return total


cpdef int trick_winner(object cards, int trump, const uint8_t[::1] table):
    """Offset in ``cards`` of the trick's winner (``cards[0]`` led).

    ``table`` is a 128-byte rank table: ``table[c]`` the suit card ``c``
    counts as, ``table[64 + c]`` its strength (see ``solver.cardset``)."""
    cdef int buf[16]
    cdef int n = len(cards)
    cdef int i
    if n < 1 or n > 16:
        raise ValueError(f"a trick has 1..16 cards, got {n}")
    if table.shape[0] != 128:
        raise ValueError("rank table must have 128 entries")
    for i in range(n):
        buf[i] = cards[i]
        if buf[i] < 0 or buf[i] > 63:
            raise ValueError(f"card index {buf[i]} out of range")
    return trick_winner_c(buf, n, trump, &table[0], &table[64])
