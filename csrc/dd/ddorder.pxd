# Move generation and ordering of the generic double-dummy kernel (header
# only: cimported at compile time, no runtime module): one card per class
# of equivalent cards (adjacent in strength once played cards are removed,
# the same scoring class), best first.  The search (csrc/dd/ddsearch.pxd)
# calls ``order_moves`` at every node; the root's classes come from
# ``gen_moves``.
#
# Per seat position in the trick (after DDS's Moves.cpp, which weighs the
# leader's and each follower's situations apart): ``score_lead`` (the
# leader; partnerships that want tricks: ``lead_partnership``),
# ``score_follow`` (the second and third hand), ``score_last`` (the fourth:
# the exact trick value).  Then the killer (the last card that cut at the
# same ply) and the history of cut-offs.  docs/solver.md, "Move ordering",
# has the measurements of each rule (``ORD_*`` in csrc/dd/ddstats.pxd).
from libc.stdint cimport uint64_t, uint32_t, uint8_t, int32_t
from bits cimport popcount, highest_bit, lowest_bit, trick_winner_c
from trickstate cimport (RuleTable, TrickState, between_bits, interchangeable, MAX_SEATS,
                         NO_CARD)
from ddstats cimport (DD_STATS, ORDER_DEFAULT, ORD_SUIT_LENGTH, ORD_KILLER,
                     ORD_PARTNER_LEAD, ORD_FOLLOW_SURE, ORD_PENALTY_SHED)
from ddctx cimport (DDCtx, current_seat_c, partner_pips, trick_value, lead_value,
                    pair_value)


cdef inline int order_bits(DDCtx* K) noexcept nogil:
    """The move-ordering rules in use (csrc/dd/ddstats.pxd ``ORD_*``): all
    of them in the shipped kernel; the probe build can turn each off."""
    if DD_STATS:
        return K.st.order
    return ORDER_DEFAULT


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


cdef inline int owner_of(const TrickState* S, int card) noexcept nogil:
    """The seat holding ``card`` (4 seats), -1 if nobody does."""
    cdef int i
    for i in range(4):
        if (S.hands[i] >> card) & 1:
            return i
    return -1


cdef inline bint overtaken(DDCtx* K, int seat, int card) noexcept nogil:
    """Whether a seat of the other side playing after ``seat`` in this trick
    could beat ``card`` (the trick's winning card so far, or one
    ``seat`` plays): a higher card of ``card``'s suit when it holds that
    suit and ``card`` follows the lead, a trump when it is void in the led
    suit (an overruff when ``card`` is a trump)."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int led = R.suit_of[S.trick[0]] if S.ncards else R.suit_of[card]
    cdef int cs = R.suit_of[card], j = seat, i
    cdef uint64_t h
    cdef bint side = R.side[seat]
    for i in range(S.ncards + 1, R.nseats):
        j = R.next_seat[j]
        if R.side[j] == side:
            continue
        h = S.hands[j] & R.suit_mask[led]
        if h:
            if cs == led and highest_bit(h) > card:
                return 1
        elif R.trump >= 0:
            h = S.hands[j] & R.suit_mask[R.trump]
            if h and (cs != R.trump or highest_bit(h) > card):
                return 1
    return 0


cdef inline int lead_partnership(DDCtx* K, int L, int c, uint64_t run_below) noexcept nogil:
    """A lead's weight for a side of two partners that wants tricks, pure
    trick scoring (bridge; card index = strength slot): the lessons of
    DDS's leader ordering (its Moves.cpp), in our own weights.  Suits the
    opponents hold fewer cards of first (a void one can play any card: the
    most replies); then whether the side can win the trick with the suit's
    top cards, where the second-best card sits, the partner's holding, and
    leading toward the partner's honours.  ``run_below``: the leader's card
    just below ``c`` is its own (a sequence)."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int P = (L + 2) & 3, lho = (L + 1) & 3, rho = (L + 3) & 3
    cdef uint64_t sm = R.suit_mask[R.suit_of[c]]
    cdef uint64_t rem = (S.hands[0] | S.hands[1] | S.hands[2] | S.hands[3]) & sm
    cdef uint64_t lh = S.hands[lho] & sm, rh = S.hands[rho] & sm, ph = S.hands[P] & sm
    cdef int nl = popcount(lh), nr = popcount(rh), k = S.tricks_left
    cdef int top, second = -1, third = -1, wtop, w2 = -1, w3 = -1, rrank, w
    cdef uint64_t rest
    top = highest_bit(rem)
    rest = rem ^ ((<uint64_t>1) << top)
    if rest:
        second = highest_bit(rest)
        rest ^= (<uint64_t>1) << second
        if rest:
            third = highest_bit(rest)
    wtop = owner_of(S, top)
    if second >= 0:
        w2 = owner_of(S, second)
    if third >= 0:
        w3 = owner_of(S, third)
    rrank = popcount(rem & (((<uint64_t>1) << c) - 1))
    w = -(((nl if nl else k + 1) + (nr if nr else k + 1)) * 27) // 4
    if ph == 0:
        w -= 9
    if c == top or (ph and highest_bit(ph) > highest_bit(lh | rh | 1)):
        # the side wins this trick in the suit
        if w2 == rho and nr != 1:
            w -= 1
        elif w2 == lho:
            w += 22 if nl != 1 else 16
        if (w2 != lho or nl == 1) and (w2 != rho or nr == 1):
            w += 45 + rrank
        else:
            w += 18 + rrank
    else:
        if (wtop == rho or w2 == rho) and nr != 1:
            w -= 10
        elif wtop == lho and w2 == P and popcount(ph) != 1:
            w += 31
        if w2 == P and w3 == P:
            w += 35
        elif popcount(ph) > 1 and ((w2 == L and w3 == P) or (w2 == P and w3 == L)):
            w += 25
        if (nl == 1 and wtop == lho) or (nr == 1 and wtop == rho):
            w += 28 + rrank
        elif wtop == L:
            w += rrank - 17
        elif not run_below:
            w += 12 + rrank
        elif c == second:
            w += 48
        else:
            w += 29 - rrank
    return w


