# dixie-rook card play as compact-state operations for the search
# (compile-time header, cimported by csrc/search/ismcts.pyx and hand.pxd).
# Built from a seat view by solver/search/native.py (native_rook_search).
#
# 4 or 6 seats in two teams by parity, a trump colour, count cards, the
# nest's count and one more trick to the last trick's taker, most tricks +20
# (a tie: the expectation of the fair cut, half the hand score each way),
# the bid made or set.  The determinization walks a column graph
# (``ColumnSampler``): the other seats' hands and, when the searcher did not
# win the bid, the discards (the nest the last trick takes).  Trumps and the
# bid live in the state, not the rules, so that the whole-hand search
# (hand.pxd), whose auction and trump change from one play-out to the next,
# plays the same card rules.
from libc.stdint cimport uint64_t, int32_t, uint8_t
from bits cimport lowest_bit, trick_winner_c
from rng cimport Rng, rng_below
from typegraph cimport TypeGraph, columns_walk
from tree cimport Ops, random_bit, reduce_ranked, clamp1, card_tables
from cardfeat cimport CardPolicy, CardFacts, card_policy_probs, card_policy_draw, card_facts_fill

cdef enum:
    ROOK_BONUS = 20


cdef struct RookRules:
    int32_t points[64]         # a card's count
    int32_t nseats
    int32_t hand_size          # tricks in the hand
    int32_t seat               # the searching seat
    int32_t n_holders
    int32_t holder_seat[8]     # -1: the discards (their count is the nest's)
    double scale
    uint64_t root_keep         # the root's cards searched (one per class of equivalent cards)
    int equiv                  # 0: below the root, every legal card is searched (measurements)
    int playout                # 0: random play-outs; 1: the follower greedy (rook_playout);
                               # 2: always greedy (tests); 3: the rules player's cards (rook_rules_card)
    uint8_t suit_of[64]        # a card's colour (index >> 4), for trick_winner_c
    uint8_t strength[64]       # its rank (index & 15)
    CardPolicy cp              # the learned card policy (``Search.set_policy``), if loaded


cdef struct RookPlay:
    uint64_t hands[6]
    int32_t trick[6]
    int32_t ntrick
    int32_t leader
    int32_t tricks_done
    int32_t won[2]             # tricks per team (the nest counts as one)
    int32_t count[2]
    int32_t nest_pts           # the discards' count (drawn when hidden)
    int32_t nseats             # (a copy of the rules', for ``rook_mover``)
    int32_t trump              # colour 0..3
    int32_t bid
    int32_t bid_team
    uint64_t out               # the cards played (the table's included), for the policy


cdef inline int rook_to_move(const RookPlay* P) noexcept nogil:
    return (P.leader + P.ntrick) % P.nseats


cdef inline uint64_t rook_legal(const void* Pv, const void* Rv) noexcept nogil:
    cdef const RookPlay* P = <const RookPlay*>Pv
    cdef uint64_t hand = P.hands[rook_to_move(P)], f
    if P.ntrick == 0:
        return hand
    f = hand & ((<uint64_t>0xFFFF) << ((P.trick[0] >> 4) * 16))
    return f if f else hand


cdef inline int _beats(int* duel, int c, int trump, const RookRules* R) noexcept nogil:
    """Whether card ``c`` beats ``duel[0]``, the trick's winning card so far:
    the trick rule itself (``trick_winner_c``) over the two cards."""
    duel[1] = c
    return trick_winner_c(duel, 2, trump, R.suit_of, R.strength) == 1


cdef inline int rook_best(const RookPlay* P, const RookRules* R) noexcept nogil:
    """The place in the trick so far of the card winning it."""
    return trick_winner_c(<const int*>P.trick, P.ntrick, P.trump, R.suit_of, R.strength)


cdef inline void rook_apply(void* Pv, const void* Rv, int card) noexcept nogil:
    cdef RookPlay* P = <RookPlay*>Pv
    cdef const RookRules* R = <const RookRules*>Rv
    cdef int i, taker, team, pts = 0
    P.hands[rook_to_move(P)] &= ~((<uint64_t>1) << card)
    P.out |= (<uint64_t>1) << card
    P.trick[P.ntrick] = card
    P.ntrick += 1
    if P.ntrick < R.nseats:
        return
    for i in range(R.nseats):
        pts += R.points[P.trick[i]]
    taker = (P.leader + rook_best(P, R)) % R.nseats
    team = taker & 1
    P.won[team] += 1
    P.count[team] += pts
    P.tricks_done += 1
    if P.tricks_done == R.hand_size:
        P.won[team] += 1
        P.count[team] += P.nest_pts
    P.ntrick = 0
    P.leader = taker


