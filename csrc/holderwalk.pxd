# Walking a compiled holder-sampler graph (solver/sampler.py,
# CompiledHolders): one uniform assignment of hidden cards to holders per
# walk.  Inline header (compile time only).
from libc.stdint cimport int32_t, uint64_t
from libc.stdlib cimport malloc, free
from rng cimport Rng, rng_double, rng_below
from walker cimport _int_array


cdef struct HolderGraph:
    int n_holders
    int n_types
    int32_t* type_start       # n_types + 1
    int32_t* type_card
    int32_t* edge_start       # n_nodes + 1
    int32_t* edge_counts      # n_edges * n_holders
    int32_t* edge_next
    double* edge_cum
    int32_t* scratch          # a type's cards, shuffled (per thread)


cdef inline int holders_load(HolderGraph* g, object compiled) except -1:
    cdef Py_ssize_t i
    g.n_holders = compiled.n_holders
    g.n_types = compiled.n_types
    g.type_start = _int_array(compiled.type_start)
    g.type_card = _int_array(compiled.type_card)
    g.edge_start = _int_array(compiled.edge_start)
    g.edge_counts = _int_array(compiled.edge_counts)
    g.edge_next = _int_array(compiled.edge_next)
    g.edge_cum = <double*>malloc(max(1, len(compiled.edge_cum)) * sizeof(double))
    if not g.edge_cum:
        raise MemoryError()
    for i in range(len(compiled.edge_cum)):
        g.edge_cum[i] = compiled.edge_cum[i]
    return holders_scratch(g)


cdef inline int holders_scratch(HolderGraph* g) except -1:
    g.scratch = <int32_t*>malloc(max(1, g.type_start[g.n_types]) * sizeof(int32_t))
    if not g.scratch:
        raise MemoryError()
    return 0


cdef inline void holders_free(HolderGraph* g) noexcept:
    free(g.type_start); free(g.type_card); free(g.edge_start); free(g.edge_counts)
    free(g.edge_next); free(g.edge_cum); free(g.scratch)


cdef inline void holders_walk(HolderGraph* g, Rng* r, uint64_t* out) noexcept nogil:
    """``out[h]`` |= the cards dealt to holder ``h`` (masks)."""
    cdef int t, x, end, h, n, pos, i, j, a, b, tmp, node
    cdef double u
    node = 0
    for t in range(g.n_types):
        u = rng_double(r)
        x = g.edge_start[node]
        end = g.edge_start[node + 1]
        while g.edge_cum[x] <= u and x + 1 < end:
            x += 1
        a = g.type_start[t]
        b = g.type_start[t + 1]
        for i in range(a, b):
            g.scratch[i] = g.type_card[i]
        for i in range(b - 1, a, -1):        # Fisher-Yates
            j = a + rng_below(r, i - a + 1)
            tmp = g.scratch[i]
            g.scratch[i] = g.scratch[j]
            g.scratch[j] = tmp
        pos = a
        for h in range(g.n_holders):
            n = g.edge_counts[x * g.n_holders + h]
            for i in range(pos, pos + n):
                out[h] |= (<uint64_t>1) << g.scratch[i]
            pos += n
        node = g.edge_next[x]
