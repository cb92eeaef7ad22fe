# The transposition table shared by the double-dummy kernels (compile-time
# header, cimported by csrc/dd/dd.pyx and csrc/dd/dixdd.pyx): the entry, the
# allocation, the generation that empties it without clearing, the probe and
# the store of alpha-beta bounds with depth-preferred replacement.

from libc.stdint cimport uint64_t, uint8_t, uint16_t, int16_t
from libc.string cimport memset

cdef extern from "<stdlib.h>" nogil:
    int posix_memalign(void** memptr, size_t alignment, size_t size)

cdef extern from "<sys/mman.h>" nogil:
    int madvise(void* addr, size_t length, int advice)
    int MADV_HUGEPAGE

cdef extern from *:
    void prefetch "__builtin_prefetch" (const void* p) nogil


ctypedef struct TTEntry:
    uint64_t check          # second hash of the key (0 never stored)
    int16_t lo              # lower bound of the future value
    int16_t hi              # upper bound
    uint8_t move            # best card found (a hint; checked before use)
    uint8_t depth           # what is left to search: the replacement priority
    uint16_t gen            # solve generation; another generation = empty


cdef inline uint64_t mix64(uint64_t x) noexcept nogil:
    """splitmix64 finaliser."""
    x ^= x >> 30
    x *= <uint64_t>0xbf58476d1ce4e5b9
    x ^= x >> 27
    x *= <uint64_t>0x94d049bb133111eb
    x ^= x >> 31
    return x


cdef inline void* table_alloc(size_t size) except NULL:
    """``size`` zeroed bytes on a 2 MiB boundary with transparent huge
    pages advised (the table is probed at random: 4 KiB pages would cost a
    TLB miss on almost every probe); ``MemoryError`` if the memory cannot be
    had.  Freed with ``free``."""
    cdef void* p = NULL
    if posix_memalign(&p, 1 << 21, size) != 0:
        raise MemoryError(f"cannot allocate a transposition table of {size} bytes")
    madvise(p, size, MADV_HUGEPAGE)     # advice only: ignored where unsupported
    memset(p, 0, size)
    return p


cdef inline uint16_t table_next_gen(void* table, size_t size, uint16_t gen) noexcept nogil:
    """The generation of a new solve: every entry of an older one reads as
    empty; on wrap-around the table is cleared once and starts again at 1."""
    gen += 1
    if gen == 0:
        memset(table, 0, size)
        gen = 1
    return gen


cdef inline TTEntry* table_probe(TTEntry* bucket, int n, uint16_t gen,
                                 uint64_t h2) noexcept nogil:
    """The entry of ``bucket`` (``n`` entries) for key check ``h2`` in
    generation ``gen``, or NULL."""
    cdef int i
    for i in range(n):
        if bucket[i].gen == gen and bucket[i].check == h2:
            return &bucket[i]
    return NULL


cdef inline void table_store(TTEntry* bucket, int n, uint16_t gen, uint64_t h2, int best,
                             int alpha0, int beta0, int move, int no_move,
                             int depth) noexcept nogil:
    """Record what ``best`` proves for the ORIGINAL window (alpha0, beta0):
    a lower bound if it reached beta0, an upper bound if it stayed at or
    below alpha0, else the exact value.  The key's entry is narrowed if it
    is there; else an empty slot (another generation) or the shallowest
    entry of the bucket is replaced."""
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
    e = table_probe(bucket, n, gen, h2)
    if e != NULL:
        if lo > e.lo:
            e.lo = <int16_t>lo
        if hi < e.hi:
            e.hi = <int16_t>hi
        if move != no_move:
            e.move = <uint8_t>move
        return
    for i in range(n):
        if bucket[i].gen != gen:
            victim = &bucket[i]
            break
        if victim == NULL or bucket[i].depth < victim.depth:
            victim = &bucket[i]
    victim.check = h2
    victim.lo = <int16_t>lo
    victim.hi = <int16_t>hi
    victim.move = <uint8_t>move
    victim.depth = <uint8_t>depth
    victim.gen = gen


cdef inline bint table_cut(const TTEntry* e, int alpha, int beta, int* value) noexcept nogil:
    """Whether the entry's bounds settle the window (alpha, beta): a lower
    bound at or above beta, an upper bound at or below alpha, or an exact
    value; ``value[0]`` is then the answer."""
    if e.lo >= beta:
        value[0] = e.lo
        return 1
    if e.hi <= alpha:
        value[0] = e.hi
        return 1
    if e.lo == e.hi:
        value[0] = e.lo
        return 1
    return 0
