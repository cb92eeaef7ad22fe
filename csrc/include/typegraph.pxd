# Walking a compiled type graph (solver/sampler.py): the hidden cards are
# grouped in types (cards with the same allowed holders), and a path through
# the graph fixes how many cards of each type each holder gets; the cards of
# a type are then shuffled among those counts.  Two layouts of one struct:
#
# * CompiledHolders (HolderSampler; trix / tricks): one step a type,
#   ``edge_counts`` holds n_holders counts an edge (``holders_walk``);
# * CompiledColumns (ColumnSampler; dixie-rook): one step a holder,
#   ``edge_counts`` holds n_types counts an edge (``columns_walk``).
#
# Inline header (compile time only).  ``typegraph_load`` copies a compiled
# graph (and gives it a scratch); a thread walking a shared graph works on a
# copy of the struct with its own ``typegraph_scratch``.
from libc.stdint cimport int32_t, uint64_t
from libc.stdlib cimport malloc, free
from rng cimport Rng, rng_below
from walker cimport _int_array, _double_array, pick_edge
from pool cimport Pool, pool_clear, pool_pick


cdef struct TypeGraph:
    int n_holders
    int n_types
    int32_t* type_start       # n_types + 1
    int32_t* type_card
    int32_t* edge_start       # n_nodes + 1
    int32_t* edge_counts      # n_edges * (n_holders or n_types)
    int32_t* edge_next
    double* edge_cum
    int32_t* scratch          # the cards of each type (per thread)
    int32_t* left             # n_types: unplaced cards of each type (per thread)
    Pool worlds               # a weighed pool of rows (a mask a holder), or none


cdef inline int typegraph_load(TypeGraph* g, object compiled) except -1:
    g.scratch = NULL
    g.left = NULL
    pool_clear(&g.worlds)
    g.n_holders = compiled.n_holders
    g.n_types = compiled.n_types
    g.type_start = _int_array(compiled.type_start)
    g.type_card = _int_array(compiled.type_card)
    g.edge_start = _int_array(compiled.edge_start)
    g.edge_counts = _int_array(compiled.edge_counts)
    g.edge_next = _int_array(compiled.edge_next)
    g.edge_cum = _double_array(compiled.edge_cum)
    return typegraph_scratch(g)


cdef inline int typegraph_scratch(TypeGraph* g) except -1:
    """This walker's own scratch (call once per thread on a copy)."""
    g.scratch = <int32_t*>malloc(max(1, g.type_start[g.n_types]) * sizeof(int32_t))
    g.left = <int32_t*>malloc(max(1, g.n_types) * sizeof(int32_t))
    if not g.scratch or not g.left:
        typegraph_free_scratch(g)
        raise MemoryError()
    return 0


cdef inline int typegraph_copy(TypeGraph* dst, const TypeGraph* src) except -1:
    """``dst``: ``src``'s graph (shared, not copied) with its own scratch;
    release with ``typegraph_free_scratch``."""
    dst[0] = src[0]
    dst.scratch = NULL
    dst.left = NULL
    return typegraph_scratch(dst)


cdef inline void typegraph_free_scratch(TypeGraph* g) noexcept:
    free(g.scratch); free(g.left)
    g.scratch = NULL
    g.left = NULL


cdef inline void typegraph_free(TypeGraph* g) noexcept:
    free(g.type_start); free(g.type_card); free(g.edge_start); free(g.edge_counts)
    free(g.edge_next); free(g.edge_cum)
    typegraph_free_scratch(g)


cdef inline void holders_walk(TypeGraph* g, Rng* r, uint64_t* out) noexcept nogil:
    """A CompiledHolders graph: ``out[h]`` |= the cards dealt to holder
    ``h`` (masks): a walk, or a world of the pool when one is set."""
    cdef int t, x, h, n, pos, i, j, a, b, tmp, node = 0
    cdef const uint64_t* row
    if g.worlds.n > 0:
        row = pool_pick(&g.worlds, r)
        for h in range(g.n_holders):
            out[h] |= row[h]
        return
    for t in range(g.n_types):
        x = pick_edge(g.edge_start, g.edge_cum, node, r)
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


cdef inline void columns_walk(TypeGraph* g, Rng* r, uint64_t* out) noexcept nogil:
    """A CompiledColumns graph: ``out[h]`` |= the cards dealt to holder
    ``h`` (masks): a walk, or a world of the pool when one is set."""
    cdef int t, x, h, k, a, j, last, node = 0
    cdef const uint64_t* row
    if g.worlds.n > 0:
        row = pool_pick(&g.worlds, r)
        for h in range(g.n_holders):
            out[h] |= row[h]
        return
    for t in range(g.n_types):
        for j in range(g.type_start[t], g.type_start[t + 1]):
            g.scratch[j] = g.type_card[j]
        g.left[t] = g.type_start[t + 1] - g.type_start[t]
    for h in range(g.n_holders):
        x = pick_edge(g.edge_start, g.edge_cum, node, r)
        for t in range(g.n_types):
            a = g.type_start[t]
            for k in range(g.edge_counts[x * g.n_types + t]):
                j = a + rng_below(r, g.left[t])          # a uniform unplaced card
                last = a + g.left[t] - 1
                out[h] |= (<uint64_t>1) << g.scratch[j]
                g.scratch[j] = g.scratch[last]
                g.left[t] -= 1
        node = g.edge_next[x]