cdef inline int rook_mover(const void* Pv) noexcept nogil:
    return rook_to_move(<const RookPlay*>Pv)


cdef inline int rook_over(const void* Pv, const void* Rv) noexcept nogil:
    return (<const RookPlay*>Pv).tricks_done >= (<const RookRules*>Rv).hand_size


cdef inline double rook_hand_diff(const RookPlay* P, int most) noexcept nogil:
    """Team 0's hand score minus team 1's when team ``most`` gets the 20."""
    cdef int cap[2]
    cap[0] = P.count[0] + (ROOK_BONUS if most == 0 else 0)
    cap[1] = P.count[1] + (ROOK_BONUS if most == 1 else 0)
    if cap[P.bid_team] < P.bid:
        cap[P.bid_team] = -P.bid
    return cap[0] - cap[1]


cdef inline double rook_value0(const RookPlay* P) noexcept nogil:
    """Team 0's hand score difference (a tie for most tricks: the mean of
    the cut's two outcomes, each of probability 1/2)."""
    if P.won[0] != P.won[1]:
        return rook_hand_diff(P, 0 if P.won[0] > P.won[1] else 1)
    return 0.5 * (rook_hand_diff(P, 0) + rook_hand_diff(P, 1))


cdef inline void team_parity_rewards(double v, int nseats, double* out) noexcept nogil:
    """``v`` (team 0's reward, clamped to [-1, 1]) for the even seats, its
    negation for the odd ones."""
    cdef int s
    v = clamp1(v)
    for s in range(nseats):
        out[s] = v if (s & 1) == 0 else -v


cdef inline void rook_rewards(const void* Pv, const void* Rv, double* out) noexcept nogil:
    cdef const RookRules* R = <const RookRules*>Rv
    team_parity_rewards(rook_value0(<const RookPlay*>Pv) / R.scale, R.nseats, out)


cdef inline void rook_determinize(void* Pv, const void* Rv, void* gv, Rng* r) noexcept nogil:
    cdef RookPlay* P = <RookPlay*>Pv
    cdef const RookRules* R = <const RookRules*>Rv
    cdef uint64_t got[8]
    cdef uint64_t m
    cdef int h, s, pts
    for h in range(R.n_holders):
        got[h] = 0
    columns_walk(<TypeGraph*>gv, r, got)
    for h in range(R.n_holders):
        s = R.holder_seat[h]
        if s >= 0:
            P.hands[s] = got[h]
        else:
            pts = 0
            m = got[h]
            while m:
                pts += R.points[lowest_bit(m)]
                m &= m - 1
            P.nest_pts = pts


cdef inline uint64_t rook_reduce(const void* Pv, const void* Rv, uint64_t L, int root) noexcept nogil:
    """As ``dix_reduce`` for dixie-rook card play: a card's score is its
    count."""
    cdef const RookPlay* P = <const RookPlay*>Pv
    cdef const RookRules* R = <const RookRules*>Rv
    cdef uint64_t live = 0
    cdef int i
    if root:
        return L & R.root_keep
    if not R.equiv:
        return L
    for i in range(R.nseats):
        live |= P.hands[i]
    for i in range(P.ntrick):
        live |= (<uint64_t>1) << P.trick[i]
    return reduce_ranked(L, live & ~P.hands[rook_to_move(P)], R.points)


