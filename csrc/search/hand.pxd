# A whole dixie-rook hand as compact-state operations for the search
# (compile-time header, cimported by csrc/search/ismcts.pyx): the auction,
# the bid winner's nest discards and trumps, then the card play (rook.pxd's
# rules).  Built from a seat view by solver/search/native.py
# (native_rook_search).
#
# The phases are those of solver/games/dixie_rook/ (its ``Auction`` for
# the bidding).  Actions are bit indices per phase: a bid of 70 + 5k is bit
# k (0..10) and a pass ``BID_PASS_BIT`` (11); a discard, the card's index;
# trumps, the colour (0..3); in play, the card.  A hand every seat passes
# is worth nothing to anyone (a new deal follows), as ``round_returns``
# scores it.
#
# Play-out policies (``RookRules.playout``): 0, every move at random; 1, the
# rules player's bids, discards and trumps (``hand_rules_move``, ported
# from solver/games/dixie_rook/heuristic.py move for move) and the card
# search's play-out (the greedy follower three times in four); 3, the rules
# player's move everywhere (``rook_rules_card``).
from libc.stdint cimport uint64_t, int32_t
from bits cimport popcount, lowest_bit
from rng cimport Rng
from typegraph cimport TypeGraph, columns_walk
from tree cimport Ops, random_bit
from rook cimport (RookRules, RookPlay, rook_rules_load, rook_legal, rook_apply, rook_to_move,
                   rook_value0, rook_reduce, rook_card_playout, team_parity_rewards)

cdef enum:
    H_AUCTION = 0
    H_DISCARD = 1
    H_TRUMP = 2
    H_PLAY = 3
    H_OVER = 4
    MIN_BID = 70
    MAX_BID = 120
    BID_STEP = 5
    BID_PASS_BIT = 11
    #: holder codes of the determinization besides seats
    NEST_HOLDER = -1
    DISCARDS_HOLDER = -2


cdef struct HandRules:
    RookRules rr               # the card play's rules (and the holders, seat, scale)
    int32_t must_bid           # dealer_must_bid
    int32_t nest_size


cdef struct HandPlay:
    RookPlay play              # the card play (first: its hands)
    int32_t phase
    int32_t to_act
    int32_t high_bid           # 0: no bid yet
    int32_t high_bidder        # -1: none
    int32_t passed             # bit per seat
    int32_t winner             # the bid winner, -1 before (and when passed out)
    int32_t ndiscards
    uint64_t nest
    uint64_t discards


# ---- the rules player (solver/games/dixie_rook/heuristic.py) --------------

cdef inline int best_trump(uint64_t cards) noexcept nogil:
    """The longest colour, then the one with the higher rank sum, then the
    lowest."""
    cdef int col, n, ranks, best = 0, key, best_key = -1
    cdef uint64_t m
    for col in range(4):
        m = cards & ((<uint64_t>0xFFFF) << (16 * col))
        n = popcount(m)
        ranks = 0
        while m:
            ranks += lowest_bit(m) & 15
            m &= m - 1
        key = n * 1024 + ranks
        if key > best_key:
            best, best_key = col, key
    return best


cdef inline double rook_estimate(uint64_t cards, const RookRules* R) noexcept nogil:
    """Points the hand's team may expect with its best trump colour:
    ``25 + 5 x length + 7 x 14s + 3 x 13s + count / 2``, the length scaled
    to a 13-card hand."""
    cdef int trump = best_trump(cards), aces = 0, kings = 0, count = 0, c
    cdef double length = <double>(popcount(cards & ((<uint64_t>0xFFFF) << (16 * trump))) * 13) \
        / R.hand_size
    cdef uint64_t m = cards
    while m:
        c = lowest_bit(m)
        m &= m - 1
        aces += (c & 15) == 14
        kings += (c & 15) == 13
        count += R.points[c]
    return 25 + 5 * length + 7 * aces + 3 * kings + count / 2.0


cdef inline int rules_discard(uint64_t mine) noexcept nogil:
    """The card buried: not of the trump colour, not a 14, without count,
    of the shortest colour, the lowest rank; ties to the lowest card."""
    cdef int trump = best_trump(mine), c, key, best = -1, best_key = 1 << 30
    cdef int length[4]
    cdef int col
    cdef uint64_t m
    for col in range(4):
        length[col] = popcount(mine & ((<uint64_t>0xFFFF) << (16 * col)))
    m = mine
    while m:
        c = lowest_bit(m)
        m &= m - 1
        key = (<int>((c >> 4) == trump) << 20) + (<int>((c & 15) == 14) << 19) + \
            (<int>((c & 15) == 5 or (c & 15) == 10 or (c & 15) == 13) << 18) + \
            length[c >> 4] * 64 + (c & 15)
        if key < best_key:
            best, best_key = c, key
    return best


