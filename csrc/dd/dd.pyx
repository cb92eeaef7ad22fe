# cython: language_level=3
"""Double-dummy kernel: exact alpha-beta over a perfect-information trick
state and a rule table (csrc/trickstate.pxd).

* ``search(alpha, beta)`` is a fail-soft alpha-beta over single card plays;
  its value is the max side's FUTURE value (the trick in progress included).
  The max side's seats maximise it, every other seat minimises it (team
  minimax; with a one-seat max side, the paranoid value of that seat).
* A transposition table at trick boundaries stores lower/upper bounds of the
  future value, keyed by the hands (relative ranks when the rule table says
  scoring cannot tell the cards of a suit apart), the leader and, when a
  most-tricks bonus is scored, the max side's trick count.  Fixed size:
  buckets of four 16-byte entries (one cache line), replacement of the
  shallowest entry, a generation stamp instead of clearing.
* Four seats with relative keys (bridge, penalty contracts, 4-seat Rook):
  DDS's winning ranks instead.  Every search also reports the cards whose
  ranks decided it (``wr[ply]``: the lowest of each suit; every card from
  it up counts); an entry keys only the owners of those top cards of each
  suit plus the hand lengths, so it matches every position differing only
  in low cards that never mattered.  Half the table: lists of 256 such
  entries per hand distribution; the other half: the same bounds under
  exact keys.  A hand's further cards of a suit below every deciding card
  are skipped once one was searched (DDS's one small card a suit).
* The driver (``mtdf``) asks null-window questions "does the max side reach
  >= t?" and narrows [lo, hi] with the fail-soft answers (MTD(f)).
* Cards of one hand that are adjacent in their effective suit once played
  cards are removed, with the same scoring class, are searched once.
* Move ordering: the table's best move, then simple trick heuristics.
* Per-ply move buffers live in the kernel object: the search never
  allocates.  Input is validated once by ``solver/dd.py``; nothing here
  re-checks it (STYLE 5).

The pure-Python twin is ``solver/reference/dd_oracle.py`` (plain minimax).
"""
from libc.stdint cimport uint64_t, uint32_t, uint8_t, uint16_t, int16_t, int32_t
from libc.stdlib cimport free
from libc.string cimport memset
from ttable cimport TTEntry, tt_alloc, tt_next_gen, tt_find, tt_store
from bits cimport popcount, highest_bit, lowest_bit, trick_winner_c, above_all
from interrupt cimport signal_raised, reraise, INTERRUPT_MASK
from trickstate cimport (RuleTable, TrickState, WEntry, mix64, between_bits, legal_mask,
                         pip_set, interchangeable,
                         MAX_SEATS, MAX_PLY, NO_CARD)

IMPLEMENTATION = "cython"

cdef enum:
    BUCKET = 4
    XBUCKET = 4            # exact-key entries a bucket (winning-ranks mode)
    WBUCKET = 256          # winning-ranks entries a bucket: a hand distribution's list
    WHEAD = 1088           # bucket header (generation, count, cursor) + 32-bit tags, padded
    INF = 1000000

# LEVMASK[levels]: the tag bits an entry keys, from its levels byte (two
# bits a suit: 0, 1 or 2 top cards keyed -> 0, the top owner's or both
# top owners' bits of the suit's nibble)
cdef uint16_t LEVMASK[256]


cdef void _init_levmask():
    cdef int lev, s, l
    cdef uint16_t m
    for lev in range(256):
        m = 0
        for s in range(4):
            l = (lev >> (2 * s)) & 3
            if l == 1:
                m |= <uint16_t>(0xC << (4 * s))
            elif l >= 2:
                m |= <uint16_t>(0xF << (4 * s))
        LEVMASK[lev] = m


_init_levmask()

#: bytes per transposition-table entry and per bucket (for the size checks in dd.py)
ENTRY_BYTES = sizeof(TTEntry)
BUCKET_BYTES = sizeof(TTEntry) * BUCKET


cdef inline uint64_t side_trumps(const RuleTable* R, const TrickState* S,
                                 uint64_t* side_t) noexcept nogil:
    """Each side's trumps still in hand (``side_t[0]``, ``side_t[1]``);
    returns all of them."""
    cdef uint64_t tm = R.suit_mask[R.trump]
    cdef int i
    side_t[0] = side_t[1] = 0
    for i in range(R.nseats):
        side_t[R.side[i]] |= S.hands[i] & tm
    return side_t[0] | side_t[1]


