# The generic double-dummy kernel's Python class (included by
# csrc/dd/dd.pyx, the shipped build, and csrc/dd/ddprobe.pyx, the
# measuring build): it owns the kernel context (csrc/dd/ddctx.pxd) and its
# table, turns a rule dict and a position into the context's structs once
# per solve and runs the search (csrc/dd/ddsearch.pxd) without the GIL.
from libc.stdint cimport uint64_t, uint32_t, uint8_t, uint16_t, int16_t, int32_t
from libc.stdlib cimport free, calloc
from libc.string cimport memset
from ttable cimport TTEntry, tt_alloc, tt_next_gen
from bits cimport popcount, highest_bit, lowest_bit
from interrupt cimport reraise
from trickstate cimport (RuleTable, TrickState, WEntry, legal_mask, mix64, MAX_SEATS, MAX_PLY,
                         NO_CARD)
from ddstats cimport DD_STATS, dd_stats_defaults
from ddctx cimport (DDCtx, MaxnRules, BUCKET, XBUCKET, WBUCKET, WHEAD, play, unplay, finish_trick,
                   unfinish_trick)
from ddtable cimport init_levmask, hash_key, wkey
from ddorder cimport gen_moves
from ddsearch cimport mtdf, solve_child
from ddmaxn cimport maxn, maxn_classes, maxn_trick, MEntry

IMPLEMENTATION = "cython"

#: bytes per transposition-table entry and per bucket (for the size checks in dd.py)
ENTRY_BYTES = sizeof(TTEntry)
BUCKET_BYTES = sizeof(TTEntry) * BUCKET


