# The dix solver's table keys (header only: cimported at compile time, no
# runtime module): the key by runs of a position (docs/solver.md) and the
# store into the exact-key table of csrc/include/ttable.pxd.
from libc.stdint cimport uint64_t, uint32_t
from ttable cimport tt_store
from bits cimport popcount, lowest_bit
from trickstate cimport mix64
from dixctx cimport DixCtx, Entry, BUCKET, NO_CARD, pipset, live, relative_keys


cdef inline void key(DixCtx* D, uint64_t mine, uint64_t theirs, int L, uint64_t* h1,
              uint64_t* h2) noexcept nogil:
    """Two independent hashes of the position's key: the mover's hand,
    the other hand and the card on the table (``L`` >= 0 at a follow
    node) by runs (``run_key``), or as exact masks when
    ``relative_keys`` is off (for comparison)."""
    cdef uint64_t tab = (<uint64_t>1) << L if L >= 0 else 0
    cdef uint64_t lv, a, b
    if relative_keys(D):
        lv = live(D, mine, theirs | tab) | live(D, theirs | tab, mine)
        run_key(D, mine, theirs, tab, lv, h1, h2)
        return
    a = mix64(mine ^ <uint64_t>0x9e3779b97f4a7c15 ^ D.rules_key)
    a = mix64(a ^ theirs)
    a = mix64(a ^ tab)
    b = mix64(mine * <uint64_t>0xff51afd7ed558ccd + <uint64_t>0xd1b54a32d192ed03
              + D.rules_key)
    b = mix64(b + theirs * <uint64_t>0xc4ceb9fe1a85ec53)
    b = mix64(b + tab * <uint64_t>0x2545f4914f6cdd1d)
    if b == 0:
        b = 1
    h1[0] = a
    h2[0] = b


cdef inline void run_key(DixCtx* D, uint64_t mine, uint64_t theirs, uint64_t tab, uint64_t lv,
                  uint64_t* h1, uint64_t* h2) noexcept nogil:
    """The key by runs: per suit, from low to high, the maximal runs of
    cards of one owner (the mover, the other hand, the table), each as
    its owner, the set of live pips 1..10 in it, its number of live
    0-pip cards and of dead cards.  Within a run the ranks never matter
    (two seats: a hand's own cards never meet), nor dead pips."""
    cdef uint64_t a = <uint64_t>0x9e3779b97f4a7c15 ^ D.rules_key
    cdef uint64_t b = <uint64_t>0xd1b54a32d192ed03 + mix64(D.rules_key)
    cdef uint64_t acc = 0, own[3], sm, rest, run, other, lvr, nz
    cdef int suit, c, owner, o, nacc = 0, lmask, z, d, top
    cdef uint32_t desc
    for suit in range(4):
        sm = D.suitm[suit]
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
            nz = lvr & ~D.pipm[0]
            z = popcount(lvr) - popcount(nz)
            d = popcount(run) - popcount(lvr)
            lmask = <int>(pipset(D, nz) & 0x7FE)
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


cdef inline void store(DixCtx* D, Entry* bucket, uint64_t h2, int best, int alpha0, int beta0,
                       int move, int depth) noexcept nogil:
    """Record what ``best`` proves for the window (alpha0, beta0)."""
    tt_store(bucket, BUCKET, D.gen, h2, best, alpha0, beta0, move, depth, NO_CARD)

