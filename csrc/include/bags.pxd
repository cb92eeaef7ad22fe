# The exact world model of a dix-exchange view compiled to a graph, walked
# in C: the values of a view's unseen stock positions, counted group by
# group (solver/games/dix_exchange/views.py, ``_WorldModel``; compiled by
# its ``compiled()``).  One step a value, each edge how many cards of it
# each group of interchangeable unseen positions gets, with its cumulative
# probability; a walk fills each group's bag, and the group's positions
# then take values from the bag without replacement (a uniform
# arrangement).  Inline header (compile time only), shared by
# csrc/core/sampler.pyx (``BagWalker``: whole worlds as rows) and
# csrc/search/exchange.pxd (the search's determinization).
from libc.stdint cimport int32_t
from libc.stdlib cimport malloc, free
from rng cimport Rng, rng_below
from walker cimport _int_array, _double_array, pick_edge
from pool cimport Pool, pool_clear

cdef enum:
    #: the most groups of unseen positions a view may have
    MAX_X_GROUPS = 32


cdef struct ExGraph:
    int32_t n_values
    int32_t n_groups
    int32_t* value_of          # n_values: the value index of each step
    int32_t* edge_start        # n_nodes + 1
    int32_t* edge_counts       # n_edges * n_groups
    int32_t* edge_next
    double* edge_cum
    int32_t* bag               # scratch (per thread): n_groups * bag_cap values
    int32_t* bag_len           # scratch: n_groups
    int32_t bag_cap
    Pool worlds                # a weighed pool of rows (one bit a position), or none


cdef inline int exgraph_load(ExGraph* g, object compiled) except -1:
    g.bag = NULL
    g.bag_len = NULL
    pool_clear(&g.worlds)
    g.n_values = len(compiled["value_of"])
    g.n_groups = compiled["n_groups"]
    if g.n_groups > MAX_X_GROUPS:
        raise ValueError(f"at most {MAX_X_GROUPS} groups of unseen positions")
    g.value_of = _int_array(compiled["value_of"])
    g.edge_start = _int_array(compiled["edge_start"])
    g.edge_counts = _int_array(compiled["edge_counts"])
    g.edge_next = _int_array(compiled["edge_next"])
    g.edge_cum = _double_array(compiled["edge_cum"])
    g.bag_cap = max(1, compiled["bag_cap"])
    return 0


cdef inline int exgraph_scratch(ExGraph* g) except -1:
    g.bag = <int32_t*>malloc(max(1, g.n_groups) * g.bag_cap * sizeof(int32_t))
    g.bag_len = <int32_t*>malloc(max(1, g.n_groups) * sizeof(int32_t))
    if not g.bag or not g.bag_len:
        free(g.bag)
        free(g.bag_len)
        g.bag = NULL
        g.bag_len = NULL
        raise MemoryError()
    return 0


cdef inline void exgraph_free_scratch(ExGraph* g) noexcept:
    free(g.bag)
    free(g.bag_len)
    g.bag = NULL
    g.bag_len = NULL


cdef inline void exgraph_free(ExGraph* g) noexcept:
    free(g.value_of); free(g.edge_start); free(g.edge_counts); free(g.edge_next)
    free(g.edge_cum)
    g.value_of = g.edge_start = g.edge_counts = g.edge_next = NULL
    g.edge_cum = NULL
    exgraph_free_scratch(g)


cdef inline void exgraph_walk(ExGraph* g, Rng* r) noexcept nogil:
    """Fill each group's bag with its values: one uniform filling of the
    unseen positions, as counts per group."""
    cdef int j, x, h, k, v, node = 0
    for h in range(g.n_groups):
        g.bag_len[h] = 0
    for j in range(g.n_values):
        x = pick_edge(g.edge_start, g.edge_cum, node, r)
        v = g.value_of[j]
        for h in range(g.n_groups):
            for k in range(g.edge_counts[x * g.n_groups + h]):
                g.bag[h * g.bag_cap + g.bag_len[h]] = v
                g.bag_len[h] += 1
        node = g.edge_next[x]


cdef inline int exgraph_take(ExGraph* g, int h, Rng* r) noexcept nogil:
    """One value of group ``h``'s bag, uniformly, without replacement."""
    cdef int k = rng_below(r, g.bag_len[h])
    cdef int32_t* b = g.bag + h * g.bag_cap
    cdef int v = b[k]
    g.bag_len[h] -= 1
    b[k] = b[g.bag_len[h]]
    return v


