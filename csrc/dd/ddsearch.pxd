# The search of the generic double-dummy kernel (header only: cimported at
# compile time, no runtime module): fail-soft alpha-beta over single card
# plays on a kernel context (csrc/dd/ddctx.pxd), the null-window driver
# (MTD(f)) and the value of one root card.  At a trick boundary it asks the
# bounds (csrc/dd/ddbounds.pxd), then the table (csrc/dd/ddtable.pxd);
# moves come from csrc/dd/ddorder.pxd.  Winning ranks: every search leaves
# in ``wr[ply]`` the cards whose ranks decided its result.
from libc.stdint cimport uint64_t, uint32_t, uint8_t, int32_t
from bits cimport popcount, highest_bit, lowest_bit
from interrupt cimport signal_raised, INTERRUPT_MASK
from trickstate cimport RuleTable, TrickState, legal_mask, MAX_SEATS, NO_CARD
from ddstats cimport DD_STATS, count_cut, stat_row, BoundaryRecord
from ddctx cimport (DDCtx, INF, play, unplay, finish_trick, unfinish_trick, last_trick,
                    bump_history)
from ddbounds cimport boundary_bounds, second_hand_quick
from ddtable cimport TTSlot, table_key, table_probe, table_record
from ddorder cimport order_moves


cdef inline void record_boundary(DDCtx* K, int alpha, int beta, int result,
                                 uint64_t nodes) noexcept nogil:
    """The probe build: keep a searched trick boundary (bench/dd_boundaries.py)."""
    cdef BoundaryRecord* e = &K.st.rec[K.st.rec_count]
    cdef int i
    for i in range(K.R.nseats):
        e.hands[i] = K.S.hands[i]
    e.leader = K.S.leader
    e.alpha = alpha
    e.beta = beta
    e.result = result
    e.nodes = nodes
    K.st.rec_count += 1


