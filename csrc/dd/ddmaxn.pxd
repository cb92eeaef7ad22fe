# The max^n value of the generic double-dummy kernel (header only:
# cimported at compile time, no runtime module; issue #40): in a game of
# individual seats (trix, tricks without partners) every seat plays for
# its own points, where the paranoid search (csrc/dd/ddsearch.pxd) makes
# the other seats one side against the seat asked.
#
# The value of a position is a vector, each seat's future points, found by
# backward induction: the seat to play takes the child best for itself,
# ties broken by a stated total order (``maxn_better``): its own points,
# then the LEAST for the root seat (the seat whose value is asked: ties go
# against it), then the least for each other seat in the order of play
# after the mover.  Every child's vector is needed exactly (a vector has
# no window to prune against), so the search is exhaustive but for the
# table (exact vectors at trick boundaries, keyed as the paranoid table's
# exact keys with the scoring and the root mixed in), equivalent cards
# searched once, and the settled ends: no points left for anyone, the last
# trick played out directly.  Its cost therefore grows with the cards left
# much faster than the paranoid search's; the facade (solver/dd/session.py,
# ``Solver.solve_maxn``) runs it under a node bound.
from libc.stdint cimport uint64_t, uint32_t, uint8_t, uint16_t, int8_t, int32_t
from bits cimport popcount, highest_bit, lowest_bit, trick_winner_c
from interrupt cimport signal_raised, INTERRUPT_MASK
from trickstate cimport RuleTable, TrickState, legal_mask, between_bits, interchangeable, mix64
from trickstate cimport MAX_SEATS, NO_CARD
from ttable cimport TTEntry
from ddctx cimport DDCtx, BUCKET, play, unplay, finish_trick, unfinish_trick, partner_pips
from ddtable cimport hash_key


ctypedef struct MEntry:
    # a max^n table entry: the size of a TTEntry, its generation at the
    # same place (the same memory: another layout's entries of an older
    # generation stay invisible)
    uint64_t check
    int8_t v[4]             # each seat's future points
    uint8_t depth           # tricks left: the replacement priority
    uint8_t used
    uint16_t gen


cdef inline bint maxn_better(DDCtx* K, int mover, int* a, int* b) noexcept nogil:
    """Whether the mover prefers the vector ``a`` to ``b``: its own points,
    then the fewer for the root seat, then the fewer for each other seat in
    the order of play after the mover."""
    cdef int R = K.mx.root, j, i
    if a[mover] != b[mover]:
        return a[mover] > b[mover]
    if mover != R and a[R] != b[R]:
        return a[R] < b[R]
    j = mover
    for i in range(K.R.nseats - 1):
        j = K.R.next_seat[j]
        if j != R and a[j] != b[j]:
            return a[j] < b[j]
    return 0