cdef inline int rook_greedy(const RookPlay* P, const RookRules* R, uint64_t L) noexcept nogil:
    """The greedy follower's card (``P.ntrick`` > 0): partner winning and
    last to play, the card with the most count (then the lowest); partner
    winning otherwise, the lowest card without count; an opponent winning,
    the cheapest card that beats it (a side card before a trump, then the
    lowest), else the lowest card without count."""
    cdef int c, wi, best = -1, key, best_key = 1 << 30
    cdef int partner, last
    cdef int duel[2]                # the winning card so far, then a candidate
    cdef uint64_t m
    wi = rook_best(P, R)
    duel[0] = P.trick[wi]
    partner = (((P.leader + wi) % R.nseats) & 1) == (rook_to_move(P) & 1)
    last = P.ntrick == R.nseats - 1
    m = L
    while m:
        c = lowest_bit(m)
        m &= m - 1
        if partner and last:
            key = -R.points[c] * 64 + (c & 15)
        elif not partner and _beats(duel, c, P.trump, R):
            key = -4096 + (c & 15) + (32 if (c >> 4) == P.trump else 0)
        else:
            key = R.points[c] * 64 + (c & 15) + (32 if (c >> 4) == P.trump else 0)
        if key < best_key:
            best, best_key = c, key
    return best


cdef inline int rook_rules_card(const RookPlay* P, const RookRules* R, uint64_t L) noexcept nogil:
    """The rules player's card (solver/games/dixie_rook/heuristic.py):
    leading, a non-trump 14, else the lowest card without count of the
    longest non-trump colour (then the lowest rank), else the highest trump;
    following, onto the partner's winning card the most count (not a trump,
    then the lowest rank), against an opponent the cheapest winning card (a
    side card before a trump, then the lowest rank), else the least useful
    card (not a trump, then the least count, then the lowest rank).  Ties
    go to the lowest card index, as the Python player's ``min`` / ``max``
    over its ascending legal cards."""
    cdef int c, wi, best = -1, key, best_key, col, n
    cdef int length[4]
    cdef uint64_t m, plain
    cdef int cards[6]
    if P.ntrick == 0:
        plain = L & ~((<uint64_t>0xFFFF) << (P.trump * 16))
        m = plain
        while m:
            c = lowest_bit(m)
            m &= m - 1
            if (c & 15) == 14:
                return c
        if plain:
            for col in range(4):
                length[col] = 0
            m = plain
            while m:
                length[lowest_bit(m) >> 4] += 1
                m &= m - 1
            best_key = 1 << 30
            m = plain
            while m:
                c = lowest_bit(m)
                m &= m - 1
                key = -length[c >> 4] * 1024 + (64 if R.points[c] > 0 else 0) + (c & 15)
                if key < best_key:
                    best, best_key = c, key
            return best
        best_key = -1
        m = L
        while m:
            c = lowest_bit(m)
            m &= m - 1
            if (c & 15) > best_key:
                best, best_key = c, c & 15
        return best
    wi = rook_best(P, R)
    if (((P.leader + wi) % R.nseats) & 1) == (rook_to_move(P) & 1):
        # max (count, not trump, -rank): the first maximum in ascending order
        best_key = -(1 << 30)
        m = L
        while m:
            c = lowest_bit(m)
            m &= m - 1
            key = R.points[c] * 1024 + (0 if (c >> 4) == P.trump else 512) - (c & 15)
            if key > best_key:
                best, best_key = c, key
        return best
    n = P.ntrick
    for col in range(n):
        cards[col] = P.trick[col]
    best_key = 1 << 30
    m = L
    while m:
        c = lowest_bit(m)
        m &= m - 1
        cards[n] = c
        if trick_winner_c(cards, n + 1, P.trump, R.suit_of, R.strength) == n:
            key = (64 if (c >> 4) == P.trump else 0) + (c & 15)
            if key < best_key:
                best, best_key = c, key
    if best >= 0:
        return best
    best_key = 1 << 30
    m = L
    while m:
        c = lowest_bit(m)
        m &= m - 1
        key = (4096 if (c >> 4) == P.trump else 0) + R.points[c] * 64 + (c & 15)
        if key < best_key:
            best, best_key = c, key
    return best


cdef inline void rook_facts(const RookPlay* P, const RookRules* R, CardFacts* F) noexcept nogil:
    """The public facts of the card to play now, for the learned policy (the
    opponent model's ``CardPlay`` of solver/games/dixie_rook/model.py; the
    teams are the seats' parities)."""
    cdef int w = rook_best(P, R) if P.ntrick else 0
    card_facts_fill(&R.cp, F, P.trick, P.ntrick, R.nseats, w,
                    P.ntrick and ((P.leader + w) % R.nseats) & 1 == rook_to_move(P) & 1, P.out)


