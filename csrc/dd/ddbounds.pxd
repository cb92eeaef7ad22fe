# Bounds of the generic double-dummy kernel at a trick boundary (header
# only: cimported at compile time, no runtime module).  Each function reads
# the position and rule structs of a kernel context (csrc/dd/ddctx.pxd) and
# either settles the value for the search window or tightens [lb, ub];
# every bound names the cards whose ranks it compared in ``K.qwin`` (the
# winning-ranks table keys them).  ``boundary_bounds`` runs them in order;
# the search (csrc/dd/ddsearch.pxd) calls it at every trick boundary before
# the table.  Proofs: each function's docstring and docs/solver.md.
from libc.stdint cimport uint64_t, uint32_t, int32_t
from bits cimport popcount, highest_bit, lowest_bit, above_all
from trickstate cimport RuleTable, TrickState, MAX_SEATS
from ddstats cimport DD_STATS
from ddctx cimport DDCtx, INF, side_trumps, most_of, most_range


cdef inline int later_bits(DDCtx* K) noexcept nogil:
    """The later-tricks bounds in use (bits: 1 the run, 2 the finesse, 4
    the split top two): all of them in the shipped kernel."""
    if DD_STATS:
        return K.st.use_later_bounds
    return 7


cdef inline void ten_bounds(DDCtx* K, int* lb, int* ub) noexcept nogil:
    """Bounds on the future trick values of a two-seat game with the ten
    rule: at most T tricks can be ten-tricks, T the largest matching of
    the two hands' cards whose pips make ten."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
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


cdef inline int low_gains(DDCtx* K, uint64_t cards, int j, bint for_max) noexcept nogil:
    """The sum of the ``j`` smallest gains among ``cards`` to the side
    taking them (``for_max``: the max side, each card's win_pts over the
    generic bound's min; else the other side, max over lose_pts): what that
    side surely takes when ``j`` of them must fall into its tricks and
    their holder picks which."""
    cdef RuleTable* R = &K.R
    cdef uint64_t pc = cards & K.pts_mask, m
    cdef int z = popcount(cards) - popcount(pc), c, i, n = 0, t, total = 0
    cdef int g[16]
    if j <= z:
        return 0
    m = pc
    while m:
        c = lowest_bit(m)
        m &= m - 1
        if for_max:
            g[n] = R.win_pts[c] - min(R.win_pts[c], R.lose_pts[c])
        else:
            g[n] = max(R.win_pts[c], R.lose_pts[c]) - R.lose_pts[c]
        n += 1
    # zero-gain cards first (z of them), then the pointed ones upwards
    j -= z
    for i in range(n):
        for c in range(i + 1, n):
            if g[c] < g[i]:
                t = g[i]
                g[i] = g[c]
                g[c] = t
        if i >= j:
            break
        total += g[i]
    return total


cdef inline int cash_run(DDCtx* K, int* gain, uint64_t* key) noexcept nogil:
    """Rook's count beyond the top-trump run (issue #50): the tricks the
    hand on lead L surely takes by cashing its top cards, and the points
    they surely carry into its side's tricks.  Trumps (card index =
    strength slot, must follow).

    Let m_T be L's trumps above every other hand's trumps, and for a
    side suit s, m_s L's cards of s above every other hand's cards of s.
    L leads its m_T top trumps first: each is above every trump left, so
    it wins its trick and L leads again (no other card beats a top
    trump, a partner's included).  When afterwards no other hand holds a
    trump (every other hand had at most m_T: a trump lead takes one
    trump from each hand holding one), L leads its m_s top cards of
    every side suit: nobody can ruff, each is above every card of its
    suit, so it wins and L keeps the lead.  That is n = m_T (+ the sum of
    the m_s) tricks to L's side, in a row from this trick on, whatever
    the others play.  In those tricks every other hand h gives at least
    min(r_s, its cards of s) cards of each suit s led r_s times: while
    it holds s it must follow each of the r_s leads, and once it runs
    out it has given all of them (a discard in another round goes into
    the same tricks).  The other side's hands pick which, so L's side
    takes at least the smallest gains among them (``low_gains``), a
    suit at a time (the suits' cards are disjoint); and L's own led
    side-suit cards.  L's led trumps are the top of the trump run,
    counted by the lock bounds, and its partners' cards count nothing
    here: neither overlaps what is counted.  When n covers every trick
    left L's side also takes the last trick (``lock_bounds`` counts it).

    Returns n (0: nothing cashes) and sets ``gain`` (units, for the side
    on lead: raise the max side's lower bound or lower its upper bound)
    and ``key``: L's lowest counted card of each suit (the top cards'
    owners decide; the hand lengths and the counted cards' classes are
    in the winning-ranks key; a matching position where more of L's
    cards lie on top only cashes more)."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int L = S.leader, i, s, n = 0, mt = 0, tmax = 0, r, x, g = 0
    cdef int rounds[4]
    cdef uint64_t others = 0, mine, top, tm = R.suit_mask[R.trump], h
    cdef bint for_max = R.side[L]
    key[0] = 0
    gain[0] = 0
    for i in range(R.nseats):
        if i != L:
            others |= S.hands[i]
            x = popcount(S.hands[i] & tm)
            if x > tmax:
                tmax = x
    for s in range(4):
        rounds[s] = 0
    mine = S.hands[L] & tm
    top = above_all(mine, others & tm)
    mt = popcount(top)
    if mt:
        rounds[R.trump] = mt
        key[0] |= (<uint64_t>1) << lowest_bit(top)
    n = mt
    if tmax <= mt:
        for s in range(4):
            if s == R.trump:
                continue
            top = above_all(S.hands[L] & R.suit_mask[s], others & R.suit_mask[s])
            if top:
                r = popcount(top)
                rounds[s] = r
                n += r
                key[0] |= (<uint64_t>1) << lowest_bit(top)
                g += low_gains(K, top, r, for_max)
    if n == 0:
        return 0
    for i in range(R.nseats):
        if R.side[i] == for_max:
            continue
        for s in range(4):
            if rounds[s]:
                h = S.hands[i] & R.suit_mask[s]
                g += low_gains(K, h, min(rounds[s], popcount(h)), for_max)
    gain[0] = g
    return n


cdef inline uint64_t lock_bounds(DDCtx* K, int* lb, int* ub) noexcept nogil:
    """Trumps, card index = strength slot (dixie-rook): the highest
    trump left wins every trick it is in, and so does each trump below
    it as long as every higher trump is held by the same side (only a
    higher trump beats a trump, and those are the side's own).  The
    side holding that run of top trumps therefore takes every card of
    the run, and at least ceil(k / its seats) tricks for k cards (a
    trick holds at most one card of each of its seats; with
    ``K.last_ok``, at least as many as one of its hands holds of the
    run: a hand plays one card a trick).  With ``K.last_ok``, when the top trump's hand H holds more trumps than
    any other hand, or nothing but trumps, the top trump wins the last
    trick: H never has to play it before.  A trump lead takes one trump
    from every hand holding one, so H keeps more than any other hand
    (and at least two while another can lead a trump), H discards or
    follows another suit with another card, and leads one; a hand of
    trumps alone plays its lowest.  That trick is one of the run's, so
    the side takes the last trick's extras on top of its ceil(k /
    seats).  With ``K.cash_ok`` the side on lead also takes what its
    leader cashes (``cash_run``: cards disjoint from the run), the last
    trick too when that is every trick left.  The run holds whatever
    anybody plays, but the last trick and the cash are each a strategy
    of their side: when both are the same side's (the cash then leads
    the top trump: its hand is the leader) only the last trick counts,
    unless the cash takes every trick.  Tightens the
    trick-boundary bounds ``lb``/``ub`` (already the generic ones:
    per-trick extremes, the points still in hands, the last-trick and
    most-tricks extremes): the points go to their side, and the
    most-tricks range uses the tricks each side must take.  Returns
    the cards that decided (the run's lowest card, the cashed cards'
    lowest: every card of the suit from it up; the winning-ranks key),
    0 when nothing was claimed."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef uint64_t mx = 0, op = 0, tr, team, bit, key = 0, ckey, top, run = 0
    cdef int i, c, low = -1, k = 0, seats = 0, pts = 0, t, a = 0, b = 0, n, cg
    cdef int th = 0, tg = 0, h = 0, last = -1
    cdef int lo_m, hi_m, x, y, f_lo, f_hi
    cdef bint T
    for i in range(R.nseats):
        if R.side[i]:
            mx |= S.hands[i]
        else:
            op |= S.hands[i]
    tr = (mx | op) & R.suit_mask[R.trump]
    if tr != 0 and K.lock_ok:
        T = (mx >> highest_bit(tr)) & 1
        team = mx if T else op
        while tr:
            c = highest_bit(tr)
            bit = (<uint64_t>1) << c
            if not (team & bit):
                break
            tr ^= bit
            run |= bit
            low = c
            k += 1
            if T:
                pts += R.win_pts[c] - min(R.win_pts[c], R.lose_pts[c])
            else:
                pts += max(R.win_pts[c], R.lose_pts[c]) - R.lose_pts[c]
        top = (<uint64_t>1) << highest_bit((mx | op) & R.suit_mask[R.trump])
        for i in range(R.nseats):
            if R.side[i] == T:
                seats += 1
            c = popcount(S.hands[i] & R.suit_mask[R.trump])
            if S.hands[i] & top:
                th = c
                h = i
            elif c > tg:
                tg = c
        t = (k + seats - 1) // seats
        if K.last_ok:
            # and as many as one of its hands holds of the run
            for i in range(R.nseats):
                c = popcount(S.hands[i] & run)
                if c > t:
                    t = c
        if K.last_ok and (th > tg or (S.hands[h] & ~R.suit_mask[R.trump]) == 0):
            # the top trump's hand keeps it for the last trick
            last = T
            t += R.last_extra
        if T:
            lb[0] += pts
            a = t
        else:
            ub[0] -= pts
            b = t
        key = (<uint64_t>1) << low
    if K.cash_ok:
        n = cash_run(K, &cg, &ckey)
        if n and last == R.side[S.leader] and n < S.tricks_left:
            # two strategies of one side that do not mix: the hand on
            # lead would cash its top trump, which the last trick needs
            n = 0
        if n:
            key |= ckey
            if n == S.tricks_left:
                n += R.last_extra
                last = R.side[S.leader]
            if R.side[S.leader]:
                lb[0] += cg
                a = max(a, n)
            else:
                ub[0] -= cg
                b = max(b, n)
    if key == 0:
        return 0
    if last == 1:
        lb[0] += R.last_win - min(R.last_win, R.last_lose)
    elif last == 0:
        ub[0] -= max(R.last_win, R.last_lose) - R.last_lose
    if R.use_most:
        # the generic bounds hold most_range's extremes: replace them
        # by the extremes over the final counts still reachable when
        # the max side takes at least a and at most k - b more tricks
        most_range(K, &lo_m, &hi_m)
        f_lo = S.max_tricks + a
        f_hi = S.max_tricks + S.tricks_left - b + R.last_extra
        x = most_of(K, f_lo)
        y = most_of(K, f_hi)
        if R.total_tricks % 2 == 0 and 2 * f_lo <= R.total_tricks <= 2 * f_hi:
            lb[0] += min(x, y, R.most_tie) - lo_m
            ub[0] += max(x, y, R.most_tie) - hi_m
        else:
            lb[0] += min(x, y) - lo_m
            ub[0] += max(x, y) - hi_m
    return key


cdef inline int leader_takes_all(DDCtx* K) noexcept nogil:
    """The future value when the side on lead takes every trick left:
    every card still in hand goes to it, with each trick's value, the
    last trick's and the most-tricks bonus of the final count (the
    settled value of ``sweep`` and ``never_wins``)."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef bint lside = R.side[S.leader]
    cdef uint64_t m = 0
    cdef int i, v = 0, k = S.tricks_left, mt
    for i in range(R.nseats):
        m |= S.hands[i]
    m &= K.pts_mask
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
        v += most_of(K, mt)
    return v


cdef inline bint sweep(DDCtx* K, int* value) noexcept nogil:
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
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
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
    K.qwin = 0
    for s in range(4):
        ls = lo & R.suit_mask[s]
        hs = hi & R.suit_mask[s]
        if ls and hs:
            if highest_bit(ls) > lowest_bit(hs):
                return 0
            K.qwin |= (<uint64_t>1) << lowest_bit(hs)
    value[0] = leader_takes_all(K)
    return 1


cdef inline bint pivot_safe(DDCtx* K, int* value) noexcept nogil:
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
    * in every other suit s M can answer every lead of the other seats
      with a lower card (``ducks_below``).
    M keeps its lowest p card for last and leads p whenever on lead:
    while a penalty card is out its holder must follow p with a higher
    card, so M's last p card never wins; M therefore never leads another suit, every
    trick of s is led by the other seats (at most n of them) and M
    ducks it (``never_wins``).  Winning ranks: suit p keyed whole, the
    others at the other seats' lowest card."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int M = K.max_seat, i, s, p, v
    cdef uint64_t others = 0, pen, mp, ls, h, m
    for i in range(R.nseats):
        if i != M:
            others |= S.hands[i]
    pen = others & K.pts_mask
    if pen == 0 or (S.hands[M] & K.pts_mask):
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
    K.qwin = (<uint64_t>1) << lowest_bit((others | mp) & R.suit_mask[p])
    for s in range(4):
        if s == p:
            continue
        ls = others & R.suit_mask[s]
        h = S.hands[M] & R.suit_mask[s]
        if ls == 0 or h == 0:
            continue
        if not ducks_below(K, h, ls):
            return 0
        K.qwin |= (<uint64_t>1) << lowest_bit(ls)
    v = S.tricks_left * R.trick_lose + R.last_lose
    m = pen
    while m:
        i = lowest_bit(m)
        m &= m - 1
        v += R.lose_pts[i]
    value[0] = v
    return 1


cdef inline bint covers(RuleTable* R, TrickState* S, int M, int H, int skip) noexcept nogil:
    """The cover of ``holder_cover`` and ``part_cover``: in every suit but
    ``skip`` (-1: none) M holds no more cards than H, and at most one suit
    where M holds cards has M's length equal to H's (tight), unless H
    plays just before M."""
    cdef int s, lm, lh, tight = 0
    for s in range(4):
        if s == skip:
            continue
        lm = popcount(S.hands[M] & R.suit_mask[s])
        lh = popcount(S.hands[H] & R.suit_mask[s])
        if lm > lh:
            return 0
        if lm and lm == lh:
            tight += 1
    return tight <= 1 or R.next_seat[H] == M


cdef inline bint holder_cover(DDCtx* K, int* value) noexcept nogil:
    """One max seat M, no trumps, must follow, tricks alike to both
    sides: whether M takes none of the penalty cards left (cards with
    points) although it may win tricks; then ``value``: the future value
    when the other seats take every penalty card (a lower bound: M can
    force it; exact for penalty contracts).

    It holds when every penalty card left is in one other hand H, M
    holds none, and
    * in each suit q holding penalty cards, M's cards are all below the
      lowest penalty card of q (M never wins a trick of q holding one);
    * in every other suit s (every suit, when the penalty cards are in
      more than one suit) M holds no more cards than H (cover), and at
      most one such suit where M holds cards has M's length equal to
      H's (tight), unless H plays just before M (M's right-hand seat).
    M keeps the cover: following a suit H follows takes one card from
    each; when H is void in the led suit, so is M (cover), and both
    discard: M then discards from the tight suit when there is one, or,
    playing after H, from the suit H discarded from.  That keeps at most
    one tight suit (H's discard can tighten only the suit it came from,
    and M's loosens the old one), or none broken when M always plays
    after H.  M leads only suits H holds (cover) or a penalty suit.  So a
    penalty card reaches a trick only as H's card of its own suit (M
    never wins that trick) or as H's discard on a suit M is void in too
    (M discards: no trumps, M does not win).  The penalty suit's own
    lengths need no cover when all penalty cards are in it: H is never
    void in it while it holds one.  Winning ranks: M's highest card of
    each penalty suit (``qwin``); the rest compares hand lengths and the
    penalty cards' owners, which the key holds."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int M = K.max_seat, H = 0, i, s, q = -1, v, psuits = 0
    cdef uint64_t others = 0, pen, ps, hm, m
    for i in range(R.nseats):
        if i != M:
            others |= S.hands[i]
    pen = others & K.pts_mask
    if pen == 0 or (S.hands[M] & K.pts_mask):
        return 0
    while not (S.hands[H] >> lowest_bit(pen)) & 1:
        H += 1
    if pen & ~S.hands[H]:
        return 0
    K.qwin = 0
    for s in range(4):
        ps = pen & R.suit_mask[s]
        if ps == 0:
            continue
        psuits += 1
        q = s
        hm = S.hands[M] & R.suit_mask[s]
        if hm:
            if highest_bit(hm) > lowest_bit(ps):
                return 0
            K.qwin |= (<uint64_t>1) << highest_bit(hm)
    if not covers(R, S, M, H, q if psuits == 1 else -1):
        return 0
    v = S.tricks_left * R.trick_lose + R.last_lose
    m = pen
    while m:
        i = lowest_bit(m)
        m &= m - 1
        v += R.lose_pts[i]
    value[0] = v
    return 1


cdef inline bint part_cover(DDCtx* K, int* value) noexcept nogil:
    """One max seat M, no trumps, must follow, tricks alike to both
    sides (``holder_cover``'s setting; docs/solver.md, "partial holder cover"): whether
    M can keep some of the penalty cards left out of its tricks, when
    several hands hold them or M holds some; then ``value``: a lower
    bound, every card with points left taken at its worst for M except
    those M keeps out (``S.card_lb`` raised by their gain).

    For one other hand H, the cards kept out are C: H's penalty cards
    above every card M holds of their suit.  It holds when M holds no
    card it must discard (``discard_mask``: its discards are free) and,
    in every suit (but the suit of C when C lies in one suit), M holds no
    more cards than H, with at most one suit of equal lengths where M
    holds cards unless H plays just before M: ``holder_cover``'s cover,
    and its proof with C for "the penalty cards".  M keeps the cover by
    its discards; so H follows every suit M holds, and a card of C
    reaches a trick only as H's card of its own suit, above all of M's
    cards of that suit (M does not win it), or as H's discard on a suit
    M is void in too (M discards; no trumps: M does not win).  Cards of
    C never change hands, and M's cards of their suits only leave, so
    "above every card of M's" lasts.  The other hands' penalty cards,
    M's own and H's others count at their worst, whatever happens to
    them.  The best H is taken.  Winning ranks: M's highest card of each
    suit holding another hand's penalty card (``qwin``; C is the cards
    from it up); the rest compares hand lengths and the penalty cards'
    owners, which the key holds."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int M = K.max_seat, H, i, s, q, psuits, gain, best = 0
    cdef uint64_t pen, ps, hm, ch, m, key = 0
    if S.hands[M] & R.discard_mask:
        return 0
    for H in range(R.nseats):
        if H == M:
            continue
        pen = S.hands[H] & K.pts_mask
        if pen == 0:
            continue
        ch = 0
        psuits = 0
        q = -1
        for s in range(4):
            ps = pen & R.suit_mask[s]
            if ps == 0:
                continue
            hm = S.hands[M] & R.suit_mask[s]
            if hm:
                key |= (<uint64_t>1) << highest_bit(hm)
                ps = above_all(ps, hm)
            if ps:
                ch |= ps
                psuits += 1
                q = s
        gain = 0
        m = ch
        while m:
            i = lowest_bit(m)
            m &= m - 1
            gain += R.lose_pts[i] - min(R.win_pts[i], R.lose_pts[i])
        if gain <= best:
            continue
        if not covers(R, S, M, H, q if psuits == 1 else -1):
            continue
        best = gain
    if best == 0:
        return 0
    K.qwin = key
    value[0] = S.tricks_left * R.trick_lose + R.last_lose + S.card_lb + best
    return 1


cdef inline bint ducks_below(DDCtx* K, uint64_t d, uint64_t l) noexcept nogil:
    """Whether a seat holding ``d`` (one suit's cards) can play below the
    lead in every trick of that suit led by a side holding ``l``: its
    i-th lowest card is below the side's i-th lowest, for every i up to
    the shorter holding (the probe build's ``use_duck_match`` 0: the
    count before issue #40, min(|l|, |d|) cards below the side's lowest).

    The leads are distinct cards of ``l`` in any order; the seat answers
    each with its highest card below the lead.  That keeps the condition
    (a lead l_k answered by d_j, the highest below it, so j >= k; the
    sorted rests satisfy it index by index), so does any card leaving
    ``l`` (a follow, a discard) or the seat discarding its highest card,
    so the seat never plays above a lead: it never wins (no trumps)."""
    cdef int n
    if DD_STATS:
        if not K.st.use_duck_match:
            if d == 0 or l == 0:
                return 1
            n = popcount(l)
            if n > popcount(d):
                n = popcount(d)
            return popcount(d & (((<uint64_t>1) << lowest_bit(l)) - 1)) >= n
    while d and l:
        if lowest_bit(d) > lowest_bit(l):
            return 0
        d &= d - 1
        l &= l - 1
    return 1


cdef inline bint never_wins(DDCtx* K, int* value) noexcept nogil:
    """Whether every seat of the side NOT on lead can lose every trick
    left (no trumps, must follow, card index = strength slot); then
    ``value``: the future value when the side on lead takes them all.

    While the ducking side wins nothing, the leading side leads every
    trick, each lead a distinct card of its own.  A ducking seat that
    can answer every lead of a suit with a lower card (``ducks_below``:
    its i-th lowest card below the leading side's i-th lowest) never
    wins a trick of that suit, and never wins a trick of a suit it is
    void in (no trumps).  When this holds for every ducking seat in
    every suit, the ducking side never gains the lead and the argument
    holds to the end.  Winning ranks: per suit both sides hold, the
    leading side's lowest card x (``qwin``): the cards below x are the
    ducking side's, each below every lead whatever its rank, and their
    number per seat follows from the key's hand lengths."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef bint lside = R.side[S.leader]
    cdef uint64_t lead = 0, ls, h
    cdef int i, s, x
    for i in range(R.nseats):
        if R.side[i] == lside:
            lead |= S.hands[i]
    K.qwin = 0
    for s in range(4):
        ls = lead & R.suit_mask[s]
        if ls == 0:
            continue
        x = lowest_bit(ls)
        for i in range(R.nseats):
            if R.side[i] == lside:
                continue
            h = S.hands[i] & R.suit_mask[s]
            if h == 0:
                continue
            if not ducks_below(K, h, ls):
                return 0
            K.qwin |= (<uint64_t>1) << x
    value[0] = leader_takes_all(K)
    return 1


cdef inline void quick_bounds(DDCtx* K, int* lb, int* ub) noexcept nogil:
    """Sure tricks of the side on lead (pure trick scoring, card index =
    strength slot): the leader's cards above every opponent card of
    their suit, when no partner card could be forced to overtake and,
    at a trump contract, while every opponent holding trumps follows."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int L = S.leader
    cdef bint lside = R.side[L]
    cdef uint64_t opp_all = 0, mine, w, ps, pwin = 0, others, top
    cdef int i, s, nw, nt, qt = 0, k = S.tricks_left, ln, P = -1, qp = 0, longest
    cdef bint entry = 0
    cdef bint long_ok = not DD_STATS or K.st.use_long_suits
    K.qwin = 0
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
        others = 0
        longest = 0
        for i in range(R.nseats):
            if i != L:
                ps = S.hands[i] & R.suit_mask[s]
                others |= ps
                if popcount(ps) > longest:
                    longest = popcount(ps)
                if R.side[i] == lside and ps and highest_bit(ps) > lowest_bit(w):
                    nw = 0
        top = w
        if long_ok:
            # the leader's top sequence, above every other hand's card of
            # the suit: t tricks, and every card of the suit when no
            # other hand holds more than t of it (they are void once t
            # tricks of the suit are played; after DDS's QtricksLeadHand)
            top = above_all(mine, others)
            if top:
                nt = popcount(top)
                if longest <= nt:
                    nt = popcount(mine)
                if nt > nw:
                    nw = nt
                    w = top
        if nw and R.trump >= 0 and s != R.trump:
            for i in range(R.nseats):
                if R.side[i] != lside and (S.hands[i] & R.suit_mask[R.trump]):
                    ln = popcount(S.hands[i] & R.suit_mask[s])
                    if ln < nw:
                        nw = ln
        if nw:
            # the sure winners stay sure while every card from the
            # lowest of them up has the same owner
            K.qwin |= (<uint64_t>1) << lowest_bit(w)
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
            K.qwin |= pwin
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


cdef inline void trump_bounds(DDCtx* K, int* lb, int* ub) noexcept nogil:
    """Tricks each side surely takes with its trumps (pure trick scoring,
    card index = strength slot): a hand holding the r highest trumps
    wins r tricks (each falls in its own trick and no trump beats it);
    against a side without trumps, every trump of a hand wins a trick
    (the longest hand's count).  Both bound the value, whichever way
    tricks count."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
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
        K.qwin |= (<uint64_t>1) << lowest_bit(all_t & ~m)
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


cdef inline int forced_take(DDCtx* K, int ub) noexcept nogil:
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
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int M = K.max_seat, L = S.leader, s, i, c, loss, best = 0, key = -1, x, y
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
        loss = K.base_hi - R.trick_win
        for i in range(R.nseats):
            if i == M:
                continue
            h = S.hands[i]
            f = h & sm
            if f == 0:
                f = h & R.discard_mask
                if f == 0:
                    f = h
            f &= K.pts_mask
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
    K.qwin = (<uint64_t>1) << key
    return ub - best


cdef inline int duck_run(uint64_t m, uint64_t l) noexcept nogil:
    """How many leads in a row, of the cards ``l`` (one suit, any of the
    other seats' cards, in any order), a seat holding ``m`` (the same
    suit) surely answers below the lead: the largest j with its i-th
    lowest card below the i-th lowest of ``l`` for every i <= j (64:
    every lead, ``ducks_below``'s full match).  ``toosh_run`` has the
    proof."""
    cdef int j = 0
    while m and l:
        if lowest_bit(m) > lowest_bit(l):
            return j
        j += 1
        m &= m - 1
        l &= l - 1
    return 64


cdef inline int run_counted(uint64_t x, uint64_t y, int c, int base, bint x_low) noexcept nogil:
    """``duck_run(x, y)`` (one suit, whose lowest card index is ``base``)
    when only the number of each side's cards below card ``c`` is known
    (a winning-ranks key holding every card from ``c`` up; ``base`` + 16:
    none): those of ``x`` placed below those of ``y`` (``x_low``) or
    above.  With ``x``'s below, no placing gives x a longer match (each
    of x's i-th lowest is as low as it can be and each of y's as high);
    above, none a shorter."""
    cdef uint64_t below = (((<uint64_t>1) << (c - base)) - 1) << base, vx, vy
    cdef int a = popcount(x & below), b = popcount(y & below)
    if x_low:
        vx = (((<uint64_t>1) << a) - 1) << base
        vy = (((<uint64_t>1) << b) - 1) << (base + a)
    else:
        vy = (((<uint64_t>1) << b) - 1) << base
        vx = (((<uint64_t>1) << a) - 1) << (base + b)
    return duck_run(vx | (x & ~below), vy | (y & ~below))


cdef inline int key_from(uint64_t x, uint64_t y, int top, int floor, int need,
                         bint fail) noexcept nogil:
    """The highest card c above ``floor`` from which up a key shows
    ``duck_run(x, y) >= need`` whatever the cards below c
    (``run_counted`` with y's below), or with ``fail`` that x's match
    under y fails (x's below); ``top`` (the suit's lowest card index +
    16) when the counts alone show it, -1 when nothing does."""
    cdef uint64_t cand = x | y
    cdef int c = top, v, base = top - 16
    while c > floor:
        if fail:
            v = run_counted(x, y, c, base, 1) < 64
        else:
            v = run_counted(x, y, c, base, 0) >= need
        if v:
            return c
        if cand == 0:
            break
        c = highest_bit(cand)
        cand ^= (<uint64_t>1) << c
    return -1


cdef inline int toosh_run(DDCtx* K, uint64_t mh, int k, int less, int dec, int need,
                          uint64_t* key) noexcept nogil:
    """Ltoosh (``toosh_floor``): how many tricks in a row, at most ``k``,
    the max seat M, holding ``mh``, surely loses while the other seats
    lead.  ``less``: cards each other hand may have lost already (the
    covers below count that many fewer); ``dec``: a suit whose match
    counts one lead fewer (-1: none).  ``key`` gets the cards compared
    to show a run of ``need`` (when the run is that long).

    M never leads in the run (it wins nothing).  For each suit t both M
    and the others hold, M survives the leads of t by either of two
    arguments, whichever lasts longer:
    * the match (``duck_run``): with P(j) = "M's i-th lowest card of t is
      below the others' i-th lowest, for i <= j", M answers a lead with
      its highest card below it, which P(1) provides; after the trick
      P(j - 1) holds (a lead l_a answered by m_b: b >= a when a <= j, and
      the sorted rests stay below each other index by index, as
      ``ducks_below`` proves for the full match), a card leaving the
      others' hands keeps P(j) (the i-th lowest can only rise), and so
      does M discarding its highest card of a suit.  So the first j
      leads of t lose, whoever leads them;
    * the cover: another hand h whose every card of t is above every
      card of M's: every trick of t that h follows is above all of M's
      cards, so M loses it; M's cards only leave and h's too, so the
      cover lasts while h holds t, and h loses one card a trick: M loses
      every lead of t among the first n tricks of the run, n = h's
      length (minus ``less``).
    In a suit it is void in, M discards its highest card of a suit (no
    trumps: it loses), which keeps every match and cover.  So the others
    must lead some suit t past both counts to make M win: the run is at
    least the smallest, over such suits, of the longer count.
    Winning ranks: per suit, the highest card from which up the key shows
    a match of ``need`` whatever the owners of the cards below it, whose
    number per hand the lengths give (``key_from``), or M's highest card
    where the cover counts (h's cards below it number its length minus
    those keyed), whichever is higher."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int M = K.max_seat, i, t, p, c, r = k, lo
    cdef int pt[4]
    cdef int ct[4]
    cdef uint64_t others = 0, m, l, h
    for i in range(R.nseats):
        if i != M:
            others |= S.hands[i]
    for t in range(4):
        pt[t] = -1
        m = mh & R.suit_mask[t]
        l = others & R.suit_mask[t]
        if m == 0 or l == 0:
            continue
        p = duck_run(m, l)
        if t == dec and p < 64:
            p = p - 1 if p > 0 else 0
        c = 0
        for i in range(R.nseats):
            if i == M:
                continue
            h = S.hands[i] & R.suit_mask[t]
            if h and lowest_bit(h) > highest_bit(m) and popcount(h) - less > c:
                c = popcount(h) - less
        pt[t] = p
        ct[t] = c
        if p < r or c < r:
            if p > c:
                c = p
            if c < r:
                r = c
    if r <= 0:
        return 0
    if need > r or need <= 0:
        return r
    for t in range(4):
        if pt[t] < 0:
            continue
        m = mh & R.suit_mask[t]
        l = others & R.suit_mask[t]
        lo = -1
        if ct[t] >= need:
            lo = highest_bit(m)
        if pt[t] >= need:
            p = key_from(m, l, t * 16 + 16, lo, need + (t == dec), 0)
            if p > lo:
                lo = p
        if lo < t * 16 + 16:
            key[0] |= (<uint64_t>1) << lo
    return r


cdef inline int toosh_min_k(DDCtx* K) noexcept nogil:
    """The fewest tricks left at which ``toosh_floor`` is asked."""
    if DD_STATS:
        return K.st.toosh_min_k
    return 2


cdef inline int keyed_cards(DDCtx* K, uint64_t key) noexcept nogil:
    """How many cards left a winning-ranks ``key`` holds (per suit, every
    card from its lowest keyed card up): the fewer, the more positions
    a table entry resting on it matches."""
    cdef int t, n = 0
    cdef uint64_t rem = 0, kt
    cdef int i
    for i in range(K.R.nseats):
        rem |= K.S.hands[i]
    for t in range(4):
        kt = key & K.R.suit_mask[t]
        if kt:
            n += popcount(rem & K.R.suit_mask[t] & ~(((<uint64_t>1) << lowest_bit(kt)) - 1))
    return n


cdef inline int toosh_after_lead(DDCtx* K, int need, uint64_t* key) noexcept nogil:
    """Ltoosh, another seat L on lead: 1 + the run (``toosh_run``) after
    this trick when the max seat M surely loses it, else 0.  For each
    suit t L holds, M loses a lead of t when
    (a) M is void in t: it discards its highest card of a suit, which
        keeps every match and cover of the run after;
    (b) M's lowest card of t is below L's lowest: M answers with its
        highest card below the lead, which costs the match of t at most
        one lead (``toosh_run``'s proof);
    (c) a third hand h holds t and only cards above M's lowest: M plays
        its lowest (h's card, before or after it, is higher: h must
        follow t), and the run after counts M's hand without it.
    Every other hand plays one card (the covers count one fewer), and
    another seat leads next.  M takes the best case of t, and L the
    worst suit.  Winning ranks (``key``, to show ``need``): for (b) L's
    lowest card of t, for (c) h's (M holds a card below it, L or h none:
    the cards below count by number per hand, from the lengths), and the
    run's cards, of the case that shows ``need`` with the fewest."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int M = K.max_seat, L = S.leader, k = S.tricks_left, i, t, y, z, best = k, w, wz
    cdef uint64_t lt, m, h, kt, kz, rest
    cdef int forced
    for t in range(4):
        lt = S.hands[L] & R.suit_mask[t]
        if lt == 0:
            continue
        m = S.hands[M] & R.suit_mask[t]
        y = 0
        kt = 0
        w = 64
        if m == 0:
            y = 1 + toosh_run(K, S.hands[M], k - 1, 1, -1, need - 1, &kt)
            w = 0
        else:
            if lowest_bit(m) < lowest_bit(lt):
                kz = (<uint64_t>1) << lowest_bit(lt)
                y = 1 + toosh_run(K, S.hands[M], k - 1, 1, t, need - 1, &kz)
                kt = kz
                w = keyed_cards(K, kz)
            forced = -1
            for i in range(R.nseats):
                if i == M or i == L:
                    continue
                h = S.hands[i] & R.suit_mask[t]
                if h and lowest_bit(h) > lowest_bit(m) and lowest_bit(h) > forced:
                    forced = lowest_bit(h)
            if forced >= 0:
                kz = (<uint64_t>1) << forced
                rest = S.hands[M] & ~((<uint64_t>1) << lowest_bit(m))
                z = 1 + toosh_run(K, rest, k - 1, 1, -1, need - 1, &kz)
                wz = keyed_cards(K, kz)
                if (z >= need and (y < need or wz < w)) or (y < need and z > y):
                    y = z
                    kt = kz
                    w = wz
        if y == 0:
            return 0
        if y < best:
            best = y
        key[0] |= kt
    return best


cdef inline int sure_losses(DDCtx* K, int need, uint64_t* key) noexcept nogil:
    """Tricks of the k left that the max seat M surely loses (one max
    seat; no trumps, must follow, free discards; card index = strength
    slot), counted up to ``need`` (the count stops there, keyed with the
    fewest cards; ``key`` gets the cards compared).  Only card play is
    reasoned about, not scoring: ``toosh_floor`` and ``count_floor`` read
    it.

    * Another seat on lead: x is the larger of ``toosh_run``'s run of
      tricks M loses while the others lead and ``toosh_after_lead`` (M
      loses this trick, then the run after it).
    * M on lead: if another hand h can follow every lead of a suit s of
      M's below it (``ducks_below``'s match of h's cards under M's), M
      may win every trick (``never_wins``: exact when that holds of
      every hand and suit).  When it fails for some h and s, x >= 1: at
      the first i where h's i-th lowest card of s is above M's i-th
      lowest, M leads its cards of s upwards while it wins; h must follow
      each, and holds only i - 1 cards below M's i-th, so by the i-th
      lead h has played above M (M lost) or must now.  When h's lowest
      card of s is above M's lowest (i = 1), M loses this trick at once,
      and the others lead next: x >= 1 + the run after it, counted on
      M's hand without that card (the others' cards only leave, which
      keeps every match) with one card fewer for each cover.
    Winning ranks (``key``): the cards the count that reaches ``need``
    compared (the run's, ``toosh_after_lead``'s; for an exit at once h's
    lowest card of s, M holding one below it; for the failed match the
    highest card that shows it whatever the cards below, ``key_from``)."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int M = K.max_seat, k = S.tricks_left, x = 0, y, i, s, w = 64, wy
    cdef uint64_t m, h, kx = 0, ky
    if S.leader != M:
        x = toosh_run(K, S.hands[M], k, 0, -1, need, &kx)
        if x < need:
            kx = 0
            x = toosh_after_lead(K, need, &kx)
    else:
        for s in range(4):
            m = S.hands[M] & R.suit_mask[s]
            if m == 0:
                continue
            for i in range(R.nseats):
                if i == M:
                    continue
                h = S.hands[i] & R.suit_mask[s]
                if h == 0:
                    continue
                if lowest_bit(h) > lowest_bit(m):
                    ky = (<uint64_t>1) << lowest_bit(h)
                    y = 1 + toosh_run(K, S.hands[M] & ~((<uint64_t>1) << lowest_bit(m)),
                                      k - 1, 1, -1, need - 1, &ky)
                    if y > need:
                        y = need
                    wy = keyed_cards(K, ky)
                    if y > x or (y == x and wy < w):
                        x = y
                        kx = ky
                        w = wy
                elif x == 0 and duck_run(h, m) < 64:
                    # h's i-th lowest above M's i-th lowest for some i
                    x = 1
                    y = key_from(h, m, s * 16 + 16, -1, 0, 1)
                    kx = (<uint64_t>1) << y if y < s * 16 + 16 else 0
                    w = keyed_cards(K, kx)
    if x > need:
        x = need
    key[0] = kx
    return x


