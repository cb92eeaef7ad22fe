# cython: language_level=3
"""Walks a compiled interval-sampler graph (solver/sampler.py) in C.

The graph's probabilities are computed once per seat view in Python; a
draw is one pass over the slots (``walker.pxd``): a uniform double picks an
edge (a class of interchangeable cards), a uniform integer the card within
the class.  RNG: ``rng.pxd`` (xoshiro256**), seeded per draw.  The
pure-Python twin is ``CompiledSampler.sample_py``.
"""
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


cdef class HolderWalker(_TypeWalker):
    """A compiled holder graph (``CompiledHolders``)."""


cdef class ColumnWalker(_TypeWalker):
    """A compiled column graph (``CompiledColumns``)."""

    cdef void _walk(self, Rng* r, uint64_t* out) noexcept nogil:
        columns_walk(&self.g, r, out)
