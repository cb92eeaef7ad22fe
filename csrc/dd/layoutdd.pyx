# cython: language_level=3
"""Exact perfect-information solver of the layout game (issue 6).

The layout game is the Trix contract of ``trix`` and the Jacks game of
``tricks``: a jack starts its suit's row, rows grow J-Q-K-A upward and
J-10-...-2 downward one card at a time; a seat must play a legal card if it
holds one, else it passes (forced, not a choice); seats out of cards are
skipped; finishing places score 200/150/100/50.

Values are in *units* of 50 points (place k = 0..3 is worth 4 - k units) and
are *future* values: the points the scoring seats will still receive from
this position on.  Points already awarded are added by the facade
(``solver/dd/layout.py``), which also validates the input once; this kernel
trusts it, so the search pays for no check and a check has one place to be
right.

The scoring seats (``score_mask``) maximise, the others minimise:

* paranoid: ``score_mask = {seat}``: the most ``seat`` can guarantee
  against the three others;
* partnership: ``score_mask = {seat, seat ^ 2}``: the team total; since the
  four places always sum to 500 points, maximising the team total is the
  same as maximising (team - opponents) = 2 * team - 500.

Search: fail-soft alpha-beta driven by null-window tests (a bisection over
the few possible values), a bounded transposition table storing proven
lower/upper bounds (never reallocated), static bounds from the places left,
move ordering (table move, then cards that open the row for the mover's own
side), and one sound equivalence: *private cards* (see ``is_private``).
The pure-Python twin without pruning or table is
``solver/reference/layout_oracle.py``.
"""
from libc.stdint cimport uint64_t, int64_t, int8_t, uint8_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset
from libc.stdint cimport uintptr_t
from bits cimport popcount, lowest_bit
from layoutstate cimport (TTEntry, LayoutCtx, LAYOUT_MAX_DEPTH, LAYOUT_MAX_MOVES,
                          LAYOUT_JACK, LAYOUT_PASS)

IMPLEMENTATION = "cython"
PASS = LAYOUT_PASS

cdef enum:
    INF = 100
    MIN_TT_CARDS = 6     # positions with fewer cards in hands are not stored


cdef inline uint64_t bit(int c) noexcept nogil:
    return (<uint64_t>1) << c


cdef inline uint64_t legal_mask(const LayoutCtx* x) noexcept nogil:
    """Cards that may be played now by whoever holds them."""
    cdef uint64_t m = 0
    cdef int s, base
    for s in range(4):
        base = s << 4
        if x.lo[s] == 0:
            m |= bit(base + LAYOUT_JACK)
        else:
            if x.lo[s] > 2:
                m |= bit(base + x.lo[s] - 1)
            if x.hi[s] < 14:
                m |= bit(base + x.hi[s] + 1)
    return m


cdef inline bint is_private(const LayoutCtx* x, int p, int c) noexcept nogil:
    """Is legal card ``c`` of seat ``p`` the end of a *private* run?

    A run is private when ``p`` holds every card still to come in that
    direction of the suit (for a jack: the whole suit).  Only ``p`` will ever
    play those cards and the next one is always legal, so nobody else's
    legal cards depend on them.  Two positions that differ only in how p's
    private cards are split among runs (same total) are equivalent: same
    hand sizes, same legal cards for the others, and p has a private move in
    one iff in the other; a move maps to a move with the same effect on hand
    sizes, so the finishing order, hence every value, is the same (a
    bisimulation, by induction on the cards left).  So all private moves of
    one node have equal value and only one is searched.
    """
    cdef int s = c >> 4
    cdef int r = c & 15
    cdef uint64_t need
    if r == LAYOUT_JACK:
        need = <uint64_t>0x7FFC                            # ranks 2..14
    elif r < LAYOUT_JACK:
        need = ((<uint64_t>1) << (r + 1)) - 4              # ranks 2..r
    else:
        need = ((<uint64_t>1) << 15) - ((<uint64_t>1) << r)  # ranks r..14
    need <<= (s << 4)
    return (x.hand[p] & need) == need