cdef inline int search(DDCtx* K, int alpha, int beta, int ply) noexcept nogil:
    """Fail-soft alpha-beta: the max side's future value if it lies in
    (alpha, beta); otherwise a bound on the side of the window it fell.
    In winning-ranks mode ``wr[ply]`` is set to the cards whose ranks
    decided the result (the lowest per suit: every card from it up)."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int n = S.ncards
    cdef int seat, nm, i, card, v, v2, best, pts, ub, lb, bestmove = NO_CARD
    cdef int ttmove = NO_CARD
    cdef uint64_t legal, wacc = 0, wchild, ws, run, pin_here
    cdef int lowcut[4]
    cdef TTSlot slot
    cdef bint maximize, cut = 0
    cdef bint wm = K.wmode
    cdef int saved[MAX_SEATS]
    cdef int saved_leader, saved_max
    cdef int alpha0 = alpha, beta0 = beta
    cdef bint use_tt
    cdef uint64_t nodes0 = 0
    if DD_STATS:
        nodes0 = K.nodes
    K.wr[ply] = 0
    if K.aborted:
        return alpha
    K.nodes += 1
    if DD_STATS:
        K.st.profile[stat_row(S.tricks_left)][n] += 1
    if K.node_limit and K.nodes > K.node_limit:
        K.aborted = True
        return alpha
    if (K.nodes & INTERRUPT_MASK) == 0 and signal_raised():
        K.aborted = True
        K.interrupted = True
        return alpha
    if n == 0:
        if S.tricks_left == 0:
            return 0
        if S.tricks_left == 1:
            v = last_trick(K)
            K.wr[ply] = K.win_add
            return v
        # the table's memory is fetched while the bounds work
        table_key(K, &slot)
        v = boundary_bounds(K, alpha, beta, ply)
        if v != INF:
            return v
    if n == 1 and K.second_ok:
        v = second_hand_quick(K, alpha, beta, ply)
        if v != INF:
            if DD_STATS:
                K.st.second_hits += 1
            return v
    # two seats (exact keys): the follower's node is in the table too,
    # keyed with the card led
    use_tt = n == 0 or (n == 1 and R.nseats == 2 and not R.relative_ok
                        and not R.class_relative)
    if use_tt:
        if n:
            table_key(K, &slot)
        v = table_probe(K, &slot, alpha, beta, ply, &ttmove)
        if v != INF:
            if DD_STATS:
                K.st.table_hits[stat_row(S.tricks_left)] += 1
            return v
    seat = (S.leader + n) % R.nseats
    maximize = R.side[seat]
    legal = legal_mask(R, S, seat)
    if ttmove != NO_CARD and not ((legal >> ttmove) & 1):
        ttmove = NO_CARD
    nm = order_moves(K, seat, legal, ply, ttmove)
    best = -INF if maximize else INF
    if wm:
        lowcut[0] = lowcut[1] = lowcut[2] = lowcut[3] = 0
    for i in range(nm):
        card = K.moves[ply][i]
        if wm and card < lowcut[card >> 4]:
            # below every deciding card of its suit, like a card already
            # searched: the same result by relabelling the low cards
            continue
        play(K, seat, card)
        if S.ncards == R.nseats:
            saved_leader = S.leader
            saved_max = S.max_tricks
            for v in range(R.nseats):
                saved[v] = S.trick[v]
            pts = finish_trick(K)
            wchild = K.win_add
            v = pts + search(K, alpha - pts, beta - pts, ply + 1)
            unfinish_trick(K, saved, R.nseats, saved_leader, saved_max)
        else:
            wchild = 0
            v = search(K, alpha, beta, ply + 1)
        unplay(K, seat, card)
        if wm:
            wchild |= K.wr[ply + 1]
            # the cards equivalent to ``card`` (not searched) decide by
            # the same ranks, relabelled within the run: key the whole
            # run when any of it is keyed
            run = K.runs[ply][card]
            ws = wchild & R.suit_mask[R.suit_of[card]]
            if ws and highest_bit(run) >= lowest_bit(ws):
                wchild |= run
            wacc |= wchild
            if lowcut[card >> 4] == 0:
                ws = wacc & (<uint64_t>0xFFFF << (card & 0x30))
                v2 = lowest_bit(ws) if ws else (card & 0x30) + 16
                if highest_bit(run) < v2:
                    # the hand's cards of the suit below the line must
                    # be of one class: relabelling them keeps the class
                    # of every place in the hand (penalty keys)
                    pin_here = ((S.hands[seat] | run) & (<uint64_t>0xFFFF << (card & 0x30))
                                & (((<uint64_t>1) << (v2 & 63)) - 1 if v2 < 64
                                   else ~(<uint64_t>0)))
                    while pin_here:
                        if R.cls[lowest_bit(pin_here)] != R.cls[card]:
                            break
                        pin_here &= pin_here - 1
                    if pin_here == 0:
                        lowcut[card >> 4] = v2
        if maximize:
            if v > best:
                best = v
                bestmove = card
                if best >= beta:
                    bump_history(K, seat, card)
                    K.killer[ply] = card
                    cut = 1
                    break
                if best > alpha:
                    alpha = best
        else:
            if v < best:
                best = v
                bestmove = card
                if best <= alpha:
                    bump_history(K, seat, card)
                    K.killer[ply] = card
                    cut = 1
                    break
                if best < beta:
                    beta = best
    if DD_STATS:
        if cut:
            count_cut(&K.st.cut, n, i)
        else:
            K.st.cut.all_nodes[n] += 1
    if wm:
        # a cut-off rests on its one move; otherwise on every move
        K.wr[ply] = wchild if cut else wacc
    if use_tt and not K.aborted:
        table_record(K, &slot, best, alpha0, beta0, bestmove, ply)
    if DD_STATS:
        if (n == 0 and S.tricks_left == K.st.rec_depth and K.st.rec_count < K.st.rec_cap
                and not K.aborted):
            record_boundary(K, alpha0, beta0, best, K.nodes - nodes0)
    return best


cdef inline int mtdf(DDCtx* K, int guess, int lo, int hi, int ply, int* bracket) noexcept nogil:
    """Narrow [lo, hi] to the exact value with null-window searches.
    Every question that finished proved a bound, so after each one
    ``bracket`` (NULL: not wanted) holds the closed interval [lo, hi] the
    value is proved to lie in.  A question the node limit stopped proved
    nothing (its result is no bound): the driver stops there."""
    cdef int g = guess
    cdef int beta, v
    hi += 1            # half-open: value in [lo, hi)
    while lo + 1 < hi:
        beta = g
        if beta <= lo:
            beta = lo + 1
        if beta >= hi:
            beta = hi - 1
        v = search(K, beta - 1, beta, ply)
        if K.aborted:
            break
        if v < beta:
            hi = v + 1
        else:
            lo = v
        g = v
        if bracket != NULL:
            bracket[0] = lo
            bracket[1] = hi - 1
    return lo


cdef inline int solve_child(DDCtx* K, int card, int lo, int hi, int guess,
                            int* bracket) noexcept nogil:
    """Value of playing ``card`` now (points of a trick it completes
    included); ``bracket`` (two ints, set by the caller to [lo, hi]) is
    narrowed by every question that finished (``mtdf``)."""
    cdef TrickState* S = &K.S
    cdef int seat = (S.leader + S.ncards) % K.R.nseats
    cdef int pts = 0, v
    cdef int saved[MAX_SEATS]
    cdef int saved_leader, saved_n, saved_max
    cdef int br[2]
    play(K, seat, card)
    if S.ncards == K.R.nseats:
        saved_leader = S.leader
        saved_n = S.ncards
        saved_max = S.max_tricks
        for v in range(saved_n):
            saved[v] = S.trick[v]
        pts = finish_trick(K)
        br[0] = bracket[0] - pts
        br[1] = bracket[1] - pts
        v = pts + mtdf(K, guess - pts, lo - pts, hi - pts, 1, br)
        unfinish_trick(K, saved, saved_n, saved_leader, saved_max)
    else:
        br[0] = bracket[0]
        br[1] = bracket[1]
        v = mtdf(K, guess, lo, hi, 1, br)
    unplay(K, seat, card)
    bracket[0] = br[0] + pts
    bracket[1] = br[1] + pts
    return v
