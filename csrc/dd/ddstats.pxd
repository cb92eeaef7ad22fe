# Measurement switches and counters of the double-dummy kernels (the
# generic kernel and the dix solver), behind the compile-time flag DD_STATS
# (header only: cimported at compile time, no runtime module).
#
# The shipped kernels (csrc/dd/dd.pyx -> solver.dd._dd, csrc/dd/dixdd.pyx
# -> solver.dd._dixdd) are compiled with DD_STATS 0: every ``if DD_STATS:``
# block is constant-false C that the compiler drops, and every switch reads
# as its default constant, so the search carries no counter update and no
# switch test.  The probe builds (csrc/dd/ddprobe.pyx, csrc/dd/dixprobe.pyx:
# the same sources with ``define_macros = DD_STATS=1``) keep them: benches
# and tests switch a bound off or read the first-move cut rate there.  With
# every switch at its default a probe build visits exactly the nodes of the
# shipped one (bench/dd_signature.py --probe).
from libc.stdint cimport uint64_t

cdef extern from *:
    """
    #ifndef DD_STATS
    #define DD_STATS 0
    #endif
    """
    enum: DD_STATS

cdef enum:
    STAT_SEATS = 8
    STAT_TRICKS = 20            # node profile rows: tricks left 0..18, then 19 and more
    # move-ordering rules (csrc/dd/ddorder.pxd; docs/solver.md has each one's
    # measurements): the shipped kernel uses them all, the probe build can
    # turn each off (0: the ordering before issue #26)
    ORD_SUIT_LENGTH = 1         # leader: suits the other side holds fewer cards of first
    ORD_KILLER = 2              # leader: the last card that cut at the ply, after the table's
    ORD_PARTNER_LEAD = 4        # leader of a partnership wanting tricks: lead_partnership
    ORD_FOLLOW_SURE = 8         # followers wanting the trick: sure winners, safe ducks
    ORD_PENALTY_SHED = 16       # penalty contracts: shed the highest card, win with the highest
    ORDER_DEFAULT = 31
    DIX_ORD_FEW_REPLIES = 1     # dix leader: among leads of equal value, fewest replies first
    DIX_ORDER_DEFAULT = 1


ctypedef struct CutStats:
    # since the last reset, by the position in the trick of the node's seat
    # (0 = the leader): cut-off nodes, how many of them cut at their first
    # move, the moves searched at cut nodes, the nodes that searched every
    # move (bench/dd_ordering.py)
    uint64_t cuts[STAT_SEATS]
    uint64_t first_cuts[STAT_SEATS]
    uint64_t cut_moves[STAT_SEATS]
    uint64_t all_nodes[STAT_SEATS]


ctypedef struct BoundaryRecord:
    # a trick boundary the search searched (bench/dd_boundaries.py): the
    # hands, the leader, the window it was asked, its fail-soft answer and
    # the nodes of its subtree
    uint64_t hands[STAT_SEATS]
    int leader
    int alpha
    int beta
    int result
    uint64_t nodes


