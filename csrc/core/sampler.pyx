# cython: language_level=3
"""Walks a compiled interval-sampler graph (solver/sampler.py) in C.

The graph's probabilities are computed once per seat view in Python; a
draw is one pass over the slots (``walker.pxd``): a uniform double picks an
edge (a class of interchangeable cards), a uniform integer the card within
the class.  RNG: ``rng.pxd`` (xoshiro256**), seeded per draw.  The
pure-Python twin is ``CompiledSampler.sample_py``.
"""
from array import array

from libc.stdint cimport uint64_t, int32_t
from rng cimport Rng, rng_seed
from walker cimport Graph, graph_walk, graph_load, graph_free


cdef class Walker:
    """Owns a compiled graph's arrays (``__cinit__`` / ``__dealloc__``)."""

    cdef Graph g

    def __cinit__(self, compiled):
        graph_load(&self.g, compiled)

    def __dealloc__(self):
        graph_free(&self.g)

    def walk(self, uint64_t seed):
        """The card of every slot (visit order) of one uniform world."""
        cdef int32_t buf[128]
        cdef Rng r
        if self.g.n_slots > 128:
            raise ValueError("at most 128 slots")
        rng_seed(&r, seed)
        graph_walk(&self.g, &r, buf)
        return [buf[i] for i in range(self.g.n_slots)]

    def walk_rows(self, int n, uint64_t seed):
        """``n`` uniform worlds from one generator seeded by ``seed``, as
        rows (solver/beliefs.py): each slot's card as a one-bit mask, slots
        in visit order, one world after the other (``array('Q')``)."""
        cdef int32_t buf[128]
        cdef Rng r
        cdef int i, k, S = self.g.n_slots
        if S > 128:
            raise ValueError("at most 128 slots")
        out = array("Q", bytes(8 * n * S))
        cdef uint64_t[::1] o = out
        rng_seed(&r, seed)
        with nogil:
            for i in range(n):
                graph_walk(&self.g, &r, buf)
                for k in range(S):
                    o[i * S + k] = (<uint64_t>1) << buf[k]
        return out


from typegraph cimport (TypeGraph, typegraph_load, typegraph_free, holders_walk,
                        columns_walk)


cdef class _TypeWalker:
    """Owns a compiled type graph; ``walk(seed)`` -> a list of masks, one
    per holder."""

    cdef TypeGraph g

    def __cinit__(self, compiled):
        self.g.scratch = NULL
        self.g.left = NULL
        typegraph_load(&self.g, compiled)

    def __dealloc__(self):
        typegraph_free(&self.g)

    cdef void _walk(self, Rng* r, uint64_t* out) noexcept nogil:
        holders_walk(&self.g, r, out)

    def walk(self, uint64_t seed):
        cdef uint64_t out[8]
        cdef Rng r
        cdef int h
        if self.g.n_holders > 8:
            raise ValueError("at most 8 holders")
        for h in range(8):
            out[h] = 0
        rng_seed(&r, seed)
        self._walk(&r, out)
        return [out[h] for h in range(self.g.n_holders)]

    def walk_rows(self, int n, uint64_t seed):
        """``n`` uniform worlds from one generator seeded by ``seed``, as
        rows (solver/beliefs.py): each holder's cards as a mask, one world
        after the other (``array('Q')``)."""
        cdef uint64_t buf[8]
        cdef Rng r
        cdef int i, h, H = self.g.n_holders
        if H > 8:
            raise ValueError("at most 8 holders")
        out = array("Q", bytes(8 * n * H))
        cdef uint64_t[::1] o = out
        rng_seed(&r, seed)
        with nogil:
            for i in range(n):
                for h in range(8):
                    buf[h] = 0
                self._walk(&r, buf)
                for h in range(H):
                    o[i * H + h] = buf[h]
        return out


cdef class HolderWalker(_TypeWalker):
    """A compiled holder graph (``CompiledHolders``)."""


cdef class ColumnWalker(_TypeWalker):
    """A compiled column graph (``CompiledColumns``)."""

    cdef void _walk(self, Rng* r, uint64_t* out) noexcept nogil:
        columns_walk(&self.g, r, out)


from bags cimport (ExGraph, exgraph_load, exgraph_scratch, exgraph_free, exgraph_walk,
                   exgraph_take)


cdef class BagWalker:
    """A dix-exchange view's world model compiled to a graph
    (``_WorldModel.compiled()``; walked as csrc/include/bags.pxd says):
    ``walk_rows(n, seed)`` -> ``n`` uniform worlds as rows (solver/beliefs.py),
    one place a position of ``groups`` (each group's positions, in order),
    holding its value as one bit."""

    cdef ExGraph g
    cdef object places            # per group, the row places of its positions
    cdef int n_places

    def __cinit__(self, dict compiled, list groups, int n_places):
        self.g.bag = NULL
        self.g.bag_len = NULL
        self.g.value_of = NULL
        self.g.edge_start = NULL
        self.g.edge_counts = NULL
        self.g.edge_next = NULL
        self.g.edge_cum = NULL
        exgraph_load(&self.g, compiled)
        exgraph_scratch(&self.g)
        if len(groups) != self.g.n_groups:
            raise ValueError(f"{len(groups)} groups of places for a graph of {self.g.n_groups}")
        self.places = [list(p) for p in groups]
        self.n_places = n_places

    def __dealloc__(self):
        exgraph_free(&self.g)

    def walk_rows(self, int n, uint64_t seed):
        cdef Rng r
        cdef int i, h, k, P = self.n_places, G = self.g.n_groups
        flat = []
        starts = [0]
        for h in range(G):
            flat.extend(self.places[h])
            starts.append(len(flat))
        cdef int32_t[::1] place = array("i", flat) if flat else array("i", [0])
        cdef int32_t[::1] start = array("i", starts)
        out = array("Q", bytes(8 * n * P))
        cdef uint64_t[::1] o = out
        rng_seed(&r, seed)
        with nogil:
            for i in range(n):
                exgraph_walk(&self.g, &r)
                for h in range(G):
                    for k in range(start[h], start[h + 1]):
                        o[i * P + place[k]] = (<uint64_t>1) << exgraph_take(&self.g, h, &r)
        return out