cdef inline int score_last(DDCtx* K, int seat, int c, int wcard, int bits) noexcept nogil:
    """The last seat of a trick: the exact value of the trick, then (equal
    values) the lowest card; in penalty contracts (``ORD_PENALTY_SHED``)
    the highest instead: a card that loses the trick could win a later
    one, and a seat that wins it anyway keeps its low cards."""
    cdef RuleTable* R = &K.R
    cdef int i, st = R.strength[c]
    cdef bint side = R.side[seat]
    if R.nseats == 2:
        i = pair_value(K, K.S.leader, K.S.trick[0], c)
    else:
        i = trick_value(K, c)
    if bits & ORD_PENALTY_SHED and K.penal:
        return (i if side else -i) * 64 + st
    return (i if side else -i) * 64 + 32 - st


cdef inline int score_lead(DDCtx* K, int seat, int c, int s, int d, uint64_t others,
                           uint64_t mates, int bits) noexcept nogil:
    """The leader (four or six seats): winners first when its side wants
    tricks, low towards a partner's winner, the top of a sequence, else
    low cards (the highest that does not win when tricks are not wanted);
    an opponent's ruff costs.  ``ORD_PARTNER_LEAD``: partnerships that
    want tricks use ``lead_partnership`` (card index = strength slot).
    ``ORD_SUIT_LENGTH``: suits the other side holds fewer cards of first (a
    void seat may play any card: the most replies to search)."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef bint side = R.side[seat]
    cdef bint want = d > 0 or (d == 0 and not K.penal)
    cdef int st = R.strength[c], sc, j, i, olen
    cdef int top = highest_bit(S.rem_slot & (<uint64_t>0xFFFF << (s & 0x30)))
    cdef uint64_t smask = R.suit_mask[R.suit_of[c]]
    if (bits & ORD_PARTNER_LEAD and K.sweep_ok and R.nseats == 4 and want
            and R.side[(seat + 2) & 3] == side):
        sc = lead_partnership(K, seat, c, touching_below(K, s, seat)) + 200
        if R.trump >= 0 and R.suit_of[c] != R.trump:
            for j in range(R.nseats):
                if (R.side[j] != side and (S.hands[j] & smask) == 0
                        and (S.hands[j] & R.suit_mask[R.trump])):
                    sc -= 12    # an opponent can ruff
                    break
        return sc
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
    if bits & ORD_SUIT_LENGTH:
        olen = 0
        for j in range(R.nseats):
            if R.side[j] != side:
                i = popcount(S.hands[j] & smask)
                olen += i if i else S.tricks_left + 1
        sc -= 6 * olen
    return sc


cdef inline int score_follow(DDCtx* K, int seat, int c, int wcard, int d,
                             bint my_side_winning, int bits) noexcept nogil:
    """The second and third hand (and the follower of six seats): when the
    trick is worth having, the cheapest card that beats the trick so far,
    else a low card; ``ORD_FOLLOW_SURE`` (card index = strength slot):
    duck while the side's card cannot be overtaken, win cheaply with a
    card that cannot be, then cards that beat the trick so far but may be
    overtaken.  When the trick is a risk (penalty contracts), the highest
    card that does not win it (``ORD_PENALTY_SHED``: when every card wins,
    the highest too).  A card that does not win the trick goes to the
    current winner: the other side's worst, one's own side's least bad."""
    cdef RuleTable* R = &K.R
    cdef int st = R.strength[c], sc, i
    cdef bint beats, want
    if R.suit_of[c] == R.suit_of[wcard]:
        beats = st > R.strength[wcard]
    else:
        beats = R.suit_of[c] == R.trump
    i = d + R.win_pts[c] - R.lose_pts[c]
    if i == 0 and K.penal:
        i = -1      # penalty contracts: a trick is a risk, not a gain
    want = i > 0
    if want and bits & ORD_FOLLOW_SURE and K.sweep_ok and R.nseats >= 4:
        if my_side_winning and not overtaken(K, seat, wcard):
            sc = 100 - st
        elif beats and not overtaken(K, seat, c):
            sc = 300 - st
        elif beats:
            sc = 200 - st
        else:
            sc = 100 - st
    elif want:
        if my_side_winning:
            sc = 100 - st
        elif beats:
            sc = 300 - st
        else:
            sc = 100 - st
    elif i != 0:
        if not beats:
            sc = 300 + st
        elif bits & ORD_PENALTY_SHED and K.penal:
            sc = 100 + st
        else:
            sc = 100 - st
    else:
        sc = 100 - st
    if not beats:
        if my_side_winning:
            sc += (R.win_pts[c] - R.lose_pts[c]) * R.unit
        else:
            sc += (R.lose_pts[c] - R.win_pts[c]) * R.unit
    return sc


