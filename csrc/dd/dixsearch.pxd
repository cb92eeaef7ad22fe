# The dix solver's search (header only: cimported at compile time, no
# runtime module): negamax fail-soft alpha-beta in two functions, ``lead``
# (a trick boundary) and ``follow`` (a card on the table), the root's value
# of one card and its null-window driver (docs/solver.md, "The dix solver").
from libc.stdint cimport uint64_t, uint8_t
from bits cimport popcount, lowest_bit
from interrupt cimport signal_raised, INTERRUPT_MASK
from ttable cimport tt_find
from ddstats cimport DD_STATS, count_cut, stat_row
from dixctx cimport (DixCtx, Entry, BUCKET, INF, MAXMOVES, NO_CARD, WIN, TEN, DIFF, live,
                     beats, bump, follow_tt, driver, exact_k, trick_bounds)
from dixtable cimport key, store
from dixbounds cimport tens_possible, sure_tricks, sure_trumps
from dixorder cimport classes, order_lead, order_follow

cdef extern from *:
    void prefetch "__builtin_prefetch" (const void* p) nogil


cdef inline int last_trick(DixCtx* D, int me) noexcept nogil:
    """One card each, ``me`` leads: the leader's value, directly."""
    cdef int c = lowest_bit(D.hands[me]), r = lowest_bit(D.hands[1 - me])
    cdef int t = (-TEN if D.pip[c] + D.pip[r] == 10 else WIN) + 1
    return -t if beats(D, c, r) else t


