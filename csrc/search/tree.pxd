# The generic search's side of the compact-state interface (compile-time
# header, cimported by csrc/search/ismcts.pyx and by every game's header
# beside it): the table of game operations a game supplies (``Ops``), the
# tree node, and the small helpers the games share.  Each game's header
# (dix.pxd, trick.pxd, deal.pxd, rook.pxd, hand.pxd, exchange.pxd)
# declares its compact state and rules and fills one ``Ops`` per kind of
# search (trick.pxd two: a trick contract and the layout); ismcts.pyx
# holds each in a row of its ``GAMES`` table, and the tree code there only
# ever calls through the table.
from libc.stdint cimport uint64_t, int32_t, uint8_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from bits cimport popcount, lowest_bit
from rng cimport Rng, rng_below


cdef enum:
    #: bound on a compact state, in 64-bit words (the tree copies a state
    #: into a buffer this size every iteration)
    STATE_WORDS = 96
    #: bound on the seats of a game (one reward each)
    MAX_SEATS = 16
    #: batch means kept per root action and tree (see ismcts.pyx, batch_add)
    BATCH_SLOTS = 32


# The operations of a game on its compact state ``P`` under its rules ``R``
# (both opaque to the tree).  Actions are bit indices 0..63: a card's index,
# or, in a phase without cards, the game's own small numbering of that
# phase's choices (the phase is public, so the same tree node always sees
# the same kind of choice).
ctypedef uint64_t (*legal_fn)(const void* P, const void* R) noexcept nogil
ctypedef void (*apply_fn)(void* P, const void* R, int action) noexcept nogil
ctypedef int (*mover_fn)(const void* P) noexcept nogil
ctypedef int (*over_fn)(const void* P, const void* R) noexcept nogil
ctypedef void (*rewards_fn)(const void* P, const void* R, double* out) noexcept nogil
ctypedef void (*determinize_fn)(void* P, const void* R, void* sampler, Rng* r) noexcept nogil
ctypedef int (*playout_fn)(const void* P, const void* R, uint64_t legal, Rng* r) noexcept nogil
ctypedef uint64_t (*reduce_fn)(const void* P, const void* R, uint64_t legal, int root) noexcept nogil
ctypedef int (*prior_fn)(const void* P, const void* R, uint64_t legal) noexcept nogil
ctypedef int (*policy_fn)(const void* P, const void* R, uint64_t legal,
                          double* probs) noexcept nogil
ctypedef int (*value_fn)(const void* P, const void* R, int moves, double* out) noexcept nogil


cdef struct Ops:
    legal_fn legal
    apply_fn apply
    mover_fn mover
    over_fn over
    rewards_fn rewards         # every seat's reward in [-1, 1] once ``over``
    determinize_fn determinize # the hidden cards drawn from this thread's sampler
    playout_fn playout         # a play-out's move among the legal ones
    reduce_fn reduce           # the legal moves the tree searches (one per equivalent run)
    prior_fn prior             # NULL: UCB1 at every node; else the heuristic's move
                               # here (PUCT, see ismcts.pyx), -1 where UCB1 selects
    policy_fn policy           # NULL: no learned prior; else it fills ``probs[a]`` for
                               # each legal ``a`` and returns 1 (PUCT with that prior),
                               # or returns 0 where it has none (the node selects as
                               # without it); set by ``Search.set_policy``
    value_fn value             # NULL: play-outs go to the deal's end; else, called at
                               # each play-out move (``moves`` made so far), it fills
                               # every seat's estimated reward and returns 1 where the
                               # play-out stops there (``leaf=value``), 0 to play on;
                               # set by ``Search.set_value``
    size_t state_size


cdef struct Node:
    int32_t first_child
    int32_t next_sibling
    int32_t action
    int32_t mover              # the seat that moved into this node
    int32_t visits
    int32_t avail
    double total
    uint64_t tried             # actions with a child
    float psum                 # the learned prior's probabilities of this move summed
    int32_t pn                 # over the parent's first draws (see ismcts.pyx, POLICY_DRAWS)


cdef inline int random_bit(uint64_t m, Rng* r) noexcept nogil:
    """One set bit of ``m`` (not empty), uniformly."""
    cdef int k = rng_below(r, popcount(m))
    while k > 0:
        m &= m - 1
        k -= 1
    return lowest_bit(m)


cdef inline int nth_bit(uint64_t m, int k) noexcept nogil:
    """The ``k``-th lowest set bit of ``m`` (0-based; ``k`` < popcount)."""
    while k > 0:
        m &= m - 1
        k -= 1
    return lowest_bit(m)


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline uint64_t no_reduce(const void* P, const void* R, uint64_t L, int root) noexcept nogil:
    return L


cdef inline int random_playout(const void* P, const void* R, uint64_t L, Rng* r) noexcept nogil:
    return random_bit(L, r)


cdef inline uint64_t reduce_ranked(uint64_t L, uint64_t other, const int32_t* attr) noexcept nogil:
    """``L`` without the cards equivalent to a lower one of ``L`` in a game
    whose card is suit * 16 + rank with the rank its strength in the suit:
    two legal cards of a suit are equivalent when they score alike
    (``attr``) and no card of ``other`` (live cards of the other hands and
    the table) ranks between them (the mover's own cards between them never
    share a trick with either); each class keeps its lowest card."""
    cdef uint64_t m = L, between
    cdef int c, k, n = 0, p
    cdef int seen[16]
    while m:
        c = lowest_bit(m)
        m &= m - 1
        if n and (seen[0] >> 4) != (c >> 4):
            n = 0                           # a new suit
        k = n - 1
        while k >= 0 and attr[seen[k]] != attr[c]:
            k -= 1
        if k >= 0:
            p = seen[k]
            between = (((<uint64_t>1) << c) - 1) & ~(((<uint64_t>2) << p) - 1)
            if not (other & between):
                L &= ~((<uint64_t>1) << c)
        if n < 16:
            seen[n] = c
            n += 1
    return L


cdef inline double clamp1(double v) noexcept nogil:
    return 1.0 if v > 1.0 else (-1.0 if v < -1.0 else v)


cdef inline void shuffle_ints(int32_t* a, int n, Rng* r) noexcept nogil:
    """Fisher-Yates, in place."""
    cdef int i, j
    cdef int32_t t
    for i in range(n - 1, 0, -1):
        j = rng_below(r, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


cdef inline void card_tables(uint8_t* suit_of, uint8_t* strength) noexcept nogil:
    """A 16-per-suit deck's suit and rank tables (French and Rook cards:
    index = suit * 16 + rank), for ``bits.pxd``'s ``trick_winner_c``."""
    cdef int c
    for c in range(64):
        suit_of[c] = c >> 4
        strength[c] = c & 15