cdef inline int toosh_floor(DDCtx* K, int beta) noexcept nogil:
    """Ltoosh (one max seat M; no trumps, must follow, free discards; no
    card points, every trick worth less to M when it takes it, the last
    trick alike, no most-tricks bonus): a lower bound on the future
    value from x, the tricks M surely loses of the k left
    (``sure_losses``): M takes at most k - x.  It is only used for a
    cut-off at ``beta``: the count stops at the x that reaches it, keyed
    with the fewest cards (``qwin``)."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int k = S.tricks_left, x, need
    cdef int d = R.trick_lose - R.trick_win
    cdef uint64_t kx = 0
    # the least x whose value (k - x) * trick_win + x * trick_lose +
    # last_lose reaches beta
    need = beta - k * R.trick_win - R.last_lose
    if need <= 0:
        need = 0
    else:
        need = (need + d - 1) // d
    if need > k:
        return beta - 1         # beyond every value: no cut-off
    x = sure_losses(K, need, &kx)
    K.qwin = kx
    return (k - x) * R.trick_win + x * R.trick_lose + R.last_lose


cdef inline int count_min_k(DDCtx* K) noexcept nogil:
    """The fewest tricks left at which ``count_floor`` is asked."""
    if DD_STATS:
        return K.st.count_min_k
    return 2


cdef inline int count_floor(DDCtx* K, int beta) noexcept nogil:
    """The penalty contracts (one max seat M; no trumps, must follow,
    free discards; tricks and the last trick alike to both sides, no
    most-tricks bonus, no card worth more to M when M takes it): a lower
    bound on the future value from a count of the penalty cards M can be
    made to take, only used for a cut-off at ``beta``.

    M surely loses x of the k tricks left (``sure_losses``: by its
    strategy there, whatever the others do), so M wins at most
    w = k - x tricks.  A trick holds one card of each hand, so M's
    tricks hold at most w cards of each hand X, M's own included (M
    takes a card of its own only in a trick it wins): of X's penalty
    cards M takes at most the w costliest for it (``lose_pts - win_pts``,
    M's loss against another seat taking the card), and every other
    penalty card left goes to another seat.  The value is then at least
    every card's ``lose_pts`` less, for each hand, its w costliest
    cards' costs (w = 0: M takes nothing, the pivot's value; w = k: the
    generic bound).  The count of x stops at the fewest losses that
    reach ``beta``.  Winning ranks: ``sure_losses``' cards; the cost
    counts read only which hand holds each penalty card, which the key
    holds (the penalty cards' classes by their place in their hand).
    Returns a value below ``beta`` when no count reaches it."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int k = S.tricks_left, i, j, c, t, w, x, v = 0, need
    cdef int cost[MAX_SEATS][16]
    cdef int ncost[MAX_SEATS]
    cdef int part[17]
    cdef uint64_t m, kx = 0
    if k > 16:
        return beta - 1         # beyond ``part``'s rows: no cut-off
    v = k * R.trick_lose + R.last_lose
    for i in range(R.nseats):
        ncost[i] = 0
        m = S.hands[i] & K.pts_mask
        while m:
            c = lowest_bit(m)
            m &= m - 1
            v += R.lose_pts[c]
            t = R.lose_pts[c] - R.win_pts[c]
            if t <= 0 or ncost[i] >= 16:
                continue
            # costliest first (insertion: a hand holds few penalty cards)
            j = ncost[i]
            while j > 0 and cost[i][j - 1] < t:
                cost[i][j] = cost[i][j - 1]
                j -= 1
            cost[i][j] = t
            ncost[i] += 1
    # part[w]: the most M can lose to the penalty cards in w tricks
    for w in range(k + 1):
        part[w] = 0
        if w == 0:
            continue
        part[w] = part[w - 1]
        for i in range(R.nseats):
            if w <= ncost[i]:
                part[w] += cost[i][w - 1]
    if v < beta:
        return v                # M taking nothing does not reach beta
    # the most tricks M may win with the bound still reaching beta
    w = k
    while part[w] > v - beta:
        w -= 1
    need = k - w
    if need <= 0:
        return v - part[k]      # the generic bound: no count needed
    x = sure_losses(K, need, &kx)
    K.qwin = kx
    return v - part[k - x]


cdef inline void later_bounds(DDCtx* K, int* lb, int* ub, int alpha, int beta) noexcept nogil:
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
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
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
    if later_bits(K) & 1 or side_t[1 - w] == 0:
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
    if g[w] < 2 and K.later_alt and (later_bits(K) & 4) and popcount(run) >= 2:
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
    if w == A and K.later_alt and (later_bits(K) & 2):
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
            K.qwin |= keyed | keyb
        v = (k - g[0]) * R.trick_win + g[0] * R.trick_lose
        if v < ub[0]:
            ub[0] = v
            K.qwin |= keyed | keyb
    elif R.trick_win < R.trick_lose:
        v = g[1] * R.trick_win + (k - g[1]) * R.trick_lose
        if v < ub[0]:
            ub[0] = v
            K.qwin |= keyed | keyb
        v = (k - g[0]) * R.trick_win + g[0] * R.trick_lose
        if v > lb[0]:
            lb[0] = v
            K.qwin |= keyed | keyb


cdef inline int second_hand_quick(DDCtx* K, int alpha, int beta, int ply) noexcept nogil:
    """The second seat of a trick (4 seats, partners opposite, pure trick
    scoring, card index = strength slot), after DDS's QuickTricksSecondHand:
    its side surely takes the trick on the table when the highest card of
    the led suit held by the seat or its partner is above the lead and
    every card of that suit the next seat (the leader's partner) holds,
    and that seat cannot ruff; or when the side can ruff and the next seat
    must follow the led suit.  The side then takes at least one of the
    tricks left: a bound that settles the window (alpha, beta), returned
    (fail-soft; ``wr[ply]``: the winning card, whose rank was compared),
    else INF.  A partner playing fourth wins with the top card or a ruff
    whatever the next seat does: it follows the led suit, or it is void
    without a trump (the cases checked)."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int hand = (S.leader + 1) & 3, part = (S.leader + 3) & 3, lho = (S.leader + 2) & 3
    cdef int lead = S.trick[0], led = R.suit_of[lead], k = S.tricks_left, top = -1, v
    cdef int q, hh, i, s2, c2
    cdef uint64_t sm = R.suit_mask[led], ours, theirs, tm, rest, other, rem
    cdef uint64_t win = 0
    cdef bint can = 0
    theirs = S.hands[lho] & sm
    ours = (S.hands[hand] | S.hands[part]) & sm
    if R.trump >= 0 and led != R.trump:
        tm = R.suit_mask[R.trump]
        if theirs == 0 and (S.hands[lho] & tm):
            return INF              # the next seat may ruff
        if ((S.hands[hand] & sm) == 0 and (S.hands[hand] & tm)) or \
                ((S.hands[part] & sm) == 0 and (S.hands[part] & tm)):
            if theirs:
                can = 1             # a ruff the next seat cannot overruff
    if not can and ours:
        top = highest_bit(ours)
        if top > lead and (theirs == 0 or top > highest_bit(theirs)):
            can = 1
            win = (<uint64_t>1) << top
    if not can:
        return INF
    q = 1
    if R.trump < 0 and win:
        # no trumps: the hand that wins with the top card leads next and
        # cashes its top card of every other suit, one trick each (a top
        # card led is never beaten), and its second card of the led suit
        # when it holds the two top cards there
        hh = hand if (S.hands[hand] >> top) & 1 else part
        rest = ours & ~((<uint64_t>1) << top)
        if rest and (S.hands[hh] >> highest_bit(rest)) & 1 and \
                highest_bit(rest) > (highest_bit(theirs) if theirs else -1):
            other = 0
            for i in range(4):
                if i != hh:
                    other |= S.hands[i]
            if highest_bit(rest) > highest_bit((other & sm) | 1):
                q += 1
                win |= (<uint64_t>1) << highest_bit(rest)
        rem = S.hands[0] | S.hands[1] | S.hands[2] | S.hands[3]
        for s2 in range(4):
            if s2 == led:
                continue
            c2 = highest_bit(rem & R.suit_mask[s2])
            if c2 >= 0 and (S.hands[hh] >> c2) & 1:
                q += 1
                win |= (<uint64_t>1) << c2
        if q > k:
            q = k
    if R.trick_win <= R.trick_lose:
        return INF
    if R.side[hand]:
        v = q * R.trick_win + (k - q) * R.trick_lose
        if v >= beta:
            K.wr[ply] = win
            return v
    else:
        v = q * R.trick_lose + (k - q) * R.trick_win
        if v <= alpha:
            K.wr[ply] = win
            return v
    return INF


cdef inline int boundary_bounds(DDCtx* K, int alpha, int beta, int ply) noexcept nogil:
    """Every bound at a trick boundary with at least two tricks left, in
    order: the per-trick extremes with the points still in hands, the lock
    bounds, the sweep, the ducking, pivot and cover bounds (whole and in
    part), the penalty-card count, the forced take, Ltoosh's sure losses, the
    quick and later tricks.  Returns a value that settles the window
    (alpha, beta) (fail-soft; ``wr[ply]`` then holds the cards it
    compared), else INF."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int i, v, v2, pts, ub, lb
    cdef uint64_t q
    if R.pip_partners:
        ten_bounds(K, &lb, &ub)
    else:
        ub = S.tricks_left * K.base_hi
        lb = S.tricks_left * K.base_lo
    if R.use_most:
        # the most-tricks bonus over the final counts still
        # reachable: settled once one side has more than half
        most_range(K, &v, &v2)
        ub += S.card_ub + max(R.last_win, R.last_lose) + v2
        lb += S.card_lb + min(R.last_win, R.last_lose) + v
    else:
        ub += S.card_ub + K.end_hi
        lb += S.card_lb + K.end_lo
    if ub <= alpha:
        return ub
    if lb >= beta:
        return lb
    if K.lock_ok or K.cash_ok:
        # the top trumps held by one side are that side's: their
        # points and the tricks they must take, the last one when the
        # top trump's hand is longest in trumps; and what the hand on
        # lead cashes
        if DD_STATS:
            v = lb
            v2 = ub
        q = lock_bounds(K, &lb, &ub)
        if q and (ub <= alpha or lb >= beta):
            if DD_STATS:
                K.st.lock_hits += 1
                if K.cash_ok or K.last_ok:
                    # would the run alone have cut?
                    i = K.cash_ok | (K.last_ok << 1)
                    K.cash_ok = 0
                    K.last_ok = 0
                    lock_bounds(K, &v, &v2)
                    K.cash_ok = i & 1
                    K.last_ok = i >> 1
                    if not (v2 <= alpha or v >= beta):
                        K.st.cash_hits += 1
            K.wr[ply] = q
            return ub if ub <= alpha else lb
    if K.sweep_ok and sweep(K, &v):
        # the side on lead takes every trick left: the exact value
        K.wr[ply] = K.qwin
        return v
    if K.duck_ok and never_wins(K, &v):
        # the side not on lead can lose every trick left: a lower
        # bound when that is the max side, an upper bound when it
        # is the other side (exact when it meets the other bound)
        if R.side[S.leader]:
            if v <= alpha or v <= lb:
                K.wr[ply] = K.qwin
                return v
        elif v >= beta or v >= ub:
            K.wr[ply] = K.qwin
            return v
    if K.pivot_ok and pivot_safe(K, &v):
        # the max seat can avoid every penalty card left: a lower
        # bound (exact for penalty contracts: the best it can get)
        if v >= beta or v >= ub:
            K.wr[ply] = K.qwin
            return v
    if K.cover_ok and holder_cover(K, &v):
        # the one hand holding the penalty cards covers the max seat's
        # suits: the same lower bound
        if v >= beta or v >= ub:
            if DD_STATS:
                K.st.cover_hits += 1
            K.wr[ply] = K.qwin
            return v
    if K.part_ok and part_cover(K, &v):
        # one hand covers the max seat's suits: the max seat keeps that
        # hand's penalty cards above its own out of its tricks (several
        # hands holding penalty cards, or the max seat holding some)
        if v >= beta or v >= ub:
            if DD_STATS:
                K.st.part_hits += 1
            K.wr[ply] = K.qwin
            return v
    if K.count_ok and S.tricks_left >= count_min_k(K):
        # the tricks the max seat surely loses bound the tricks it wins,
        # and each of them holds one card of each hand: a count of the
        # penalty cards it takes
        v = count_floor(K, beta)
        if v >= beta:
            if DD_STATS:
                K.st.count_hits += 1
            K.wr[ply] = K.qwin
            return v
    if K.forced_ok:
        # the max seat must win this trick, with the penalty cards
        # the others can give it: an upper bound
        v = forced_take(K, ub)
        if v < ub:
            if v <= alpha:
                if DD_STATS:
                    K.st.forced_hits += 1
                K.wr[ply] = K.qwin
                return v
            ub = v
    if K.toosh_ok and S.tricks_left >= toosh_min_k(K):
        # Ltoosh: the tricks the max seat surely loses bound what it takes
        v = toosh_floor(K, beta)
        if v >= beta:
            if DD_STATS:
                K.st.toosh_hits += 1
            K.wr[ply] = K.qwin
            return v
    if R.quick_ok:
        quick_bounds(K, &lb, &ub)
        if K.later_ok:
            # trump_bounds' counts and more, in one pass
            pts = lb
            v2 = ub
            later_bounds(K, &lb, &ub, alpha, beta)
            if DD_STATS:
                if (ub <= alpha < v2) or (lb >= beta > pts):
                    K.st.later_hits += 1
        elif R.trump >= 0:
            trump_bounds(K, &lb, &ub)
        if ub <= alpha:
            K.wr[ply] = K.qwin
            return ub
        if lb >= beta:
            K.wr[ply] = K.qwin
            return lb
    return INF