cdef inline int order_moves(DDCtx* K, int seat, uint64_t legal, int ply, int ttmove) noexcept nogil:
    """Fill ``moves[ply]`` with one card per equivalence class, best
    first; returns their number.  Order: the table's move, the killer
    (``ORD_KILLER``: the last card that cut at this ply, leaders only),
    the position's score (``score_lead``, ``score_follow``,
    ``score_last``; two seats: the trick's value after the follower's best
    reply), then the history of cut-offs."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef uint64_t ls = 0
    cdef uint64_t m = legal
    cdef uint64_t others = 0, mates = 0
    cdef int s, c, prev = -1, n = 0, i, j, sc, wcard = -1, woff
    cdef int d
    cdef bint side = R.side[seat]
    cdef bint last = S.ncards == R.nseats - 1
    cdef bint my_side_winning = 0
    cdef uint8_t* mv = K.moves[ply]
    cdef int32_t* scv = K.scores[ply]
    cdef int32_t* hist = K.history[seat]
    cdef uint32_t partners = partner_pips(K, seat)
    cdef uint64_t* runs = K.runs[ply]
    cdef int currep = 0
    cdef int bits = order_bits(K)
    cdef int killer = K.killer[ply] if (bits & ORD_KILLER and S.ncards == 0) else NO_CARD
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
        if last:
            sc = score_last(K, seat, c, wcard, bits)
        elif S.ncards == 0 and R.nseats == 2:
            # two seats: the trick's value after the follower's best reply
            i = lead_value(K, seat, c)
            sc = (i if side else -i) * 64 + R.strength[c]
        elif S.ncards == 0:
            sc = score_lead(K, seat, c, s, d, others, mates, bits)
        else:
            sc = score_follow(K, seat, c, wcard, d, my_side_winning, bits)
        sc = sc * 1024
        if c == killer:
            sc = 1000 * 1024     # after the table's card, before every score
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