cdef inline int rules_bid(const HandPlay* H, const HandRules* R, uint64_t L) noexcept nogil:
    """The rules player's bid: the lowest legal bid while it is within the
    hand's estimate, never over its partner's bid; the last seat left with
    no bid made bids 70."""
    cdef int seat = H.to_act, lowest
    cdef uint64_t bids = L & ~((<uint64_t>1) << BID_PASS_BIT)
    if not (L >> BID_PASS_BIT) & 1:
        return lowest_bit(bids)
    if H.high_bidder < 0 and popcount(H.passed) == R.rr.nseats - 1:
        return 0
    if H.high_bidder >= 0 and (H.high_bidder & 1) == (seat & 1):
        return BID_PASS_BIT
    if not bids:
        return BID_PASS_BIT
    lowest = MIN_BID + BID_STEP * lowest_bit(bids)
    if lowest <= rook_estimate(H.play.hands[seat], &R.rr):
        return lowest_bit(bids)
    return BID_PASS_BIT


cdef inline int hand_rules_move(const HandPlay* H, const HandRules* R, uint64_t L) noexcept nogil:
    """The rules player's bid, discard or trumps (-1 in play)."""
    if H.phase == H_AUCTION:
        return rules_bid(H, R, L)
    if H.phase == H_DISCARD:
        return rules_discard(H.play.hands[H.winner])
    if H.phase == H_TRUMP:
        return best_trump(H.play.hands[H.winner])
    return -1


# ---- the phases ------------------------------------------------------------------

cdef inline int hand_mover(const void* Hv) noexcept nogil:
    cdef const HandPlay* H = <const HandPlay*>Hv
    if H.phase == H_AUCTION:
        return H.to_act
    if H.phase == H_PLAY:
        return rook_to_move(&H.play)
    return H.winner


cdef inline int pass_forced(const HandPlay* H, const HandRules* R) noexcept nogil:
    """``dealer_must_bid``: every other seat passed without a bid."""
    return R.must_bid and H.high_bidder < 0 and popcount(H.passed) == R.rr.nseats - 1 and \
        not (H.passed >> H.to_act) & 1