cdef inline int holder(const LayoutCtx* x, int c) noexcept nogil:
    cdef int q
    for q in range(4):
        if x.hand[q] & bit(c):
            return q
    return -1


cdef inline int open_score(const LayoutCtx* x, int p, int c) noexcept nogil:
    """Ordering heuristic: how good for p's side are the cards c unlocks."""
    cdef int s = c >> 4
    cdef int r = c & 15
    cdef int targets[2]
    cdef int nt = 0, i, q, sc = 0
    cdef int side = (x.score_mask >> p) & 1
    if r == LAYOUT_JACK:
        targets[0] = c + 1
        targets[1] = c - 1
        nt = 2
    elif r < LAYOUT_JACK:
        if r > 2:
            targets[0] = c - 1
            nt = 1
    elif r < 14:
        targets[0] = c + 1
        nt = 1
    for i in range(nt):
        q = holder(x, targets[i])
        if q == p:
            sc += 3
        elif q >= 0 and ((x.score_mask >> q) & 1) == side:
            sc += 1
        elif q >= 0:
            sc -= 2
    return sc


cdef inline uint64_t mix(uint64_t a, uint64_t b, uint64_t c) noexcept nogil:
    cdef uint64_t h = a * <uint64_t>0x9E3779B97F4A7C15ULL
    h ^= (b + <uint64_t>0x632BE59BD9B4E019ULL) * <uint64_t>0xBF58476D1CE4E5B9ULL
    h ^= (c + <uint64_t>0x85157AF5ULL) * <uint64_t>0x94D049BB133111EBULL
    h ^= h >> 31
    h *= <uint64_t>0xD6E8FEB86659FD93ULL
    h ^= h >> 32
    return h


cdef inline int play(LayoutCtx* x, int p, int c, int* terminal) noexcept nogil:
    """Seat p plays c; returns the units awarded by it (to scoring seats)."""
    cdef int s = c >> 4
    cdef int r = c & 15
    cdef int imm = 0, q
    x.hand[p] ^= bit(c)
    x.cnt[p] -= 1
    if r == LAYOUT_JACK:
        x.lo[s] = LAYOUT_JACK
        x.hi[s] = LAYOUT_JACK
    elif r < LAYOUT_JACK:
        x.lo[s] = r
    else:
        x.hi[s] = r
    terminal[0] = 0
    if x.cnt[p] == 0:
        if (x.score_mask >> p) & 1:
            imm += 4 - x.nout
        x.nout += 1
        if x.nout == 3:                 # the last seat holding cards is fourth
            terminal[0] = 1
            for q in range(4):
                if x.cnt[q] and (x.score_mask >> q) & 1:
                    imm += 1
    x.to_move = (p + 1) & 3
    return imm


cdef inline void unplay(LayoutCtx* x, int p, int c, int to_move) noexcept nogil:
    cdef int s = c >> 4
    cdef int r = c & 15
    if x.cnt[p] == 0:
        x.nout -= 1
    x.hand[p] ^= bit(c)
    x.cnt[p] += 1
    if r == LAYOUT_JACK:
        x.lo[s] = 0
        x.hi[s] = 0
    elif r < LAYOUT_JACK:
        x.lo[s] = r + 1
    else:
        x.hi[s] = r - 1
    x.to_move = to_move


cdef inline int mover(const LayoutCtx* x, uint64_t legal) noexcept nogil:
    """The first seat from to_move on holding a legal card (forced passes
    and out seats skipped).  While two seats hold cards some seat holds a
    legal card: every unfinished row has its jack or its next card in a hand."""
    cdef int p = x.to_move
    while (x.hand[p] & legal) == 0:
        p = (p + 1) & 3
    return p


