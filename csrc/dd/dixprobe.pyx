# cython: language_level=3
# distutils: define_macros = DD_STATS=1
"""The dix solver with its measurement switches and counters
(``solver.dd._dixprobe``): the source of ``solver.dd._dixdd``
(csrc/dd/dixdd.pyx, csrc/dd/dixkernel.pxi) compiled with ``DD_STATS`` 1
(csrc/dd/ddstats.pxd).  ``ProbeDixSolver`` adds the switches (values never
change) and the counters; with every switch at its default it visits
exactly the nodes of the shipped solver.  For benches and tests
(``solve_dix(..., options=...)`` routes there); the solver never uses it.
"""

include "dixkernel.pxi"

from libc.string cimport memset
from ddstats cimport CutStats, reset_cuts, STAT_TRICKS


cdef class ProbeDixSolver(DixSolver):
    """``DixSolver`` with the measurement switches and counters."""

    @property
    def relative_keys(self):
        """False: exact masks as keys (for comparison)."""
        return bool(self.D.st.relative_keys)

    @relative_keys.setter
    def relative_keys(self, value):
        self.D.st.relative_keys = bool(value)

    @property
    def follow_tt(self):
        """True: the table at follow nodes too."""
        return bool(self.D.st.follow_tt)

    @follow_tt.setter
    def follow_tt(self, value):
        self.D.st.follow_tt = bool(value)

    @property
    def driver(self):
        """0: plain MTD(f); 1: the score difference first."""
        return self.D.st.driver

    @driver.setter
    def driver(self, int value):
        self.D.st.driver = value

    @property
    def exact_k(self):
        """Lead nodes with at most this many tricks get a full window."""
        return self.D.st.exact_k

    @exact_k.setter
    def exact_k(self, int value):
        self.D.st.exact_k = value

    @property
    def trick_bounds(self):
        """Bits: 1 the other hand's top trumps, 2 the leader's cashable
        winners, while ten-tricks are possible (0: neither)."""
        return self.D.st.trick_bounds

    @trick_bounds.setter
    def trick_bounds(self, int value):
        self.D.st.trick_bounds = value

    @property
    def order(self):
        """Move-ordering rules (bits ``DIX_ORD_*`` of csrc/dd/ddstats.pxd:
        1 the fewest replies first among equal leads; 0: the ordering
        before issue #26)."""
        return self.D.st.order

    @order.setter
    def order(self, int value):
        self.D.st.order = value

    @property
    def bound_hits(self):
        """Cut-offs by the trick bounds in the last solve."""
        return self.D.st.bound_hits

    @property
    def questions(self):
        """Null-window searches of the last solve."""
        return self.D.st.questions

    @property
    def tie_nodes(self):
        """Nodes of the last solve spent after the score difference was
        settled."""
        return self.D.st.tie_nodes

    def cut_stats(self):
        """Per position in the trick (0 = the leader, 1 = the follower):
        (cut-off nodes, of which at the first move, moves searched at cut
        nodes, nodes without a cut-off) since the last ``reset_cut_stats``."""
        cdef CutStats* c = &self.D.st.cut
        return [(c.cuts[i], c.first_cuts[i], c.cut_moves[i], c.all_nodes[i]) for i in range(2)]

    def node_profile(self):
        """Where the nodes went since the last ``reset_cut_stats``: a dict
        tricks left -> ((the leader's nodes, the follower's), the leader's
        nodes the table settled), as ``ProbeKernel.node_profile``
        (csrc/dd/ddprobe.pyx)."""
        out = {}
        for t in range(STAT_TRICKS):
            row = (self.D.st.profile[t][0], self.D.st.profile[t][1])
            if any(row):
                out[t] = (row, self.D.st.table_hits[t])
        return out

    def reset_cut_stats(self):
        """Empty the cut counters and the node profile."""
        reset_cuts(&self.D.st.cut)
        memset(self.D.st.profile, 0, sizeof(self.D.st.profile))
        memset(self.D.st.table_hits, 0, sizeof(self.D.st.table_hits))
