# The dix solver's context (header only: cimported at compile time, no
# runtime module): one C struct that the search, bounds, table and move
# ordering units (csrc/dd/dixsearch.pxd, dixbounds.pxd, dixtable.pxd,
# dixorder.pxd) work on, and the trick helpers of two-seat dix in slot
# space (docs/solver.md, "The dix solver").  ``solver.dd._dixdd.DixSolver``
# (csrc/dd/dixkernel.pxi) owns one, allocated once with its table.
from libc.stdint cimport uint64_t, uint32_t, uint8_t, uint16_t, int32_t
from libc.string cimport memset
from trickstate cimport mix64
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



# loading a position (the kernel class's ``load`` and PIMC's native dix
# play-outs, csrc/search/pimc.pyx, share them)

cdef inline void dix_set_rules(DixCtx* D, int trump, int joker_slot) noexcept nogil:
    """The rules of a round in slot space: the trump suit (-1 none) and the
    joker's slot (-1: not in play); the pip tables and the rules'
    fingerprint.  Set the switches (``D.st``) first: the key kind is part of
    the fingerprint."""
    cdef int s, r, p, q
    cdef uint64_t m
    D.trump = trump
    D.jbit = (<uint64_t>1) << joker_slot if joker_slot >= 0 else 0
    for s in range(4):
        D.suitm[s] = (<uint64_t>0xFFFF) << (16 * s)
    for p in range(11):
        D.pipm[p] = 0
    for s in range(64):
        r = s & 15
        if r == 14:
            p = 1
        elif 2 <= r <= 10:
            p = r
        else:
            p = 0
        if joker_slot >= 0 and s == joker_slot:
            p = 0
        D.pip[s] = p
        D.pipm[p] |= (<uint64_t>1) << s
    for q in range(2048):
        m = 0
        for p in range(11):
            if (q >> (10 - p)) & 1:
                m |= D.pipm[p]
        D.livetab[q] = m
    # the rules' fingerprint, mixed into every key: an entry is only
    # found under the trump and joker it was proved with
    D.rules_key = mix64((<uint64_t>(trump + 2) * <uint64_t>0x9e3779b97f4a7c15)
                        ^ (<uint64_t>(joker_slot + 2) << 20)
                        ^ (<uint64_t>relative_keys(D) << 40))


cdef inline void dix_set_position(DixCtx* D, uint64_t hand0, uint64_t hand1, int to_move,
                                  int lead_slot) noexcept nogil:
    """A position under the rules ``dix_set_rules`` set: the two hands in
    slot space, the seat to move and the slot on the table (-1: it leads);
    the node count and the history start afresh (the table is kept)."""
    D.hands[0] = hand0
    D.hands[1] = hand1
    D.root_seat = to_move
    D.root_lead = lead_slot
    memset(D.hist, 0, sizeof(D.hist))
    D.nodes = 0
    D.aborted = 0