cdef int search(LayoutCtx* x, int depth, int alpha, int beta) noexcept nogil:
    """Fail-soft alpha-beta value (future units of the scoring seats)."""
    cdef int k = 0, i, j, p, c, n, v, imm, term, best, bm, nc, sct
    cdef int a0, b0, lb, ub, maxing, tm, seen_private, ttmove
    cdef uint64_t legal, playable, h
    cdef uint64_t k0 = 0, k1 = 0, k2 = 0
    cdef TTEntry* bucket = NULL
    cdef TTEntry* e
    cdef int* mv
    cdef int sc[LAYOUT_MAX_MOVES]
    x.nodes += 1
    for i in range(4):
        if x.cnt[i] and (x.score_mask >> i) & 1:
            k += 1
    if k == 0:
        return 0
    # the k scoring seats still in take k of the places nout..3
    lb = k * (k + 1) // 2
    ub = k * (4 - x.nout) - k * (k - 1) // 2
    if lb == ub or ub <= alpha:
        return ub
    if lb >= beta:
        return lb

    legal = legal_mask(x)
    p = mover(x, legal)
    nc = x.cnt[0] + x.cnt[1] + x.cnt[2] + x.cnt[3]

    # transposition table probe (the key normalises forced passes away)
    ttmove = -1
    e = NULL
    if nc >= MIN_TT_CARDS:
        k0 = (x.hand[0] | x.hand[1] | x.hand[2] | x.hand[3]) | <uint64_t>p
        k1 = x.hand[1] | x.hand[3]
        k2 = x.hand[2] | x.hand[3]
        h = mix(k0, k1, k2)
        bucket = x.tt + 2 * (h & x.bucket_mask)
        for j in range(2):
            if bucket[j].gen == x.gen and bucket[j].k0 == k0 and bucket[j].k1 == k1 \
                    and bucket[j].k2 == k2:
                e = &bucket[j]
                break
        if e != NULL:
            if e.lower >= beta or e.lower == e.upper:
                return e.lower
            if e.upper <= alpha:
                return e.upper
            if e.lower > lb:
                lb = e.lower
            if e.upper < ub:
                ub = e.upper
            ttmove = e.best
    if lb > alpha:
        alpha = lb
    if ub < beta:
        beta = ub
    a0 = alpha
    b0 = beta

    # move list: one private card at most, ordered by table move then heuristic
    mv = x.moves[depth]
    n = 0
    seen_private = 0
    playable = x.hand[p] & legal
    while playable:
        c = lowest_bit(playable)
        playable &= playable - 1
        if is_private(x, p, c):
            if seen_private:
                continue
            seen_private = 1
            sct = 4
        else:
            sct = open_score(x, p, c)
        if c == ttmove:
            sct = 100
        i = n
        while i > 0 and sc[i - 1] < sct:
            sc[i] = sc[i - 1]
            mv[i] = mv[i - 1]
            i -= 1
        sc[i] = sct
        mv[i] = c
        n += 1

    maxing = (x.score_mask >> p) & 1
    best = -INF if maxing else INF
    bm = -1
    tm = x.to_move
    for i in range(n):
        c = mv[i]
        imm = play(x, p, c, &term)
        if term:
            v = imm
        else:
            v = imm + search(x, depth + 1, alpha - imm, beta - imm)
        unplay(x, p, c, tm)
        if maxing:
            if v > best:
                best = v
                bm = c
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        else:
            if v < best:
                best = v
                bm = c
                if best < beta:
                    beta = best
                    if alpha >= beta:
                        break

    if nc >= MIN_TT_CARDS:
        # re-probe: the entry may have been replaced during the subtree
        e = NULL
        for j in range(2):
            if bucket[j].gen == x.gen and bucket[j].k0 == k0 and bucket[j].k1 == k1 \
                    and bucket[j].k2 == k2:
                e = &bucket[j]
                break
        if e == NULL:
            if bucket[0].gen != x.gen or nc >= bucket[0].ncards:
                e = &bucket[0]
                if bucket[0].gen == x.gen:
                    bucket[1] = bucket[0]   # keep the displaced one in the always-replace slot
            else:
                e = &bucket[1]
            e.k0 = k0
            e.k1 = k1
            e.k2 = k2
            e.gen = x.gen
            e.ncards = <uint8_t>nc
            e.lower = <int8_t>(k * (k + 1) // 2)
            e.upper = <int8_t>(k * (4 - x.nout) - k * (k - 1) // 2)
            e.best = -1
        if best <= a0:
            if best < e.upper:
                e.upper = <int8_t>best
        elif best >= b0:
            if best > e.lower:
                e.lower = <int8_t>best
        else:
            e.lower = <int8_t>best
            e.upper = <int8_t>best
        if e.lower > e.upper:           # cannot happen with correct bounds
            e.lower = e.upper
        e.best = <int8_t>bm
    return best


cdef int exact(LayoutCtx* x, int depth) noexcept nogil:
    """Exact future value by null-window tests: bisection over [lower, upper]."""
    cdef int lower = 0, upper = 10, beta, v
    while lower < upper:
        beta = (lower + upper + 1) // 2
        v = search(x, depth, beta - 1, beta)
        if v >= beta:
            lower = v
        else:
            upper = v
    return lower


cdef int root_values(LayoutCtx* x, int* cards, int* values) noexcept nogil:
    """Exact value of every action of the seat to move; returns the count.

    A seat holding no legal card has the single action LAYOUT_PASS.  Private
    cards (see ``is_private``) share the value computed for the first one."""
    cdef uint64_t legal = legal_mask(x), playable
    cdef int p = x.to_move, n = 0, c, imm, term, tm = x.to_move, priv_val = -1
    playable = x.hand[p] & legal
    if playable == 0:
        cards[0] = LAYOUT_PASS
        values[0] = exact(x, 0)
        return 1
    while playable:
        c = lowest_bit(playable)
        playable &= playable - 1
        cards[n] = c
        if priv_val >= 0 and is_private(x, p, c):
            values[n] = priv_val
        else:
            imm = play(x, p, c, &term)
            values[n] = imm if term else imm + exact(x, 1)
            unplay(x, p, c, tm)
            if is_private(x, p, c):
                priv_val = values[n]
        n += 1
    return n


cdef class LayoutSolver:
    """Owns the transposition table (allocated once, never grown) and the
    search context; ``solve`` may be called any number of times."""
    cdef void* raw
    cdef LayoutCtx ctx
    cdef readonly size_t tt_bytes
    cdef readonly uint64_t tt_entries

    def __cinit__(self, size_t tt_bytes):
        cdef uint64_t nbuckets = 1
        while nbuckets * 2 * 64 <= tt_bytes:
            nbuckets *= 2
        self.raw = calloc(nbuckets * 64 + 64, 1)
        if self.raw == NULL:
            raise MemoryError(f"cannot allocate a {tt_bytes}-byte transposition table")
        memset(&self.ctx, 0, sizeof(LayoutCtx))
        self.ctx.tt = <TTEntry*>((<uintptr_t>self.raw + 63) & ~(<uintptr_t>63))
        self.ctx.bucket_mask = nbuckets - 1
        self.ctx.gen = 0
        self.tt_bytes = nbuckets * 64
        self.tt_entries = nbuckets * 2

    def __dealloc__(self):
        if self.raw != NULL:
            free(self.raw)

    def solve(self, hands, lo, hi, int to_move, int nout, int score_mask):
        """Exact values of a validated position (see solver/dd/layout.py).

        Returns ``(value, [(action, value), ...], nodes)`` in future units
        of 50 points; the actions are the legal cards ascending, or
        ``[(PASS, value)]``."""
        cdef LayoutCtx* x = &self.ctx
        cdef int cards[LAYOUT_MAX_MOVES]
        cdef int values[LAYOUT_MAX_MOVES]
        cdef int n, i, best
        for i in range(4):
            x.hand[i] = hands[i]
            x.cnt[i] = popcount(x.hand[i])
            x.lo[i] = lo[i]
            x.hi[i] = hi[i]
        x.to_move = to_move
        x.nout = nout
        x.score_mask = score_mask
        x.nodes = 0
        if x.gen == 255:
            memset(x.tt, 0, self.tt_bytes)
            x.gen = 0
        x.gen += 1
        with nogil:
            n = root_values(x, cards, values)
        best = values[0]
        for i in range(1, n):
            if (score_mask >> to_move) & 1:
                best = max(best, values[i])
            else:
                best = min(best, values[i])
        return best, [(cards[i], values[i]) for i in range(n)], x.nodes
