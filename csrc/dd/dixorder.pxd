# The dix solver's move generation and ordering (header only: cimported at
# compile time, no runtime module): classes of equivalent cards, the
# leader's and the follower's order, the root's classes.
from libc.stdint cimport uint64_t, uint8_t, int32_t
from bits cimport highest_bit, lowest_bit
from bits cimport popcount
from ddstats cimport DIX_ORD_FEW_REPLIES
from dixctx cimport DixCtx, INF, MAXMOVES, NO_CARD, live, trick_for_leader, dix_order


cdef inline int classes(DixCtx* D, uint64_t legal, uint64_t sep, uint64_t livem,
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
        role = D.pip[c] if (livem >> c) & 1 else 11
        if rep[role] < 0:
            rep[role] = n
            out[n] = <uint8_t>c
            n += 1
        if cls_of != NULL:
            cls_of[c] = rep[role]
    return n


cdef inline void order_lead(DixCtx* D, int me, uint8_t* cls, int n, int ply, int ttmove,
                     uint64_t livem) noexcept nogil:
    """``moves[ply]``: the leads of ``cls`` best first: the table's card,
    then the trick's value after the follower's best immediate reply,
    then (``DIX_ORD_FEW_REPLIES``) the leads the follower has the fewest
    legal replies to (a smaller subtree first: 19% fewer nodes from trick
    14), then live cards (``livem``: their pips can make ten) before dead
    ones, high before low, then the history of cut-offs."""
    cdef uint64_t opp = D.hands[1 - me], f
    cdef int i, j, c, r, v, worst, sc
    cdef uint8_t* mv = D.moves[ply]
    cdef int32_t* scv = D.scores[ply]
    cdef int32_t* h = D.hist[me]
    for i in range(n):
        c = cls[i]
        f = opp & D.suitm[c >> 4]
        if f == 0:
            f = opp
        worst = INF
        while f:
            r = lowest_bit(f)
            f &= f - 1
            v = trick_for_leader(D, c, r)
            if v < worst:
                worst = v
        sc = (worst * 64 + (c & 15) + ((livem >> c) & 1) * 16) * 1024 + h[c]
        if dix_order(D) & DIX_ORD_FEW_REPLIES:
            # one trick-value step is 64 x 256: far above 13 replies x 32
            f = opp & D.suitm[c >> 4]
            sc -= popcount(f if f else opp) * 32 * 1024
        if c == ttmove:
            sc = 2000000000
        j = i
        while j > 0 and scv[j - 1] < sc:
            mv[j] = mv[j - 1]
            scv[j] = scv[j - 1]
            j -= 1
        mv[j] = <uint8_t>c
        scv[j] = sc


cdef inline void order_follow(DixCtx* D, int me, int L, uint8_t* cls, int n, int ply,
                       int ttmove, uint64_t livem) noexcept nogil:
    """``moves[ply]``: the replies best first: the table's card, then
    the exact value of the trick, live cards before dead ones, the
    cheapest card among equals, then the history of cut-offs."""
    cdef int i, j, c, sc
    cdef uint8_t* mv = D.moves[ply]
    cdef int32_t* scv = D.scores[ply]
    cdef int32_t* h = D.hist[me]
    for i in range(n):
        c = cls[i]
        sc = (-trick_for_leader(D, L, c) * 64 + 16 - (c & 15)
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


cdef inline int root_classes(DixCtx* D, int me, uint64_t legal, int L, uint8_t* reps,
                      int* rep_of) noexcept nogil:
    """Root classes, ordered like an inner node; ``rep_of[c]`` the
    index in ``reps`` of card ``c``'s representative."""
    cdef uint64_t mine = D.hands[me], theirs = D.hands[1 - me]
    cdef uint64_t tab = (<uint64_t>1) << L if L >= 0 else 0
    cdef uint64_t livem = live(D, mine, theirs | tab)
    cdef int n, i, j, c
    cdef uint64_t m
    cdef uint8_t cls[MAXMOVES]
    cdef int cls_of[64]
    cdef int ply = 0
    n = classes(D, legal, theirs | tab, livem, cls, cls_of)
    if L >= 0:
        order_follow(D, me, L, cls, n, ply, NO_CARD, livem)
    else:
        order_lead(D, me, cls, n, ply, NO_CARD, livem)
    for i in range(n):
        reps[i] = D.moves[ply][i]
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - 1
        for j in range(n):
            if reps[j] == cls[cls_of[c]]:
                rep_of[c] = j
                break
    return n

