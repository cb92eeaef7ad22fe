# Inline 64-bit card-mask helpers shared by every kernel (cimported at
# compile time only: no runtime module).  Card index = suit * 16 + rank.
from libc.stdint cimport uint64_t, uint8_t, int32_t

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil


cdef inline int popcount(uint64_t m) noexcept nogil:
    return __builtin_popcountll(m)


cdef inline int lowest_bit(uint64_t m) noexcept nogil:
    """Index of the lowest set bit; -1 for an empty mask."""
    if m == 0:
        return -1
    return __builtin_ctzll(m)


cdef inline int highest_bit(uint64_t m) noexcept nogil:
    """Index of the highest set bit; -1 for an empty mask."""
    if m == 0:
        return -1
    return 63 - __builtin_clzll(m)


cdef inline uint64_t above_all(uint64_t mine, uint64_t others) noexcept nogil:
    """The cards of ``mine`` higher than every card of ``others`` (one
    suit's masks; all of ``mine`` when ``others`` is empty)."""
    if others == 0:
        return mine
    return mine & ~((<uint64_t>2 << highest_bit(others)) - 1)


cdef inline uint64_t suit_bits(int suit) noexcept nogil:
    """Bits 1..15 of a suit's 16-bit slot (never the joker at index 0)."""
    return (<uint64_t>0xFFFE) << (suit * 16)


cdef inline int dix_pips(int card) noexcept nogil:
    """Dix pips: A=1, 2..10 face value, J Q K and the joker (index 0) 0."""
    cdef int r = card & 15
    if r == 14:
        return 1
    if r >= 2 and r <= 10:
        return r
    return 0


cdef inline int trick_winner_c(const int* cards, int n, int trump,
                               const uint8_t* suit_of, const uint8_t* strength) noexcept nogil:
    """Offset (0..n-1) of the card that wins the trick ``cards[0..n-1]``.

    ``cards[0]`` is the lead.  ``suit_of[c]`` is the suit a card counts as
    (the dix joker counts as trumps), ``strength[c]`` its rank within that
    suit.  ``trump`` < 0 means no trumps.  The highest trump wins, else the
    highest card of the led suit."""
    cdef int best = 0
    cdef int best_suit = suit_of[cards[0]]
    cdef int i, c, s
    for i in range(1, n):
        c = cards[i]
        s = suit_of[c]
        if s == best_suit:
            if strength[c] > strength[cards[best]]:
                best = i
        elif s == trump:
            best = i
            best_suit = s
    return best
