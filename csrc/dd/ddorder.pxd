# Move generation and ordering of the generic double-dummy kernel (header
# only: cimported at compile time, no runtime module): one card per class
# of equivalent cards (adjacent in strength once played cards are removed,
# the same scoring class), best first.  The search (csrc/dd/ddsearch.pxd)
# calls ``order_moves`` at every node; the root's classes come from
# ``gen_moves``.
from libc.stdint cimport uint64_t, uint32_t, uint8_t, int32_t
from bits cimport popcount, highest_bit, lowest_bit, trick_winner_c
from trickstate cimport (RuleTable, TrickState, between_bits, interchangeable, MAX_SEATS,
                         NO_CARD)
from ddctx cimport (DDCtx, current_seat_c, partner_pips, trick_value, lead_value,
                    pair_value)


cdef inline int gen_moves(DDCtx* K, uint64_t legal, int ply, int* reps, int* rep_of) noexcept nogil:
    """Root move list: one representative per equivalence class,
    ``rep_of[card]`` = index of its representative in ``reps``."""
    cdef RuleTable* R = &K.R
    cdef uint64_t ls = 0
    cdef uint64_t m = legal
    cdef int s, c, prev = -1, n = 0
    cdef uint32_t partners = partner_pips(K, current_seat_c(K))
    while m:
        c = lowest_bit(m)
        m &= m - 1
        ls |= (<uint64_t>1) << R.slot[c]
    while ls:
        s = highest_bit(ls)
        ls ^= (<uint64_t>1) << s
        c = R.card_at[s]
        if (prev >= 0 and (prev >> 4) == (s >> 4)
                and (K.S.rem_slot & between_bits(prev, s)) == 0
                and interchangeable(R, c, R.card_at[prev], partners)):
            rep_of[c] = n - 1
        else:
            reps[n] = c
            rep_of[c] = n
            n += 1
        prev = s
    return n


cdef inline bint touching_below(DDCtx* K, int s, int seat) noexcept nogil:
    """Whether the next lower remaining card of slot ``s``'s suit is
    ``seat``'s own (``s`` heads a sequence)."""
    cdef uint64_t below = K.S.rem_slot & ((<uint64_t>1 << s) - 1) & (<uint64_t>0xFFFF << (s & 0x30))
    cdef int b
    if below == 0:
        return 0
    b = highest_bit(below)
    return (K.S.hands[seat] >> K.R.card_at[b]) & 1


cdef inline int order_moves(DDCtx* K, int seat, uint64_t legal, int ply, int ttmove) noexcept nogil:
    """Fill ``moves[ply]`` with one card per equivalence class, best
    first; returns their number.  Order: the table's move; for the last
    seat of a trick the exact trick value; otherwise simple trick
    heuristics; then the history of cut-offs."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef uint64_t ls = 0
    cdef uint64_t m = legal
    cdef uint64_t others = 0, mates = 0, smask
    cdef int s, c, prev = -1, n = 0, i, j, sc, wcard = -1, woff, top
    cdef int d, st
    cdef bint side = R.side[seat]
    cdef bint last = S.ncards == R.nseats - 1
    cdef bint my_side_winning = 0
    cdef bint want, beats
    cdef uint8_t* mv = K.moves[ply]
    cdef int32_t* scv = K.scores[ply]
    cdef int32_t* hist = K.history[seat]
    cdef uint32_t partners = partner_pips(K, seat)
    cdef uint64_t* runs = K.runs[ply]
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
            i = pair_value(K, S.leader, S.trick[0], c)
            sc = (i if side else -i) * 64 + 32 - st
            sc = sc * 1024
        elif last:
            i = trick_value(K, c)
            sc = (i if side else -i) * 64 + 32 - st
            sc = sc * 1024
        elif S.ncards == 0 and R.nseats == 2:
            # two seats: the trick's value after the follower's best reply
            i = lead_value(K, seat, c)
            sc = ((i if side else -i) * 64 + st) * 1024
        elif S.ncards == 0:
            # tricks worth nothing in themselves but not a risk (Rook:
            # count, the most-tricks bonus, the lead): the leader wants them
            want = d > 0 or (d == 0 and not K.penal)
            top = highest_bit(S.rem_slot & (<uint64_t>0xFFFF << (s & 0x30)))
            smask = R.suit_mask[R.suit_of[c]]
            # a card no other hand can beat in its suit is a winner
            if (others & smask) == 0 or top == s:
                sc = 300 + st if want else 100 - st
            elif want and (mates & ((<uint64_t>1) << R.card_at[top])):
                sc = 250 - st       # low towards a partner's winner
            elif want and touching_below(K, s, seat):
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
            if i == 0 and K.penal:
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