cdef inline uint64_t hand_legal(const void* Hv, const void* Rv) noexcept nogil:
    cdef const HandPlay* H = <const HandPlay*>Hv
    cdef const HandRules* R = <const HandRules*>Rv
    cdef int lowest
    cdef uint64_t m
    if H.phase == H_PLAY:
        return rook_legal(&H.play, &R.rr)
    if H.phase == H_DISCARD:
        return H.play.hands[H.winner]
    if H.phase == H_TRUMP:
        return 0xF
    lowest = H.high_bid + BID_STEP if H.high_bid + BID_STEP > MIN_BID else MIN_BID
    m = 0
    if lowest <= MAX_BID:
        m = ((<uint64_t>1) << ((MAX_BID - MIN_BID) // BID_STEP + 1)) - \
            ((<uint64_t>1) << ((lowest - MIN_BID) // BID_STEP))
    if not pass_forced(H, R):
        m |= (<uint64_t>1) << BID_PASS_BIT
    return m


cdef inline void hand_apply(void* Hv, const void* Rv, int a) noexcept nogil:
    cdef HandPlay* H = <HandPlay*>Hv
    cdef const HandRules* R = <const HandRules*>Rv
    cdef int seat, n = R.rr.nseats, live, c, w
    cdef uint64_t m
    if H.phase == H_PLAY:
        rook_apply(&H.play, &R.rr, a)
        if H.play.tricks_done >= R.rr.hand_size:
            H.phase = H_OVER
        return
    if H.phase == H_DISCARD:
        H.play.hands[H.winner] &= ~((<uint64_t>1) << a)
        H.discards |= (<uint64_t>1) << a
        H.ndiscards += 1
        if H.ndiscards == R.nest_size:
            H.phase = H_TRUMP
        return
    if H.phase == H_TRUMP:
        H.play.trump = a
        H.play.nest_pts = 0
        m = H.discards
        while m:
            c = lowest_bit(m)
            m &= m - 1
            H.play.nest_pts += R.rr.points[c]
        H.phase = H_PLAY
        return
    seat = H.to_act
    if a == BID_PASS_BIT:
        H.passed |= 1 << seat
    else:
        H.high_bid = MIN_BID + BID_STEP * a
        H.high_bidder = seat
    live = ((1 << n) - 1) & ~H.passed
    if H.high_bid == MAX_BID or (H.high_bidder >= 0 and live == (1 << H.high_bidder)):
        w = H.winner = H.high_bidder
        H.play.hands[w] |= H.nest
        H.play.bid = H.high_bid
        H.play.bid_team = w & 1
        H.phase = H_DISCARD
        return
    if live == 0:
        H.phase = H_OVER                 # passed out
        return
    seat = (seat + 1) % n
    while (H.passed >> seat) & 1:
        seat = (seat + 1) % n
    H.to_act = seat


cdef inline int hand_over(const void* Hv, const void* Rv) noexcept nogil:
    return (<const HandPlay*>Hv).phase == H_OVER


cdef inline void hand_rewards(const void* Hv, const void* Rv, double* out) noexcept nogil:
    cdef const HandPlay* H = <const HandPlay*>Hv
    cdef const HandRules* R = <const HandRules*>Rv
    if H.winner < 0:                     # passed out: no score
        team_parity_rewards(0.0, R.rr.nseats, out)
    else:
        team_parity_rewards(rook_value0(&H.play) / R.rr.scale, R.rr.nseats, out)


cdef inline void hand_determinize(void* Hv, const void* Rv, void* gv, Rng* r) noexcept nogil:
    cdef HandPlay* H = <HandPlay*>Hv
    cdef const HandRules* R = <const HandRules*>Rv
    cdef uint64_t got[8]
    cdef int h, s
    for h in range(R.rr.n_holders):
        got[h] = 0
    columns_walk(<TypeGraph*>gv, r, got)
    for h in range(R.rr.n_holders):
        s = R.rr.holder_seat[h]
        if s >= 0:
            H.play.hands[s] = got[h]
        elif s == NEST_HOLDER:
            H.nest = got[h]
        else:
            H.discards = got[h]


cdef inline int hand_prior(const void* Hv, const void* Rv, uint64_t L) noexcept nogil:
    return hand_rules_move(<const HandPlay*>Hv, <const HandRules*>Rv, L)


cdef inline int hand_playout(const void* Hv, const void* Rv, uint64_t L, Rng* r) noexcept nogil:
    cdef const HandPlay* H = <const HandPlay*>Hv
    cdef const HandRules* R = <const HandRules*>Rv
    if R.rr.playout == 0:
        return random_bit(L, r)
    if H.phase == H_PLAY:
        return rook_card_playout(&H.play, &R.rr, L, r)
    return hand_rules_move(H, R, L)


cdef inline uint64_t hand_reduce(const void* Hv, const void* Rv, uint64_t L, int root) noexcept nogil:
    """In play below the root, one card of each run of equivalent cards
    (``rook_reduce``); elsewhere every legal move."""
    cdef const HandPlay* H = <const HandPlay*>Hv
    cdef const HandRules* R = <const HandRules*>Rv
    if root or H.phase != H_PLAY:
        return L
    return rook_reduce(&H.play, &R.rr, L, 0)


cdef inline Ops hand_ops() noexcept:
    cdef Ops o
    o.legal = hand_legal
    o.apply = hand_apply
    o.mover = hand_mover
    o.over = hand_over
    o.rewards = hand_rewards
    o.determinize = hand_determinize
    o.playout = hand_playout
    o.reduce = hand_reduce
    o.prior = hand_prior
    o.policy = NULL
    o.value = NULL
    o.state_size = sizeof(HandPlay)
    return o


cdef inline int hand_load(HandRules* R, HandPlay* H, object compiled, dict rules,
                          dict state) except -1:
    """Fill the rules and the base state from ``native_rook_search``'s
    dicts."""
    cdef int i, n, c
    if compiled.n_holders != len(rules["holder_seat"]):
        raise ValueError("one seat (or -1 nest, -2 discards) per holder of the sampler")
    rook_rules_load(&R.rr, rules)
    R.must_bid = rules["must_bid"]
    R.nest_size = rules["nest_size"]
    n = R.rr.nseats
    for i in range(6):
        H.play.hands[i] = state["hands"][i] if i < n else 0
        H.play.trick[i] = 0
    H.play.ntrick = 0
    H.play.leader = state["leader"]
    H.play.tricks_done = 0
    H.play.won[0] = H.play.won[1] = 0
    H.play.count[0] = H.play.count[1] = 0
    H.play.nest_pts = 0
    H.play.nseats = n
    H.play.trump = -1
    H.play.bid = state["high_bid"]
    H.play.bid_team = state["winner"] & 1 if state["winner"] >= 0 else 0
    H.phase = state["phase"]
    H.to_act = state["to_act"]
    H.high_bid = state["high_bid"]
    H.high_bidder = state["high_bidder"]
    H.passed = 0
    for i in range(n):
        if state["passed"][i]:
            H.passed |= 1 << i
    H.winner = state["winner"]
    H.ndiscards = len(state["discards"])
    H.nest = 0
    for c in state["nest"]:
        H.nest |= (<uint64_t>1) << c
    H.discards = 0
    for c in state["discards"]:
        H.discards |= (<uint64_t>1) << c
    return 0
