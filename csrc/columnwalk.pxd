# Walking a compiled column-sampler graph (solver/sampler.py,
# CompiledColumns): one uniform assignment of hidden cards to holders per
# walk, holder by holder.  Inline header (compile time only).
from libc.stdint cimport int32_t, uint64_t
from libc.stdlib cimport malloc, free
from rng cimport Rng, rng_double, rng_below
from walker cimport _int_array


cdef struct ColumnGraph:
    int n_holders
    int n_types
    int32_t* type_start       # n_types + 1
    int32_t* type_card
    int32_t* edge_start       # n_nodes + 1
    int32_t* edge_counts      # n_edges * n_types
    int32_t* edge_next
    double* edge_cum
    int32_t* scratch          # the unplaced cards of each type (per thread)
    int32_t* left             # n_types: how many are unplaced (per thread)


cdef inline int columns_load(ColumnGraph* g, object compiled) except -1:
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
    return columns_scratch(g)


cdef inline int columns_scratch(ColumnGraph* g) except -1:
    """This walker's own scratch (call once per thread on a copy)."""
    g.scratch = <int32_t*>malloc(max(1, g.type_start[g.n_types]) * sizeof(int32_t))
    g.left = <int32_t*>malloc(max(1, g.n_types) * sizeof(int32_t))
    if not g.scratch or not g.left:
        free(g.scratch); free(g.left)
        raise MemoryError()
    return 0


cdef inline void columns_free_scratch(ColumnGraph* g) noexcept:
    free(g.scratch); free(g.left)
    g.scratch = NULL
    g.left = NULL


cdef inline void columns_free(ColumnGraph* g) noexcept:
    free(g.type_start); free(g.type_card); free(g.edge_start); free(g.edge_counts)
    free(g.edge_next); free(g.edge_cum)
    columns_free_scratch(g)


cdef inline void columns_walk(ColumnGraph* g, Rng* r, uint64_t* out) noexcept nogil:
    """``out[h]`` |= the cards dealt to holder ``h`` (masks)."""
    cdef int t, x, end, h, k, a, j, last, node
    cdef double u
    for t in range(g.n_types):
        for j in range(g.type_start[t], g.type_start[t + 1]):
            g.scratch[j] = g.type_card[j]
        g.left[t] = g.type_start[t + 1] - g.type_start[t]
    node = 0
    for h in range(g.n_holders):
        u = rng_double(r)
        x = g.edge_start[node]
        end = g.edge_start[node + 1]
        while g.edge_cum[x] <= u and x + 1 < end:
            x += 1
        for t in range(g.n_types):
            a = g.type_start[t]
            for k in range(g.edge_counts[x * g.n_types + t]):
                j = a + rng_below(r, g.left[t])          # a uniform unplaced card
                last = a + g.left[t] - 1
                out[h] |= (<uint64_t>1) << g.scratch[j]
                g.scratch[j] = g.scratch[last]
                g.left[t] -= 1
        node = g.edge_next[x]