ctypedef struct DDStats:
    # the generic kernel's switches (exact either way; the defaults are what
    # the shipped kernel does)
    int use_winning_ranks       # 0: plain exact keys even where winning ranks apply
    int use_lock_bounds         # 0: no lock bounds (Rook's top-trump run)
    int use_cash_bound          # bits: 1 lock_bounds adds what the hand on lead cashes
                                #   (cash_run), 2 the last trick to the top trump's side
                                #   and the run's tricks by its longest hand
    int use_later_bounds        # bits: 1 the run, 2 the finesse, 4 the split top two
    int use_forced_bound        # 0: no forced-take bound (penalty contracts)
    int use_cover_bound         # 0: no holder-cover bound (penalty contracts)
    int use_part_cover          # 0: no partial holder cover (penalty contracts, issue #40)
    int use_toosh_bound         # 0: no sure-losses floor (Ltoosh, toosh_floor)
    int toosh_min_k             # toosh_floor is asked with at least this many tricks left
    int use_count_bound         # 1: the penalty-card count (count_floor: Queens, Diamonds;
                                #   off by default and in the shipped kernel)
    int count_min_k             # count_floor is asked with at least this many tricks left
    int use_duck_match          # 0: the ducking count before issue #40 (never_wins, pivot)
    int use_second_hand         # 0: no second-hand quick trick (bridge)
    int use_long_suits          # 0: quick tricks count no long suit (issue #40)
    int order                   # the move-ordering rules in use (ORD_* bits)
    CutStats cut
    uint64_t lock_hits          # cut-offs by lock_bounds (the run and the cash together)
    uint64_t cash_hits          # of those, the cut-offs the run alone would not have made
    uint64_t later_hits         # cut-offs only later_bounds made beyond the quick bounds
    uint64_t forced_hits        # cut-offs by forced_take
    uint64_t cover_hits         # cut-offs by holder_cover
    uint64_t part_hits          # cut-offs by part_cover
    uint64_t toosh_hits         # cut-offs by toosh_floor
    uint64_t count_hits         # cut-offs by count_floor
    uint64_t second_hits        # cut-offs by second_hand_quick
    # where the nodes go (bench/dd_ordering.py --profile): nodes by tricks
    # left and cards on the table, and the trick-boundary nodes the table
    # settled, by tricks left
    uint64_t profile[STAT_TRICKS][STAT_SEATS]
    uint64_t table_hits[STAT_TRICKS]
    # the trick boundaries searched (not settled by a bound or the table)
    # with rec_depth tricks left, up to rec_cap of them, in rec (owned by
    # the kernel; ProbeKernel.record_boundaries)
    int rec_depth
    uint64_t rec_count
    uint64_t rec_cap
    BoundaryRecord* rec


ctypedef struct DixStats:
    # the dix solver's switches (values never change; defaults shipped)
    int relative_keys           # 0: exact masks as keys
    int follow_tt               # 1: the table at follow nodes too
    int driver                  # 0: plain MTD(f); 1: the score difference first
    int exact_k                 # lead nodes with at most this many tricks: a full window
    int trick_bounds            # bits: 1 the other hand's top trumps, 2 the leader's
                                #   cashable winners, while ten-tricks are possible
    int order                   # move-ordering rules (DIX_ORD_* bits)
    CutStats cut
    uint64_t bound_hits         # cut-offs by the trick_bounds
    uint64_t questions          # null-window searches of the last solve
    uint64_t tie_nodes          # nodes spent after the score difference was settled
    # where the nodes went (bench/dd_ordering.py --profile): by tricks left
    # and position in the trick (0 = the leader's node), and the leader's
    # nodes whose table entry answered the question
    uint64_t profile[STAT_TRICKS][2]
    uint64_t table_hits[STAT_TRICKS]


cdef inline void dd_stats_defaults(DDStats* st) noexcept nogil:
    st.use_winning_ranks = 1
    st.use_lock_bounds = 1
    st.use_cash_bound = 3
    st.use_later_bounds = 7
    st.use_forced_bound = 1
    st.use_cover_bound = 1
    st.use_part_cover = 1
    st.use_toosh_bound = 1
    st.toosh_min_k = 2
    st.use_count_bound = 0      # off by default, as in the shipped kernel
    st.count_min_k = 2
    st.use_duck_match = 1
    st.use_second_hand = 1
    st.use_long_suits = 1
    st.order = ORDER_DEFAULT
    st.rec_depth = -1
    st.rec_count = 0
    st.rec_cap = 0
    st.rec = NULL


cdef inline void dix_stats_defaults(DixStats* st) noexcept nogil:
    st.relative_keys = 1
    st.follow_tt = 0
    st.driver = 1
    st.exact_k = 4
    st.trick_bounds = 3
    st.order = DIX_ORDER_DEFAULT


cdef inline void count_cut(CutStats* c, int pos, int i) noexcept nogil:
    """A cut-off at position ``pos`` in the trick by the ``i``-th move
    searched (0: the first)."""
    c.cuts[pos] += 1
    c.cut_moves[pos] += i + 1
    if i == 0:
        c.first_cuts[pos] += 1


cdef inline int stat_row(int tricks_left) noexcept nogil:
    return tricks_left if tricks_left < STAT_TRICKS else STAT_TRICKS - 1


cdef inline void reset_cuts(CutStats* c) noexcept nogil:
    cdef int i
    for i in range(STAT_SEATS):
        c.cuts[i] = 0
        c.first_cuts[i] = 0
        c.cut_moves[i] = 0
        c.all_nodes[i] = 0
