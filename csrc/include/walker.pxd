# Walking a compiled interval-sampler graph (solver/sampler.py,
# CompiledSampler): one uniform world per walk.  Inline header shared by
# csrc/core/sampler.pyx, csrc/search/ismcts.pyx, csrc/search/dix.pxd and,
# for its edge picking, csrc/include/typegraph.pxd and csrc/search/exchange.pxd.
from libc.stdint cimport int32_t, uint64_t
from libc.stdlib cimport malloc, free
from rng cimport Rng, rng_double, rng_below
from pool cimport Pool, pool_clear, pool_pick
from bits cimport lowest_bit


cdef struct Graph:
    int n_slots
    int n_classes
    int n_cards
    int32_t* enter_start      # n_slots + 1
    int32_t* enter_class
    int32_t* enter_card
    int32_t* edge_start       # n_nodes + 1
    int32_t* edge_class
    int32_t* edge_next
    double* edge_cum
    int32_t* pool             # scratch: n_classes * n_cards
    int32_t* pool_len         # scratch: n_classes
    Pool worlds               # a weighed pool of rows (one bit a slot), or none


cdef inline int pick_edge(const int32_t* edge_start, const double* edge_cum, int node,
                          Rng* r) noexcept nogil:
    """One of ``node``'s out-edges at random, by their cumulative
    probabilities (every compiled graph stores edges this way)."""
    cdef double u = rng_double(r)
    cdef int x = edge_start[node], end = edge_start[node + 1]
    while edge_cum[x] <= u and x + 1 < end:
        x += 1
    return x


cdef inline void graph_walk(Graph* g, Rng* r, int32_t* out) noexcept nogil:
    """Fill ``out[i]`` with the card of slot ``i`` (visit order): a walk of
    the graph, or a world of the pool when one is set."""
    cdef int i, x, e, node = 0, pick
    cdef int32_t* p
    cdef const uint64_t* row
    if g.worlds.n > 0:
        row = pool_pick(&g.worlds, r)
        for i in range(g.n_slots):
            out[i] = lowest_bit(row[i])
        return
    for e in range(g.n_classes):
        g.pool_len[e] = 0
    for i in range(g.n_slots):
        for x in range(g.enter_start[i], g.enter_start[i + 1]):
            e = g.enter_class[x]
            g.pool[e * g.n_cards + g.pool_len[e]] = g.enter_card[x]
            g.pool_len[e] += 1
        x = pick_edge(g.edge_start, g.edge_cum, node, r)
        e = g.edge_class[x]
        p = g.pool + e * g.n_cards
        pick = rng_below(r, g.pool_len[e])
        out[i] = p[pick]
        g.pool_len[e] -= 1
        p[pick] = p[g.pool_len[e]]
        node = g.edge_next[x]


cdef inline int32_t* _int_array(list values) except NULL:
    cdef int32_t* p = <int32_t*>malloc(max(1, len(values)) * sizeof(int32_t))
    cdef Py_ssize_t i
    if not p:
        raise MemoryError()
    for i in range(len(values)):
        p[i] = values[i]
    return p


cdef inline double* _double_array(list values) except NULL:
    cdef double* p = <double*>malloc(max(1, len(values)) * sizeof(double))
    cdef Py_ssize_t i
    if not p:
        raise MemoryError()
    for i in range(len(values)):
        p[i] = values[i]
    return p


cdef inline int graph_load(Graph* g, object compiled) except -1:
    """Copy a ``CompiledSampler``'s arrays into ``g`` (owned by ``g``:
    release with ``graph_free``)."""
    pool_clear(&g.worlds)
    g.n_slots = compiled.n_slots
    g.n_classes = compiled.n_classes
    g.n_cards = len(compiled.enter_card)
    g.enter_start = _int_array(compiled.enter_start)
    g.enter_class = _int_array(compiled.enter_class)
    g.enter_card = _int_array(compiled.enter_card)
    g.edge_start = _int_array(compiled.edge_start)
    g.edge_class = _int_array(compiled.edge_class)
    g.edge_next = _int_array(compiled.edge_next)
    g.edge_cum = _double_array(compiled.edge_cum)
    return graph_scratch(g)


cdef inline int graph_scratch(Graph* g) except -1:
    """Give ``g`` its own scratch buffers (one set per thread)."""
    g.pool = <int32_t*>malloc(max(1, g.n_classes * g.n_cards) * sizeof(int32_t))
    g.pool_len = <int32_t*>malloc(max(1, g.n_classes) * sizeof(int32_t))
    if not g.pool or not g.pool_len:
        raise MemoryError()
    return 0


cdef inline void graph_free(Graph* g) noexcept:
    """Free what ``graph_load`` allocated (NULL pointers are fine)."""
    free(g.enter_start); free(g.enter_class); free(g.enter_card)
    free(g.edge_start); free(g.edge_class); free(g.edge_next)
    free(g.edge_cum); free(g.pool); free(g.pool_len)