cdef class Kernel:
    """Owns the kernel context (rule table, state, per-ply buffers) and the
    table."""

    cdef DDCtx* K
    #: False: the solver starts a new table generation before every solve
    #: (solver.dd.session reads it; measurements)
    cdef public bint keep_table
    cdef int table_mode           # -1 none yet, 2 max^n, else the wmode of this generation
    #: the last ``solve_actions``: each legal card's proved [lo, hi] (future
    #: values), exact where its driver finished (lo == hi)
    cdef readonly dict brackets

    def __cinit__(self, uint64_t nbuckets):
        """``nbuckets`` must be a power of two (checked by solver/dd.py)."""
        cdef size_t size = nbuckets * BUCKET * sizeof(TTEntry)
        cdef void* p
        cdef DDCtx* K
        self.K = <DDCtx*> calloc(1, sizeof(DDCtx))
        if self.K == NULL:
            raise MemoryError("cannot allocate the kernel's buffers")
        p = tt_alloc(size)
        if p == NULL:
            raise MemoryError(f"cannot allocate a transposition table of {size} bytes")
        K = self.K
        K.tt = <TTEntry*> p
        # winning-ranks mode: half the memory for the distribution lists,
        # half for exact keys (4-entry buckets, uniformly hashed)
        K.xtt = <WEntry*> p
        K.xt_mask = (size // 2 // (XBUCKET * sizeof(WEntry))) - 1
        K.wtt = <char*> p + size // 2
        K.wt_count = (size // 2) // (WHEAD + WBUCKET * sizeof(WEntry))
        K.nbuckets = nbuckets
        K.tt_mask = nbuckets - 1
        K.gen = 0
        K.nodes = 0
        init_levmask(K.levmask)
        dd_stats_defaults(&K.st)
        self.keep_table = True
        self.table_mode = -1

    def __dealloc__(self):
        if self.K != NULL:
            free(self.K.tt)
            free(self.K.st.rec)         # the probe build's boundary records
            free(self.K)

    @property
    def table_bytes(self):
        return self.K.nbuckets * BUCKET * sizeof(TTEntry)

    @property
    def nodes(self):
        """Nodes searched since the last load."""
        return self.K.nodes

    @property
    def node_limit(self):
        """0: none; else the search stops past that many nodes (``aborted``)."""
        return self.K.node_limit

    @node_limit.setter
    def node_limit(self, uint64_t value):
        self.K.node_limit = value

    @property
    def aborted(self):
        """Whether the last search stopped at the node limit (or a signal)."""
        return self.K.aborted

    # ------------------------------------------------------------------
    # set-up (Python level, once per solve)

    def load(self, dict rules, list hands, int leader, list trick, int tricks_left,
             int max_tricks):
        """Load a rule table (a dict from ``solver.dd.trick.unit_table``)
        and a position.  The table is kept: every entry is a bound proved
        under the rule table whose fingerprint (``rules["key"]``) is mixed
        into its key, true of any position with that key, so a position of
        another deal (a PIMC world), of the same deal later (the next card)
        or under other rules (another leader's side, another contract) can
        only find entries that hold for it.  Only a change of the table's
        layout (winning ranks or exact keys: the two use the same memory
        differently) starts a new generation here; the solver sessions
        (``solver.dd.session``) decide when a table starts afresh."""
        cdef RuleTable* R = &self.K.R
        cdef TrickState* S = &self.K.S
        cdef int i, c
        cdef int ccount[256]
        memset(R, 0, sizeof(RuleTable))
        memset(S, 0, sizeof(TrickState))
        R.nseats = rules["nseats"]
        R.trump = rules["trump"]
        R.must_follow = rules["must_follow"]
        R.ten_total = rules["ten_total"]
        R.trick_win = rules["trick_win"]
        R.trick_lose = rules["trick_lose"]
        R.ten_win = rules["ten_win"]
        R.ten_lose = rules["ten_lose"]
        R.last_win = rules["last_win"]
        R.last_lose = rules["last_lose"]
        R.last_extra = rules["last_extra"]
        R.use_most = rules["use_most"]
        R.most_win = rules["most_win"]
        R.most_lose = rules["most_lose"]
        R.most_tie = rules["most_tie"]
        R.total_tricks = rules["total_tricks"]
        R.relative_ok = rules["relative_ok"]
        R.pip_partners = rules["pip_partners"]
        R.quick_ok = rules["quick_ok"]
        R.discard_mask = rules["discard_mask"]
        R.unit = rules.get("unit", 1)
        for i in range(R.nseats):
            R.side[i] = rules["side"][i]
            R.next_seat[i] = (i + 1) % R.nseats
        for c in range(64):
            R.suit_of[c] = rules["suit_of"][c]
            R.strength[c] = rules["strength"][c]
            R.cls[c] = rules["cls"][c]
            R.pips[c] = rules["pips"][c]
            R.win_pts[c] = rules["win_pts"][c]
            R.lose_pts[c] = rules["lose_pts"][c]
            R.card_at[c] = NO_CARD
        memset(ccount, 0, sizeof(ccount))
        R.class_relative = not R.relative_ok and not R.pip_partners and R.ten_total < 0
        for c in range(64):
            if R.suit_of[c] < 4:
                R.slot[c] = R.suit_of[c] * 16 + R.strength[c]
                R.card_at[R.slot[c]] = c
                R.suit_mask[R.suit_of[c]] |= (<uint64_t>1) << c
                ccount[R.cls[c]] += 1
                if R.slot[c] != c:
                    R.class_relative = 0
            else:
                R.slot[c] = 0
        R.cls_base = 0
        for i in range(256):
            if ccount[i] > ccount[R.cls_base]:
                R.cls_base = i
        self.K.wmode = ((R.relative_ok or R.class_relative) and R.nseats == 4
                      and (not DD_STATS or self.K.st.use_winning_ranks))
        self.K.pinned = 0
        for i in range(4):
            if popcount(R.suit_mask[i]) > 14:
                self.K.wmode = 0
        if R.class_relative:
            for c in range(64):
                if R.suit_of[c] < 4 and R.cls[c] != R.cls_base:
                    self.K.pinned |= (<uint64_t>1) << c
        self.K.sweep_ok = R.ten_total < 0
        self.K.pts_mask = 0
        for c in range(64):
            if R.suit_of[c] < 4:
                if R.slot[c] != c:
                    self.K.sweep_ok = 0
                if R.win_pts[c] != 0 or R.lose_pts[c] != 0:
                    self.K.pts_mask |= (<uint64_t>1) << c
        self.K.duck_ok = self.K.sweep_ok and R.trump < 0 and R.must_follow
        self.K.max_seat = -1
        for i in range(R.nseats):
            if R.side[i]:
                self.K.max_seat = i if self.K.max_seat == -1 else -2
        self.K.lock_ok = (self.K.sweep_ok and R.trump >= 0 and not R.quick_ok
                        and (not DD_STATS or self.K.st.use_lock_bounds))
        self.K.st.lock_hits = 0
        self.K.cash_ok = (self.K.sweep_ok and R.trump >= 0 and not R.quick_ok and R.must_follow
                          and (not DD_STATS or self.K.st.use_cash_bound & 1))
        self.K.last_ok = (self.K.sweep_ok and R.trump >= 0 and not R.quick_ok and R.must_follow
                          and (not DD_STATS or self.K.st.use_cash_bound & 2))
        self.K.st.cash_hits = 0
        self.K.later_ok = (self.K.sweep_ok and R.quick_ok and R.must_follow and R.trump >= 0
                         and R.discard_mask == 0
                           and (not DD_STATS or self.K.st.use_later_bounds))
        self.K.st.later_hits = 0
        self.K.later_alt = R.nseats == 4
        for i in range(R.nseats):
            if R.side[i] == R.side[R.next_seat[i]]:
                self.K.later_alt = 0
        self.K.forced_ok = (self.K.sweep_ok and R.trump < 0 and R.must_follow
                          and self.K.max_seat >= 0
                            and (not DD_STATS or self.K.st.use_forced_bound))
        self.K.st.forced_hits = 0
        self.K.pivot_ok = (self.K.duck_ok and self.K.max_seat >= 0 and R.trick_win == R.trick_lose
                         and R.last_win == R.last_lose and not R.use_most)
        self.K.cover_ok = self.K.pivot_ok and (not DD_STATS or self.K.st.use_cover_bound)
        self.K.part_ok = self.K.pivot_ok and (not DD_STATS or self.K.st.use_part_cover)
        self.K.second_ok = (R.nseats == 4 and R.quick_ok and self.K.sweep_ok
                            and R.side[0] == R.side[2] and R.side[1] == R.side[3]
                            and R.side[0] != R.side[1] and R.must_follow and R.discard_mask == 0
                            and (not DD_STATS or self.K.st.use_second_hand))
        self.K.toosh_ok = (self.K.duck_ok and self.K.max_seat >= 0 and self.K.pts_mask == 0
                           and R.discard_mask == 0 and R.trick_win < R.trick_lose
                           and R.last_win == R.last_lose and not R.use_most
                           and (not DD_STATS or self.K.st.use_toosh_bound))
        self.K.st.toosh_hits = 0
        self.K.st.cover_hits = 0
        self.K.st.part_hits = 0
        self.K.st.second_hits = 0
        self.K.base_hi = max(R.trick_win, R.trick_lose)
        self.K.base_lo = min(R.trick_win, R.trick_lose)
        if R.ten_total >= 0:
            self.K.base_hi = max(self.K.base_hi, R.ten_win, R.ten_lose)
            self.K.base_lo = min(self.K.base_lo, R.ten_win, R.ten_lose)
        self.K.penal = R.trick_win <= R.trick_lose and R.last_win <= R.last_lose and not R.use_most
        for c in range(64):
            if R.win_pts[c] > R.lose_pts[c]:
                self.K.penal = 0
        # two penalty cards at least: with one (King of Hearts) the count
        # only ever says "M takes none", the pivot's and the covers' claim.
        # Off in the shipped kernel: measured, it cost more nodes than it
        # saved from trick 3 (docs/solver.md, "What each bound saves"); the
        # probe build turns it on with use_count_bound
        self.K.count_ok = (self.K.pivot_ok and self.K.penal and R.discard_mask == 0
                           and popcount(self.K.pts_mask) >= 2
                           and DD_STATS and self.K.st.use_count_bound)
        self.K.st.count_hits = 0
        self.K.end_hi = max(R.last_win, R.last_lose)
        self.K.end_lo = min(R.last_win, R.last_lose)
        if R.use_most:
            self.K.end_hi += max(R.most_win, R.most_lose, R.most_tie)
            self.K.end_lo += min(R.most_win, R.most_lose, R.most_tie)
        for i in range(R.nseats):
            S.hands[i] = hands[i]
            m = S.hands[i]
            while m:
                c = lowest_bit(m)
                m &= m - 1
                S.rem_slot |= (<uint64_t>1) << R.slot[c]
                S.card_ub += max(R.win_pts[c], R.lose_pts[c])
                S.card_lb += min(R.win_pts[c], R.lose_pts[c])
        S.leader = leader
        S.ncards = len(trick)
        for i in range(S.ncards):
            c = trick[i]
            S.trick[i] = c
            S.rem_slot |= (<uint64_t>1) << R.slot[c]
            S.card_ub += max(R.win_pts[c], R.lose_pts[c])
            S.card_lb += min(R.win_pts[c], R.lose_pts[c])
        S.tricks_left = tricks_left
        S.max_tricks = max_tricks
        self.K.rules_key = rules.get("key", 0)
        if self.table_mode != self.K.wmode:
            self.new_table()
            self.table_mode = self.K.wmode
        self.K.nodes = 0
        self.K.aborted = False
        memset(self.K.history, 0, sizeof(self.K.history))
        memset(self.K.killer, NO_CARD, sizeof(self.K.killer))

    def load_maxn(self, dict mx, int root):
        """After ``load``: the seats' own points for the max^n value
        (``solver.dd.trick.maxn_table``: per card its taker's points, its
        revealer and the revealer's share, the trick and last-trick
        points, all in units) and the seat whose value is asked (ties go
        against it).  The table's layout then holds vectors: a new
        generation when it held bounds."""
        cdef int c
        cdef MaxnRules* M = &self.K.mx
        M.pts_mask = 0
        for c in range(64):
            M.taker[c] = mx["taker"][c]
            M.self_pts[c] = mx["self"][c]
            M.rev_pts[c] = mx["rev_pts"][c]
            M.rev[c] = mx["rev"][c]
            if M.taker[c] or M.self_pts[c] or M.rev_pts[c]:
                M.pts_mask |= (<uint64_t>1) << c
        M.trick_pts = mx["trick"]
        M.last_pts = mx["last"]
        M.root = root
        M.salt = mix64(<uint64_t>mx["key"] ^ (<uint64_t>(root + 1) << 56))
        if self.table_mode != 2:
            self.new_table()
            self.table_mode = 2

    def maxn_actions(self):
        """The max^n vector (each seat's future points, the trick in
        progress included) of every legal card of the seat to play, as a
        dict card -> tuple."""
        cdef int seat = self.current_seat()
        cdef uint64_t legal = legal_mask(&self.K.R, &self.K.S, seat)
        cdef int n, i, j, c, ns = self.K.R.nseats
        cdef uint8_t reps[64]
        cdef int vec[64][MAX_SEATS]
        cdef int tv[MAX_SEATS]
        cdef int saved[MAX_SEATS]
        cdef int saved_leader, saved_max
        cdef DDCtx* K = self.K
        with nogil:
            n = maxn_classes(K, seat, legal, reps)
            for i in range(n):
                c = reps[i]
                play(K, seat, c)
                if K.S.ncards == ns:
                    maxn_trick(K, tv)
                    saved_leader = K.S.leader
                    saved_max = K.S.max_tricks
                    for j in range(ns):
                        saved[j] = K.S.trick[j]
                    finish_trick(K)
                    maxn(K, 1, vec[i])
                    unfinish_trick(K, saved, ns, saved_leader, saved_max)
                    for j in range(ns):
                        vec[i][j] += tv[j]
                else:
                    maxn(K, 1, vec[i])
                unplay(K, seat, c)
        self.check_interrupt()
        # every card of a class shares its representative's vector
        out = {}
        for c in range(64):
            if (legal >> c) & 1:
                out[c] = None
        for i in range(n):
            out[reps[i]] = tuple(vec[i][j] for j in range(ns))
        for c in sorted(out):
            if out[c] is None:
                out[c] = out[self._class_rep(c, reps, n)]
        return out

    cdef int _class_rep(self, int c, uint8_t* reps, int n):
        """The representative in ``reps`` of card ``c``'s class: the next
        card of the same hand above it in strength with nothing left in
        between (the classes run from the top)."""
        cdef RuleTable* R = &self.K.R
        cdef int s = R.slot[c], i, best = -1, bs = 64
        for i in range(n):
            if (R.slot[reps[i]] >> 4) == (s >> 4) and R.slot[reps[i]] > s and R.slot[reps[i]] < bs:
                best = reps[i]
                bs = R.slot[reps[i]]
        return best

    def new_table(self):
        """Start a new table generation: every entry becomes invisible (the
        next solve then visits the nodes a first solve does)."""
        self.K.gen = tt_next_gen(self.K.tt, self.K.nbuckets * BUCKET * sizeof(TTEntry), self.K.gen)

    def boundary_key(self):
        """The table key of the loaded position (a trick boundary): the two
        64-bit hashes the search uses (the winning-ranks key, its owner
        patterns included, in winning-ranks mode; else the exact key).
        For tests: different positions must not share it."""
        cdef uint64_t h1 = 0, h2 = 0
        cdef uint32_t pat[4]
        if self.K.S.ncards:
            raise ValueError("boundary_key: a trick is in progress")
        if self.K.wmode:
            wkey(self.K, &h1, &h2, pat)
            return (h1, h2, pat[0], pat[1], pat[2], pat[3])
        hash_key(self.K, &h1, &h2)
        return (h1, h2)

    def current_seat(self):
        return (self.K.S.leader + self.K.S.ncards) % self.K.R.nseats

    def legal(self):
        """Legal cards of the seat to play (ascending)."""
        cdef uint64_t m = legal_mask(&self.K.R, &self.K.S, self.current_seat())
        out = []
        while m:
            out.append(lowest_bit(m))
            m &= m - 1
        return out

    def solve_actions(self, int lo, int hi):
        """Value of every legal card of the seat to play, as a dict
        card -> future value (the trick in progress included).  ``lo`` and
        ``hi`` bound every value (from solver/dd.py).  ``brackets`` then
        holds each card's proved interval: where the node limit stopped the
        search (``aborted``), the cards before it are exact, its card has
        what its finished questions proved and the cards after it [lo, hi];
        the values of the dict are then no answer."""
        cdef int seat = self.current_seat()
        cdef uint64_t legal = legal_mask(&self.K.R, &self.K.S, seat)
        cdef int n, i, c, v, guess
        cdef int reps[64]
        cdef int rep_of[64]
        cdef int values[64]
        cdef int br[64][2]
        with nogil:
            n = gen_moves(self.K, legal, 0, reps, rep_of)
            guess = (lo + hi) // 2
            for i in range(n):
                br[i][0] = lo
                br[i][1] = hi
                values[i] = lo
            for i in range(n):
                c = reps[i]
                v = solve_child(self.K, c, lo, hi, guess, br[i])
                if self.K.aborted:
                    break
                values[i] = v
                guess = v
        self.check_interrupt()
        out = {}
        self.brackets = {}
        for c in range(64):
            if (legal >> c) & 1:
                out[c] = values[rep_of[c]]
                self.brackets[c] = (br[rep_of[c]][0], br[rep_of[c]][1])
        return out

    def solve_value(self, int lo, int hi, guess=None):
        """The future value of the position (MTD(f) from the root, first
        asking about ``guess``: default the middle of [lo, hi])."""
        cdef int v
        cdef int g = (lo + hi) // 2 if guess is None else min(max(<int>guess, lo), hi)
        with nogil:
            v = mtdf(self.K, g, lo, hi, 0, NULL)
        self.check_interrupt()
        return v

    cdef int check_interrupt(self) except -1:
        """Re-raise a signal handler's exception (Ctrl-C) that stopped the
        search."""
        if self.K.interrupted:
            self.K.interrupted = False
            return reraise()
        return 0