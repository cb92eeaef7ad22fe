# The dix solver's context (header only: cimported at compile time, no
# runtime module): one C struct that the search, bounds, table and move
# ordering units (csrc/dd/dixsearch.pxd, dixbounds.pxd, dixtable.pxd,
# dixorder.pxd) work on, and the trick helpers of two-seat dix in slot
# space (docs/solver.md, "The dix solver").  ``solver.dd._dixdd.DixSolver``
# (csrc/dd/dixkernel.pxi) owns one, allocated once with its table.
from libc.stdint cimport uint64_t, uint32_t, uint8_t, uint16_t, int32_t
from ttable cimport TTEntry
from ddstats cimport DD_STATS, DixStats, DIX_ORDER_DEFAULT

cdef enum:
    BUCKET = 4
    INF = 1000000
    MAXPLY = 48
    MAXMOVES = 24
    NO_CARD = 255
    WIN = 256           # a normal trick, to its taker
    TEN = 772           # what a ten-trick costs its taker: 3 * 256 + 4
    DIFF = 256          # one point of score difference

# table entries (csrc/include/ttable.pxd): bounds of the future value in the
# mover's view, the best slot, depth = cards left in both hands
ctypedef TTEntry Entry


ctypedef struct DixCtx:
    Entry* tt
    uint64_t nbuckets
    uint64_t tt_mask
    uint16_t gen                # the table generation: entries of another are invisible
    uint64_t rules_key          # trump, joker and key kind's fingerprint, in every key
    uint64_t nodes
    uint64_t max_nodes
    bint aborted
    bint interrupted            # a signal handler raised (Ctrl-C): re-raise it
    int trump                   # -1: no trumps
    uint64_t jbit               # the joker's slot bit (0: not in play)
    uint64_t hands[2]
    uint64_t suitm[4]
    uint64_t pipm[11]           # slots whose pips are p
    uint64_t livetab[2048]      # pip set of the other side -> slots that pair
    uint8_t pip[64]
    uint8_t moves[MAXPLY][MAXMOVES]
    int32_t scores[MAXPLY][MAXMOVES]
    int32_t hist[2][64]
    int root_seat
    int root_lead               # slot on the table at the root, or -1
    DixStats st                 # switches and counters (read only when DD_STATS)


# the switches: their shipped values unless DD_STATS

cdef inline bint relative_keys(DixCtx* D) noexcept nogil:
    if DD_STATS:
        return D.st.relative_keys
    return 1


cdef inline bint follow_tt(DixCtx* D) noexcept nogil:
    if DD_STATS:
        return D.st.follow_tt
    return 0


cdef inline int driver(DixCtx* D) noexcept nogil:
    if DD_STATS:
        return D.st.driver
    return 1


cdef inline int exact_k(DixCtx* D) noexcept nogil:
    if DD_STATS:
        return D.st.exact_k
    return 4


cdef inline int dix_order(DixCtx* D) noexcept nogil:
    if DD_STATS:
        return D.st.order
    return DIX_ORDER_DEFAULT


cdef inline int trick_bounds(DixCtx* D) noexcept nogil:
    if DD_STATS:
        return D.st.trick_bounds
    return 3


cdef inline uint32_t pipset(DixCtx* D, uint64_t m) noexcept nogil:
    """Bit p set if ``m`` holds a card of p pips."""
    cdef uint32_t out = 0
    cdef uint64_t r
    if m & D.jbit:
        out = 1
        m &= ~D.jbit
    r = (m | (m >> 16) | (m >> 32) | (m >> 48)) & 0xFFFF
    out |= (<uint32_t>r & 0x7FC) | ((<uint32_t>r >> 13) & 2)
    if r & 0x3800:
        out |= 1
    return out


cdef inline uint64_t live(DixCtx* D, uint64_t mine, uint64_t theirs) noexcept nogil:
    """The cards of ``mine`` that make ten with some card of ``theirs``."""
    return mine & D.livetab[pipset(D, theirs)]


cdef inline bint beats(DixCtx* D, int lead, int reply) noexcept nogil:
    """Whether the follower's ``reply`` takes the trick led by ``lead``."""
    if (reply >> 4) == (lead >> 4):
        return reply > lead
    return (reply >> 4) == D.trump


cdef inline int trick_for_leader(DixCtx* D, int lead, int reply) noexcept nogil:
    """The leader's value of the trick ``lead``, ``reply`` (not the last)."""
    cdef int t = -TEN if D.pip[lead] + D.pip[reply] == 10 else WIN
    return -t if beats(D, lead, reply) else t


cdef inline void bump(DixCtx* D, int me, int c, int k) noexcept nogil:
    cdef int32_t* h = D.hist[me]
    cdef int i
    h[c] += k * k
    if h[c] > 1000:         # below one ordering step (1024)
        for i in range(64):
            h[i] >>= 1