cdef class Kernel:
    """Owns the rule table, the state, the per-ply buffers and the table."""

    cdef RuleTable R
    cdef TrickState S
    cdef TTEntry* tt
    cdef uint64_t nbuckets
    cdef uint64_t tt_mask
    cdef uint16_t gen
    cdef public uint64_t nodes
    cdef public uint64_t node_limit   # 0: none; else abort past it (aborted set)
    cdef public bint aborted
    cdef bint interrupted             # a signal handler raised (Ctrl-C): re-raise it
    cdef int32_t base_hi          # max over tricks of the per-trick base value
    cdef int32_t base_lo
    cdef int32_t end_hi           # last-trick + most-tricks extras, max / min
    cdef int32_t end_lo
    cdef bint penal               # winning a trick or a card never helps the max side
    cdef uint8_t moves[MAX_PLY][64]
    cdef int32_t scores[MAX_PLY][64]
    cdef int32_t history[MAX_SEATS][64]   # cut-off history (ordering hint)
    # winning ranks (DDS): 4 seats with relative keys store entries that
    # match every position differing only in low cards that never mattered
    cdef bint wmode
    #: False: plain exact keys even where winning ranks apply (tests compare the two)
    cdef public bint use_winning_ranks
    cdef char* wtt                # half the memory of tt: the distribution lists
    cdef uint64_t wt_count        # buckets there (WHEAD + WBUCKET entries each)
    cdef WEntry* xtt              # the other half: exact keys
    cdef uint64_t xt_mask
    cdef uint64_t pinned          # cards always keyed (penalty classes)
    cdef uint64_t win_add         # the trick just finished: its winner if contested
    cdef uint64_t qwin            # quick_bounds: the lowest sure winner of each suit
    cdef bint sweep_ok            # no ten rule and slot == card: sweep() applies
    cdef bint duck_ok             # sweep_ok, no trumps, must follow: never_wins() applies
    cdef bint pivot_ok            # duck_ok, one max seat, tricks and the last trick
                                  # alike to both sides, no most-tricks bonus: pivot_safe()
    cdef int max_seat             # the max seat when pivot_ok
    cdef bint lock_ok             # sweep_ok, trumps, not quick_ok: lock_bounds() applies
    cdef public bint use_lock_bounds   # switch (exact either way; for measuring)
    cdef public uint64_t lock_hits     # cut-offs by lock_bounds since the last load
    cdef bint later_ok            # quick_ok, sweep_ok, trumps, must follow, free discards
    cdef bint later_alt           # 4 seats, the sides alternate (the finesse, the split top two)
    cdef bint forced_ok           # sweep_ok, no trumps, must follow, one max seat
    cdef public bint use_forced_bound  # switch (exact either way; for measuring)
    cdef public uint64_t forced_hits   # cut-offs by forced_take since the last load
    cdef public int use_later_bounds   # bits: 1 the run, 2 the finesse, 4 the split top two (0: off)
    cdef public uint64_t later_hits    # cut-offs only later_bounds made, since the last load
    # the table is kept while the same deal returns under the same rules
    # (load): its bounds stay true for any position under one rule table
    #: False: every load starts a new table generation (measurements)
    cdef public bint keep_table
    cdef object last_rules        # the rule dict of the last load (None: none yet)
    cdef list deal_hands          # each seat's cards (hand and played to the table)
    cdef bint last_wmode
    cdef uint64_t pts_mask        # cards with card points (either side)
    # measurements (move ordering): cut-offs by the position in the trick
    # of the node's seat, and how many of them came from the first move
    cdef uint64_t cuts[MAX_SEATS]
    cdef uint64_t first_cuts[MAX_SEATS]
    cdef uint64_t cut_moves[MAX_SEATS]   # moves searched at cut nodes
    cdef uint64_t all_nodes[MAX_SEATS]   # nodes with every move searched
    # wr[ply]: cards whose rank (and every higher card's) decided the result
    # of the last search at ply: only the lowest per suit matters
    cdef uint64_t wr[MAX_PLY]
    cdef uint64_t runs[MAX_PLY][64]       # equivalence class of each listed move

    def __cinit__(self, uint64_t nbuckets):
        """``nbuckets`` must be a power of two (checked by solver/dd.py)."""
        cdef size_t size = nbuckets * BUCKET * sizeof(TTEntry)
        cdef void* p = tt_alloc(size)
        if p == NULL:
            raise MemoryError(f"cannot allocate a transposition table of {size} bytes")
        self.tt = <TTEntry*> p
        # winning-ranks mode: half the memory for the distribution lists,
        # half for exact keys (4-entry buckets, uniformly hashed)
        self.xtt = <WEntry*> p
        self.xt_mask = (size // 2 // (XBUCKET * sizeof(WEntry))) - 1
        self.wtt = <char*> p + size // 2
        self.wt_count = (size // 2) // (WHEAD + WBUCKET * sizeof(WEntry))
        self.nbuckets = nbuckets
        self.tt_mask = nbuckets - 1
        self.gen = 0
        self.nodes = 0
        self.use_winning_ranks = True
        self.use_lock_bounds = True
        self.use_later_bounds = 7
        self.use_forced_bound = True
        self.keep_table = True
        self.last_rules = None
        self.deal_hands = None

    def __dealloc__(self):
        free(self.tt)

    @property
    def table_bytes(self):
        return self.nbuckets * BUCKET * sizeof(TTEntry)

    # ------------------------------------------------------------------
    # set-up (Python level, once per solve)

    def load(self, dict rules, list hands, int leader, list trick, int tricks_left,
             int max_tricks):
        """Load a rule table (a dict from ``solver.dd.KernelTable.as_dict``)
        and a position.  The table is kept when the same deal returns (the
        same rules, every seat's cards, hand and table, among those of the
        deal loaded before, the last search not aborted): the next move of
        a game, a re-solve.  Otherwise a new table generation starts (as
        ``new_table``)."""
        cdef RuleTable* R = &self.R
        cdef TrickState* S = &self.S
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
        self.wmode = ((R.relative_ok or R.class_relative) and R.nseats == 4
                      and self.use_winning_ranks)
        self.pinned = 0
        for i in range(4):
            if popcount(R.suit_mask[i]) > 14:
                self.wmode = 0
        if R.class_relative:
            for c in range(64):
                if R.suit_of[c] < 4 and R.cls[c] != R.cls_base:
                    self.pinned |= (<uint64_t>1) << c
        self.sweep_ok = R.ten_total < 0
        self.pts_mask = 0
        for c in range(64):
            if R.suit_of[c] < 4:
                if R.slot[c] != c:
                    self.sweep_ok = 0
                if R.win_pts[c] != 0 or R.lose_pts[c] != 0:
                    self.pts_mask |= (<uint64_t>1) << c
        self.duck_ok = self.sweep_ok and R.trump < 0 and R.must_follow
        self.max_seat = -1
        for i in range(R.nseats):
            if R.side[i]:
                self.max_seat = i if self.max_seat == -1 else -2
        self.lock_ok = (self.sweep_ok and R.trump >= 0 and not R.quick_ok
                        and self.use_lock_bounds)
        self.lock_hits = 0
        self.later_ok = (self.sweep_ok and R.quick_ok and R.must_follow and R.trump >= 0
                         and R.discard_mask == 0 and self.use_later_bounds)
        self.later_hits = 0
        self.later_alt = R.nseats == 4
        for i in range(R.nseats):
            if R.side[i] == R.side[R.next_seat[i]]:
                self.later_alt = 0
        self.forced_ok = (self.sweep_ok and R.trump < 0 and R.must_follow
                          and self.max_seat >= 0 and self.use_forced_bound)
        self.forced_hits = 0
        self.pivot_ok = (self.duck_ok and self.max_seat >= 0 and R.trick_win == R.trick_lose
                         and R.last_win == R.last_lose and not R.use_most)
        self.base_hi = max(R.trick_win, R.trick_lose)
        self.base_lo = min(R.trick_win, R.trick_lose)
        if R.ten_total >= 0:
            self.base_hi = max(self.base_hi, R.ten_win, R.ten_lose)
            self.base_lo = min(self.base_lo, R.ten_win, R.ten_lose)
        self.penal = R.trick_win <= R.trick_lose and R.last_win <= R.last_lose and not R.use_most
        for c in range(64):
            if R.win_pts[c] > R.lose_pts[c]:
                self.penal = 0
        self.end_hi = max(R.last_win, R.last_lose)
        self.end_lo = min(R.last_win, R.last_lose)
        if R.use_most:
            self.end_hi += max(R.most_win, R.most_lose, R.most_tie)
            self.end_lo += min(R.most_win, R.most_lose, R.most_tie)
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
        seat_cards = [hands[i] for i in range(R.nseats)]
        for i in range(S.ncards):
            seat_cards[(leader + i) % R.nseats] |= (<uint64_t>1) << S.trick[i]
        if not (self.keep_table and not self.aborted and self.deal_hands is not None
                and self.last_wmode == self.wmode and rules == self.last_rules
                and all(seat_cards[i] & ~self.deal_hands[i] == 0 for i in range(R.nseats))):
            self.new_table()
            self.deal_hands = seat_cards
            self.last_rules = rules
            self.last_wmode = self.wmode
        self.nodes = 0
        self.aborted = False
        memset(self.history, 0, sizeof(self.history))

    def new_table(self):
        """Start a new table generation: every entry becomes invisible (the
        next solve then visits the nodes a first solve does)."""
        self.gen = tt_next_gen(self.tt, self.nbuckets * BUCKET * sizeof(TTEntry), self.gen)
        self.deal_hands = None

    def cut_stats(self):
        """Per position in the trick (0 = leader): (cut-off nodes, of which
        at the first move, moves searched at cut nodes, nodes without a
        cut-off) since the last ``reset_cut_stats``."""
        return [(self.cuts[i], self.first_cuts[i], self.cut_moves[i], self.all_nodes[i])
                for i in range(self.R.nseats)]

    def reset_cut_stats(self):
        memset(self.cuts, 0, sizeof(self.cuts))
        memset(self.first_cuts, 0, sizeof(self.first_cuts))
        memset(self.cut_moves, 0, sizeof(self.cut_moves))
        memset(self.all_nodes, 0, sizeof(self.all_nodes))

    def boundary_key(self):
        """The table key of the loaded position (a trick boundary): the two
        64-bit hashes the search uses (the winning-ranks key, its owner
        patterns included, in winning-ranks mode; else the exact key).
        For tests: different positions must not share it."""
        cdef uint64_t h1 = 0, h2 = 0
        cdef uint32_t pat[4]
        if self.S.ncards:
            raise ValueError("boundary_key: a trick is in progress")
        if self.wmode:
            self.wkey(&h1, &h2, pat)
            return (h1, h2, pat[0], pat[1], pat[2], pat[3])
        self.hash_key(&h1, &h2)
        return (h1, h2)

    def current_seat(self):
        return (self.S.leader + self.S.ncards) % self.R.nseats

    def legal(self):
        """Legal cards of the seat to play (ascending)."""
        cdef uint64_t m = legal_mask(&self.R, &self.S, self.current_seat())
        out = []
        while m:
            out.append(lowest_bit(m))
            m &= m - 1
        return out

    def solve_actions(self, int lo, int hi):
        """Value of every legal card of the seat to play, as a dict
        card -> future value (the trick in progress included).  ``lo`` and
        ``hi`` bound every value (from solver/dd.py)."""
        cdef int seat = self.current_seat()
        cdef uint64_t legal = legal_mask(&self.R, &self.S, seat)
        cdef int n, i, c, v, guess
        cdef int reps[64]
        cdef int rep_of[64]
        cdef int values[64]
        with nogil:
            n = self.gen_moves(legal, 0, reps, rep_of)
            guess = (lo + hi) // 2
            for i in range(n):
                c = reps[i]
                v = self.solve_child(c, lo, hi, guess)
                values[i] = v
                guess = v
        self.check_interrupt()
        out = {}
        for c in range(64):
            if (legal >> c) & 1:
                out[c] = values[rep_of[c]]
        return out

    def solve_value(self, int lo, int hi):
        """The future value of the position (MTD(f) from the root)."""
        cdef int v
        with nogil:
            v = self.mtdf((lo + hi) // 2, lo, hi, 0)
        self.check_interrupt()
        return v

    cdef int check_interrupt(self) except -1:
        """Re-raise a signal handler's exception (Ctrl-C) that stopped the
        search."""
        if self.interrupted:
            self.interrupted = False
            return reraise()
        return 0

    # ------------------------------------------------------------------
    # kernel

    cdef int gen_moves(self, uint64_t legal, int ply, int* reps, int* rep_of) noexcept nogil:
        """Root move list: one representative per equivalence class,
        ``rep_of[card]`` = index of its representative in ``reps``."""
        cdef RuleTable* R = &self.R
        cdef uint64_t ls = 0
        cdef uint64_t m = legal
        cdef int s, c, prev = -1, n = 0
        cdef uint32_t partners = self.partner_pips(self.current_seat_c())
        while m:
            c = lowest_bit(m)
            m &= m - 1
            ls |= (<uint64_t>1) << R.slot[c]
        while ls:
            s = highest_bit(ls)
            ls ^= (<uint64_t>1) << s
            c = R.card_at[s]
            if (prev >= 0 and (prev >> 4) == (s >> 4)
                    and (self.S.rem_slot & between_bits(prev, s)) == 0
                    and interchangeable(R, c, R.card_at[prev], partners)):
                rep_of[c] = n - 1
            else:
                reps[n] = c
                rep_of[c] = n
                n += 1
            prev = s
        return n

    cdef inline int current_seat_c(self) noexcept nogil:
        return (self.S.leader + self.S.ncards) % self.R.nseats

    cdef inline uint32_t partner_pips(self, int seat) noexcept nogil:
        """pip_set of the cards that may share a trick with ``seat``'s."""
        cdef uint64_t m = 0
        cdef int i
        if not self.R.pip_partners:
            return 0
        for i in range(self.R.nseats):
            if i != seat:
                m |= self.S.hands[i]
        for i in range(self.S.ncards):
            m |= (<uint64_t>1) << self.S.trick[i]
        return pip_set(m)

    cdef int solve_child(self, int card, int lo, int hi, int guess) noexcept nogil:
        """Value of playing ``card`` now (points of a trick it completes included)."""
        cdef TrickState* S = &self.S
        cdef int seat = (S.leader + S.ncards) % self.R.nseats
        cdef int pts, v
        cdef int saved[MAX_SEATS]
        cdef int saved_leader, saved_n, saved_max
        self.play(seat, card)
        if S.ncards == self.R.nseats:
            saved_leader = S.leader
            saved_n = S.ncards
            saved_max = S.max_tricks
            for v in range(saved_n):
                saved[v] = S.trick[v]
            pts = self.finish_trick()
            v = pts + self.mtdf(guess - pts, lo - pts, hi - pts, 1)
            self.unfinish_trick(saved, saved_n, saved_leader, saved_max)
        else:
            v = self.mtdf(guess, lo, hi, 1)
        self.unplay(seat, card)
        return v

    cdef int mtdf(self, int guess, int lo, int hi, int ply) noexcept nogil:
        """Narrow [lo, hi] to the exact value with null-window searches."""
        cdef int g = guess
        cdef int beta, v
        hi += 1            # half-open: value in [lo, hi)
        while lo + 1 < hi:
            beta = g
            if beta <= lo:
                beta = lo + 1
            if beta >= hi:
                beta = hi - 1
            v = self.search(beta - 1, beta, ply)
            if v < beta:
                hi = v + 1
            else:
                lo = v
            g = v
        return lo

    cdef inline void play(self, int seat, int card) noexcept nogil:
        cdef TrickState* S = &self.S
        S.hands[seat] &= ~((<uint64_t>1) << card)
        S.trick[S.ncards] = card
        S.ncards += 1

    cdef inline void unplay(self, int seat, int card) noexcept nogil:
        cdef TrickState* S = &self.S
        S.ncards -= 1
        S.hands[seat] |= (<uint64_t>1) << card

    cdef int finish_trick(self) noexcept nogil:
        """Score the complete trick on the table, clear it, set the leader.
        Returns the max side's points for it (end-of-round extras included)."""
        cdef RuleTable* R = &self.R
        cdef TrickState* S = &self.S
        cdef int n = S.ncards
        cdef int off = trick_winner_c(S.trick, n, R.trump, R.suit_of, R.strength)
        cdef int winner = S.leader
        cdef int i, c, pts = 0, pip = 0, other
        cdef int wcard = S.trick[off]
        cdef bint mine
        for i in range(off):
            winner = R.next_seat[winner]
        mine = R.side[winner]
        # the winner's rank decided the trick only if another card of its
        # suit was in it (winning ranks)
        self.win_add = 0
        for i in range(n):
            c = S.trick[i]
            if i != off and R.suit_of[c] == R.suit_of[wcard]:
                self.win_add = (<uint64_t>1) << wcard
            pip += R.pips[c]
            S.rem_slot &= ~((<uint64_t>1) << R.slot[c])
            S.card_ub -= max(R.win_pts[c], R.lose_pts[c])
            S.card_lb -= min(R.win_pts[c], R.lose_pts[c])
            if mine:
                pts += R.win_pts[c]
            else:
                pts += R.lose_pts[c]
        if R.ten_total >= 0 and pip == R.ten_total:
            pts += R.ten_win if mine else R.ten_lose
        else:
            pts += R.trick_win if mine else R.trick_lose
        if mine:
            S.max_tricks += 1
        S.tricks_left -= 1
        if S.tricks_left == 0:
            if mine:
                pts += R.last_win
                S.max_tricks += R.last_extra
            else:
                pts += R.last_lose
            if R.use_most:
                other = R.total_tricks - S.max_tricks
                if S.max_tricks > other:
                    pts += R.most_win
                elif S.max_tricks < other:
                    pts += R.most_lose
                else:
                    pts += R.most_tie
        S.leader = winner
        S.ncards = 0
        return pts

    cdef void unfinish_trick(self, int* saved, int n, int leader, int max_tricks) noexcept nogil:
        cdef RuleTable* R = &self.R
        cdef TrickState* S = &self.S
        cdef int i, c
        for i in range(n):
            c = saved[i]
            S.trick[i] = c
            S.rem_slot |= (<uint64_t>1) << R.slot[c]
            S.card_ub += max(R.win_pts[c], R.lose_pts[c])
            S.card_lb += min(R.win_pts[c], R.lose_pts[c])
        S.ncards = n
        S.leader = leader
        S.max_tricks = max_tricks
        S.tricks_left += 1

    cdef void hash_key(self, uint64_t* h1, uint64_t* h2) noexcept nogil:
        """Two independent 64-bit hashes of the trick-boundary key."""
        cdef RuleTable* R = &self.R
        cdef TrickState* S = &self.S
        cdef uint64_t words[MAX_SEATS]
        cdef uint64_t a, b, rem, bit, w
        cdef int i, s, k, c
        cdef uint64_t extra = <uint64_t>S.leader
        if S.ncards == 1:
            extra |= (<uint64_t>(S.trick[0] + 1)) << 16
        if R.use_most:
            extra |= (<uint64_t>self.most_range(&i, &k)) << 8
        if R.relative_ok or R.class_relative:
            for i in range(R.nseats):
                words[i] = 0
            for s in range(4):
                rem = 0
                for i in range(R.nseats):
                    rem |= S.hands[i]
                rem &= R.suit_mask[s]
                k = s * 16
                while rem:
                    c = lowest_bit(rem)
                    bit = (<uint64_t>1) << c
                    rem ^= bit
                    for i in range(R.nseats):
                        if S.hands[i] & bit:
                            words[i] |= (<uint64_t>1) << k
                            break
                    if R.class_relative and R.cls[c] != R.cls_base:
                        # a penalty card: its class at its relative place
                        # (above bit 24: the unmixed leader, most-tricks
                        # and card-led bits must not alias the place)
                        extra = mix64(extra ^ (((<uint64_t>R.cls[c] << 8) | <uint64_t>k) << 24)
                                      ^ <uint64_t>0x5bd1e9955bd1e995)
                    k += 1
        else:
            for i in range(R.nseats):
                words[i] = S.hands[i]
        a = <uint64_t>0x9e3779b97f4a7c15 ^ extra
        b = <uint64_t>0xd1b54a32d192ed03 ^ (extra * <uint64_t>0x2545f4914f6cdd1d)
        for i in range(R.nseats):
            w = words[i]
            a = mix64(a ^ w)
            b = mix64(b + w * <uint64_t>0xff51afd7ed558ccd + <uint64_t>i)
        if b == 0:
            b = 1
        h1[0] = a
        h2[0] = b

    cdef int trick_value(self, int card) noexcept nogil:
        """The max side's points for the trick on the table completed by
        ``card`` (end-of-round extras left out): exact ordering for the
        last seat to play."""
        cdef RuleTable* R = &self.R
        cdef TrickState* S = &self.S
        cdef int n = S.ncards
        cdef int i, c, pts = 0, pip = 0, off, winner
        cdef bint mine
        S.trick[n] = card
        off = trick_winner_c(S.trick, n + 1, R.trump, R.suit_of, R.strength)
        winner = S.leader
        for i in range(off):
            winner = R.next_seat[winner]
        mine = R.side[winner]
        for i in range(n + 1):
            c = S.trick[i]
            pip += R.pips[c]
            pts += R.win_pts[c] if mine else R.lose_pts[c]
        if R.ten_total >= 0 and pip == R.ten_total:
            pts += R.ten_win if mine else R.ten_lose
        else:
            pts += R.trick_win if mine else R.trick_lose
        return pts

    cdef int lead_value(self, int seat, int card) noexcept nogil:
        """Two seats: the max side's points for the trick led with ``card``
        after the follower's best immediate reply."""
        cdef RuleTable* R = &self.R
        cdef TrickState* S = &self.S
        cdef int other = R.next_seat[seat]
        cdef uint64_t f, hand = S.hands[other]
        cdef int c, v, best
        cdef bint fmax = R.side[other]
        f = hand & R.suit_mask[R.suit_of[card]]
        if f == 0 or not R.must_follow:
            f = hand
        best = -INF if fmax else INF
        while f:
            c = lowest_bit(f)
            f &= f - 1
            v = self.pair_value(seat, card, c)
            if (fmax and v > best) or (not fmax and v < best):
                best = v
        return best

    cdef inline int pair_value(self, int leader, int lead, int follow) noexcept nogil:
        """Two seats: the max side's points for the trick ``lead``, ``follow``."""
        cdef RuleTable* R = &self.R
        cdef bint follower_wins
        cdef bint mine
        cdef int pts
        if R.suit_of[follow] == R.suit_of[lead]:
            follower_wins = R.strength[follow] > R.strength[lead]
        else:
            follower_wins = R.suit_of[follow] == R.trump
        mine = R.side[R.next_seat[leader]] if follower_wins else R.side[leader]
        if mine:
            pts = R.win_pts[lead] + R.win_pts[follow]
            if R.ten_total >= 0 and R.pips[lead] + R.pips[follow] == R.ten_total:
                return pts + R.ten_win
            return pts + R.trick_win
        pts = R.lose_pts[lead] + R.lose_pts[follow]
        if R.ten_total >= 0 and R.pips[lead] + R.pips[follow] == R.ten_total:
            return pts + R.ten_lose
        return pts + R.trick_lose

    cdef inline bint touching_below(self, int s, int seat) noexcept nogil:
        """Whether the next lower remaining card of slot ``s``'s suit is
        ``seat``'s own (``s`` heads a sequence)."""
        cdef uint64_t below = self.S.rem_slot & ((<uint64_t>1 << s) - 1) & (<uint64_t>0xFFFF << (s & 0x30))
        cdef int b
        if below == 0:
            return 0
        b = highest_bit(below)
        return (self.S.hands[seat] >> self.R.card_at[b]) & 1

    cdef int order_moves(self, int seat, uint64_t legal, int ply, int ttmove) noexcept nogil:
        """Fill ``moves[ply]`` with one card per equivalence class, best
        first; returns their number.  Order: the table's move; for the last
        seat of a trick the exact trick value; otherwise simple trick
        heuristics; then the history of cut-offs."""
        cdef RuleTable* R = &self.R
        cdef TrickState* S = &self.S
        cdef uint64_t ls = 0
        cdef uint64_t m = legal
        cdef uint64_t others = 0, mates = 0, smask
        cdef int s, c, prev = -1, n = 0, i, j, sc, wcard = -1, woff, top
        cdef int d, st
        cdef bint side = R.side[seat]
        cdef bint last = S.ncards == R.nseats - 1
        cdef bint my_side_winning = 0
        cdef bint want, beats
        cdef uint8_t* mv = self.moves[ply]
        cdef int32_t* scv = self.scores[ply]
        cdef int32_t* hist = self.history[seat]
        cdef uint32_t partners = self.partner_pips(seat)
        cdef uint64_t* runs = self.runs[ply]
        cdef int currep = 0
        while m:
            c = lowest_bit(m)
            m &= m - 1
            ls |= (<uint64_t>1) << R.slot[c]
        if S.ncards > 0:
            woff = trick_winner_c(S.trick, S.ncards, R.trump, R.suit_of, R.strength)
            wcard = S.trick[woff]
            j = S.leader
            for i in range(woff):
                j = R.next_seat[j]
            my_side_winning = R.side[j] == side
            d = R.trick_win - R.trick_lose
            for i in range(S.ncards):
                d += R.win_pts[S.trick[i]] - R.lose_pts[S.trick[i]]
        else:
            d = R.trick_win - R.trick_lose
            for i in range(R.nseats):
                if i != seat:
                    others |= S.hands[i]
                    if R.side[i] == side:
                        mates |= S.hands[i]
        while ls:
            s = highest_bit(ls)
            ls ^= (<uint64_t>1) << s
            c = R.card_at[s]
            if (prev >= 0 and (prev >> 4) == (s >> 4)
                    and (S.rem_slot & between_bits(prev, s)) == 0
                    and interchangeable(R, c, R.card_at[prev], partners)):
                prev = s
                runs[currep] |= (<uint64_t>1) << c
                continue
            prev = s
            currep = c
            runs[c] = (<uint64_t>1) << c
            st = R.strength[c]
            if last and R.nseats == 2:
                i = self.pair_value(S.leader, S.trick[0], c)
                sc = (i if side else -i) * 64 + 32 - st
                sc = sc * 1024
            elif last:
                i = self.trick_value(c)
                sc = (i if side else -i) * 64 + 32 - st
                sc = sc * 1024
            elif S.ncards == 0 and R.nseats == 2:
                # two seats: the trick's value after the follower's best reply
                i = self.lead_value(seat, c)
                sc = ((i if side else -i) * 64 + st) * 1024
            elif S.ncards == 0:
                # tricks worth nothing in themselves but not a risk (Rook:
                # count, the most-tricks bonus, the lead): the leader wants them
                want = d > 0 or (d == 0 and not self.penal)
                top = highest_bit(S.rem_slot & (<uint64_t>0xFFFF << (s & 0x30)))
                smask = R.suit_mask[R.suit_of[c]]
                # a card no other hand can beat in its suit is a winner
                if (others & smask) == 0 or top == s:
                    sc = 300 + st if want else 100 - st
                elif want and (mates & ((<uint64_t>1) << R.card_at[top])):
                    sc = 250 - st       # low towards a partner's winner
                elif want and self.touching_below(s, seat):
                    sc = 200 + st       # top of a sequence: establish the suit
                else:
                    sc = 100 - st if want else 200 + st
                if want and R.trump >= 0 and R.suit_of[c] != R.trump:
                    for j in range(R.nseats):
                        if (R.side[j] != side and (S.hands[j] & smask) == 0
                                and (S.hands[j] & R.suit_mask[R.trump])):
                            sc -= 150   # an opponent can ruff
                            break
                sc = sc * 1024
            else:
                if R.suit_of[c] == R.suit_of[wcard]:
                    beats = st > R.strength[wcard]
                else:
                    beats = R.suit_of[c] == R.trump
                i = d + R.win_pts[c] - R.lose_pts[c]
                if i == 0 and self.penal:
                    i = -1      # penalty contracts: a trick is a risk, not a gain
                want = i > 0
                if want:
                    if my_side_winning:
                        sc = 100 - st
                    elif beats:
                        sc = 300 - st
                    else:
                        sc = 100 - st
                elif i != 0:
                    if not beats:
                        sc = 300 + st
                    else:
                        sc = 100 - st
                else:
                    sc = 100 - st
                if not beats:
                    # a card that does not win the trick goes to the current
                    # winner: give the other side what is worst for it, keep
                    # from one's own side what is worst for one's own
                    if my_side_winning:
                        sc += (R.win_pts[c] - R.lose_pts[c]) * R.unit
                    else:
                        sc += (R.lose_pts[c] - R.win_pts[c]) * R.unit
                sc = sc * 1024
            sc += hist[c]
            if c == ttmove:
                sc = 2000000000
            # insertion sort, descending
            j = n
            while j > 0 and scv[j - 1] < sc:
                mv[j] = mv[j - 1]
                scv[j] = scv[j - 1]
                j -= 1
            mv[j] = c
            scv[j] = sc
            n += 1
        return n

    cdef int search(self, int alpha, int beta, int ply) noexcept nogil:
        """Fail-soft alpha-beta: the max side's future value if it lies in
        (alpha, beta); otherwise a bound on the side of the window it fell.
        In winning-ranks mode ``wr[ply]`` is set to the cards whose ranks
        decided the result (the lowest per suit: every card from it up)."""
        cdef RuleTable* R = &self.R
        cdef TrickState* S = &self.S
        cdef int n = S.ncards
        cdef int seat, nm, i, card, v, v2, best, pts, ub, lb, bestmove = NO_CARD
        cdef int ttmove = NO_CARD
        cdef uint64_t h1 = 0, h2 = 0
        cdef uint64_t legal, wacc = 0, wchild, ws, run, pin_here
        cdef int lowcut[4]
        cdef uint32_t pat[4]
        cdef TTEntry* bucket = NULL
        cdef char* wbucket = NULL
        cdef WEntry* xbucket = NULL
        cdef WEntry* we
        cdef uint64_t x1 = 0, x2 = 0
        cdef TTEntry* e
        cdef bint maximize, cut = 0
        cdef bint wm = self.wmode
        cdef int saved[MAX_SEATS]
        cdef int saved_leader, saved_max
        cdef int alpha0 = alpha, beta0 = beta
        cdef bint use_tt
        self.wr[ply] = 0
        if self.aborted:
            return alpha
        self.nodes += 1
        if self.node_limit and self.nodes > self.node_limit:
            self.aborted = True
            return alpha
        if (self.nodes & INTERRUPT_MASK) == 0 and signal_raised():
            self.aborted = True
            self.interrupted = True
            return alpha
        if n == 0:
            if S.tricks_left == 0:
                return 0
            if S.tricks_left == 1:
                v = self.last_trick()
                self.wr[ply] = self.win_add
                return v
            if R.pip_partners:
                self.ten_bounds(&lb, &ub)
            else:
                ub = S.tricks_left * self.base_hi
                lb = S.tricks_left * self.base_lo
            if R.use_most:
                # the most-tricks bonus over the final counts still
                # reachable: settled once one side has more than half
                self.most_range(&v, &v2)
                ub += S.card_ub + max(R.last_win, R.last_lose) + v2
                lb += S.card_lb + min(R.last_win, R.last_lose) + v
            else:
                ub += S.card_ub + self.end_hi
                lb += S.card_lb + self.end_lo
            if ub <= alpha:
                return ub
            if lb >= beta:
                return lb
            if self.lock_ok:
                # the top trumps held by one side are that side's: their
                # points and the tricks they must take
                i = self.lock_bounds(&lb, &ub)
                if i >= 0 and (ub <= alpha or lb >= beta):
                    self.lock_hits += 1
                    self.wr[ply] = (<uint64_t>1) << i
                    return ub if ub <= alpha else lb
            if self.sweep_ok and self.sweep(&v):
                # the side on lead takes every trick left: the exact value
                self.wr[ply] = self.qwin
                return v
            if self.duck_ok and self.never_wins(&v):
                # the side not on lead can lose every trick left: a lower
                # bound when that is the max side, an upper bound when it
                # is the other side (exact when it meets the other bound)
                if R.side[S.leader]:
                    if v <= alpha or v <= lb:
                        self.wr[ply] = self.qwin
                        return v
                elif v >= beta or v >= ub:
                    self.wr[ply] = self.qwin
                    return v
            if self.pivot_ok and self.pivot_safe(&v):
                # the max seat can avoid every penalty card left: a lower
                # bound (exact for penalty contracts: the best it can get)
                if v >= beta or v >= ub:
                    self.wr[ply] = self.qwin
                    return v
            if self.forced_ok:
                # the max seat must win this trick, with the penalty cards
                # the others can give it: an upper bound
                v = self.forced_take(ub)
                if v < ub:
                    if v <= alpha:
                        self.forced_hits += 1
                        self.wr[ply] = self.qwin
                        return v
                    ub = v
            if R.quick_ok:
                self.quick_bounds(&lb, &ub)
                if self.later_ok:
                    # trump_bounds' counts and more, in one pass
                    pts = lb
                    v2 = ub
                    self.later_bounds(&lb, &ub, alpha, beta)
                    if (ub <= alpha < v2) or (lb >= beta > pts):
                        self.later_hits += 1
                elif R.trump >= 0:
                    self.trump_bounds(&lb, &ub)
                if ub <= alpha:
                    self.wr[ply] = self.qwin
                    return ub
                if lb >= beta:
                    self.wr[ply] = self.qwin
                    return lb
        # two seats (exact keys): the follower's node is in the table too,
        # keyed with the card led
        use_tt = n == 0 or (n == 1 and R.nseats == 2 and not R.relative_ok
                            and not R.class_relative)
        if use_tt and wm:
            self.wkey(&h1, &h2, pat)
            wbucket = self.wtt + (((h1 >> 32) * self.wt_count) >> 32) * (
                WHEAD + WBUCKET * sizeof(WEntry))
            # the distribution's list of winning-ranks entries first (the
            # most general bounds), then the exact key
            v = self.wprobe(wbucket, h2, pat, alpha, beta, &ttmove, ply)
            if v != INF:
                return v
            x1 = mix64(h2 ^ (<uint64_t>pat[0] | (<uint64_t>pat[1] << 32)))
            x2 = mix64(x1 ^ (<uint64_t>pat[2] | (<uint64_t>pat[3] << 32))
                       ^ <uint64_t>0x632be59bd9b4e019)
            x1 = mix64(x2 + h1)
            if x2 == 0:
                x2 = 1
            xbucket = &self.xtt[(x1 & self.xt_mask) * XBUCKET]
            for i in range(XBUCKET):
                we = &xbucket[i]
                if we.gen == self.gen and we.check == x2:
                    if we.lo >= beta or we.hi <= alpha or we.lo == we.hi:
                        self.wr[ply] = self.entry_ranks(we)
                        if we.lo >= beta:
                            return we.lo
                        if we.hi <= alpha:
                            return we.hi
                        return we.lo
                    if ttmove == NO_CARD:
                        ttmove = we.move
                    break
        elif use_tt:
            self.hash_key(&h1, &h2)
            bucket = &self.tt[(h1 & self.tt_mask) * BUCKET]
            e = tt_find(bucket, BUCKET, self.gen, h2)
            if e != NULL:
                if e.lo >= beta:
                    return e.lo
                if e.hi <= alpha:
                    return e.hi
                if e.lo == e.hi:
                    return e.lo
                ttmove = e.move
        seat = (S.leader + n) % R.nseats
        maximize = R.side[seat]
        legal = legal_mask(R, S, seat)
        if ttmove != NO_CARD and not ((legal >> ttmove) & 1):
            ttmove = NO_CARD
        nm = self.order_moves(seat, legal, ply, ttmove)
        best = -INF if maximize else INF
        if wm:
            lowcut[0] = lowcut[1] = lowcut[2] = lowcut[3] = 0
        for i in range(nm):
            card = self.moves[ply][i]
            if wm and card < lowcut[card >> 4]:
                # below every deciding card of its suit, like a card already
                # searched: the same result by relabelling the low cards
                continue
            self.play(seat, card)
            if S.ncards == R.nseats:
                saved_leader = S.leader
                saved_max = S.max_tricks
                for v in range(R.nseats):
                    saved[v] = S.trick[v]
                pts = self.finish_trick()
                wchild = self.win_add
                v = pts + self.search(alpha - pts, beta - pts, ply + 1)
                self.unfinish_trick(saved, R.nseats, saved_leader, saved_max)
            else:
                wchild = 0
                v = self.search(alpha, beta, ply + 1)
            self.unplay(seat, card)
            if wm:
                wchild |= self.wr[ply + 1]
                # the cards equivalent to ``card`` (not searched) decide by
                # the same ranks, relabelled within the run: key the whole
                # run when any of it is keyed
                run = self.runs[ply][card]
                ws = wchild & R.suit_mask[R.suit_of[card]]
                if ws and highest_bit(run) >= lowest_bit(ws):
                    wchild |= run
                wacc |= wchild
                if lowcut[card >> 4] == 0:
                    ws = wacc & (<uint64_t>0xFFFF << (card & 0x30))
                    v2 = lowest_bit(ws) if ws else (card & 0x30) + 16
                    if highest_bit(run) < v2:
                        # the hand's cards of the suit below the line must
                        # be of one class: relabelling them keeps the class
                        # of every place in the hand (penalty keys)
                        pin_here = ((S.hands[seat] | run) & (<uint64_t>0xFFFF << (card & 0x30))
                                    & (((<uint64_t>1) << (v2 & 63)) - 1 if v2 < 64
                                       else ~(<uint64_t>0)))
                        while pin_here:
                            if R.cls[lowest_bit(pin_here)] != R.cls[card]:
                                break
                            pin_here &= pin_here - 1
                        if pin_here == 0:
                            lowcut[card >> 4] = v2
            if maximize:
                if v > best:
                    best = v
                    bestmove = card
                    if best >= beta:
                        self.bump_history(seat, card)
                        cut = 1
                        break
                    if best > alpha:
                        alpha = best
            else:
                if v < best:
                    best = v
                    bestmove = card
                    if best <= alpha:
                        self.bump_history(seat, card)
                        cut = 1
                        break
                    if best < beta:
                        beta = best
        if cut:
            self.cuts[n] += 1
            self.cut_moves[n] += i + 1
            if i == 0:
                self.first_cuts[n] += 1
        else:
            self.all_nodes[n] += 1
        if wm:
            # a cut-off rests on its one move; otherwise on every move
            self.wr[ply] = wchild if cut else wacc
        if use_tt and not self.aborted:
            if wm:
                self.wstore(wbucket, xbucket, h2, x2, pat, self.wr[ply], best, alpha0, beta0,
                            bestmove)
            else:
                self.store(bucket, h2, best, alpha0, beta0, bestmove)
        return best

    cdef void wkey(self, uint64_t* h1, uint64_t* h2, uint32_t* pat) noexcept nogil:
        """Winning-ranks key of a trick boundary (4 seats, slot == card):
        the hand lengths per suit, the leader, the key extras and the
        class of every penalty card by its place in its hand hash to ``h1``
        (bucket) and ``h2`` (check); ``pat[s]``: the owners of suit ``s``'s
        cards from the top, two bits each, top-aligned."""
        cdef RuleTable* R = &self.R
        cdef TrickState* S = &self.S
        cdef uint64_t A = S.hands[1] | S.hands[3]
        cdef uint64_t B = S.hands[2] | S.hands[3]
        cdef uint64_t rem = S.hands[0] | A | S.hands[2]
        cdef uint64_t lens = 0, extra = <uint64_t>S.leader, m, rs, bit
        cdef uint32_t p
        cdef int s, h, c, nc
        if R.use_most:
            extra |= (<uint64_t>self.most_range(&s, &h)) << 8
        for s in range(4):
            rs = rem & (<uint64_t>0xFFFF << (16 * s))
            p = 0
            nc = 0
            m = rs
            while m:
                c = highest_bit(m)
                bit = (<uint64_t>1) << c
                m ^= bit
                p = (p << 2) | <uint32_t>(((A >> c) & 1) | (((B >> c) & 1) << 1))
                nc += 1
            pat[s] = (p << (32 - 2 * nc)) if nc else 0
            for h in range(4):
                lens |= (<uint64_t>popcount(S.hands[h] & rs)) << (4 * (4 * s + h))
        # penalty cards: the class of each card of each hand by its place
        # among that hand's cards of the suit (from the top), so low cards
        # relabelled within a hand keep their classes
        for h in range(4):
            m = self.pinned & S.hands[h]
            while m:
                c = lowest_bit(m)
                m &= m - 1
                rs = S.hands[h] & (<uint64_t>0xFFFF << (c & 0x30)) & ~((<uint64_t>2 << c) - 1)
                # above bit 24: XORed into the unmixed leader and
                # most-tricks bits, the seat and place would alias them
                # (leader 1 with a count card at place 2 = leader 3 at 0)
                extra = mix64(extra ^ (((<uint64_t>R.cls[c] << 16) | <uint64_t>(h << 8)
                                        | <uint64_t>((c & 0x30) + popcount(rs))) << 24)
                              ^ <uint64_t>0x5bd1e9955bd1e995)
        h1[0] = mix64(lens ^ mix64(extra ^ <uint64_t>0x9e3779b97f4a7c15))
        h2[0] = mix64((lens + <uint64_t>0xd1b54a32d192ed03) * <uint64_t>0xff51afd7ed558ccd
                      ^ mix64(extra + <uint64_t>0x2545f4914f6cdd1d))
        if h2[0] == 0:
            h2[0] = 1

    cdef int wprobe(self, char* bucket, uint64_t h2, uint32_t* pat, int alpha, int beta,
                    int* ttmove, int ply) noexcept nogil:
        """Look the boundary up among the winning-ranks entries: a bound
        that settles the window (its value; ``wr[ply]`` set), else INF
        (``ttmove`` set from the first matching entry).  A bucket is a
        header (generation, entries filled, replacement cursor), a 16-bit
        tag per entry (scanned first), then the entries."""
        cdef uint16_t* head = <uint16_t*> bucket
        cdef uint32_t* tags = <uint32_t*> (bucket + 64)
        cdef WEntry* entries = <WEntry*> (bucket + WHEAD)
        cdef uint32_t q = ((<uint32_t>(h2 >> 56)) << 24) | ((pat[0] >> 28) | ((pat[1] >> 28) << 4)
                                                          | ((pat[2] >> 28) << 8) | ((pat[3] >> 28) << 12))
        cdef uint32_t t
        cdef WEntry* e
        cdef int i, s, k, count
        cdef uint32_t top
        cdef bint ok
        if head[0] != self.gen:
            return INF
        count = head[1]
        for i in range(count):
            # the tag: 8 check bits, the entry's levels, the owners of the
            # top two cards of each suit: most misses end here
            t = tags[i]
            if ((q ^ t) & (<uint32_t>0xFF000000 | LEVMASK[(t >> 16) & 0xFF])) != 0:
                continue
            e = &entries[i]
            if e.check != h2:
                continue
            ok = 1
            for s in range(4):
                k = e.pat[s] & 15
                if k:
                    top = <uint32_t>0xFFFFFFFF << (32 - 2 * k)
                    if (pat[s] & top) != (e.pat[s] & ~(<uint32_t>15)):
                        ok = 0
                        break
            if not ok:
                continue
            if e.lo >= beta or e.hi <= alpha or e.lo == e.hi:
                self.wr[ply] = self.entry_ranks(e)
                if e.lo >= beta:
                    return e.lo
                if e.hi <= alpha:
                    return e.hi
                return e.lo
            if ttmove[0] == NO_CARD:
                ttmove[0] = e.move
        return INF

    cdef uint64_t entry_ranks(self, WEntry* e) noexcept nogil:
        """The lowest keyed card of each suit of an entry, in the current
        position."""
        cdef TrickState* S = &self.S
        cdef uint64_t rem = S.hands[0] | S.hands[1] | S.hands[2] | S.hands[3]
        cdef uint64_t out = 0, rs
        cdef int s, k, c
        for s in range(4):
            k = e.pat[s] & 15
            if k == 0:
                continue
            rs = rem & (<uint64_t>0xFFFF << (16 * s))
            c = highest_bit(rs)
            while k > 1:
                rs ^= (<uint64_t>1) << c
                c = highest_bit(rs)
                k -= 1
            out |= (<uint64_t>1) << c
        return out

    cdef void wstore(self, char* bucket, WEntry* xbucket, uint64_t h2, uint64_t x2,
                     uint32_t* pat, uint64_t wins, int best,
                     int alpha0, int beta0, int bestmove) noexcept nogil:
        """Store a bound keyed by the owners of every card from the lowest
        deciding card of each suit up (penalty cards always included)."""
        cdef TrickState* S = &self.S
        cdef uint64_t rem = S.hands[0] | S.hands[1] | S.hands[2] | S.hands[3]
        cdef uint64_t rs, ws
        cdef uint32_t key[4]
        cdef int i, s, k, lo, hi
        cdef WEntry* e = NULL
        cdef WEntry* victim = NULL
        cdef uint16_t* head = <uint16_t*> bucket
        cdef uint32_t* tags = <uint32_t*> (bucket + 64)
        cdef WEntry* entries = <WEntry*> (bucket + WHEAD)
        cdef uint32_t tag = (<uint32_t>(h2 >> 56)) << 24
        if best >= beta0:
            lo = best
            hi = 32767
        elif best <= alpha0:
            lo = -32768
            hi = best
        else:
            lo = best
            hi = best
        for s in range(4):
            rs = rem & (<uint64_t>0xFFFF << (16 * s))
            ws = wins & rs
            if ws:
                k = popcount(rs & ~(((<uint64_t>1) << lowest_bit(ws)) - 1))
                key[s] = (pat[s] & (<uint32_t>0xFFFFFFFF << (32 - 2 * k))) | <uint32_t>k
            else:
                key[s] = 0
            k = key[s] & 15
            tag |= ((key[s] >> 28) << (4 * s)) | ((<uint32_t>(2 if k >= 2 else k)) << (16 + 2 * s))
        # the exact-key copy: the same bound and deciding ranks (k only)
        for i in range(XBUCKET):
            e = &xbucket[i]
            if e.gen == self.gen and e.check == x2:
                victim = e
                break
            if victim == NULL or e.gen != self.gen or (victim.gen == self.gen
                                                       and e.depth < victim.depth):
                victim = e
        if victim.gen == self.gen and victim.check == x2:
            # both bounds must hold with the ranks reported: key the union
            for s in range(4):
                if (key[s] & 15) > victim.pat[s]:
                    victim.pat[s] = key[s] & 15
            if lo > victim.lo:
                victim.lo = <int16_t>lo
            if hi < victim.hi:
                victim.hi = <int16_t>hi
            if bestmove != NO_CARD:
                victim.move = <uint8_t>bestmove
        else:
            victim.check = x2
            for s in range(4):
                victim.pat[s] = key[s] & 15
            victim.lo = <int16_t>lo
            victim.hi = <int16_t>hi
            victim.move = <uint8_t>bestmove
            victim.depth = <uint8_t>S.tricks_left
            victim.gen = self.gen
        # the distribution list: merge with the same key, else append, else
        # replace in turn (the oldest first)
        if head[0] != self.gen:
            head[0] = self.gen
            head[1] = 0
            head[2] = 0
        for i in range(head[1]):
            if tags[i] != tag:
                continue
            e = &entries[i]
            if (e.check == h2 and e.pat[0] == key[0]
                    and e.pat[1] == key[1] and e.pat[2] == key[2] and e.pat[3] == key[3]):
                if lo > e.lo:
                    e.lo = <int16_t>lo
                if hi < e.hi:
                    e.hi = <int16_t>hi
                if bestmove != NO_CARD:
                    e.move = <uint8_t>bestmove
                return
        if head[1] < WBUCKET:
            i = head[1]
            head[1] += 1
        else:
            i = head[2]
            head[2] = (i + 1) % WBUCKET
        tags[i] = tag
        victim = &entries[i]
        victim.check = h2
        for s in range(4):
            victim.pat[s] = key[s]
        victim.lo = <int16_t>lo
        victim.hi = <int16_t>hi
        victim.move = <uint8_t>bestmove
        victim.depth = <uint8_t>S.tricks_left
        victim.gen = self.gen

    cdef int last_trick(self) noexcept nogil:
        """One card a hand: the last trick is forced; its value, directly."""
        cdef RuleTable* R = &self.R
        cdef TrickState* S = &self.S
        cdef int cards[MAX_SEATS]
        cdef int seat = S.leader
        cdef int i, pts, saved_leader = S.leader, saved_max = S.max_tricks
        for i in range(R.nseats):
            cards[i] = lowest_bit(S.hands[seat])
            S.trick[i] = cards[i]
            S.hands[seat] = 0
            seat = R.next_seat[seat]
        S.ncards = R.nseats
        pts = self.finish_trick()
        self.unfinish_trick(cards, R.nseats, saved_leader, saved_max)
        seat = saved_leader
        for i in range(R.nseats):
            S.hands[seat] = (<uint64_t>1) << cards[i]
            seat = R.next_seat[seat]
        S.ncards = 0
        return pts

    cdef inline void bump_history(self, int seat, int card) noexcept nogil:
        cdef int32_t* h = self.history[seat]
        cdef int k = self.S.tricks_left
        h[card] += k * k
        if h[card] > 1000:          # keep it below one heuristic step (1024)
            for k in range(64):
                h[k] >>= 1

    cdef void ten_bounds(self, int* lb, int* ub) noexcept nogil:
        """Bounds on the future trick values of a two-seat game with the ten
        rule: at most T tricks can be ten-tricks, T the largest matching of
        the two hands' cards whose pips make ten."""
        cdef RuleTable* R = &self.R
        cdef TrickState* S = &self.S
        cdef int a[16]
        cdef int b[16]
        cdef int p, r, q, t = 0, k = S.tricks_left
        cdef uint64_t rm
        cdef int nlo = min(R.trick_win, R.trick_lose), nhi = max(R.trick_win, R.trick_lose)
        cdef int tlo = min(R.ten_win, R.ten_lose), thi = max(R.ten_win, R.ten_lose)
        for p in range(16):
            a[p] = 0
            b[p] = 0
        for r in range(15):
            rm = (<uint64_t>0x0001000100010001) << r
            if r == 14:
                q = 1
            elif r < 2 or r > 10:
                q = 0
            else:
                q = r
            a[q] += popcount(S.hands[0] & rm)
            b[q] += popcount(S.hands[1] & rm)
        for p in range(11):
            q = R.ten_total - p
            if 0 <= q <= 10:
                t += min(a[p], b[q])
        if t > k:
            t = k
        ub[0] = k * nhi + (t * (thi - nhi) if thi > nhi else 0)
        lb[0] = k * nlo + (t * (tlo - nlo) if tlo < nlo else 0)

    cdef inline int most_of(self, int f) noexcept nogil:
        """The most-tricks bonus to the max side for a final count ``f``
        (extras included)."""
        cdef int o = self.R.total_tricks - f
        if f > o:
            return self.R.most_win
        if f < o:
            return self.R.most_lose
        return self.R.most_tie

    cdef int most_range(self, int* lo, int* hi) noexcept nogil:
        """The least and the most bonus the max side can still end with
        (its final count lies between what it has and that plus every trick
        left and the last trick's extras).  Returns the table key's part:
        the count while the bonus is open, else 64 + the settled level (so
        positions that differ only in a count that can no longer change
        the bonus share entries: their future values are equal)."""
        cdef RuleTable* R = &self.R
        cdef int a = self.S.max_tricks
        cdef int b = a + self.S.tricks_left + R.last_extra
        cdef int x = self.most_of(a), y = self.most_of(b)
        lo[0] = min(x, y)
        hi[0] = max(x, y)
        if R.total_tricks % 2 == 0 and 2 * a <= R.total_tricks <= 2 * b:
            lo[0] = min(lo[0], R.most_tie)
            hi[0] = max(hi[0], R.most_tie)
        if lo[0] != hi[0]:
            return a
        if lo[0] == R.most_win:
            return 66
        if lo[0] == R.most_tie:
            return 65
        return 64

    cdef int lock_bounds(self, int* lb, int* ub) noexcept nogil:
        """Trumps, card index = strength slot (dixie-rook): the highest
        trump left wins every trick it is in, and so does each trump below
        it as long as every higher trump is held by the same side (only a
        higher trump beats a trump, and those are the side's own).  The
        side holding that run of top trumps therefore takes every card of
        the run, and at least ceil(k / its seats) tricks for k cards (a
        trick holds at most one card of each of its seats).  Tightens the
        trick-boundary bounds ``lb``/``ub`` (already the generic ones:
        per-trick extremes, the points still in hands, the last-trick and
        most-tricks extremes): the run's points go to its side, and the
        most-tricks range uses the tricks each side must take.  Returns
        the lowest card of the run (every trump from it up decides: the
        winning-ranks cards), -1 when no trump is left."""
        cdef RuleTable* R = &self.R
        cdef TrickState* S = &self.S
        cdef uint64_t mx = 0, op = 0, tr, team, bit
        cdef int i, c, low = -1, k = 0, seats = 0, pts = 0, t, a = 0, b = 0
        cdef int lo_m, hi_m, x, y, f_lo, f_hi
        cdef bint T
        for i in range(R.nseats):
            if R.side[i]:
                mx |= S.hands[i]
            else:
                op |= S.hands[i]
        tr = (mx | op) & R.suit_mask[R.trump]
        if tr == 0:
            return -1
        T = (mx >> highest_bit(tr)) & 1
        team = mx if T else op
        while tr:
            c = highest_bit(tr)
            bit = (<uint64_t>1) << c
            if not (team & bit):
                break
            tr ^= bit
            low = c
            k += 1
            if T:
                pts += R.win_pts[c] - min(R.win_pts[c], R.lose_pts[c])
            else:
                pts += max(R.win_pts[c], R.lose_pts[c]) - R.lose_pts[c]
        for i in range(R.nseats):
            if R.side[i] == T:
                seats += 1
        t = (k + seats - 1) // seats
        if T:
            lb[0] += pts
            a = t
        else:
            ub[0] -= pts
            b = t
        if R.use_most:
            # the generic bounds hold most_range's extremes: replace them
            # by the extremes over the final counts still reachable when
            # the max side takes at least a and at most k - b more tricks
            self.most_range(&lo_m, &hi_m)
            f_lo = S.max_tricks + a
            f_hi = S.max_tricks + S.tricks_left - b + R.last_extra
            x = self.most_of(f_lo)
            y = self.most_of(f_hi)
            if R.total_tricks % 2 == 0 and 2 * f_lo <= R.total_tricks <= 2 * f_hi:
                lb[0] += min(x, y, R.most_tie) - lo_m
                ub[0] += max(x, y, R.most_tie) - hi_m
            else:
                lb[0] += min(x, y) - lo_m
                ub[0] += max(x, y) - hi_m
        return low

    cdef int leader_takes_all(self) noexcept nogil:
        """The future value when the side on lead takes every trick left:
        every card still in hand goes to it, with each trick's value, the
        last trick's and the most-tricks bonus of the final count (the
        settled value of ``sweep`` and ``never_wins``)."""
        cdef RuleTable* R = &self.R
        cdef TrickState* S = &self.S
        cdef bint lside = R.side[S.leader]
        cdef uint64_t m = 0
        cdef int i, v = 0, k = S.tricks_left, mt
        for i in range(R.nseats):
            m |= S.hands[i]
        m &= self.pts_mask
        while m:
            i = lowest_bit(m)
            m &= m - 1
            v += R.win_pts[i] if lside else R.lose_pts[i]
        if lside:
            v += k * R.trick_win + R.last_win
            mt = S.max_tricks + k + R.last_extra
        else:
            v += k * R.trick_lose + R.last_lose
            mt = S.max_tricks
        if R.use_most:
            v += self.most_of(mt)
        return v

    cdef bint sweep(self, int* value) noexcept nogil:
        """Whether the side on lead surely takes every trick left, and then
        the exact future value.  It does when, in every suit, each card of
        the other side is below each card of the leader's side and the
        other side holds no trumps: every trick is led by the leader's side
        (it keeps the lead), and the other side can only follow lower or
        discard; the condition survives every trick.  (Penalty contracts:
        "no penalty card can reach the max seat any more" is this with the
        max seat's side not on lead; bridge/Rook: the side on lead cashes
        everything.)  Winning ranks: the lowest card of the leader's side
        in each suit the other side holds (``qwin``)."""
        cdef RuleTable* R = &self.R
        cdef TrickState* S = &self.S
        cdef bint lside = R.side[S.leader]
        cdef uint64_t hi = 0, lo = 0, hs, ls
        cdef int i, s
        for i in range(R.nseats):
            if R.side[i] == lside:
                hi |= S.hands[i]
            else:
                lo |= S.hands[i]
        if R.trump >= 0 and (lo & R.suit_mask[R.trump]):
            return 0
        self.qwin = 0
        for s in range(4):
            ls = lo & R.suit_mask[s]
            hs = hi & R.suit_mask[s]
            if ls and hs:
                if highest_bit(ls) > lowest_bit(hs):
                    return 0
                self.qwin |= (<uint64_t>1) << lowest_bit(hs)
        value[0] = self.leader_takes_all()
        return 1

    cdef bint pivot_safe(self, int* value) noexcept nogil:
        """One max seat M, no trumps, must follow, tricks alike to both
        sides: whether M can avoid every remaining penalty card (a card
        with points) although it may still win tricks; then ``value``: the
        future value when the other seats take every penalty card.

        It can when every penalty card left is in the other seats' hands
        and in one suit p, and
        * M's cards of p are all below the lowest penalty card (M never
          wins a trick of p holding one) and M's lowest card of p is below
          every card of p of each seat holding a penalty card (or M holds
          no p and is not on lead);
        * in every other suit s M holds at least min(n, its length) cards
          below the other seats' lowest card of s (n: their cards of s).
        M keeps its lowest p card for last and leads p whenever on lead:
        while a penalty card is out its holder must follow p with a higher
        card, so M's last p card never wins; M therefore never leads another suit, every
        trick of s is led by the other seats (at most n of them) and M
        ducks it (``never_wins``).  Winning ranks: suit p keyed whole, the
        others at the other seats' lowest card."""
        cdef RuleTable* R = &self.R
        cdef TrickState* S = &self.S
        cdef int M = self.max_seat, i, s, p, x, nl, nh, v
        cdef uint64_t others = 0, pen, mp, ls, h, m
        for i in range(R.nseats):
            if i != M:
                others |= S.hands[i]
        pen = others & self.pts_mask
        if pen == 0 or (S.hands[M] & self.pts_mask):
            return 0
        p = R.suit_of[lowest_bit(pen)]
        if pen & ~R.suit_mask[p]:
            return 0
        mp = S.hands[M] & R.suit_mask[p]
        if mp:
            if highest_bit(mp) > lowest_bit(pen):
                return 0
            for i in range(R.nseats):
                h = S.hands[i] & R.suit_mask[p]
                if i != M and (h & pen) and lowest_bit(h) < lowest_bit(mp):
                    return 0
        elif S.leader == M:
            return 0
        self.qwin = (<uint64_t>1) << lowest_bit((others | mp) & R.suit_mask[p])
        for s in range(4):
            if s == p:
                continue
            ls = others & R.suit_mask[s]
            h = S.hands[M] & R.suit_mask[s]
            if ls == 0 or h == 0:
                continue
            x = lowest_bit(ls)
            nl = popcount(ls)
            nh = popcount(h)
            if popcount(h & (((<uint64_t>1) << x) - 1)) < (nl if nl < nh else nh):
                return 0
            self.qwin |= (<uint64_t>1) << x
        v = S.tricks_left * R.trick_lose + R.last_lose
        m = pen
        while m:
            i = lowest_bit(m)
            m &= m - 1
            v += R.lose_pts[i]
        value[0] = v
        return 1

    cdef bint never_wins(self, int* value) noexcept nogil:
        """Whether every seat of the side NOT on lead can lose every trick
        left (no trumps, must follow, card index = strength slot); then
        ``value``: the future value when the side on lead takes them all.

        Let x be the lowest card of suit s the leading side holds and n
        its number of cards of s.  While the ducking side wins nothing, the
        leading side leads every trick, so there are at most n tricks led
        in s, and each holds a leading-side card of s (the lead), at least
        x.  A ducking seat with at least min(n, its length in s) cards of s
        below x ducks every trick of s with them (and never wins a trick
        of a suit it is void in: no trumps).  When this holds in every
        suit, the ducking side never gains the lead and the argument holds
        to the end.  Winning ranks: only x's rank, per suit both sides
        hold, was compared (``qwin``); the cards below x are all the
        ducking side's, counted by the key's hand lengths."""
        cdef RuleTable* R = &self.R
        cdef TrickState* S = &self.S
        cdef bint lside = R.side[S.leader]
        cdef uint64_t lead = 0, ls, h
        cdef int i, s, x, nl, nh
        for i in range(R.nseats):
            if R.side[i] == lside:
                lead |= S.hands[i]
        self.qwin = 0
        for s in range(4):
            ls = lead & R.suit_mask[s]
            if ls == 0:
                continue
            x = lowest_bit(ls)
            nl = popcount(ls)
            for i in range(R.nseats):
                if R.side[i] == lside:
                    continue
                h = S.hands[i] & R.suit_mask[s]
                if h == 0:
                    continue
                nh = popcount(h)
                if popcount(h & (((<uint64_t>1) << x) - 1)) < (nl if nl < nh else nh):
                    return 0
                self.qwin |= (<uint64_t>1) << x
        value[0] = self.leader_takes_all()
        return 1

    cdef void quick_bounds(self, int* lb, int* ub) noexcept nogil:
        """Sure tricks of the side on lead (pure trick scoring, card index =
        strength slot): the leader's cards above every opponent card of
        their suit, when no partner card could be forced to overtake and,
        at a trump contract, while every opponent holding trumps follows."""
        cdef RuleTable* R = &self.R
        cdef TrickState* S = &self.S
        cdef int L = S.leader
        cdef bint lside = R.side[L]
        cdef uint64_t opp_all = 0, mine, w, ps, pwin = 0
        cdef int i, s, nw, qt = 0, k = S.tricks_left, ln, P = -1, qp = 0
        cdef bint entry = 0
        self.qwin = 0
        for i in range(R.nseats):
            if R.side[i] != lside:
                opp_all |= S.hands[i]
        for s in range(4):
            mine = S.hands[L] & R.suit_mask[s]
            if mine == 0:
                continue
            w = above_all(mine, opp_all & R.suit_mask[s])
            if w == 0:
                continue
            nw = popcount(w)
            for i in range(R.nseats):
                if i != L and R.side[i] == lside:
                    ps = S.hands[i] & R.suit_mask[s]
                    if ps and highest_bit(ps) > lowest_bit(w):
                        nw = 0
            if nw and R.trump >= 0 and s != R.trump:
                for i in range(R.nseats):
                    if R.side[i] != lside and (S.hands[i] & R.suit_mask[R.trump]):
                        ln = popcount(S.hands[i] & R.suit_mask[s])
                        if ln < nw:
                            nw = ln
            if nw:
                # the sure winners stay sure while every card from the
                # lowest of them up has the same owner
                self.qwin |= (<uint64_t>1) << lowest_bit(w)
            qt += nw
        # the partner's sure winners (4 seats, one partner): the leader
        # leads a low card of a suit where the partner has winners it cannot
        # overtake, and the partner cashes its winners of every suit
        if R.nseats == 4 and R.side[(L + 2) % 4] == lside and R.side[(L + 1) % 4] != lside:
            P = (L + 2) % 4
            for s in range(4):
                mine = S.hands[P] & R.suit_mask[s]
                if mine == 0:
                    continue
                w = above_all(mine, opp_all & R.suit_mask[s])
                if w == 0:
                    continue
                ps = S.hands[L] & R.suit_mask[s]
                if ps and highest_bit(ps) > lowest_bit(w):
                    continue
                nw = popcount(w)
                if R.trump >= 0 and s != R.trump:
                    for i in range(R.nseats):
                        if R.side[i] != lside and (S.hands[i] & R.suit_mask[R.trump]):
                            ln = popcount(S.hands[i] & R.suit_mask[s])
                            if ln < nw:
                                nw = ln
                if nw:
                    pwin |= (<uint64_t>1) << lowest_bit(w)
                    if ps:
                        entry = 1       # the leader can reach the partner here
                qp += nw
            if entry and qp > qt:
                qt = qp
                self.qwin |= pwin
        if qt == 0:
            return
        if qt > k:
            qt = k
        # the leader's side CAN take qt tricks; that bounds the value only on
        # the side where taking tricks is what it wants
        if R.trick_win > R.trick_lose:
            if lside:
                lb[0] = max(lb[0], qt * R.trick_win + (k - qt) * R.trick_lose)
            else:
                ub[0] = min(ub[0], qt * R.trick_lose + (k - qt) * R.trick_win)

    cdef void trump_bounds(self, int* lb, int* ub) noexcept nogil:
        """Tricks each side surely takes with its trumps (pure trick scoring,
        card index = strength slot): a hand holding the r highest trumps
        wins r tricks (each falls in its own trick and no trump beats it);
        against a side without trumps, every trump of a hand wins a trick
        (the longest hand's count).  Both bound the value, whichever way
        tricks count."""
        cdef RuleTable* R = &self.R
        cdef TrickState* S = &self.S
        cdef uint64_t tm = R.suit_mask[R.trump]
        cdef uint64_t all_t = 0, side_t[2], m
        cdef int i, h, r, g[2], top, k = S.tricks_left
        g[0] = g[1] = 0
        all_t = side_trumps(R, S, side_t)
        if all_t == 0:
            return
        top = highest_bit(all_t)
        for i in range(R.nseats):
            if (S.hands[i] >> top) & 1:
                h = i
        # the run of top trumps in hand h
        m = all_t
        r = 0
        while m and ((S.hands[h] >> highest_bit(m)) & 1):
            r += 1
            m ^= (<uint64_t>1) << highest_bit(m)
        g[R.side[h]] = r
        if r:
            # they stay the top trumps while every trump from the lowest of
            # them up has the same owner
            self.qwin |= (<uint64_t>1) << lowest_bit(all_t & ~m)
        for i in range(2):
            if side_t[1 - i] == 0:
                for h in range(R.nseats):
                    if R.side[h] == i and popcount(S.hands[h] & tm) > g[i]:
                        g[i] = popcount(S.hands[h] & tm)
        if g[1] > k:
            g[1] = k
        if g[0] > k:
            g[0] = k
        if R.trick_win > R.trick_lose:
            lb[0] = max(lb[0], g[1] * R.trick_win + (k - g[1]) * R.trick_lose)
            ub[0] = min(ub[0], (k - g[0]) * R.trick_win + g[0] * R.trick_lose)
        else:
            ub[0] = min(ub[0], g[1] * R.trick_win + (k - g[1]) * R.trick_lose)
            lb[0] = max(lb[0], (k - g[0]) * R.trick_win + g[0] * R.trick_lose)

    cdef int forced_take(self, int ub) noexcept nogil:
        """One max seat M, no trumps, must follow, card index = strength
        slot, another seat L on lead: the generic upper bound ``ub`` (the
        per-trick extremes, the points still in hands at their best for M,
        the last-trick and most-tricks extremes) lowered by what M is
        forced to take in this trick.  When L holds a card of a suit s in
        which every card of M is above every other seat's card, L can lead
        s and M must follow with a card of s and win: M takes this trick
        (its per-trick value instead of the best one) and the worst card
        for it each other seat may play to it (L: any card of s; a seat
        holding s: any of them; a void seat: any card, or one of the cards
        it must discard if it holds any).  Every card counted is a
        different card and a trick other than the last (k >= 2), so the
        rest of ``ub`` still bounds the rest.  The best such suit for the
        others is taken.  Winning ranks: M's lowest card of s (every card
        from it up is M's); the other seats' lengths and the penalty
        cards' places are in the key."""
        cdef RuleTable* R = &self.R
        cdef TrickState* S = &self.S
        cdef int M = self.max_seat, L = S.leader, s, i, c, loss, best = 0, key = -1, x, y
        cdef uint64_t others = 0, sm, ms, f, h
        if L == M:
            return ub
        for i in range(R.nseats):
            if i != M:
                others |= S.hands[i]
        for s in range(4):
            sm = R.suit_mask[s]
            ms = S.hands[M] & sm
            if ms == 0 or (S.hands[L] & sm) == 0:
                continue
            if highest_bit(others & sm) > lowest_bit(ms):
                continue
            loss = self.base_hi - R.trick_win
            for i in range(R.nseats):
                if i == M:
                    continue
                h = S.hands[i]
                f = h & sm
                if f == 0:
                    f = h & R.discard_mask
                    if f == 0:
                        f = h
                f &= self.pts_mask
                x = 0
                while f:
                    c = lowest_bit(f)
                    f &= f - 1
                    y = max(R.win_pts[c], R.lose_pts[c]) - R.win_pts[c]
                    if y > x:
                        x = y
                loss += x
            if loss > best:
                best = loss
                key = lowest_bit(ms)
        if best == 0:
            return ub
        self.qwin = (<uint64_t>1) << key
        return ub - best

    cdef void later_bounds(self, int* lb, int* ub, int alpha, int beta) noexcept nogil:
        """Tricks the side NOT on lead surely takes, and a side's top-trump
        run across its hands (DDS's later-tricks idea; pure trick scoring,
        card index = strength slot, must follow, free discards).  Called
        after ``quick_bounds`` instead of ``trump_bounds``, whose counts
        are among these (the top holder's own run of top trumps lies in the
        side's run; against a side without trumps the run is every trump,
        so its count is the longest hand's): tightens ``lb``/``ub`` and
        keys the cards it compared (``qwin``) only where it tightens
        (``later_hits`` counts the cut-offs it made beyond quick_bounds).
        With bit 1 of ``use_later_bounds`` off it counts as trump_bounds
        does (for measuring the rest).
        Skipped when no count up to a side's trumps could reach the window
        (alpha, beta) (each count below is at most the side's trumps; the
        bounds are only used for a cut-off).
        A = the side on lead, B = the other side, k = tricks left.

        1. Top-trump run.  Let the run be the trumps from the highest down
           while held by one side X.  A trick holding a run card is X's:
           its highest trump is that card or a higher trump, all X's.  One
           hand's cards fall in different tricks, so X takes at least the
           most run cards any one of its hands holds (``trump_bounds``
           counts the top holder's own run only).  Keyed: the run's lowest
           card (the owners of every trump from it up).
        2. The finesse (4 seats, sides alternate, trumps): the top trump in
           hand a of A, the second-highest in the next hand h (a plays just
           before h in every trick A leads) and h holds at least 2 trumps:
           B takes a trick.  Suppose A takes every trick left: A leads them
           all, a always plays before h.  h plays as follows: when a has
           not played the top trump in this trick and h may play its
           second-highest trump (trumps led, or h void in the led suit), it
           plays it and wins (every other trump is lower, the top one is
           still in a's hand); when a played the top trump, h plays another
           card (it has another trump, hence another legal card: a trump
           when trumps are led, anything when void), after which h's trump
           is the highest and wins the trick it is eventually played to.
           h's trump count only drops in one of those two tricks, so it
           holds two until then and is never forced.  Either way B takes a
           trick: a contradiction.  Keyed: the second-highest trump (the
           owners of the top two; h's length is in the key).
        3. The top two trumps split (4 seats, sides alternate): side X holds
           the two highest trumps T1, T2 in its two hands h1, h2, and one of
           them holds another trump: X takes two tricks.  A trick holding
           exactly one of T1, T2 is X's (T1 is the highest trump, and only
           T1 beats T2), and so, later, is the one holding the other.  X plays so: the first time h1 or h2 may play its honour
           (trumps led, or void in the led suit), one of them plays it and
           the other hand another card.  That other card exists unless the
           other hand's only legal card is its honour too: trumps led with
           one trump in each hand, or the last trick.  Neither can happen:
           a hand's trump count drops only in a trick where it plays a trump,
           i.e. where its honour was playable, so until then the hand with
           two trumps still holds two.  Keyed: the run's lowest card (the
           owners of T1 and T2 at least).
        """
        cdef RuleTable* R = &self.R
        cdef TrickState* S = &self.S
        cdef int L = S.leader, k = S.tricks_left
        cdef int A = R.side[L], B = 1 - R.side[L]
        cdef uint64_t side_t[2]
        cdef uint64_t tm = R.suit_mask[R.trump], all_t, run, m, keyed = 0, keyb = 0
        cdef int g[2]
        cdef int i, c, w, ln, a = 0, h = 0, v, d
        g[0] = g[1] = 0
        all_t = side_trumps(R, S, side_t)
        if all_t == 0:
            return
        # the max side (1) takes at least g[1] and at most k - g[0] tricks,
        # each count at most that side's trumps: can either reach the window?
        if R.trick_win > R.trick_lose:
            d = R.trick_win - R.trick_lose
            if (popcount(side_t[1]) * d < beta - k * R.trick_lose
                    and popcount(side_t[0]) * d < k * R.trick_win - alpha):
                return
        elif R.trick_win < R.trick_lose:
            d = R.trick_lose - R.trick_win
            if (popcount(side_t[1]) * d < k * R.trick_lose - alpha
                    and popcount(side_t[0]) * d < beta - k * R.trick_win):
                return
        else:
            return
        c = highest_bit(all_t)
        w = (side_t[1] >> c) & 1
        run = 0
        m = all_t
        while m:
            c = highest_bit(m)
            if not ((side_t[w] >> c) & 1):
                break
            run |= (<uint64_t>1) << c
            m ^= (<uint64_t>1) << c
        if self.use_later_bounds & 1 or side_t[1 - w] == 0:
            for i in range(R.nseats):
                if R.side[i] == w:
                    ln = popcount(S.hands[i] & run)
                    if ln > g[w]:
                        g[w] = ln
        else:
            # trump_bounds' count: the top holder's own run
            for i in range(R.nseats):
                if (S.hands[i] >> highest_bit(all_t)) & 1:
                    a = i
            m = all_t
            while m and ((S.hands[a] >> highest_bit(m)) & 1):
                g[w] += 1
                m ^= (<uint64_t>1) << highest_bit(m)
        if g[w] < 2 and self.later_alt and (self.use_later_bounds & 4) and popcount(run) >= 2:
            # the top two trumps in the two hands of one side
            c = highest_bit(run)
            ln = highest_bit(run ^ ((<uint64_t>1) << c))
            for i in range(R.nseats):
                if (S.hands[i] >> c) & 1:
                    a = i
                if (S.hands[i] >> ln) & 1:
                    h = i
            if a != h and (popcount(S.hands[a] & tm) >= 2
                           or popcount(S.hands[h] & tm) >= 2):
                g[w] = 2
        if g[w]:
            keyed = (<uint64_t>1) << lowest_bit(run)
        if w == A and self.later_alt and (self.use_later_bounds & 2):
            m = all_t ^ ((<uint64_t>1) << highest_bit(all_t))
            if m:
                c = highest_bit(m)
                for i in range(R.nseats):
                    if (S.hands[i] >> highest_bit(all_t)) & 1:
                        a = i
                h = R.next_seat[a]
                if (S.hands[h] >> c) & 1 and popcount(S.hands[h] & tm) >= 2:
                    g[B] = 1
                    keyb = (<uint64_t>1) << c
        if g[0] > k:
            g[0] = k
        if g[1] > k:
            g[1] = k
        # the max side (1) takes at least g[1] and at most k - g[0] tricks
        if R.trick_win > R.trick_lose:
            v = g[1] * R.trick_win + (k - g[1]) * R.trick_lose
            if v > lb[0]:
                lb[0] = v
                self.qwin |= keyed | keyb
            v = (k - g[0]) * R.trick_win + g[0] * R.trick_lose
            if v < ub[0]:
                ub[0] = v
                self.qwin |= keyed | keyb
        elif R.trick_win < R.trick_lose:
            v = g[1] * R.trick_win + (k - g[1]) * R.trick_lose
            if v < ub[0]:
                ub[0] = v
                self.qwin |= keyed | keyb
            v = (k - g[0]) * R.trick_win + g[0] * R.trick_lose
            if v > lb[0]:
                lb[0] = v
                self.qwin |= keyed | keyb

    cdef inline void store(self, TTEntry* bucket, uint64_t h2, int best, int alpha0, int beta0,
                           int bestmove) noexcept nogil:
        """Record what ``best`` proves for the ORIGINAL window (alpha0,
        beta0) (csrc/ttable.pxd); depth = tricks left."""
        tt_store(bucket, BUCKET, self.gen, h2, best, alpha0, beta0, bestmove,
                 self.S.tricks_left, NO_CARD)
