# cython: language_level=3
# distutils: define_macros = DD_STATS=1
"""The generic double-dummy kernel with its measurement switches and
counters (``solver.dd._ddprobe``): the source of ``solver.dd._dd``
(csrc/dd/dd.pyx, csrc/dd/ddkernel.pxi) compiled with ``DD_STATS`` 1
(csrc/dd/ddstats.pxd).  ``ProbeKernel`` adds the switches (each bound
can be turned off; values stay exact either way) and the counters (cut-off
statistics by position in the trick, the bounds' cut-offs).  With every
switch at its default it visits exactly the nodes the shipped kernel does.
For benches and tests (``solver.dd.trick.probing``); the solver never uses
it.
"""

include "ddkernel.pxi"

from libc.string cimport memset
from ddstats cimport CutStats, reset_cuts, STAT_TRICKS, BoundaryRecord
from ddbounds cimport toosh_floor, count_floor, cash_run, lock_bounds
from ddctx cimport most_range
from libc.stdlib cimport malloc


cdef class ProbeKernel(Kernel):
    """``Kernel`` with the measurement switches and counters."""

    @property
    def use_winning_ranks(self):
        """False: plain exact keys even where winning ranks apply (the
        tests compare the two)."""
        return bool(self.K.st.use_winning_ranks)

    @use_winning_ranks.setter
    def use_winning_ranks(self, value):
        self.K.st.use_winning_ranks = bool(value)

    @property
    def use_lock_bounds(self):
        """False: no lock bounds (Rook's top-trump run)."""
        return bool(self.K.st.use_lock_bounds)

    @use_lock_bounds.setter
    def use_lock_bounds(self, value):
        self.K.st.use_lock_bounds = bool(value)

    @property
    def use_cash_bound(self):
        """Rook's count beyond the top-trump run, in the lock bounds (bits):
        1 what the hand on lead cashes (``cash_run``), 2 the last trick to
        the top trump's side when its hand is longest in trumps, and the
        run's tricks as many as one hand holds of it; 0 the run alone.
        True sets both."""
        return self.K.st.use_cash_bound

    @use_cash_bound.setter
    def use_cash_bound(self, value):
        self.K.st.use_cash_bound = 3 if value is True else int(value)

    @property
    def use_later_bounds(self):
        """Bits: 1 the run, 2 the finesse, 4 the split top two (0: off)."""
        return self.K.st.use_later_bounds

    @use_later_bounds.setter
    def use_later_bounds(self, int value):
        self.K.st.use_later_bounds = value

    @property
    def use_forced_bound(self):
        """False: no forced-take bound (the paranoid penalty contracts)."""
        return bool(self.K.st.use_forced_bound)

    @use_forced_bound.setter
    def use_forced_bound(self, value):
        self.K.st.use_forced_bound = bool(value)

    @property
    def use_cover_bound(self):
        """False: no holder-cover bound (the paranoid penalty contracts)."""
        return bool(self.K.st.use_cover_bound)

    @use_cover_bound.setter
    def use_cover_bound(self, value):
        self.K.st.use_cover_bound = bool(value)

    @property
    def use_part_cover(self):
        """False: no partial holder cover (``part_cover``: the paranoid
        penalty contracts; docs/solver.md, "partial holder cover")."""
        return bool(self.K.st.use_part_cover)

    @use_part_cover.setter
    def use_part_cover(self, value):
        self.K.st.use_part_cover = bool(value)

    @property
    def use_toosh_bound(self):
        """False: no sure-losses floor (``toosh_floor``: the paranoid
        Ltoosh)."""
        return bool(self.K.st.use_toosh_bound)

    @use_toosh_bound.setter
    def use_toosh_bound(self, value):
        self.K.st.use_toosh_bound = bool(value)

    @property
    def toosh_min_k(self):
        """The fewest tricks left at which the Ltoosh floor is asked (2,
        every trick boundary the bounds see, in the shipped kernel)."""
        return self.K.st.toosh_min_k

    @toosh_min_k.setter
    def toosh_min_k(self, int value):
        self.K.st.toosh_min_k = value

    @property
    def use_duck_match(self):
        """False: the ducking count before issue #40 (every card of the
        ducking seat's that may be played below the leading side's lowest)
        in ``never_wins`` and ``pivot_safe``, instead of the card-by-card
        match."""
        return bool(self.K.st.use_duck_match)

    @use_duck_match.setter
    def use_duck_match(self, value):
        self.K.st.use_duck_match = bool(value)

    @property
    def use_second_hand(self):
        """False: no second-hand quick trick (bridge, ``second_hand_quick``)."""
        return bool(self.K.st.use_second_hand)

    @use_second_hand.setter
    def use_second_hand(self, value):
        self.K.st.use_second_hand = bool(value)

    @property
    def use_long_suits(self):
        """False: the quick tricks count only the leader's cards above
        every opponent's (no top sequence over every other hand, no long
        suit: the count before issue #40)."""
        return bool(self.K.st.use_long_suits)

    @use_long_suits.setter
    def use_long_suits(self, value):
        self.K.st.use_long_suits = bool(value)

    @property
    def order(self):
        """The move-ordering rules in use (bits ``ORD_*`` of
        csrc/dd/ddstats.pxd: 1 suit lengths, 2 the killer, 4 partnership
        leads, 8 sure winners and safe ducks, 16 penalty shedding; 0: the
        ordering before issue #26; default all)."""
        return self.K.st.order

    @order.setter
    def order(self, int value):
        self.K.st.order = value

    @property
    def lock_hits(self):
        """Cut-offs by the lock bounds since the last load."""
        return self.K.st.lock_hits

    @property
    def cash_hits(self):
        """Cut-offs by the lock bounds since the last load that the run of
        top trumps alone would not have made (what ``cash_run`` added)."""
        return self.K.st.cash_hits

    def cash_run(self):
        """What the hand on lead of the loaded position (a trick boundary,
        values in units) cashes (``cash_run``): the tricks (0: none), the
        points they surely carry to its side beyond the generic bound
        (the top-trump run's left out) and the cards its winning-ranks
        key holds, each suit's lowest; None where it does not apply.
        For tests."""
        cdef int n, g
        cdef uint64_t q
        if self.K.S.ncards:
            raise ValueError("cash_run: a trick is in progress")
        if not self.K.cash_ok:
            return None
        n = cash_run(self.K, &g, &q)
        out = []
        while q:
            out.append(lowest_bit(q))
            q &= q - 1
        return n, g, out

    def lock_bounds(self):
        """The generic bounds of the loaded position (a trick boundary,
        values in units) tightened by the lock bounds with what the hand
        on lead cashes (``lock_bounds``, as the switches say): (lb, ub).
        For tests: the position's future value lies between them."""
        cdef int lb, ub, v, v2
        cdef RuleTable* R = &self.K.R
        cdef TrickState* S = &self.K.S
        if S.ncards:
            raise ValueError("lock_bounds: a trick is in progress")
        ub = S.tricks_left * self.K.base_hi + S.card_ub
        lb = S.tricks_left * self.K.base_lo + S.card_lb
        if R.use_most:
            most_range(self.K, &v, &v2)
            ub += max(R.last_win, R.last_lose) + v2
            lb += min(R.last_win, R.last_lose) + v
        else:
            ub += self.K.end_hi
            lb += self.K.end_lo
        if self.K.lock_ok or self.K.cash_ok or self.K.last_ok:
            lock_bounds(self.K, &lb, &ub)
        return lb, ub

    @property
    def later_hits(self):
        """Cut-offs only the later-tricks bounds made, since the last load."""
        return self.K.st.later_hits

    @property
    def cover_hits(self):
        """Cut-offs by the holder-cover bound since the last load."""
        return self.K.st.cover_hits

    @property
    def use_count_bound(self):
        """True: the penalty-card count (``count_floor``: the paranoid
        Queens and Diamonds with free discards); off by default, as in
        the shipped kernel, where it is compiled out."""
        return bool(self.K.st.use_count_bound)

    @use_count_bound.setter
    def use_count_bound(self, value):
        self.K.st.use_count_bound = bool(value)

    @property
    def count_min_k(self):
        """The fewest tricks left at which the penalty-card count is
        asked (2, every trick boundary the bounds see, in the shipped
        kernel)."""
        return self.K.st.count_min_k

    @count_min_k.setter
    def count_min_k(self, int value):
        self.K.st.count_min_k = value

    @property
    def count_hits(self):
        """Cut-offs by the penalty-card count since the last load."""
        return self.K.st.count_hits

    @property
    def part_hits(self):
        """Cut-offs by the partial holder cover since the last load."""
        return self.K.st.part_hits

    @property
    def toosh_hits(self):
        """Cut-offs by the Ltoosh sure-losses floor since the last load."""
        return self.K.st.toosh_hits

    @property
    def second_hits(self):
        """Cut-offs by the second-hand quick trick since the last load."""
        return self.K.st.second_hits

    @property
    def forced_hits(self):
        """Cut-offs by the forced-take bound since the last load."""
        return self.K.st.forced_hits

    def toosh_floor(self, int beta):
        """The Ltoosh floor (``toosh_floor``) of the loaded position (a
        trick boundary, values in units) for a window's top ``beta``: its
        value and the cards its winning-ranks key holds, each suit's lowest
        (every card from it up is keyed); None where the floor does not
        apply.  For tests: every position the key matches must be worth
        at least the value where it reaches ``beta``."""
        cdef int v
        cdef uint64_t q
        if self.K.S.ncards:
            raise ValueError("toosh_floor: a trick is in progress")
        if not self.K.toosh_ok:
            return None
        v = toosh_floor(self.K, beta)
        q = self.K.qwin
        out = []
        while q:
            out.append(lowest_bit(q))
            q &= q - 1
        return v, out

    def count_floor(self, int beta):
        """The penalty-card count (``count_floor``) of the loaded position
        (a trick boundary, values in units) for a window's top ``beta``:
        its value and the cards its winning-ranks key holds, each suit's
        lowest; None where the count does not apply.  For tests: every
        position the key matches must be worth at least the value where
        it reaches ``beta``."""
        cdef int v
        cdef uint64_t q
        if self.K.S.ncards:
            raise ValueError("count_floor: a trick is in progress")
        if not self.K.count_ok:
            return None
        self.K.qwin = 0
        v = count_floor(self.K, beta)
        q = self.K.qwin
        out = []
        while q:
            out.append(lowest_bit(q))
            q &= q - 1
        return v, out

    def cut_stats(self):
        """Per position in the trick (0 = leader): (cut-off nodes, of which
        at the first move, moves searched at cut nodes, nodes without a
        cut-off) since the last ``reset_cut_stats``."""
        cdef CutStats* c = &self.K.st.cut
        return [(c.cuts[i], c.first_cuts[i], c.cut_moves[i], c.all_nodes[i])
                for i in range(self.K.R.nseats)]

    def reset_cut_stats(self):
        """Zero the cut-off statistics and the node profile."""
        reset_cuts(&self.K.st.cut)
        memset(self.K.st.profile, 0, sizeof(self.K.st.profile))
        memset(self.K.st.table_hits, 0, sizeof(self.K.st.table_hits))

    def node_profile(self):
        """Where the nodes went since the last ``reset_cut_stats``: a dict
        tricks left -> (nodes by cards on the table (0 = the leader's
        node), trick-boundary nodes the table settled); the last row
        (19) counts 19 tricks and more."""
        out = {}
        for t in range(STAT_TRICKS):
            row = tuple(self.K.st.profile[t][i] for i in range(self.K.R.nseats))
            if any(row):
                out[t] = (row, self.K.st.table_hits[t])
        return out

    def record_boundaries(self, int tricks_left, int cap):
        """From now on keep the first ``cap`` trick boundaries with
        ``tricks_left`` tricks left that the search searched (neither a
        bound nor the table settled them; a search stopped at its node
        limit is not kept), for ``boundaries()``; ``cap`` 0 stops."""
        free(self.K.st.rec)
        self.K.st.rec = NULL
        self.K.st.rec_cap = 0
        self.K.st.rec_count = 0
        self.K.st.rec_depth = tricks_left
        if cap > 0:
            self.K.st.rec = <BoundaryRecord*> malloc(sizeof(BoundaryRecord) * cap)
            if self.K.st.rec == NULL:
                raise MemoryError("cannot allocate the boundary records")
            self.K.st.rec_cap = cap

    def boundaries(self):
        """The boundaries kept since ``record_boundaries``: a list of
        (hands, leader, alpha, beta, fail-soft result, nodes of its
        subtree), values in the rule table's units."""
        cdef uint64_t i
        cdef BoundaryRecord* e
        out = []
        for i in range(self.K.st.rec_count):
            e = &self.K.st.rec[i]
            out.append((tuple(e.hands[j] for j in range(self.K.R.nseats)), e.leader, e.alpha,
                        e.beta, e.result, e.nodes))
        return out
