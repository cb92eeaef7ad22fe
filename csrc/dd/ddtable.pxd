# The transposition table of the generic double-dummy kernel (header only:
# cimported at compile time, no runtime module): the keys of a trick
# boundary, the exact-key table (csrc/include/ttable.pxd) and, for four
# seats with relative keys, the winning-ranks table after DDS (the
# distribution lists and the exact-key half beside them).
#
# ``table_key`` / ``table_probe`` / ``table_record`` are what the search
# calls: the key fills a ``TTSlot`` (the keys and buckets of the node) and
# prefetches their memory, the probe either settles the window or leaves
# the best move it knows, and the record writes the node's result through
# the same slot.
from libc.stdint cimport uint64_t, uint32_t, uint8_t, uint16_t, int16_t, int32_t
from ttable cimport TTEntry, tt_find, tt_store
from bits cimport popcount, highest_bit, lowest_bit
from trickstate cimport RuleTable, TrickState, WEntry, mix64, MAX_SEATS, NO_CARD
from ddctx cimport DDCtx, BUCKET, XBUCKET, WBUCKET, WHEAD, INF, most_range

cdef extern from *:
    void prefetch "__builtin_prefetch" (const void* p) nogil


ctypedef struct TTSlot:
    # where a trick-boundary node's entry lives (filled by table_key)
    TTEntry* bucket          # exact-key table
    char* wbucket            # winning ranks: the distribution's list
    WEntry* xbucket          # winning ranks: the exact-key half
    uint64_t h2              # the check of the key
    uint64_t x2              # winning ranks: the exact key's check
    uint32_t pat[4]          # winning ranks: the owners of each suit's cards from the top


cdef inline void init_levmask(uint16_t* levmask) noexcept nogil:
    """``levmask[levels]``: the tag bits an entry keys, from its levels
    byte (two bits a suit: 0, 1 or 2 top cards keyed -> none, the top
    owner's or both top owners' bits of the suit's nibble)."""
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
        levmask[lev] = m


cdef inline void hash_key(DDCtx* K, uint64_t* h1, uint64_t* h2) noexcept nogil:
    """Two independent 64-bit hashes of the trick-boundary key."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef uint64_t words[MAX_SEATS]
    cdef uint64_t a, b, rem, bit, w
    cdef int i, s, k, c
    cdef uint64_t extra = <uint64_t>S.leader
    if S.ncards == 1:
        extra |= (<uint64_t>(S.trick[0] + 1)) << 16
    if R.use_most:
        extra |= (<uint64_t>most_range(K, &i, &k)) << 8
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
    a = <uint64_t>0x9e3779b97f4a7c15 ^ extra ^ K.rules_key
    b = (<uint64_t>0xd1b54a32d192ed03 ^ (extra * <uint64_t>0x2545f4914f6cdd1d)
         ^ mix64(K.rules_key))
    for i in range(R.nseats):
        w = words[i]
        a = mix64(a ^ w)
        b = mix64(b + w * <uint64_t>0xff51afd7ed558ccd + <uint64_t>i)
    if b == 0:
        b = 1
    h1[0] = a
    h2[0] = b


cdef inline void wkey(DDCtx* K, uint64_t* h1, uint64_t* h2, uint32_t* pat) noexcept nogil:
    """Winning-ranks key of a trick boundary (4 seats, slot == card):
    the hand lengths per suit, the leader, the key extras and the
    class of every penalty card by its place in its hand hash to ``h1``
    (bucket) and ``h2`` (check); ``pat[s]``: the owners of suit ``s``'s
    cards from the top, two bits each, top-aligned."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef uint64_t A = S.hands[1] | S.hands[3]
    cdef uint64_t B = S.hands[2] | S.hands[3]
    cdef uint64_t rem = S.hands[0] | A | S.hands[2]
    cdef uint64_t lens = 0, extra = <uint64_t>S.leader, m, rs, bit
    cdef uint32_t p
    cdef int s, h, c, nc
    if R.use_most:
        extra |= (<uint64_t>most_range(K, &s, &h)) << 8
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
        m = K.pinned & S.hands[h]
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
    # the rule table's fingerprint: entries of other rules are never found
    extra = mix64(extra ^ K.rules_key)
    h1[0] = mix64(lens ^ mix64(extra ^ <uint64_t>0x9e3779b97f4a7c15))
    h2[0] = mix64((lens + <uint64_t>0xd1b54a32d192ed03) * <uint64_t>0xff51afd7ed558ccd
                  ^ mix64(extra + <uint64_t>0x2545f4914f6cdd1d))
    if h2[0] == 0:
        h2[0] = 1