cdef inline int rook_policy(const void* Pv, const void* Rv, uint64_t L,
                            double* probs) noexcept nogil:
    """``Ops.policy``: the learned policy's probability of each card of
    ``L`` for the mover's hand in this world."""
    cdef const RookPlay* P = <const RookPlay*>Pv
    cdef const RookRules* R = <const RookRules*>Rv
    cdef CardFacts F
    rook_facts(P, R, &F)
    card_policy_probs(&R.cp, 0, &F, P.hands[rook_to_move(P)], L, probs)
    return 1


cdef inline int rook_card_playout(const RookPlay* P, const RookRules* R, uint64_t L,
                                  Rng* r) noexcept nogil:
    """A play-out's card: drawn from the learned policy where it is loaded
    with ``playout`` 1 (2: a lead drawn from it, a follower's card by
    ``R.playout``), else by ``R.playout`` (see ``RookRules``)."""
    cdef CardFacts F
    if R.cp.playout == 1 or (R.cp.playout == 2 and P.ntrick == 0):
        rook_facts(P, R, &F)
        return card_policy_draw(&R.cp, 0, &F, P.hands[rook_to_move(P)], L, r)
    if R.playout == 3:
        return rook_rules_card(P, R, L)
    if R.playout == 0 or P.ntrick == 0 or (R.playout == 1 and rng_below(r, 4) == 0):
        return random_bit(L, r)
    return rook_greedy(P, R, L)


cdef inline int rook_playout(const void* Pv, const void* Rv, uint64_t L, Rng* r) noexcept nogil:
    """A play-out's card in dixie-rook.  ``R.playout`` 0: any legal card at
    random.  1: the leader at random; the follower, three times in four, by
    the greedy rule (``rook_greedy``), else at random."""
    return rook_card_playout(<const RookPlay*>Pv, <const RookRules*>Rv, L, r)


cdef inline Ops rook_ops() noexcept:
    cdef Ops o
    o.legal = rook_legal
    o.apply = rook_apply
    o.mover = rook_mover
    o.over = rook_over
    o.rewards = rook_rewards
    o.determinize = rook_determinize
    o.playout = rook_playout
    o.reduce = rook_reduce
    o.prior = NULL
    o.policy = NULL
    o.value = NULL
    o.state_size = sizeof(RookPlay)
    return o


cdef inline int rook_rules_load(RookRules* R, dict rules) except -1:
    """The rules every dixie-rook search shares (``native_rook_search``)."""
    cdef int i
    n = rules["nseats"]
    holders = rules["holder_seat"]
    if n not in (4, 6) or len(holders) > 8:
        raise ValueError("4 or 6 seats, at most 8 holders")
    for i in range(64):
        R.points[i] = rules["points"][i]
    R.nseats = n
    R.hand_size = rules["hand_size"]
    R.seat = rules["seat"]
    R.n_holders = len(holders)
    for i in range(len(holders)):
        R.holder_seat[i] = holders[i]
    R.scale = rules["scale"]
    R.root_keep = rules.get("root_keep", 0xFFFFFFFFFFFFFFFF)
    R.equiv = rules.get("equiv", 1)
    R.playout = rules.get("playout", 0)
    card_tables(R.suit_of, R.strength)
    return 0


cdef inline int rook_load(RookRules* R, RookPlay* P, object compiled, dict rules,
                          dict state) except -1:
    cdef int i, n
    if compiled.n_holders != len(rules["holder_seat"]):
        raise ValueError("one seat (or -1) per holder of the sampler")
    rook_rules_load(R, rules)
    n = R.nseats
    for i in range(6):
        P.hands[i] = state["hands"][i] if i < n else 0
        P.trick[i] = state["trick"][i] if i < len(state["trick"]) else 0
    P.ntrick = len(state["trick"])
    P.leader = state["leader"]
    P.tricks_done = state["tricks_done"]
    P.won[0], P.won[1] = state["won"]
    P.count[0], P.count[1] = state["count"]
    P.nest_pts = state["nest_pts"]
    P.nseats = n
    P.trump = rules["trump"]
    P.bid = rules["bid"]
    P.bid_team = rules["bid_team"]
    P.out = state.get("out", 0)
    return 0
