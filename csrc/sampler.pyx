# cython: language_level=3
"""Walks a compiled interval-sampler graph (solver/sampler.py) in C.

The graph's probabilities are computed once per seat view in Python; a
draw is one pass over the slots: a uniform double picks an edge (a class of
interchangeable cards), a uniform integer picks the card within the class.
RNG: xoshiro256** seeded by splitmix64 from the 64-bit seed given per draw.
The pure-Python twin is ``CompiledSampler.sample_py``.
"""
from libc.stdint cimport uint64_t, int32_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy


cdef inline uint64_t _splitmix(uint64_t* x) noexcept nogil:
    x[0] += <uint64_t>0x9e3779b97f4a7c15
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xbf58476d1ce4e5b9
    z = (z ^ (z >> 27)) * <uint64_t>0x94d049bb133111eb
    return z ^ (z >> 31)


cdef inline uint64_t _rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef struct Rng:
    uint64_t s[4]


cdef inline void rng_seed(Rng* r, uint64_t seed) noexcept nogil:
    cdef uint64_t x = seed
    r.s[0] = _splitmix(&x)
    r.s[1] = _splitmix(&x)
    r.s[2] = _splitmix(&x)
    r.s[3] = _splitmix(&x)


cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    cdef uint64_t result = _rotl(r.s[1] * 5, 7) * 9
    cdef uint64_t t = r.s[1] << 17
    r.s[2] ^= r.s[0]
    r.s[3] ^= r.s[1]
    r.s[1] ^= r.s[2]
    r.s[0] ^= r.s[3]
    r.s[2] ^= t
    r.s[3] = _rotl(r.s[3], 45)
    return result


cdef inline double rng_double(Rng* r) noexcept nogil:
    return (rng_next(r) >> 11) * (1.0 / 9007199254740992.0)


cdef inline int rng_below(Rng* r, int n) noexcept nogil:
    return <int>((rng_next(r) >> 33) % <uint64_t>n)


cdef class Walker:
    """Owns the graph's arrays; ``walk(seed)`` returns the card per slot."""

    cdef int n_slots, n_classes, n_nodes, n_cards
    cdef int32_t* enter_start
    cdef int32_t* enter_class
    cdef int32_t* enter_card
    cdef int32_t* edge_start
    cdef int32_t* edge_class
    cdef int32_t* edge_next
    cdef double* edge_cum
    cdef int32_t* pool          # n_classes x n_cards
    cdef int32_t* pool_len

    def __cinit__(self, graph):
        self.n_slots = graph.n_slots
        self.n_classes = graph.n_classes
        self.n_nodes = graph.n_nodes
        self.n_cards = len(graph.enter_card)
        self.enter_start = _ints(graph.enter_start)
        self.enter_class = _ints(graph.enter_class)
        self.enter_card = _ints(graph.enter_card)
        self.edge_start = _ints(graph.edge_start)
        self.edge_class = _ints(graph.edge_class)
        self.edge_next = _ints(graph.edge_next)
        self.edge_cum = <double*>malloc(max(1, len(graph.edge_cum)) * sizeof(double))
        self.pool = <int32_t*>malloc(max(1, self.n_classes * self.n_cards) * sizeof(int32_t))
        self.pool_len = <int32_t*>malloc(max(1, self.n_classes) * sizeof(int32_t))
        if not (self.edge_cum and self.pool and self.pool_len and self.enter_start and
                self.enter_class and self.enter_card and self.edge_start and
                self.edge_class and self.edge_next):
            raise MemoryError()
        for i, v in enumerate(graph.edge_cum):
            self.edge_cum[i] = v

    def __dealloc__(self):
        free(self.enter_start); free(self.enter_class); free(self.enter_card)
        free(self.edge_start); free(self.edge_class); free(self.edge_next)
        free(self.edge_cum); free(self.pool); free(self.pool_len)

    cdef void walk_c(self, uint64_t seed, int32_t* out) noexcept nogil:
        cdef Rng r
        cdef int i, x, e, node = 0, pick, end
        cdef double u
        cdef int32_t* p
        rng_seed(&r, seed)
        for e in range(self.n_classes):
            self.pool_len[e] = 0
        for i in range(self.n_slots):
            for x in range(self.enter_start[i], self.enter_start[i + 1]):
                e = self.enter_class[x]
                self.pool[e * self.n_cards + self.pool_len[e]] = self.enter_card[x]
                self.pool_len[e] += 1
            u = rng_double(&r)
            x = self.edge_start[node]
            end = self.edge_start[node + 1]
            while self.edge_cum[x] <= u and x + 1 < end:
                x += 1
            e = self.edge_class[x]
            p = self.pool + e * self.n_cards
            pick = rng_below(&r, self.pool_len[e])
            out[i] = p[pick]
            self.pool_len[e] -= 1
            p[pick] = p[self.pool_len[e]]
            node = self.edge_next[x]

    def walk(self, uint64_t seed):
        cdef int32_t buf[128]
        if self.n_slots > 128:
            raise ValueError("at most 128 slots")
        self.walk_c(seed, buf)
        return [buf[i] for i in range(self.n_slots)]


cdef int32_t* _ints(list values):
    cdef int32_t* p = <int32_t*>malloc(max(1, len(values)) * sizeof(int32_t))
    if p:
        for i, v in enumerate(values):
            p[i] = v
    return p
