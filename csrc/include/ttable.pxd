# The exact-key transposition table shared by the generic kernel
# (csrc/dd/dd.pyx) and the dix solver (csrc/dd/dixdd.pyx): its entry, allocation,
# generation stamp, lookup and store (issue #12: they were two copies).
# Header only (inline helpers, cimported at compile time; no runtime module).
#
# Layout: buckets of ``nb`` entries of 16 bytes (4 a bucket: one cache line),
# chosen by a first 64-bit hash of the key; an entry is recognised by a second
# 64-bit hash (``check``).  Entries carry the generation of the solve that
# wrote them: bumping the generation empties the table without touching it.
# Replacement: an entry of an older generation first, else the shallowest.
from libc.stdint cimport uint64_t, uint8_t, uint16_t, int16_t
from libc.stdlib cimport free
from libc.string cimport memset

cdef extern from "<stdlib.h>" nogil:
    int posix_memalign(void** memptr, size_t alignment, size_t size)

cdef extern from "<sys/mman.h>" nogil:
    int madvise(void* addr, size_t length, int advice)
    int MADV_HUGEPAGE


ctypedef struct TTEntry:
    uint64_t check          # second hash of the key (0 never stored)
    int16_t lo              # lower bound of the future value
    int16_t hi              # upper bound
    uint8_t move            # best card found (a hint; checked before use)
    uint8_t depth           # cards or tricks left: the replacement priority
    uint16_t gen            # solve generation; another generation = empty


cdef inline void* tt_alloc(size_t size) noexcept nogil:
    """``size`` bytes, zeroed, 2 MiB aligned with transparent huge pages
    advised (the table is probed at random, and 4 KiB pages would cost a
    TLB miss on almost every probe); NULL if the memory is not there (the
    caller raises MemoryError).  Release with ``free``."""
    cdef void* p = NULL
    if posix_memalign(&p, 1 << 21, size) != 0:
        return NULL
    madvise(p, size, MADV_HUGEPAGE)     # advice only: ignored where unsupported
    memset(p, 0, size)
    return p


cdef inline uint16_t tt_next_gen(void* table, size_t size, uint16_t gen) noexcept nogil:
    """The generation after ``gen``: older entries become invisible.  On
    wrap-around the table is cleared once and generations start again at 1."""
    gen += 1
    if gen == 0:
        memset(table, 0, size)
        gen = 1
    return gen


cdef inline TTEntry* tt_find(TTEntry* bucket, int nb, uint16_t gen, uint64_t check) noexcept nogil:
    """The entry of this generation with this check in the bucket, or NULL."""
    cdef int i
    for i in range(nb):
        if bucket[i].gen == gen and bucket[i].check == check:
            return &bucket[i]
    return NULL


cdef inline void tt_store(TTEntry* bucket, int nb, uint16_t gen, uint64_t check, int best,
                          int alpha0, int beta0, int move, int depth, uint8_t no_move) noexcept nogil:
    """Record what the fail-soft result ``best`` proves for the ORIGINAL
    window (alpha0, beta0): a lower bound if it reached beta0, an upper bound
    if it stayed at or below alpha0, else the exact value.  An existing
    entry is tightened (its move replaced unless ``move == no_move``);
    otherwise an older generation's slot, else the shallowest, is replaced."""
    cdef TTEntry* e
    cdef TTEntry* victim = NULL
    cdef int i, lo, hi
    if best >= beta0:
        lo = best
        hi = 32767
    elif best <= alpha0:
        lo = -32768
        hi = best
    else:
        lo = best
        hi = best
    e = tt_find(bucket, nb, gen, check)
    if e != NULL:
        if lo > e.lo:
            e.lo = <int16_t>lo
        if hi < e.hi:
            e.hi = <int16_t>hi
        if move != no_move:
            e.move = <uint8_t>move
        return
    for i in range(nb):
        if bucket[i].gen != gen:
            victim = &bucket[i]
            break
        if victim == NULL or bucket[i].depth < victim.depth:
            victim = &bucket[i]
    victim.check = check
    victim.lo = <int16_t>lo
    victim.hi = <int16_t>hi
    victim.move = <uint8_t>move
    victim.depth = <uint8_t>depth
    victim.gen = gen