cdef inline int wprobe(DDCtx* K, char* bucket, uint64_t h2, uint32_t* pat, int alpha, int beta,
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
    if head[0] != K.gen:
        return INF
    count = head[1]
    for i in range(count):
        # the tag: 8 check bits, the entry's levels, the owners of the
        # top two cards of each suit: most misses end here
        t = tags[i]
        if ((q ^ t) & (<uint32_t>0xFF000000 | K.levmask[(t >> 16) & 0xFF])) != 0:
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
            K.wr[ply] = entry_ranks(K, e)
            if e.lo >= beta:
                return e.lo
            if e.hi <= alpha:
                return e.hi
            return e.lo
        if ttmove[0] == NO_CARD:
            ttmove[0] = e.move
    return INF


cdef inline uint64_t entry_ranks(DDCtx* K, WEntry* e) noexcept nogil:
    """The lowest keyed card of each suit of an entry, in the current
    position."""
    cdef TrickState* S = &K.S
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


cdef inline void wstore(DDCtx* K, char* bucket, WEntry* xbucket, uint64_t h2, uint64_t x2,
                 uint32_t* pat, uint64_t wins, int best,
                 int alpha0, int beta0, int bestmove) noexcept nogil:
    """Store a bound keyed by the owners of every card from the lowest
    deciding card of each suit up (penalty cards always included)."""
    cdef TrickState* S = &K.S
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
        if e.gen == K.gen and e.check == x2:
            victim = e
            break
        if victim == NULL or e.gen != K.gen or (victim.gen == K.gen
                                                   and e.depth < victim.depth):
            victim = e
    if victim.gen == K.gen and victim.check == x2:
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
        victim.gen = K.gen
    # the distribution list: merge with the same key, else append, else
    # replace in turn (the oldest first)
    if head[0] != K.gen:
        head[0] = K.gen
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
    victim.gen = K.gen


cdef inline void store(DDCtx* K, TTEntry* bucket, uint64_t h2, int best, int alpha0, int beta0,
                       int bestmove) noexcept nogil:
    """Record what ``best`` proves for the ORIGINAL window (alpha0,
    beta0) (csrc/include/ttable.pxd); depth = tricks left."""
    tt_store(bucket, BUCKET, K.gen, h2, best, alpha0, beta0, bestmove,
             K.S.tricks_left, NO_CARD)


cdef inline void table_key(DDCtx* K, TTSlot* slot) noexcept nogil:
    """The keys and buckets of a trick-boundary node (the card led too,
    two seats with exact keys) into ``slot``, and their memory prefetched:
    the search computes them before the bounds, so that the cache lines
    are on their way while the bounds work (bridge full deals, issue #40:
    the same nodes, the median per-deal time ratio to DDS 7-11% lower on
    6 deals; docs/solver.md)."""
    cdef uint64_t h1 = 0, x1
    if K.wmode:
        wkey(K, &h1, &slot.h2, slot.pat)
        slot.wbucket = K.wtt + (((h1 >> 32) * K.wt_count) >> 32) * (
            WHEAD + WBUCKET * sizeof(WEntry))
        x1 = mix64(slot.h2 ^ (<uint64_t>slot.pat[0] | (<uint64_t>slot.pat[1] << 32)))
        slot.x2 = mix64(x1 ^ (<uint64_t>slot.pat[2] | (<uint64_t>slot.pat[3] << 32))
                        ^ <uint64_t>0x632be59bd9b4e019)
        x1 = mix64(slot.x2 + h1)
        if slot.x2 == 0:
            slot.x2 = 1
        slot.xbucket = &K.xtt[(x1 & K.xt_mask) * XBUCKET]
        prefetch(slot.wbucket)
        prefetch(slot.wbucket + 64)
        prefetch(slot.wbucket + 128)
        prefetch(slot.xbucket)
        prefetch((<char*>slot.xbucket) + 64)
        return
    hash_key(K, &h1, &slot.h2)
    slot.bucket = &K.tt[(h1 & K.tt_mask) * BUCKET]
    prefetch(slot.bucket)


cdef inline int table_probe(DDCtx* K, TTSlot* slot, int alpha, int beta, int ply,
                            int* ttmove) noexcept nogil:
    """Look up the node whose keys ``table_key`` put in ``slot``.  Returns
    a bound that settles the window (alpha, beta) (``wr[ply]`` then holds
    the entry's deciding cards), else INF, with ``ttmove`` set to the best
    card an entry knows.  ``slot`` keeps the keys for ``table_record``."""
    cdef WEntry* we
    cdef TTEntry* e
    cdef int i, v
    if K.wmode:
        # the distribution's list of winning-ranks entries first (the
        # most general bounds), then the exact key
        v = wprobe(K, slot.wbucket, slot.h2, slot.pat, alpha, beta, ttmove, ply)
        if v != INF:
            return v
        for i in range(XBUCKET):
            we = &slot.xbucket[i]
            if we.gen == K.gen and we.check == slot.x2:
                if we.lo >= beta or we.hi <= alpha or we.lo == we.hi:
                    K.wr[ply] = entry_ranks(K, we)
                    if we.lo >= beta:
                        return we.lo
                    if we.hi <= alpha:
                        return we.hi
                    return we.lo
                if ttmove[0] == NO_CARD:
                    ttmove[0] = we.move
                break
        return INF
    e = tt_find(slot.bucket, BUCKET, K.gen, slot.h2)
    if e != NULL:
        if e.lo >= beta:
            return e.lo
        if e.hi <= alpha:
            return e.hi
        if e.lo == e.hi:
            return e.lo
        ttmove[0] = e.move
    return INF


cdef inline void table_record(DDCtx* K, TTSlot* slot, int best, int alpha0, int beta0,
                              int bestmove, int ply) noexcept nogil:
    """Store the node's fail-soft result for its original window under the
    keys ``table_key`` left in ``slot`` (winning ranks: keyed by the
    cards in ``wr[ply]``)."""
    if K.wmode:
        wstore(K, slot.wbucket, slot.xbucket, slot.h2, slot.x2, slot.pat, K.wr[ply], best,
               alpha0, beta0, bestmove)
    else:
        store(K, slot.bucket, slot.h2, best, alpha0, beta0, bestmove)