cdef inline void maxn_trick(DDCtx* K, int* out) noexcept nogil:
    """The points of the complete trick on the table, per seat (the last
    trick's points included when it is the last)."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int n = R.nseats, i, c, w = S.leader, off
    for i in range(n):
        out[i] = 0
    off = trick_winner_c(S.trick, n, R.trump, R.suit_of, R.strength)
    for i in range(off):
        w = R.next_seat[w]
    out[w] += K.mx.trick_pts
    if S.tricks_left == 1:
        out[w] += K.mx.last_pts
    for i in range(n):
        c = S.trick[i]
        if not (K.mx.pts_mask >> c) & 1:
            continue
        if K.mx.rev[c] < 0:
            out[w] += K.mx.taker[c]
        elif K.mx.rev[c] == w:
            out[w] += K.mx.self_pts[c]
        else:
            out[w] += K.mx.taker[c]
            out[K.mx.rev[c]] += K.mx.rev_pts[c]


cdef inline MEntry* maxn_probe(DDCtx* K, uint64_t* check) noexcept nogil:
    """The table's entry of this trick boundary, or NULL (``check`` set
    for the store)."""
    cdef uint64_t h1, h2
    cdef MEntry* b
    cdef int i
    hash_key(K, &h1, &h2)
    h1 = mix64(h1 ^ K.mx.salt)
    h2 = mix64(h2 + K.mx.salt)
    if h2 == 0:
        h2 = 1
    check[0] = h2
    b = <MEntry*> &K.tt[(h1 & K.tt_mask) * BUCKET]
    for i in range(BUCKET):
        if b[i].used and b[i].gen == K.gen and b[i].check == h2:
            return &b[i]
    return NULL


cdef inline void maxn_store(DDCtx* K, uint64_t check, int* v) noexcept nogil:
    cdef uint64_t h1, h2
    cdef MEntry* b
    cdef MEntry* victim = NULL
    cdef int i
    hash_key(K, &h1, &h2)
    h1 = mix64(h1 ^ K.mx.salt)
    b = <MEntry*> &K.tt[(h1 & K.tt_mask) * BUCKET]
    for i in range(BUCKET):
        if not b[i].used or b[i].gen != K.gen:
            victim = &b[i]
            break
        if victim == NULL or b[i].depth < victim.depth:
            victim = &b[i]
    victim.check = check
    for i in range(K.R.nseats):
        victim.v[i] = <int8_t>v[i]
    victim.gen = K.gen
    victim.depth = <uint8_t>K.S.tricks_left
    victim.used = 1


cdef inline int maxn_classes(DDCtx* K, int seat, uint64_t legal, uint8_t* out) noexcept nogil:
    """One card per class of equivalent cards (adjacent in strength once
    played cards are removed, the same scoring class): they give the same
    vector, whoever is asked."""
    cdef RuleTable* R = &K.R
    cdef uint64_t ls = 0, m = legal
    cdef int s, c, prev = -1, n = 0
    cdef uint32_t partners = partner_pips(K, seat)
    while m:
        c = lowest_bit(m)
        m &= m - 1
        ls |= (<uint64_t>1) << R.slot[c]
    while ls:
        s = highest_bit(ls)
        ls ^= (<uint64_t>1) << s
        c = R.card_at[s]
        if not (prev >= 0 and (prev >> 4) == (s >> 4)
                and (K.S.rem_slot & between_bits(prev, s)) == 0
                and interchangeable(R, c, R.card_at[prev], partners)):
            out[n] = c
            n += 1
        prev = s
    return n


cdef inline void maxn(DDCtx* K, int ply, int* out) noexcept nogil:
    """Each seat's future points under max^n play (the trick in progress
    included), in ``out``; every entry 0 when the search stopped at its
    node limit (``aborted``)."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int n = S.ncards, ns = R.nseats, seat, nm, i, j, card
    cdef int best[MAX_SEATS]
    cdef int child[MAX_SEATS]
    cdef int tv[MAX_SEATS]
    cdef int saved[MAX_SEATS]
    cdef int saved_leader, saved_max
    cdef uint64_t check = 0, all_cards = 0
    cdef MEntry* e
    cdef bint first = 1
    for i in range(ns):
        out[i] = 0
    if K.aborted:
        return
    K.nodes += 1
    if K.node_limit and K.nodes > K.node_limit:
        K.aborted = True
        return
    if (K.nodes & INTERRUPT_MASK) == 0 and signal_raised():
        K.aborted = True
        K.interrupted = True
        return
    if n == 0:
        if S.tricks_left == 0:
            return
        for i in range(ns):
            all_cards |= S.hands[i]
        if (all_cards & K.mx.pts_mask) == 0 and K.mx.trick_pts == 0 and K.mx.last_pts == 0:
            return          # no points left for anyone
        e = maxn_probe(K, &check)
        if e != NULL:
            for i in range(ns):
                out[i] = e.v[i]
            return
    seat = (S.leader + n) % ns
    nm = maxn_classes(K, seat, legal_mask(R, S, seat), K.moves[ply])
    for i in range(nm):
        card = K.moves[ply][i]
        play(K, seat, card)
        if S.ncards == ns:
            maxn_trick(K, tv)
            saved_leader = S.leader
            saved_max = S.max_tricks
            for j in range(ns):
                saved[j] = S.trick[j]
            finish_trick(K)
            maxn(K, ply + 1, child)
            unfinish_trick(K, saved, ns, saved_leader, saved_max)
            for j in range(ns):
                child[j] += tv[j]
        else:
            maxn(K, ply + 1, child)
        unplay(K, seat, card)
        if K.aborted:
            return
        if first or maxn_better(K, seat, child, best):
            for j in range(ns):
                best[j] = child[j]
            first = 0
    for i in range(ns):
        out[i] = best[i]
    if n == 0:
        maxn_store(K, check, out)