cdef inline int diff_band(DixCtx* D, int v) noexcept nogil:
    """The score difference of a value (round to the nearest DIFF)."""
    if v >= 0:
        return (v + DIFF // 2) // DIFF
    return -((-v + DIFF // 2 - 1) // DIFF)


cdef inline int lead(DixCtx* D, int me, int alpha, int beta, int ply) noexcept nogil:
    """Fail-soft: the leader ``me``'s future value if in (alpha, beta),
    else a bound on the side it fell."""
    cdef uint64_t mine = D.hands[me], theirs = D.hands[1 - me]
    cdef int k, t, ub, lb, q, i, n, c, v, best, bm = NO_CARD, ttmove = NO_CARD
    cdef int alpha0 = alpha, beta0 = beta
    cdef uint64_t h1, h2, bit, livem
    cdef Entry* bucket
    cdef Entry* e
    cdef uint8_t cls[MAXMOVES]
    D.nodes += 1
    if D.nodes > D.max_nodes:
        D.aborted = 1
        return 0
    if (D.nodes & INTERRUPT_MASK) == 0 and signal_raised():
        D.aborted = 1
        D.interrupted = 1
        return 0
    k = popcount(mine)
    if DD_STATS:
        D.st.profile[stat_row(k)][0] += 1
    if k == 1:
        return last_trick(D, me)
    # the key first: the bucket is fetched from memory during the bounds
    key(D, mine, theirs, -1, &h1, &h2)
    bucket = &D.tt[(h1 & D.tt_mask) * BUCKET]
    prefetch(bucket)
    t = tens_possible(D, mine, theirs, k)
    ub = k * WIN + t * (TEN - WIN) + 1
    lb = -ub
    if (trick_bounds(D) & 1) and t < k and D.trump >= 0:
        # the other hand wins at least qo tricks (its trumps above all
        # of the mover's win whenever played), at most t ten-tricks fall
        q = sure_trumps(D, theirs, mine)
        if q > t:
            v = (k - 2 * q) * WIN + t * (TEN + WIN) + 1
            if v < ub:
                ub = v
                if ub <= alpha:
                    if DD_STATS:
                        D.st.bound_hits += 1
                    return ub
    if ub <= alpha:
        return ub
    if t == 0:
        q = sure_tricks(D, mine, theirs)
        if q >= k:
            return k * WIN + 1
        lb = (2 * q - k) * WIN - 1
    elif (trick_bounds(D) & 2) and t < k and k * WIN - t * (TEN + WIN) - 1 >= beta:
        # (the test above: the bound could reach beta at all)
        # the leader wins at least q tricks by cashing its top cards,
        # whatever the pips; at most t of all tricks are ten-tricks
        q = sure_tricks(D, mine, theirs)
        if q > t:
            v = (2 * q - k) * WIN - t * (TEN + WIN) - 1
            if v > lb:
                lb = v
                if lb >= beta:
                    if DD_STATS:
                        D.st.bound_hits += 1
                    return lb
    if lb >= beta:
        return lb
    e = tt_find(bucket, BUCKET, D.gen, h2)
    if e != NULL:
        if DD_STATS:
            if e.lo >= beta or e.hi <= alpha or e.lo == e.hi:
                D.st.table_hits[stat_row(k)] += 1
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
    if k <= exact_k(D):
        # small endings are solved exactly once (a full window), so the
        # table answers every later question about them
        alpha = -INF
        beta = INF
        alpha0 = -INF
        beta0 = INF
    livem = live(D, mine, theirs)
    n = classes(D, mine, theirs, livem, cls, NULL)
    order_lead(D, me, cls, n, ply, ttmove, livem)
    best = -INF
    for i in range(n):
        c = D.moves[ply][i]
        bit = (<uint64_t>1) << c
        D.hands[me] = mine ^ bit
        v = -follow(D, 1 - me, c, -beta, -alpha, ply + 1)
        D.hands[me] = mine
        if D.aborted:
            return 0
        if v > best:
            best = v
            bm = c
            if v > alpha:
                alpha = v
                if v >= beta:
                    bump(D, me, c, k)
                    if DD_STATS:
                        count_cut(&D.st.cut, 0, i)
                    break
    else:
        if DD_STATS:
            D.st.cut.all_nodes[0] += 1
    store(D, bucket, h2, best, alpha0, beta0, bm, 2 * k)
    return best


cdef inline int follow(DixCtx* D, int me, int L, int alpha, int beta, int ply) noexcept nogil:
    """Fail-soft: the follower ``me``'s future value (this trick
    included) after the other seat led slot ``L``."""
    cdef uint64_t mine = D.hands[me], theirs = D.hands[1 - me]
    cdef uint64_t legal, bit, livem, h1 = 0, h2 = 0
    cdef int k, i, n, c, v, t, best, bm = NO_CARD, ttmove = NO_CARD
    cdef int alpha0 = alpha, beta0 = beta
    cdef Entry* bucket = NULL
    cdef Entry* e
    cdef uint8_t cls[MAXMOVES]
    cdef bint use_tt
    D.nodes += 1
    if D.nodes > D.max_nodes:
        D.aborted = 1
        return 0
    if (D.nodes & INTERRUPT_MASK) == 0 and signal_raised():
        D.aborted = 1
        D.interrupted = 1
        return 0
    k = popcount(mine)
    if DD_STATS:
        D.st.profile[stat_row(k)][1] += 1
    if k == 1:
        c = lowest_bit(mine)
        t = (-TEN if D.pip[L] + D.pip[c] == 10 else WIN) + 1
        return t if beats(D, L, c) else -t
    legal = mine & D.suitm[L >> 4]
    if legal == 0:
        legal = mine
    use_tt = follow_tt(D) and k > 2
    if use_tt:
        key(D, mine, theirs, L, &h1, &h2)
        bucket = &D.tt[(h1 & D.tt_mask) * BUCKET]
        e = tt_find(bucket, BUCKET, D.gen, h2)
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
    livem = live(D, mine, theirs | ((<uint64_t>1) << L))
    n = classes(D, legal, theirs | ((<uint64_t>1) << L), livem, cls, NULL)
    order_follow(D, me, L, cls, n, ply, ttmove, livem)
    best = -INF
    for i in range(n):
        c = D.moves[ply][i]
        bit = (<uint64_t>1) << c
        t = -TEN if D.pip[L] + D.pip[c] == 10 else WIN
        D.hands[me] = mine ^ bit
        if beats(D, L, c):
            v = t + lead(D, me, alpha - t, beta - t, ply + 1)
        else:
            v = -t - lead(D, 1 - me, -beta - t, -alpha - t, ply + 1)
        D.hands[me] = mine
        if D.aborted:
            return 0
        if v > best:
            best = v
            bm = c
            if v > alpha:
                alpha = v
                if v >= beta:
                    bump(D, me, c, k)
                    if DD_STATS:
                        count_cut(&D.st.cut, 1, i)
                    break
    else:
        if DD_STATS:
            D.st.cut.all_nodes[1] += 1
    if use_tt:
        store(D, bucket, h2, best, alpha0, beta0, bm, 2 * k - 1)
    return best


cdef inline int child(DixCtx* D, int c, int alpha, int beta) noexcept nogil:
    """The mover's value of playing slot ``c`` at the root, fail-soft
    in (alpha, beta)."""
    cdef int me = D.root_seat, L = D.root_lead, t, v, k
    cdef uint64_t mine = D.hands[me]
    cdef uint64_t bit = (<uint64_t>1) << c
    if c == NO_CARD:        # the root position itself
        if L < 0:
            return lead(D, me, alpha, beta, 0)
        return follow(D, me, L, alpha, beta, 0)
    D.hands[me] = mine ^ bit
    if L < 0:
        v = -follow(D, 1 - me, c, -beta, -alpha, 1)
    else:
        k = popcount(mine)
        t = (-TEN if D.pip[L] + D.pip[c] == 10 else WIN) + (1 if k == 1 else 0)
        if k == 1:
            v = t if beats(D, L, c) else -t
        elif beats(D, L, c):
            v = t + lead(D, me, alpha - t, beta - t, 1)
        else:
            v = -t - lead(D, 1 - me, -beta - t, -alpha - t, 1)
    D.hands[me] = mine
    return v


cdef inline void narrow(int* bracket, int lo, int hi) noexcept nogil:
    """A finished question's proof: the value lies in [lo, hi) (half-open)."""
    if bracket != NULL:
        bracket[0] = lo
        bracket[1] = hi - 1


cdef inline int ask(DixCtx* D, int c, int beta, int* lo, int* hi, int* bracket) noexcept nogil:
    """One null-window question of ``mtd``: is card ``c``'s value at least
    ``beta``?  Narrows the half-open ``[lo, hi)`` (and ``bracket``) by its
    answer and returns the child's value; where the node limit stopped it,
    ``D.aborted`` is set and nothing is narrowed (it proved nothing)."""
    cdef int v = child(D, c, beta - 1, beta)
    if DD_STATS:
        D.st.questions += 1
    if D.aborted:
        return 0
    if v < beta:
        hi[0] = v + 1
    else:
        lo[0] = v
    narrow(bracket, lo[0], hi[0])
    return v


cdef inline int mtd(DixCtx* D, int c, int lo, int hi, int guess, int* bracket, bint tie,
                    int base) noexcept nogil:
    """The exact value of root card ``c`` in [lo, hi] by null-window
    questions.  Driver 1 first settles the score difference (questions
    on the borders between differences only), then the tie-breaks.
    ``bracket`` (NULL: not wanted): after every question that finished,
    the closed interval the value is proved to lie in.

    ``tie`` False (driver 1): the round's result only, which the
    tie-breaks decide only when the round's scores tie.  ``base`` is what
    the mover has already won (``DIFF * difference + 4 * (the other's
    tens - its own)``): once the future's difference is settled, a round
    whose total difference is not 0 is decided, and a tied one takes one
    question, whether the total is above 0 (who wins the round).  The
    value returned then stands for that result, not the exact value:
    ``DIFF * total difference + 1`` (the mover wins) or ``- 1``, less
    ``base``."""
    cdef int beta, g = guess, band, past, s
    cdef uint64_t n0
    hi += 1             # half-open [lo, hi)
    if driver(D) == 1:
        while True:
            # the value's difference band: v in [DIFF*d - 128, DIFF*d + 128)
            band = diff_band(D, lo)
            if band == diff_band(D, hi - 1):
                break
            # a border b = DIFF*d - 128 with lo < b < hi, nearest the guess
            beta = diff_band(D, g) * DIFF - DIFF // 2
            if beta <= lo:
                beta = (diff_band(D, lo) + 1) * DIFF - DIFF // 2
            if beta >= hi:
                beta = diff_band(D, hi - 1) * DIFF - DIFF // 2
            g = ask(D, c, beta, &lo, &hi, bracket)
            if D.aborted:
                return 0
        if not tie:
            # the past's tens are at most 26 a side, so the past's
            # difference is its band and the total's the sum of the bands
            past = diff_band(D, base)
            n0 = D.nodes
            if band + past != 0:
                s = 1 if band + past > 0 else -1
            else:
                # a value is never 0 in total: is it at least 1?
                beta = 1 - base
                if lo < beta < hi:
                    ask(D, c, beta, &lo, &hi, bracket)
                    if D.aborted:
                        return 0
                s = 1 if lo >= beta else -1
            if DD_STATS:
                D.st.tie_nodes += D.nodes - n0
            return DIFF * (band + past) + s - base
    n0 = D.nodes
    if lo <= guess < hi:
        g = guess
    while lo + 1 < hi:
        beta = g
        if beta <= lo:
            beta = lo + 1
        if beta >= hi:
            beta = hi - 1
        g = ask(D, c, beta, &lo, &hi, bracket)
        if D.aborted:
            return 0
    if DD_STATS:
        D.st.tie_nodes += D.nodes - n0
    return lo
