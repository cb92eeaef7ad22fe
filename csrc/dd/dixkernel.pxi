# The dix solver's Python class (included by csrc/dd/dixdd.pyx, the
# shipped build, and csrc/dd/dixprobe.pyx, the measuring build): it owns
# the solver context (csrc/dd/dixctx.pxd) and its table, loads a position
# in slot space and runs the search (csrc/dd/dixsearch.pxd) without the GIL.
from libc.stdint cimport uint64_t, uint32_t, uint8_t, uint16_t, int16_t, int32_t
from libc.stdlib cimport free, calloc
from bits cimport popcount, highest_bit, lowest_bit
from interrupt cimport reraise
from ttable cimport tt_alloc, tt_next_gen
from ddstats cimport DD_STATS, dix_stats_defaults
from dixctx cimport (DixCtx, Entry, BUCKET, MAXMOVES, NO_CARD, TEN, dix_set_rules,
                    dix_set_position)
from dixorder cimport root_classes
from dixsearch cimport mtd

IMPLEMENTATION = "cython"

ENTRY_BYTES = sizeof(Entry)
BUCKET_BYTES = sizeof(Entry) * BUCKET


cdef class DixSolver:
    """One transposition table (allocated once) and the per-solve state."""

    cdef DixCtx* D
    #: False: the solver starts a new table generation before every solve
    #: (solver.dd.session reads it; measurements)
    cdef public bint keep_table
    #: the last ``solve_all``: each legal slot's proved [lo, hi] (the
    #: mover's future values)
    cdef readonly dict brackets

    def __cinit__(self, uint64_t nbuckets):
        """``nbuckets``: a power of two (checked by solver/dd/dix.py)."""
        cdef size_t size = nbuckets * BUCKET * sizeof(Entry)
        cdef void* p
        self.D = <DixCtx*> calloc(1, sizeof(DixCtx))
        if self.D == NULL:
            raise MemoryError("cannot allocate the dix solver's buffers")
        p = tt_alloc(size)
        if p == NULL:
            raise MemoryError(f"cannot allocate a transposition table of {size} bytes")
        self.D.tt = <Entry*> p
        self.D.nbuckets = nbuckets
        self.D.tt_mask = nbuckets - 1
        self.D.gen = 0
        self.D.nodes = 0
        dix_stats_defaults(&self.D.st)
        self.keep_table = 1

    def __dealloc__(self):
        if self.D != NULL:
            free(self.D.tt)
            free(self.D)

    @property
    def table_bytes(self):
        return self.D.nbuckets * BUCKET * sizeof(Entry)

    @property
    def nodes(self):
        """Nodes searched since the last load."""
        return self.D.nodes

    @property
    def aborted(self):
        """Whether the last search stopped at the node limit (or a signal)."""
        return self.D.aborted

    # ------------------------------------------------------------------
    # set-up (Python level, once per solve)

    def load(self, uint64_t hand0, uint64_t hand1, int trump, int joker_slot, int to_move,
             int lead_slot):
        """A position in slot space: the two hands, the trump suit (-1
        none), the joker's slot (-1: not in play), the seat to move and the
        slot on the table (-1: the seat to move leads).  The table is
        kept: stored bounds are of the mover's future value, true for any
        position with the same key under the same trump and joker, whose
        fingerprint is part of every key; the solver sessions
        (``solver.dd.session``) decide when a table starts afresh."""
        dix_set_rules(self.D, trump, joker_slot)
        dix_set_position(self.D, hand0, hand1, to_move, lead_slot)
        self.D.st.questions = 0
        self.D.st.tie_nodes = 0
        self.D.st.bound_hits = 0

    def new_table(self):
        """Start a new table generation: every entry becomes invisible."""
        self.D.gen = tt_next_gen(self.D.tt, self.D.nbuckets * BUCKET * sizeof(Entry), self.D.gen)

    def solve_all(self, uint64_t max_nodes=0, bint tie=True, int base=0):
        """Exact future value (the mover's view) of every legal slot of the
        seat to move, as a dict slot -> value; None if ``max_nodes`` (0: no
        limit) was exceeded.  ``tie`` False: each slot's round result only
        (``mtd``; ``base``: what the mover has already won), its value the
        one that stands for it.  ``brackets`` then holds each slot's proved
        interval: where the limit stopped the search, the slots before it
        settled, its slot what its finished questions proved and the slots
        after it the whole range."""
        cdef int me = self.D.root_seat
        cdef int L = self.D.root_lead
        cdef uint64_t legal, hand = self.D.hands[me]
        cdef int n, i, c, v, k, guess, bound
        cdef uint8_t reps[MAXMOVES]
        cdef int rep_of[64]
        cdef int values[MAXMOVES]
        cdef int br[MAXMOVES][2]
        self.D.max_nodes = max_nodes if max_nodes > 0 else <uint64_t>0xFFFFFFFFFFFFFFFF
        k = popcount(hand)
        bound = k * TEN + 2
        if L >= 0:
            legal = hand & self.D.suitm[L >> 4]
            if legal == 0:
                legal = hand
        else:
            legal = hand
        with nogil:
            n = root_classes(self.D, me, legal, L, reps, rep_of)
            for i in range(n):
                br[i][0] = -bound
                br[i][1] = bound
            guess = 0
            for i in range(n):
                v = mtd(self.D, reps[i], -bound, bound, guess, br[i], tie, base)
                if self.D.aborted:
                    break
                values[i] = v
                guess = v
        self.check_interrupt()
        self.brackets = {}
        for c in range(64):
            if (legal >> c) & 1:
                self.brackets[c] = (br[rep_of[c]][0], br[rep_of[c]][1])
        if self.D.aborted:
            return None
        out = {}
        for c in range(64):
            if (legal >> c) & 1:
                out[c] = values[rep_of[c]]
        return out

    def solve_value(self, uint64_t max_nodes=0):
        """The exact future value (the mover's view) of the position, the
        best card's only; None if ``max_nodes`` was exceeded."""
        cdef int k = popcount(self.D.hands[self.D.root_seat]), v
        self.D.max_nodes = max_nodes if max_nodes > 0 else <uint64_t>0xFFFFFFFFFFFFFFFF
        with nogil:
            v = mtd(self.D, NO_CARD, -(k * TEN + 2), k * TEN + 2, 0, NULL, True, 0)
        self.check_interrupt()
        if self.D.aborted:
            return None
        return v

    cdef int check_interrupt(self) except -1:
        """Re-raise a signal handler's exception (Ctrl-C) that stopped the
        search."""
        if self.D.interrupted:
            self.D.interrupted = 0
            return reraise()
        return 0
