# The dix solver's bounds (header only: cimported at compile time, no
# runtime module): the ten-tricks the pips still allow, the leader's sure
# tricks and the other hand's sure trumps (docs/solver.md, "The dix
# solver"; the search in csrc/dd/dixsearch.pxd combines them).
from libc.stdint cimport uint64_t
from bits cimport popcount, above_all
from dixctx cimport DixCtx


cdef inline int tens_possible(DixCtx* D, uint64_t a, uint64_t b, int k) noexcept nogil:
    """The largest number of ten-tricks the two hands can still make:
    a matching of their pips that total ten."""
    cdef int p, t = 0
    for p in range(11):
        t += min(popcount(a & D.pipm[p]), popcount(b & D.pipm[10 - p]))
    return t if t < k else k


cdef inline int sure_tricks(DixCtx* D, uint64_t mine, uint64_t theirs) noexcept nogil:
    """Tricks the leader takes by leading its top cards, when no
    ten-trick is possible: in each suit the cards above all of the
    other hand's, all of them if the other hand cannot ruff (trumps, or
    it holds none), else as many as the other hand can follow to."""
    cdef int s, q = 0, w, ln
    cdef uint64_t ms, ts, top
    cdef bint can_ruff = D.trump >= 0 and (theirs & D.suitm[D.trump]) != 0
    for s in range(4):
        ms = mine & D.suitm[s]
        if ms == 0:
            continue
        ts = theirs & D.suitm[s]
        top = above_all(ms, ts)
        if top == 0:
            continue
        w = popcount(top)
        if can_ruff and s != D.trump:
            ln = popcount(ts)
            if ln < w:
                w = ln
        q += w
    return q


cdef inline int sure_trumps(DixCtx* D, uint64_t mine, uint64_t theirs) noexcept nogil:
    """The trumps of ``mine`` above all of ``theirs``: each wins the
    trick it is played to, led or not (``D.trump`` >= 0)."""
    cdef uint64_t tm = D.suitm[D.trump]
    return popcount(above_all(mine & tm, theirs & tm))

