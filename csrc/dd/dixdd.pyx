# cython: language_level=3
# distutils: extra_compile_args = -O3 -fopenmp -mpopcnt
"""The two-seat dix double-dummy solver (docs/solver.md, "The dix solver").

A kernel for one game only: two hands, follow suit, trumps (the joker as a
trump of the turned-up rank), +1 a trick, -3 a ten-trick, and the round's
tie-breaks.  Values are lexicographic integers from the point of view of the
seat TO MOVE (negamax):

    256 * (own score - opponent's) + 4 * (opponent tens - own tens) + (+1 if
    the mover's side takes the last trick else -1)

so a normal trick is worth WIN = 256 to its taker (and -256 to the other
seat), a ten-trick -TEN = -(3 * 256 + 4) to its taker, the last trick one
more point to its taker.  Only the FUTURE is valued (the trick in progress
included): what is already won is an offset added by solver/dixdd.py.

Cards live in "slot space": slot = effective suit * 16 + strength, which is
the card index for every card but the joker (the joker takes the slot of
the turned-up card, which is never in play).  So "higher slot of the same
suit block" is "beats", and a hand is one 64-bit mask.

* Search: two functions, ``lead`` (trick boundary, the leader chooses) and
  ``follow`` (the follower answers a card on the table); fail-soft
  alpha-beta in negamax form; the forced last trick is scored directly.
* Transposition table at lead nodes (at follow nodes too with
  ``follow_tt``, keyed with the card led: the same nodes, slower), lower
  and upper bounds of the future value, the best card; buckets of four
  16-byte entries, replacement of the shallowest, a generation stamp
  instead of clearing, a fixed size; the bucket is prefetched while the
  bounds are computed.  Lead nodes with at most ``exact_k`` (4) tricks are
  searched with a full window: their exact value serves every question.
* Two seats never pit a hand's own cards against each other, so ranks
  matter only against the other hand (and the card on the table).  A card
  is LIVE when the other side holds a card that makes ten with it (A-9,
  2-8, 3-7, 4-6, 5-5, 10-court/joker), else dead: its pips can never
  matter (cards only leave the hands).
* Table key by runs: per suit, the maximal runs of one owner's cards, each
  as its owner, its live pips, its numbers of live 0-pip and dead cards.
  Positions with the same key play out identically (docs/solver.md).
* Equivalent cards (one hand, one suit, no card of the other side between
  them, the same pip role: dead, or live with equal pips) are searched once.
* Bounds at trick boundaries: the largest number of ten-tricks the hands'
  pips allow; with no ten-trick possible, the leader's sure tricks.
* Move ordering: the table's card; the follower by the exact value of the
  trick; the leader by the trick's value after the follower's best reply;
  then live cards first, then the leader's high cards and the
  follower's low cards first, a history of cut-offs.
* The root: every class of legal cards gets its exact value by null-window
  questions, the score difference first (``driver`` 1), then the
  tie-breaks; the table is shared by every question and card.
* ``max_nodes`` aborts a search cleanly (nothing is stored after the limit
  is hit; the facade raises ``solver.errors.SearchAborted``).

The pure-Python twin is ``solver/reference/dd_oracle.py`` (plain minimax
over the same rules); tests/search/test_dixdd.py compares them, and this
solver with the generic kernel (csrc/dd.pyx).
"""
from libc.stdint cimport uint64_t, uint32_t, uint8_t, uint16_t, int16_t, int32_t
from libc.stdlib cimport free
from libc.string cimport memset
from bits cimport popcount, highest_bit, lowest_bit, above_all
from interrupt cimport signal_raised, reraise, INTERRUPT_MASK
from trickstate cimport mix64
from ttable cimport TTEntry, tt_alloc, tt_next_gen, tt_find, tt_store

cdef extern from *:
    void prefetch "__builtin_prefetch" (const void* p) nogil

IMPLEMENTATION = "cython"

cdef enum:
    BUCKET = 4
    INF = 1000000
    MAXPLY = 48
    MAXMOVES = 24
    NO_CARD = 255
    WIN = 256           # a normal trick, to its taker
    TEN = 772           # what a ten-trick costs its taker: 3 * 256 + 4
    DIFF = 256          # one point of score difference

# table entries (csrc/ttable.pxd): bounds of the future value in the
# mover's view, the best slot, depth = cards left in both hands
ctypedef TTEntry Entry

ENTRY_BYTES = sizeof(Entry)
BUCKET_BYTES = sizeof(Entry) * BUCKET


