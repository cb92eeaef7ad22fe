# A weighed pool of worlds for the walkers (solver/beliefs.py): when a
# search is given the beliefs of its view, each determinization takes a
# world of the pool, picked in proportion to its weight, instead of a fresh
# uniform walk.  A world is a row of ``width`` 64-bit masks, one a place of
# the view's sampler (a holder's cards, a slot's card as one bit): the same
# rows the beliefs weighed.  Inline header (compile time only), embedded in
# each walker's struct (walker.pxd, typegraph.pxd, csrc/search/exchange.pxd).
from libc.stdint cimport uint64_t
from rng cimport Rng, rng_double


cdef struct Pool:
    int n                      # worlds (0: no pool, walk the graph)
    int width                  # masks a world
    const uint64_t* rows       # n * width masks (owned by the search object)
    const double* cum          # n cumulative probabilities, the last 1


cdef inline void pool_clear(Pool* p) noexcept nogil:
    p.n = 0
    p.width = 0
    p.rows = NULL
    p.cum = NULL


cdef inline const uint64_t* pool_pick(const Pool* p, Rng* r) noexcept nogil:
    """A world's row, in proportion to the weights (a binary search of the
    cumulative probabilities)."""
    cdef double u = rng_double(r)
    cdef int lo = 0, hi = p.n - 1, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if p.cum[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    return p.rows + <long>lo * p.width