cdef class DixSolver:
    """One transposition table (allocated once) and the per-solve state."""

    cdef Entry* tt
    cdef uint64_t nbuckets
    cdef uint64_t tt_mask
    cdef uint16_t gen
    cdef public uint64_t nodes
    cdef public uint64_t questions     # null-window searches of the last solve
    cdef public uint64_t tie_nodes     # nodes spent after the difference was settled
    cdef uint64_t max_nodes
    cdef bint aborted
    cdef bint interrupted              # a signal handler raised (Ctrl-C): re-raise it
    cdef public bint relative_keys     # False: exact masks as keys (for comparison)
    cdef public bint follow_tt         # False: no table at follow nodes
    cdef public int driver             # 0: MTD(f); 1: score difference first
    cdef public int exact_k            # lead nodes with at most this many tricks: full window
    #: the sure-trick bounds also while ten-tricks are possible, and the
    #: other hand's sure trumps as an upper bound (False: t == 0 only)
    cdef public int trick_bounds
    cdef public uint64_t bound_hits    # cut-offs by those bounds (tests, measurements)
    # move ordering counters per position in the trick (0 lead, 1 follow):
    # cut-off nodes, of which at the first move, moves searched at cut
    # nodes, nodes without a cut-off (``cut_stats``)
    cdef uint64_t cuts[2]
    cdef uint64_t first_cuts[2]
    cdef uint64_t cut_moves[2]
    cdef uint64_t all_nodes[2]
    cdef int trump                     # -1: no trumps
    cdef uint64_t jbit                 # the joker's slot bit (0: not in play)
    cdef uint64_t hands[2]
    cdef uint64_t suitm[4]
    cdef uint64_t pipm[11]             # slots whose pips are p
    cdef uint64_t livetab[2048]        # pip set of the other side -> slots that pair
    cdef uint8_t pip[64]
    cdef uint8_t moves[MAXPLY][MAXMOVES]
    cdef int32_t scores[MAXPLY][MAXMOVES]
    cdef int32_t hist[2][64]
    cdef int root_seat
    cdef int root_lead                  # slot on the table at the root, or -1
    # the table is kept while the same deal returns (load)
    #: False: every load starts a new table generation (measurements)
    cdef public bint keep_table
    cdef object deal_key               # (trump, joker slot, key kind) of the kept table
    cdef uint64_t deal_hands[2]        # each seat's slots (hand and table) in that deal
    cdef bint have_deal

    def __cinit__(self, uint64_t nbuckets):
        """``nbuckets``: a power of two (checked by solver/dixdd.py)."""
        cdef size_t size = nbuckets * BUCKET * sizeof(Entry)
        cdef void* p = tt_alloc(size)
        if p == NULL:
            raise MemoryError(f"cannot allocate a transposition table of {size} bytes")
        self.tt = <Entry*> p
        self.nbuckets = nbuckets
        self.tt_mask = nbuckets - 1
        self.gen = 0
        self.nodes = 0
        self.relative_keys = 1
        self.follow_tt = 0
        self.driver = 1
        self.exact_k = 4
        self.trick_bounds = 3
        self.keep_table = 1
        self.have_deal = 0

    def __dealloc__(self):
        free(self.tt)

    @property
    def table_bytes(self):
        return self.nbuckets * BUCKET * sizeof(Entry)

    # ------------------------------------------------------------------
    # set-up (Python level, once per solve)

    def load(self, uint64_t hand0, uint64_t hand1, int trump, int joker_slot, int to_move,
             int lead_slot):
        """A position in slot space: the two hands, the trump suit (-1
        none), the joker's slot (-1: not in play), the seat to move and the
        slot on the table (-1: the seat to move leads).  The table is kept
        when the same deal returns (the same trump and joker, each seat's
        slots among those of the deal loaded before, the last search not
        aborted); otherwise a new table generation starts (``new_table``).
        Stored bounds are of the mover's future value: true for any
        position under the same trump and joker."""
        cdef int s, r, p, q
        cdef uint64_t m
        self.hands[0] = hand0
        self.hands[1] = hand1
        self.trump = trump
        self.jbit = (<uint64_t>1) << joker_slot if joker_slot >= 0 else 0
        for s in range(4):
            self.suitm[s] = (<uint64_t>0xFFFF) << (16 * s)
        for p in range(11):
            self.pipm[p] = 0
        for s in range(64):
            r = s & 15
            if r == 14:
                p = 1
            elif 2 <= r <= 10:
                p = r
            else:
                p = 0
            if joker_slot >= 0 and s == joker_slot:
                p = 0
            self.pip[s] = p
            self.pipm[p] |= (<uint64_t>1) << s
        for q in range(2048):
            m = 0
            for p in range(11):
                if (q >> (10 - p)) & 1:
                    m |= self.pipm[p]
            self.livetab[q] = m
        self.root_seat = to_move
        self.root_lead = lead_slot
        memset(self.hist, 0, sizeof(self.hist))
        seat0 = hand0 | ((<uint64_t>1) << lead_slot if lead_slot >= 0 and to_move == 1 else 0)
        seat1 = hand1 | ((<uint64_t>1) << lead_slot if lead_slot >= 0 and to_move == 0 else 0)
        key = (trump, joker_slot, self.relative_keys)
        if not (self.keep_table and self.have_deal and not self.aborted and key == self.deal_key
                and (seat0 & ~self.deal_hands[0]) == 0 and (seat1 & ~self.deal_hands[1]) == 0):
            self.new_table()
            self.have_deal = 1
            self.deal_key = key
            self.deal_hands[0] = seat0
            self.deal_hands[1] = seat1
        self.nodes = 0
        self.questions = 0
        self.tie_nodes = 0
        self.bound_hits = 0
        self.aborted = 0

    def new_table(self):
        """Start a new table generation: every entry becomes invisible."""
        self.gen = tt_next_gen(self.tt, self.nbuckets * BUCKET * sizeof(Entry), self.gen)
        self.have_deal = 0

    def solve_all(self, uint64_t max_nodes=0):
        """Exact future value (the mover's view) of every legal slot of the
        seat to move, as a dict slot -> value; None if ``max_nodes`` (0: no
        limit) was exceeded."""
        cdef int me = self.root_seat
        cdef int L = self.root_lead
        cdef uint64_t legal, hand = self.hands[me]
        cdef int n, i, c, v, k, guess, bound
        cdef uint8_t reps[MAXMOVES]
        cdef int rep_of[64]
        cdef int values[MAXMOVES]
        self.max_nodes = max_nodes if max_nodes > 0 else <uint64_t>0xFFFFFFFFFFFFFFFF
        k = popcount(hand)
        bound = k * TEN + 2
        if L >= 0:
            legal = hand & self.suitm[L >> 4]
            if legal == 0:
                legal = hand
        else:
            legal = hand
        with nogil:
            n = self.root_classes(me, legal, L, reps, rep_of)
            guess = 0
            for i in range(n):
                v = self.mtd(reps[i], -bound, bound, guess)
                if self.aborted:
                    break
                values[i] = v
                guess = v
        self.check_interrupt()
        if self.aborted:
            return None
        out = {}
        for c in range(64):
            if (legal >> c) & 1:
                out[c] = values[rep_of[c]]
        return out

    def solve_value(self, uint64_t max_nodes=0):
        """The exact future value (the mover's view) of the position, the
        best card's only; None if ``max_nodes`` was exceeded."""
        cdef int k = popcount(self.hands[self.root_seat]), v
        self.max_nodes = max_nodes if max_nodes > 0 else <uint64_t>0xFFFFFFFFFFFFFFFF
        with nogil:
            v = self.mtd(NO_CARD, -(k * TEN + 2), k * TEN + 2, 0)
        self.check_interrupt()
        if self.aborted:
            return None
        return v

    cdef int check_interrupt(self) except -1:
        """Re-raise a signal handler's exception (Ctrl-C) that stopped the
        search."""
        if self.interrupted:
            self.interrupted = 0
            return reraise()
        return 0

    # ------------------------------------------------------------------
    # small helpers

    cdef inline uint32_t pipset(self, uint64_t m) noexcept nogil:
        """Bit p set if ``m`` holds a card of p pips."""
        cdef uint32_t out = 0
        cdef uint64_t r
        if m & self.jbit:
            out = 1
            m &= ~self.jbit
        r = (m | (m >> 16) | (m >> 32) | (m >> 48)) & 0xFFFF
        out |= (<uint32_t>r & 0x7FC) | ((<uint32_t>r >> 13) & 2)
        if r & 0x3800:
            out |= 1
        return out

    cdef inline uint64_t live(self, uint64_t mine, uint64_t theirs) noexcept nogil:
        """The cards of ``mine`` that make ten with some card of ``theirs``."""
        return mine & self.livetab[self.pipset(theirs)]

    cdef inline bint beats(self, int lead, int reply) noexcept nogil:
        """Whether the follower's ``reply`` takes the trick led by ``lead``."""
        if (reply >> 4) == (lead >> 4):
            return reply > lead
        return (reply >> 4) == self.trump

    cdef inline int trick_for_leader(self, int lead, int reply) noexcept nogil:
        """The leader's value of the trick ``lead``, ``reply`` (not the last)."""
        cdef int t = -TEN if self.pip[lead] + self.pip[reply] == 10 else WIN
        return -t if self.beats(lead, reply) else t

    cdef int classes(self, uint64_t legal, uint64_t sep, uint64_t livem,
                     uint8_t* out, int* cls_of) noexcept nogil:
        """One card per class of equivalent cards of ``legal`` (one hand's
        cards): two cards are equivalent when of one suit with no card of
        ``sep`` (the other hand, the table) between them, and of the same
        pip role (``livem``: the cards whose pips can still make ten; dead
        pips never matter, live ones must be equal).  With two seats a
        hand's own cards never meet in a trick, so only the other side's
        cards tell ranks apart.  ``cls_of[c]`` (if not NULL): the index in
        ``out`` of card c's representative."""
        cdef int n = 0, c, prev = -1, role, i
        cdef int rep[12]
        cdef uint64_t m = legal
        cdef uint64_t between
        for i in range(12):
            rep[i] = -1
        while m:
            c = highest_bit(m)
            m ^= (<uint64_t>1) << c
            if prev >= 0:
                between = (((<uint64_t>1) << prev) - 1) & ~((<uint64_t>2 << c) - 1)
                if (prev >> 4) != (c >> 4) or (sep & between) != 0:
                    for i in range(12):
                        rep[i] = -1
            prev = c
            role = self.pip[c] if (livem >> c) & 1 else 11
            if rep[role] < 0:
                rep[role] = n
                out[n] = <uint8_t>c
                n += 1
            if cls_of != NULL:
                cls_of[c] = rep[role]
        return n

    cdef int root_classes(self, int me, uint64_t legal, int L, uint8_t* reps,
                          int* rep_of) noexcept nogil:
        """Root classes, ordered like an inner node; ``rep_of[c]`` the
        index in ``reps`` of card ``c``'s representative."""
        cdef uint64_t mine = self.hands[me], theirs = self.hands[1 - me]
        cdef uint64_t tab = (<uint64_t>1) << L if L >= 0 else 0
        cdef uint64_t livem = self.live(mine, theirs | tab)
        cdef int n, i, j, c
        cdef uint64_t m
        cdef uint8_t cls[MAXMOVES]
        cdef int cls_of[64]
        cdef int ply = 0
        n = self.classes(legal, theirs | tab, livem, cls, cls_of)
        if L >= 0:
            self.order_follow(me, L, cls, n, ply, NO_CARD, livem)
        else:
            self.order_lead(me, cls, n, ply, NO_CARD, livem)
        for i in range(n):
            reps[i] = self.moves[ply][i]
        m = legal
        while m:
            c = lowest_bit(m)
            m &= m - 1
            for j in range(n):
                if reps[j] == cls[cls_of[c]]:
                    rep_of[c] = j
                    break
        return n

    # ------------------------------------------------------------------
    # move ordering

    cdef void order_lead(self, int me, uint8_t* cls, int n, int ply, int ttmove,
                         uint64_t livem) noexcept nogil:
        """``moves[ply]``: the leads of ``cls`` best first: the table's card,
        then the trick's value after the follower's best immediate reply,
        then live cards (``livem``: their pips can make ten) before dead
        ones, high before low, then the history of cut-offs."""
        cdef uint64_t opp = self.hands[1 - me], f
        cdef int i, j, c, r, v, worst, sc
        cdef uint8_t* mv = self.moves[ply]
        cdef int32_t* scv = self.scores[ply]
        cdef int32_t* h = self.hist[me]
        for i in range(n):
            c = cls[i]
            f = opp & self.suitm[c >> 4]
            if f == 0:
                f = opp
            worst = INF
            while f:
                r = lowest_bit(f)
                f &= f - 1
                v = self.trick_for_leader(c, r)
                if v < worst:
                    worst = v
            sc = (worst * 64 + (c & 15) + ((livem >> c) & 1) * 16) * 1024 + h[c]
            if c == ttmove:
                sc = 2000000000
            j = i
            while j > 0 and scv[j - 1] < sc:
                mv[j] = mv[j - 1]
                scv[j] = scv[j - 1]
                j -= 1
            mv[j] = <uint8_t>c
            scv[j] = sc

    cdef void order_follow(self, int me, int L, uint8_t* cls, int n, int ply,
                           int ttmove, uint64_t livem) noexcept nogil:
        """``moves[ply]``: the replies best first: the table's card, then
        the exact value of the trick, live cards before dead ones, the
        cheapest card among equals, then the history of cut-offs."""
        cdef int i, j, c, sc
        cdef uint8_t* mv = self.moves[ply]
        cdef int32_t* scv = self.scores[ply]
        cdef int32_t* h = self.hist[me]
        for i in range(n):
            c = cls[i]
            sc = (-self.trick_for_leader(L, c) * 64 + 16 - (c & 15)
                  + ((livem >> c) & 1) * 16) * 1024 + h[c]
            if c == ttmove:
                sc = 2000000000
            j = i
            while j > 0 and scv[j - 1] < sc:
                mv[j] = mv[j - 1]
                scv[j] = scv[j - 1]
                j -= 1
            mv[j] = <uint8_t>c
            scv[j] = sc

    cdef inline void count_cut(self, int pos, int i) noexcept nogil:
        self.cuts[pos] += 1
        self.cut_moves[pos] += i + 1
        if i == 0:
            self.first_cuts[pos] += 1

    def cut_stats(self):
        """Per position in the trick (0 = the leader, 1 = the follower):
        (cut-off nodes, of which at the first move, moves searched at cut
        nodes, nodes without a cut-off) since the last ``reset_cut_stats``
        (as ``solver.dd._dd.Kernel.cut_stats``)."""
        return [(self.cuts[i], self.first_cuts[i], self.cut_moves[i], self.all_nodes[i])
                for i in range(2)]

    def reset_cut_stats(self):
        memset(self.cuts, 0, sizeof(self.cuts))
        memset(self.first_cuts, 0, sizeof(self.first_cuts))
        memset(self.cut_moves, 0, sizeof(self.cut_moves))
        memset(self.all_nodes, 0, sizeof(self.all_nodes))

    cdef inline void bump(self, int me, int c, int k) noexcept nogil:
        cdef int32_t* h = self.hist[me]
        cdef int i
        h[c] += k * k
        if h[c] > 1000:         # below one ordering step (1024)
            for i in range(64):
                h[i] >>= 1

    # ------------------------------------------------------------------
    # the table

    cdef void key(self, uint64_t mine, uint64_t theirs, int L, uint64_t* h1,
                  uint64_t* h2) noexcept nogil:
        """Two independent hashes of the position's key: the mover's hand,
        the other hand and the card on the table (``L`` >= 0 at a follow
        node) by runs (``run_key``), or as exact masks when
        ``relative_keys`` is off (for comparison)."""
        cdef uint64_t tab = (<uint64_t>1) << L if L >= 0 else 0
        cdef uint64_t lv, a, b
        if self.relative_keys:
            lv = self.live(mine, theirs | tab) | self.live(theirs | tab, mine)
            self.run_key(mine, theirs, tab, lv, h1, h2)
            return
        a = mix64(mine ^ <uint64_t>0x9e3779b97f4a7c15)
        a = mix64(a ^ theirs)
        a = mix64(a ^ tab)
        b = mix64(mine * <uint64_t>0xff51afd7ed558ccd + <uint64_t>0xd1b54a32d192ed03)
        b = mix64(b + theirs * <uint64_t>0xc4ceb9fe1a85ec53)
        b = mix64(b + tab * <uint64_t>0x2545f4914f6cdd1d)
        if b == 0:
            b = 1
        h1[0] = a
        h2[0] = b

    cdef void run_key(self, uint64_t mine, uint64_t theirs, uint64_t tab, uint64_t lv,
                      uint64_t* h1, uint64_t* h2) noexcept nogil:
        """The key by runs: per suit, from low to high, the maximal runs of
        cards of one owner (the mover, the other hand, the table), each as
        its owner, the set of live pips 1..10 in it, its number of live
        0-pip cards and of dead cards.  Within a run the ranks never matter
        (two seats: a hand's own cards never meet), nor dead pips."""
        cdef uint64_t a = <uint64_t>0x9e3779b97f4a7c15, b = <uint64_t>0xd1b54a32d192ed03
        cdef uint64_t acc = 0, own[3], sm, rest, run, other, lvr, nz
        cdef int suit, c, owner, o, nacc = 0, lmask, z, d, top
        cdef uint32_t desc
        for suit in range(4):
            sm = self.suitm[suit]
            own[0] = mine & sm
            own[1] = theirs & sm
            own[2] = tab & sm
            rest = own[0] | own[1] | own[2]
            while rest:
                c = lowest_bit(rest)
                owner = 0 if (own[0] >> c) & 1 else (1 if (own[1] >> c) & 1 else 2)
                other = rest & ~own[owner]
                if other:
                    top = lowest_bit(other)
                    run = own[owner] & rest & (((<uint64_t>1) << top) - 1)
                else:
                    run = own[owner] & rest
                rest &= ~run
                lvr = run & lv
                nz = lvr & ~self.pipm[0]
                z = popcount(lvr) - popcount(nz)
                d = popcount(run) - popcount(lvr)
                lmask = <int>(self.pipset(nz) & 0x7FE)
                desc = <uint32_t>(owner | (lmask << 2) | (z << 13) | (d << 16) | (suit << 21))
                acc = (acc << 23) | desc
                nacc += 1
                if nacc == 2:
                    a = mix64(a ^ acc)
                    b = mix64(b + acc * <uint64_t>0xff51afd7ed558ccd)
                    acc = 0
                    nacc = 0
        a = mix64(a ^ acc ^ (<uint64_t>nacc << 60))
        b = mix64(b + (acc ^ <uint64_t>0x632be59bd9b4e019) * <uint64_t>0xc4ceb9fe1a85ec53)
        if b == 0:
            b = 1
        h1[0] = a
        h2[0] = b

    cdef inline void store(self, Entry* bucket, uint64_t h2, int best, int alpha0, int beta0,
                           int move, int depth) noexcept nogil:
        """Record what ``best`` proves for the window (alpha0, beta0)."""
        tt_store(bucket, BUCKET, self.gen, h2, best, alpha0, beta0, move, depth, NO_CARD)

    # ------------------------------------------------------------------
    # bounds

    cdef int tens_possible(self, uint64_t a, uint64_t b, int k) noexcept nogil:
        """The largest number of ten-tricks the two hands can still make:
        a matching of their pips that total ten."""
        cdef int p, t = 0
        for p in range(11):
            t += min(popcount(a & self.pipm[p]), popcount(b & self.pipm[10 - p]))
        return t if t < k else k

    cdef int sure_tricks(self, uint64_t mine, uint64_t theirs) noexcept nogil:
        """Tricks the leader takes by leading its top cards, when no
        ten-trick is possible: in each suit the cards above all of the
        other hand's, all of them if the other hand cannot ruff (trumps, or
        it holds none), else as many as the other hand can follow to."""
        cdef int s, q = 0, w, ln
        cdef uint64_t ms, ts, top
        cdef bint can_ruff = self.trump >= 0 and (theirs & self.suitm[self.trump]) != 0
        for s in range(4):
            ms = mine & self.suitm[s]
            if ms == 0:
                continue
            ts = theirs & self.suitm[s]
            top = above_all(ms, ts)
            if top == 0:
                continue
            w = popcount(top)
            if can_ruff and s != self.trump:
                ln = popcount(ts)
                if ln < w:
                    w = ln
            q += w
        return q

    cdef inline int sure_trumps(self, uint64_t mine, uint64_t theirs) noexcept nogil:
        """The trumps of ``mine`` above all of ``theirs``: each wins the
        trick it is played to, led or not (``self.trump`` >= 0)."""
        cdef uint64_t tm = self.suitm[self.trump]
        return popcount(above_all(mine & tm, theirs & tm))

    # ------------------------------------------------------------------
    # search

    cdef int last_trick(self, int me) noexcept nogil:
        """One card each, ``me`` leads: the leader's value, directly."""
        cdef int c = lowest_bit(self.hands[me]), r = lowest_bit(self.hands[1 - me])
        cdef int t = (-TEN if self.pip[c] + self.pip[r] == 10 else WIN) + 1
        return -t if self.beats(c, r) else t

    cdef int lead(self, int me, int alpha, int beta, int ply) noexcept nogil:
        """Fail-soft: the leader ``me``'s future value if in (alpha, beta),
        else a bound on the side it fell."""
        cdef uint64_t mine = self.hands[me], theirs = self.hands[1 - me]
        cdef int k, t, ub, lb, q, i, n, c, v, best, bm = NO_CARD, ttmove = NO_CARD
        cdef int alpha0 = alpha, beta0 = beta
        cdef uint64_t h1, h2, bit, livem
        cdef Entry* bucket
        cdef Entry* e
        cdef uint8_t cls[MAXMOVES]
        self.nodes += 1
        if self.nodes > self.max_nodes:
            self.aborted = 1
            return 0
        if (self.nodes & INTERRUPT_MASK) == 0 and signal_raised():
            self.aborted = 1
            self.interrupted = 1
            return 0
        k = popcount(mine)
        if k == 1:
            return self.last_trick(me)
        # the key first: the bucket is fetched from memory during the bounds
        self.key(mine, theirs, -1, &h1, &h2)
        bucket = &self.tt[(h1 & self.tt_mask) * BUCKET]
        prefetch(bucket)
        t = self.tens_possible(mine, theirs, k)
        ub = k * WIN + t * (TEN - WIN) + 1
        lb = -ub
        if (self.trick_bounds & 1) and t < k and self.trump >= 0:
            # the other hand wins at least qo tricks (its trumps above all
            # of the mover's win whenever played), at most t ten-tricks fall
            q = self.sure_trumps(theirs, mine)
            if q > t:
                v = (k - 2 * q) * WIN + t * (TEN + WIN) + 1
                if v < ub:
                    ub = v
                    if ub <= alpha:
                        self.bound_hits += 1
                        return ub
        if ub <= alpha:
            return ub
        if t == 0:
            q = self.sure_tricks(mine, theirs)
            if q >= k:
                return k * WIN + 1
            lb = (2 * q - k) * WIN - 1
        elif (self.trick_bounds & 2) and t < k and k * WIN - t * (TEN + WIN) - 1 >= beta:
            # (the test above: the bound could reach beta at all)
            # the leader wins at least q tricks by cashing its top cards,
            # whatever the pips; at most t of all tricks are ten-tricks
            q = self.sure_tricks(mine, theirs)
            if q > t:
                v = (2 * q - k) * WIN - t * (TEN + WIN) - 1
                if v > lb:
                    lb = v
                    if lb >= beta:
                        self.bound_hits += 1
                        return lb
        if lb >= beta:
            return lb
        e = tt_find(bucket, BUCKET, self.gen, h2)
        if e != NULL:
            if e.lo >= beta:
                return e.lo
            if e.hi <= alpha:
                return e.hi
            if e.lo == e.hi:
                return e.lo
            if e.lo > alpha:
                alpha = e.lo
            if e.hi < beta:
                beta = e.hi
            if (mine >> e.move) & 1:
                ttmove = e.move
        if k <= self.exact_k:
            # small endings are solved exactly once (a full window), so the
            # table answers every later question about them
            alpha = -INF
            beta = INF
            alpha0 = -INF
            beta0 = INF
        livem = self.live(mine, theirs)
        n = self.classes(mine, theirs, livem, cls, NULL)
        self.order_lead(me, cls, n, ply, ttmove, livem)
        best = -INF
        for i in range(n):
            c = self.moves[ply][i]
            bit = (<uint64_t>1) << c
            self.hands[me] = mine ^ bit
            v = -self.follow(1 - me, c, -beta, -alpha, ply + 1)
            self.hands[me] = mine
            if self.aborted:
                return 0
            if v > best:
                best = v
                bm = c
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        self.bump(me, c, k)
                        self.count_cut(0, i)
                        break
        else:
            self.all_nodes[0] += 1
        self.store(bucket, h2, best, alpha0, beta0, bm, 2 * k)
        return best

    cdef int follow(self, int me, int L, int alpha, int beta, int ply) noexcept nogil:
        """Fail-soft: the follower ``me``'s future value (this trick
        included) after the other seat led slot ``L``."""
        cdef uint64_t mine = self.hands[me], theirs = self.hands[1 - me]
        cdef uint64_t legal, bit, livem, h1 = 0, h2 = 0
        cdef int k, i, n, c, v, t, best, bm = NO_CARD, ttmove = NO_CARD
        cdef int alpha0 = alpha, beta0 = beta
        cdef Entry* bucket = NULL
        cdef Entry* e
        cdef uint8_t cls[MAXMOVES]
        cdef bint use_tt
        self.nodes += 1
        if self.nodes > self.max_nodes:
            self.aborted = 1
            return 0
        if (self.nodes & INTERRUPT_MASK) == 0 and signal_raised():
            self.aborted = 1
            self.interrupted = 1
            return 0
        k = popcount(mine)
        if k == 1:
            c = lowest_bit(mine)
            t = (-TEN if self.pip[L] + self.pip[c] == 10 else WIN) + 1
            return t if self.beats(L, c) else -t
        legal = mine & self.suitm[L >> 4]
        if legal == 0:
            legal = mine
        use_tt = self.follow_tt and k > 2
        if use_tt:
            self.key(mine, theirs, L, &h1, &h2)
            bucket = &self.tt[(h1 & self.tt_mask) * BUCKET]
            e = tt_find(bucket, BUCKET, self.gen, h2)
            if e != NULL:
                if e.lo >= beta:
                    return e.lo
                if e.hi <= alpha:
                    return e.hi
                if e.lo == e.hi:
                    return e.lo
                if e.lo > alpha:
                    alpha = e.lo
                if e.hi < beta:
                    beta = e.hi
                if (legal >> e.move) & 1:
                    ttmove = e.move
        livem = self.live(mine, theirs | ((<uint64_t>1) << L))
        n = self.classes(legal, theirs | ((<uint64_t>1) << L), livem, cls, NULL)
        self.order_follow(me, L, cls, n, ply, ttmove, livem)
        best = -INF
        for i in range(n):
            c = self.moves[ply][i]
            bit = (<uint64_t>1) << c
            t = -TEN if self.pip[L] + self.pip[c] == 10 else WIN
            self.hands[me] = mine ^ bit
            if self.beats(L, c):
                v = t + self.lead(me, alpha - t, beta - t, ply + 1)
            else:
                v = -t - self.lead(1 - me, -beta - t, -alpha - t, ply + 1)
            self.hands[me] = mine
            if self.aborted:
                return 0
            if v > best:
                best = v
                bm = c
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        self.bump(me, c, k)
                        self.count_cut(1, i)
                        break
        else:
            self.all_nodes[1] += 1
        if use_tt:
            self.store(bucket, h2, best, alpha0, beta0, bm, 2 * k - 1)
        return best

    # ------------------------------------------------------------------
    # the root

    cdef int child(self, int c, int alpha, int beta) noexcept nogil:
        """The mover's value of playing slot ``c`` at the root, fail-soft
        in (alpha, beta)."""
        cdef int me = self.root_seat, L = self.root_lead, t, v, k
        cdef uint64_t mine = self.hands[me]
        cdef uint64_t bit = (<uint64_t>1) << c
        if c == NO_CARD:        # the root position itself
            if L < 0:
                return self.lead(me, alpha, beta, 0)
            return self.follow(me, L, alpha, beta, 0)
        self.hands[me] = mine ^ bit
        if L < 0:
            v = -self.follow(1 - me, c, -beta, -alpha, 1)
        else:
            k = popcount(mine)
            t = (-TEN if self.pip[L] + self.pip[c] == 10 else WIN) + (1 if k == 1 else 0)
            if k == 1:
                v = t if self.beats(L, c) else -t
            elif self.beats(L, c):
                v = t + self.lead(me, alpha - t, beta - t, 1)
            else:
                v = -t - self.lead(1 - me, -beta - t, -alpha - t, 1)
        self.hands[me] = mine
        return v

    cdef int mtd(self, int c, int lo, int hi, int guess) noexcept nogil:
        """The exact value of root card ``c`` in [lo, hi] by null-window
        questions.  Driver 1 first settles the score difference (questions
        on the borders between differences only), then the tie-breaks."""
        cdef int beta, v, g = guess, band
        cdef uint64_t n0
        hi += 1             # half-open [lo, hi)
        if self.driver == 1:
            while True:
                # the value's difference band: v in [DIFF*d - 128, DIFF*d + 128)
                band = self.band(lo)
                if band == self.band(hi - 1):
                    break
                # a border b = DIFF*d - 128 with lo < b < hi, nearest the guess
                beta = self.band(g) * DIFF - DIFF // 2
                if beta <= lo:
                    beta = (self.band(lo) + 1) * DIFF - DIFF // 2
                if beta >= hi:
                    beta = self.band(hi - 1) * DIFF - DIFF // 2
                v = self.child(c, beta - 1, beta)
                self.questions += 1
                if self.aborted:
                    return 0
                if v < beta:
                    hi = v + 1
                else:
                    lo = v
                g = v
        n0 = self.nodes
        if lo <= guess < hi:
            g = guess
        while lo + 1 < hi:
            beta = g
            if beta <= lo:
                beta = lo + 1
            if beta >= hi:
                beta = hi - 1
            v = self.child(c, beta - 1, beta)
            self.questions += 1
            if self.aborted:
                return 0
            if v < beta:
                hi = v + 1
            else:
                lo = v
            g = v
        self.tie_nodes += self.nodes - n0
        return lo

    cdef inline int band(self, int v) noexcept nogil:
        """The score difference of a value (round to the nearest DIFF)."""
        if v >= 0:
            return (v + DIFF // 2) // DIFF
        return -((-v + DIFF // 2 - 1) // DIFF)
