# cython: language_level=3
"""SO-ISMCTS for card play, in C over compact states (nogil): dix, the
trick contracts and the layout of trix / tricks, and dixie-rook's card play.

The same algorithm as ``solver/search/ismcts.py`` (its pure-Python twin;
see that module for the description): per iteration a uniform determinization (a
walk of the seat view's compiled sampler graph, ``walker.pxd``), UCB1 with
availability counts down a tree keyed by cards, a uniformly random rollout
to the end of the round, and the round's score difference divided by 30 as
the reward.  Root-parallel: each thread grows its own tree from its own
seed and the root statistics are summed, so a seed and a thread count fix
the answer.

The tree code (``grow_tree``) is written once against a small table of
game operations (``Ops``: legal moves, apply, seat to move, end, rewards,
determinize); each game supplies its compact state and rules.  The compact
dix state (``DixPlay``) carries the stock, so a determinization plays the
draws after tricks 1-13 exactly as the rules do; ``TrickPlay`` is a 4-seat
no-trump trick deal with per-card and per-trick points and trix doubling.

Progress and cancellation: while the trees grow, the calling thread is a
monitor (OpenMP thread 0 of the team; the trees grow on threads 1..T).
About every ``POLL_SECONDS`` it takes the GIL and calls ``poll(iterations,
visits, means)`` with the root statistics so far (read while the trees
grow: approximate, for reports); a true result, or an exception (Ctrl-C
raises ``KeyboardInterrupt`` there when the caller is the main thread),
sets a stop flag that every tree checks each 64 iterations, so the search
ends within milliseconds.  A stopped search returns its statistics as a
finished one does; an exception is re-raised once the trees have stopped.
"""
from cython.parallel cimport prange
from libc.math cimport log, sqrt
from libc.stdint cimport uint64_t, int32_t, uint8_t
from libc.stdlib cimport malloc, free, calloc
from posix.unistd cimport usleep
cimport openmp
from libc.string cimport memcpy, memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from bits cimport popcount, lowest_bit, highest_bit
from rng cimport Rng, rng_seed, rng_below, _splitmix
from walker cimport Graph, graph_walk, graph_load, graph_scratch, graph_free
from typegraph cimport (TypeGraph, typegraph_load, typegraph_copy, typegraph_free,
                        typegraph_free_scratch, holders_walk, columns_walk)

DEF MAX_SLOTS = 64


cdef struct DixRules:
    uint8_t suit_of[64]        # effective suit (the joker: trumps); 255 not in play
    uint8_t strength[64]
    uint8_t pips[64]
    uint64_t suit_mask[4]
    int trump                  # -1: no trumps
    int free_play              # free_play_while_stock
    int stock_len              # 26, or 0 (seventeen)
    int total_tricks           # 26 or 17
    int seat                   # the searching seat
    uint64_t played            # cards played this round before the search
    int32_t dest[MAX_SLOTS]    # per sampler slot: -1 opponent held, >= 0 stock place, -2 unseen
    int playout                # 0: random play-outs; 1: the follower greedy (see dix_playout); 2: always greedy (tests)
    uint64_t root_keep         # the root's cards searched (one per class of equivalent cards)
    int equiv                  # 0: below the root, every legal card is searched (measurements)
    int32_t order[4][32]       # each effective suit's cards, weakest first
    uint64_t pip_mask[11]      # the cards of each pip value
    int32_t order_len[4]


cdef struct DixPlay:
    uint64_t hands[2]
    int32_t stock[26]
    int stock_pos
    int leader
    int lead_card              # -1: no card on the table
    int tricks_done
    int won[2]
    int tens[2]
    int last_winner


cdef struct Node:
    int32_t first_child
    int32_t next_sibling
    int32_t action
    int32_t mover              # the seat that moved into this node
    int32_t visits
    int32_t avail
    double total
    uint64_t tried             # actions with a child


cdef inline int to_move(const DixPlay* P) noexcept nogil:
    return P.leader if P.lead_card < 0 else 1 - P.leader


cdef inline uint64_t legal(const DixPlay* P, const DixRules* R) noexcept nogil:
    cdef int seat = to_move(P)
    cdef uint64_t hand = P.hands[seat]
    cdef uint64_t f
    if P.lead_card < 0:
        return hand
    if R.free_play and P.stock_pos < R.stock_len:
        return hand
    f = hand & R.suit_mask[R.suit_of[P.lead_card]]
    return f if f else hand


cdef inline void apply(DixPlay* P, const DixRules* R, int card) noexcept nogil:
    cdef int seat = to_move(P)
    cdef int lead, winner
    P.hands[seat] &= ~((<uint64_t>1) << card)
    if P.lead_card < 0:
        P.lead_card = card
        return
    lead = P.lead_card
    if R.suit_of[card] == R.suit_of[lead]:
        winner = seat if R.strength[card] > R.strength[lead] else P.leader
    elif R.suit_of[card] == R.trump:
        winner = seat
    else:
        winner = P.leader
    P.won[winner] += 1
    if R.pips[lead] + R.pips[card] == 10:
        P.tens[winner] += 1
    P.tricks_done += 1
    P.last_winner = winner
    P.lead_card = -1
    P.leader = winner
    if P.tricks_done <= 13 and P.stock_pos < R.stock_len:
        P.hands[winner] |= (<uint64_t>1) << P.stock[P.stock_pos]
        P.hands[1 - winner] |= (<uint64_t>1) << P.stock[P.stock_pos + 1]
        P.stock_pos += 2


cdef inline double reward0(const DixPlay* P) noexcept nogil:
    """Seat 0's round result (score difference, tie-breaks as half a point)
    divided by 30 and clipped to [-1, 1]."""
    cdef int s0 = P.won[0] - 4 * P.tens[0]
    cdef int s1 = P.won[1] - 4 * P.tens[1]
    cdef double d = s0 - s1
    if d == 0:
        if P.tens[0] != P.tens[1]:
            d = 0.5 if P.tens[0] < P.tens[1] else -0.5
        else:
            d = 0.5 if P.last_winner == 0 else -0.5
    d /= 30.0
    if d > 1.0:
        return 1.0
    if d < -1.0:
        return -1.0
    return d


cdef inline int random_bit(uint64_t m, Rng* r) noexcept nogil:
    cdef int k = rng_below(r, popcount(m))
    while k > 0:
        m &= m - 1
        k -= 1
    return lowest_bit(m)


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


ctypedef uint64_t (*legal_fn)(const void* P, const void* R) noexcept nogil
ctypedef void (*apply_fn)(void* P, const void* R, int card) noexcept nogil
ctypedef int (*mover_fn)(const void* P) noexcept nogil
ctypedef int (*over_fn)(const void* P, const void* R) noexcept nogil
ctypedef void (*rewards_fn)(const void* P, const void* R, double* out) noexcept nogil
ctypedef void (*determinize_fn)(void* P, const void* R, void* sampler, Rng* r) noexcept nogil
ctypedef int (*playout_fn)(const void* P, const void* R, uint64_t legal, Rng* r) noexcept nogil
ctypedef uint64_t (*reduce_fn)(const void* P, const void* R, uint64_t legal, int root) noexcept nogil


cdef uint64_t no_reduce(const void* P, const void* R, uint64_t L, int root) noexcept nogil:
    return L


cdef inline uint64_t reduce_ranked(uint64_t L, uint64_t other, const int32_t* attr) noexcept nogil:
    """``L`` without the cards equivalent to a lower one of ``L`` in a game
    whose card is suit * 16 + rank with the rank its strength in the suit:
    two legal cards of a suit are equivalent when they score alike
    (``attr``) and no card of ``other`` (live cards of the other hands and
    the table) ranks between them (the mover's own cards between them never
    share a trick with either); each class keeps its lowest card."""
    cdef uint64_t m = L, between
    cdef int c, k, n = 0, p
    cdef int seen[16]
    while m:
        c = lowest_bit(m)
        m &= m - 1
        if n and (seen[0] >> 4) != (c >> 4):
            n = 0                           # a new suit
        k = n - 1
        while k >= 0 and attr[seen[k]] != attr[c]:
            k -= 1
        if k >= 0:
            p = seen[k]
            between = (((<uint64_t>1) << c) - 1) & ~(((<uint64_t>2) << p) - 1)
            if not (other & between):
                L &= ~((<uint64_t>1) << c)
        if n < 16:
            seen[n] = c
            n += 1
    return L


cdef int random_playout(const void* P, const void* R, uint64_t L, Rng* r) noexcept nogil:
    return random_bit(L, r)


cdef struct Ops:
    legal_fn legal
    apply_fn apply
    mover_fn mover
    over_fn over
    rewards_fn rewards
    determinize_fn determinize
    playout_fn playout         # a play-out's move among the legal ones
    reduce_fn reduce           # the legal moves the tree searches (one per equivalent run)
    size_t state_size


#: seconds between two calls of a search's ``poll`` (progress, stop, signals)
cdef double POLL_SECONDS = 0.05


cdef long grow_tree(Node* nodes, int max_nodes, const Ops* ops, const void* base,
                    const void* R, void* sampler, uint64_t seed, long iterations,
                    double deadline, double c, volatile int* stop, volatile long* done,
                    double* root_sq) noexcept nogil:
    """Run one tree's iterations (see the module docstring); returns the
    number done.  ``sampler`` is this thread's own determinization data;
    ``stop[0]`` set ends the search; ``done[0]`` counts the iterations so
    far (for the monitor); ``root_sq[a]`` sums the squared rewards of root
    action ``a`` (for the interval of its mean)."""
    cdef Rng r
    cdef uint64_t P[64]             # the state (any game's, <= 512 bytes)
    cdef double rew[8]
    cdef int32_t path[128]
    cdef int path_len, i, node, ch, best, a, mover, n_nodes = 1
    cdef uint64_t L, untried
    cdef double score, best_score
    cdef double rsq[64]             # squared root rewards, local: no aliasing in the loop
    cdef long it = 0
    memset(rsq, 0, sizeof(rsq))
    rng_seed(&r, seed)
    nodes[0].first_child = -1
    nodes[0].next_sibling = -1
    nodes[0].visits = 0
    nodes[0].tried = 0
    while it < iterations:
        if (it & 63) == 0 and it > 0:
            done[0] = it
            if stop[0] or (deadline > 0 and now() >= deadline):
                break
        memcpy(P, base, ops.state_size)
        ops.determinize(P, R, sampler, &r)
        node = 0
        path_len = 0
        while not ops.over(P, R):
            L = ops.reduce(P, R, ops.legal(P, R), node == 0)
            mover = ops.mover(P)
            best = -1
            best_score = -1e300
            ch = nodes[node].first_child
            while ch >= 0:
                if (L >> nodes[ch].action) & 1:
                    nodes[ch].avail += 1
                    score = nodes[ch].total / nodes[ch].visits + \
                        c * sqrt(log(<double>nodes[ch].avail) / nodes[ch].visits)
                    if score > best_score:
                        best_score = score
                        best = ch
                ch = nodes[ch].next_sibling
            untried = L & ~nodes[node].tried
            if untried and n_nodes < max_nodes:
                a = random_bit(untried, &r)
                ch = n_nodes
                n_nodes += 1
                nodes[ch].first_child = -1
                nodes[ch].next_sibling = nodes[node].first_child
                nodes[ch].action = a
                nodes[ch].mover = mover
                nodes[ch].visits = 0
                nodes[ch].avail = 1
                nodes[ch].total = 0.0
                nodes[ch].tried = 0
                nodes[node].first_child = ch
                nodes[node].tried |= (<uint64_t>1) << a
                ops.apply(P, R, a)
                path[path_len] = ch
                path_len += 1
                break
            if best < 0:          # node pool full: finish by rollout
                break
            ops.apply(P, R, nodes[best].action)
            path[path_len] = best
            path_len += 1
            node = best
        while not ops.over(P, R):
            ops.apply(P, R, ops.playout(P, R, ops.legal(P, R), &r))
        ops.rewards(P, R, rew)
        nodes[0].visits += 1
        for i in range(path_len):
            nodes[path[i]].visits += 1
            nodes[path[i]].total += rew[nodes[path[i]].mover]
        if path_len:
            rsq[nodes[path[0]].action] += rew[nodes[path[0]].mover] * rew[nodes[path[0]].mover]
        it += 1
    done[0] = it
    memcpy(root_sq, rsq, sizeof(rsq))
    return it


# ---- dix as Ops ----------------------------------------------------------

cdef uint64_t dix_legal(const void* P, const void* R) noexcept nogil:
    return legal(<const DixPlay*>P, <const DixRules*>R)


cdef void dix_apply(void* P, const void* R, int card) noexcept nogil:
    apply(<DixPlay*>P, <const DixRules*>R, card)


cdef int dix_mover(const void* P) noexcept nogil:
    return to_move(<const DixPlay*>P)


cdef int dix_over(const void* P, const void* R) noexcept nogil:
    return (<const DixPlay*>P).tricks_done >= (<const DixRules*>R).total_tricks


cdef void dix_rewards(const void* P, const void* R, double* out) noexcept nogil:
    out[0] = reward0(<const DixPlay*>P)
    out[1] = -out[0]


cdef void dix_determinize(void* Pv, const void* Rv, void* gv, Rng* r) noexcept nogil:
    cdef DixPlay* P = <DixPlay*>Pv
    cdef const DixRules* R = <const DixRules*>Rv
    cdef Graph* g = <Graph*>gv
    cdef int32_t slots[MAX_SLOTS]
    cdef uint64_t opp = 0
    cdef int i
    graph_walk(g, r, slots)
    for i in range(g.n_slots):
        if R.dest[i] == -1:
            opp |= (<uint64_t>1) << slots[i]
        elif R.dest[i] >= 0:
            P.stock[R.dest[i]] = slots[i]
    P.hands[1 - R.seat] = opp & ~R.played


cdef int dix_playout(const void* Pv, const void* Rv, uint64_t L, Rng* r) noexcept nogil:
    """A play-out's card.  ``R.playout`` 0: any legal card at random.  1: the
    leader at random; the follower, three times in four, by a greedy rule
    (let the leader win a ten-trick; else win cheaply without a ten; else
    throw the lowest card that makes no ten; else the lowest card), else at
    random: most of a random play-out's spread comes from the follower's
    blunders, and a search's values are only as steady as its play-outs."""
    cdef const DixPlay* P = <const DixPlay*>Pv
    cdef const DixRules* R = <const DixRules*>Rv
    cdef int lead = P.lead_card, c, cls, key, best = -1, best_cls = 9, best_key = 1 << 30
    cdef int win, ten
    cdef uint64_t m = L
    if R.playout == 0 or lead < 0 or (R.playout == 1 and rng_below(r, 4) == 0):
        return random_bit(L, r)
    while m:
        c = lowest_bit(m)
        m &= m - 1
        if R.suit_of[c] == R.suit_of[lead]:
            win = R.strength[c] > R.strength[lead]
        else:
            win = R.suit_of[c] == R.trump
        ten = R.pips[c] + R.pips[lead] == 10
        cls = (0 if not win else 3) if ten else (1 if win else 2)
        key = R.strength[c] + (64 if R.suit_of[c] == R.trump else 0)
        if cls < best_cls or (cls == best_cls and key < best_key):
            best, best_cls, best_key = c, cls, key
    return best


cdef uint64_t dix_reduce(const void* Pv, const void* Rv, uint64_t L, int root) noexcept nogil:
    """The root: the cards the caller keeps (its classes of equivalent
    cards, ``solver.search.equivalence``); below it, in this world, two
    legal cards of an effective suit are one move (the lowest is searched)
    when no live card of the other hand, the stock or the table lies
    between them in strength and they score alike: the same pips, or pips
    that make ten with no live card of the other side.  The mover's own
    cards between them never share a trick with either."""
    cdef const DixPlay* P = <const DixPlay*>Pv
    cdef const DixRules* R = <const DixRules*>Rv
    cdef uint64_t other, live
    cdef int s, k, c, i, n, j, q
    cdef int seen[32]
    cdef int gap_at[32]                 # the others' cards passed when seen[j] was
    cdef int attr[64]
    cdef int gaps
    if root:
        return L & R.root_keep
    if not R.equiv:
        return L
    live = P.hands[0] | P.hands[1]
    for i in range(P.stock_pos, R.stock_len):
        live |= (<uint64_t>1) << P.stock[i]
    if P.lead_card >= 0:
        live |= (<uint64_t>1) << P.lead_card
    other = live & ~P.hands[to_move(P)]
    for s in range(4):
        if popcount(L & R.suit_mask[s]) < 2:
            continue
        n = 0
        gaps = 0
        for k in range(R.order_len[s]):
            c = R.order[s][k]
            if (other >> c) & 1:
                gaps += 1
            elif (L >> c) & 1:
                q = R.pips[c]
                attr[c] = q if q <= 10 and other & R.pip_mask[10 - q] else -1
                j = n - 1
                while j >= 0 and attr[seen[j]] != attr[c]:
                    j -= 1
                if j >= 0 and gap_at[j] == gaps:
                    L &= ~((<uint64_t>1) << c)
                seen[n] = c
                gap_at[n] = gaps
                n += 1
    return L


cdef Ops DIX_OPS
DIX_OPS.legal = dix_legal
DIX_OPS.apply = dix_apply
DIX_OPS.mover = dix_mover
DIX_OPS.over = dix_over
DIX_OPS.rewards = dix_rewards
DIX_OPS.determinize = dix_determinize
DIX_OPS.playout = dix_playout
DIX_OPS.reduce = dix_reduce
DIX_OPS.state_size = sizeof(DixPlay)


# ---- 4-seat no-trump trick contracts (trix / tricks) ----------------------

cdef struct TrickRules:
    int32_t win_pts[64]        # points to the taker of the card
    int32_t other_pts[64]      # points to the card's revealer when another seat takes it
    int32_t revealer[64]       # -1 not revealed
    int32_t trick_pts          # points to the taker of each trick (Ltoosh -15)
    uint64_t discard_mask      # a void follower holding one must play one
    uint64_t played            # cards played before the search
    int32_t team[4]            # team of each seat (individual: the seat)
    int32_t seat               # the searching seat
    int32_t others[3]          # the holders of the determinization, in order
    uint64_t fixed[4]          # cards known to be with each seat (not yet played or played)
    double scale
    uint64_t root_keep         # the root's cards searched (one per class of equivalent cards)
    int equiv                  # 0: below the root, every legal card is searched (measurements)
    int32_t attr[64]           # a card's score class (penalty, revealer): equivalence
    int playout                # 0: random play-outs; 1: the follower greedy (trick_playout); 2: always greedy (tests)


cdef struct TrickPlay:
    uint64_t hands[4]
    int32_t trick[4]
    int32_t ntrick
    int32_t leader
    int32_t tricks_done
    int32_t score[4]


cdef uint64_t trick_legal(const void* Pv, const void* Rv) noexcept nogil:
    cdef const TrickPlay* P = <const TrickPlay*>Pv
    cdef const TrickRules* R = <const TrickRules*>Rv
    cdef int seat = (P.leader + P.ntrick) & 3
    cdef uint64_t hand = P.hands[seat], f
    if P.ntrick == 0:
        return hand
    f = hand & ((<uint64_t>0xFFFE) << ((P.trick[0] >> 4) * 16))
    if f:
        return f
    f = hand & R.discard_mask
    return f if f else hand


cdef inline int trick_best(const TrickPlay* P) noexcept nogil:
    """The place in the trick so far of the card winning it (no trumps:
    the highest of the led suit)."""
    cdef int i, c, best = 0, suit = P.trick[0] >> 4
    for i in range(1, P.ntrick):
        c = P.trick[i]
        if (c >> 4) == suit and (c & 15) > (P.trick[best] & 15):
            best = i
    return best


cdef void trick_apply(void* Pv, const void* Rv, int card) noexcept nogil:
    cdef TrickPlay* P = <TrickPlay*>Pv
    cdef const TrickRules* R = <const TrickRules*>Rv
    cdef int seat = (P.leader + P.ntrick) & 3
    cdef int i, c, taker, rv
    P.hands[seat] &= ~((<uint64_t>1) << card)
    P.trick[P.ntrick] = card
    P.ntrick += 1
    if P.ntrick < 4:
        return
    taker = (P.leader + trick_best(P)) & 3
    P.score[taker] += R.trick_pts
    for i in range(4):
        c = P.trick[i]
        rv = R.revealer[c]
        if rv < 0 or rv == taker:
            P.score[taker] += R.win_pts[c]
        else:
            P.score[taker] += 2 * R.win_pts[c]
            P.score[rv] -= R.win_pts[c]
    P.tricks_done += 1
    P.ntrick = 0
    P.leader = taker


cdef int trick_mover(const void* Pv) noexcept nogil:
    cdef const TrickPlay* P = <const TrickPlay*>Pv
    return (P.leader + P.ntrick) & 3


cdef int trick_over(const void* Pv, const void* Rv) noexcept nogil:
    return (<const TrickPlay*>Pv).tricks_done >= 13


cdef inline void team_rewards(const int32_t* pts, const TrickRules* R, double* out) noexcept nogil:
    """Each seat's reward: its team's points (``pts`` per seat) over
    ``R.scale``, clamped to [-1, 1]."""
    cdef int s, t
    cdef double v
    for s in range(4):
        v = 0
        for t in range(4):
            if R.team[t] == R.team[s]:
                v += pts[t]
        v /= R.scale
        out[s] = 1.0 if v > 1.0 else (-1.0 if v < -1.0 else v)


cdef inline void deal_others(uint64_t* hands, const TrickRules* R, void* gv, Rng* r) noexcept nogil:
    """The determinization of the 4-seat searches: the other three seats'
    hidden cards by a holder-graph walk, plus what each is known to hold."""
    cdef uint64_t got[8]
    cdef int h
    for h in range(3):
        got[h] = 0
    holders_walk(<TypeGraph*>gv, r, got)
    for h in range(3):
        hands[R.others[h]] = (got[h] | R.fixed[R.others[h]]) & ~R.played


cdef void trick_rewards(const void* Pv, const void* Rv, double* out) noexcept nogil:
    team_rewards((<const TrickPlay*>Pv).score, <const TrickRules*>Rv, out)


cdef void trick_determinize(void* Pv, const void* Rv, void* gv, Rng* r) noexcept nogil:
    deal_others((<TrickPlay*>Pv).hands, <const TrickRules*>Rv, gv, r)


cdef uint64_t trick_reduce(const void* Pv, const void* Rv, uint64_t L, int root) noexcept nogil:
    """As ``dix_reduce`` for the trix / tricks trick contracts: a card's
    score is its penalty and who revealed it."""
    cdef const TrickPlay* P = <const TrickPlay*>Pv
    cdef const TrickRules* R = <const TrickRules*>Rv
    cdef uint64_t live
    cdef int i
    if root:
        return L & R.root_keep
    if not R.equiv:
        return L
    live = P.hands[0] | P.hands[1] | P.hands[2] | P.hands[3]
    for i in range(P.ntrick):
        live |= (<uint64_t>1) << P.trick[i]
    return reduce_ranked(L, live & ~P.hands[(P.leader + P.ntrick) & 3], R.attr)


cdef int trick_playout(const void* Pv, const void* Rv, uint64_t L, Rng* r) noexcept nogil:
    """A play-out's card in a trick contract (every card and trick a
    penalty).  ``R.playout`` 0: any legal card at random.  1: the leader at
    random; the follower, three times in four, by a greedy rule: under the
    card winning the trick, the highest card that stays under it; over it,
    the highest card when last to play, else the lowest; void, the card
    that costs its taker most (a penalty card, then the highest) when
    another team's seat wins the trick, else the highest card costing
    nothing (then the least costly); else at random."""
    cdef const TrickPlay* P = <const TrickPlay*>Pv
    cdef const TrickRules* R = <const TrickRules*>Rv
    cdef int seat, suit, c, w, best = -1, key, best_key, winner
    cdef uint64_t m, f
    if R.playout == 0 or P.ntrick == 0 or (R.playout == 1 and rng_below(r, 4) == 0):
        return random_bit(L, r)
    suit = P.trick[0] >> 4
    w = trick_best(P)
    f = L & ((<uint64_t>0xFFFF) << (suit * 16))
    if f:
        m = f & ((((<uint64_t>1) << P.trick[w]) - 1))    # the cards staying under
        if m:
            return highest_bit(m)
        if P.ntrick == 3:
            return highest_bit(f)
        return lowest_bit(f)
    seat = (P.leader + P.ntrick) & 3
    winner = (P.leader + w) & 3
    best_key = -(1 << 30)
    m = L
    while m:
        c = lowest_bit(m)
        m &= m - 1
        # what the card costs its taker (a revealed card costs it twice)
        key = -R.win_pts[c] * (1 if R.revealer[c] < 0 else 2)
        if R.team[winner] == R.team[seat]:
            key = -key
        key = key * 16 + (c & 15)
        if key > best_key:
            best, best_key = c, key
    return best


cdef Ops TRICK_OPS
TRICK_OPS.legal = trick_legal
TRICK_OPS.apply = trick_apply
TRICK_OPS.mover = trick_mover
TRICK_OPS.over = trick_over
TRICK_OPS.rewards = trick_rewards
TRICK_OPS.determinize = trick_determinize
TRICK_OPS.playout = trick_playout
TRICK_OPS.reduce = trick_reduce
TRICK_OPS.state_size = sizeof(TrickPlay)


# ---- the layout (trix "Trix" / tricks "Jacks") ----------------------------
# Rules: a TrickRules (its team, seat, holder and played fields); the pass is
# the action PASS_BIT (63 is no card: ranks stop at 14).

DEF PASS_BIT = 63


cdef struct LayoutPlay:
    uint64_t hands[4]
    uint64_t fit               # cards that fit the layout now
    int32_t lo[4]
    int32_t hi[4]
    int32_t left[4]
    int32_t place[4]           # finishing place, -1 while in
    int32_t turn
    int32_t nout


cdef uint64_t layout_legal(const void* Pv, const void* Rv) noexcept nogil:
    cdef const LayoutPlay* P = <const LayoutPlay*>Pv
    cdef uint64_t m = P.hands[P.turn] & P.fit
    return m if m else (<uint64_t>1) << PASS_BIT


cdef void layout_apply(void* Pv, const void* Rv, int card) noexcept nogil:
    cdef LayoutPlay* P = <LayoutPlay*>Pv
    cdef int s, r, t, seat = P.turn
    cdef uint64_t m
    if card != PASS_BIT:
        s = card >> 4
        r = card & 15
        if P.lo[s] == 0:
            P.lo[s] = r
            P.hi[s] = r
        elif r < P.lo[s]:
            P.lo[s] = r
        else:
            P.hi[s] = r
        m = P.fit & ~((<uint64_t>0xFFFF) << (16 * s))
        if P.lo[s] > 2:
            m |= (<uint64_t>1) << (16 * s + P.lo[s] - 1)
        if P.hi[s] < 14:
            m |= (<uint64_t>1) << (16 * s + P.hi[s] + 1)
        P.fit = m
        P.hands[seat] &= ~((<uint64_t>1) << card)
        P.left[seat] -= 1
        if P.left[seat] == 0:
            P.place[seat] = P.nout
            P.nout += 1
    if P.nout >= 3:
        if P.nout == 3:                  # the last seat's places are forced
            for t in range(4):
                if P.place[t] < 0:
                    P.place[t] = 3
            P.nout = 4
        return
    t = (seat + 1) & 3
    while P.left[t] == 0:
        t = (t + 1) & 3
    P.turn = t


cdef int layout_mover(const void* Pv) noexcept nogil:
    return (<const LayoutPlay*>Pv).turn


cdef int layout_over(const void* Pv, const void* Rv) noexcept nogil:
    return (<const LayoutPlay*>Pv).nout >= 4


cdef void layout_rewards(const void* Pv, const void* Rv, double* out) noexcept nogil:
    cdef const LayoutPlay* P = <const LayoutPlay*>Pv
    cdef int32_t pts[4]
    cdef int s
    for s in range(4):
        pts[s] = 200 - 50 * P.place[s]
    team_rewards(pts, <const TrickRules*>Rv, out)


cdef void layout_determinize(void* Pv, const void* Rv, void* gv, Rng* r) noexcept nogil:
    deal_others((<LayoutPlay*>Pv).hands, <const TrickRules*>Rv, gv, r)


cdef Ops LAYOUT_OPS
LAYOUT_OPS.legal = layout_legal
LAYOUT_OPS.apply = layout_apply
LAYOUT_OPS.mover = layout_mover
LAYOUT_OPS.over = layout_over
LAYOUT_OPS.rewards = layout_rewards
LAYOUT_OPS.determinize = layout_determinize
LAYOUT_OPS.playout = random_playout
LAYOUT_OPS.reduce = no_reduce
LAYOUT_OPS.state_size = sizeof(LayoutPlay)


cdef object root_stats(Node** trees, int T, int max_nodes, const double* sq,
                       list per_tree=None):
    """``(visits, means, squares)`` of the root actions summed over the
    trees (``sq``: T rows of 64 sums of squared rewards, or NULL); with
    ``per_tree``, each tree's ``{action: (visits, mean)}`` is appended to
    it (the spread between independent trees).  Safe while the trees grow:
    child indices are bounds-checked and each list walk is capped at 64
    children."""
    cdef int t, ch, k, a
    visits, totals, squares = {}, {}, {}
    for t in range(T):
        ch = trees[t][0].first_child
        k = 0
        mine = {}
        while 0 < ch <= max_nodes and k < 64:
            a = trees[t][ch].action
            if 0 <= a < 64:
                visits[a] = visits.get(a, 0) + trees[t][ch].visits
                totals[a] = totals.get(a, 0.0) + trees[t][ch].total
                if sq != NULL:
                    squares[a] = squares.get(a, 0.0) + sq[t * 64 + a]
                if per_tree is not None and trees[t][ch].visits > 0:
                    mine[a] = (trees[t][ch].visits, trees[t][ch].total / trees[t][ch].visits)
            ch = trees[t][ch].next_sibling
            k += 1
        if per_tree is not None:
            per_tree.append(mine)
    means = {a: totals[a] / visits[a] for a in visits if visits[a] > 0}
    return visits, means, squares


cdef int call_poll(object poll, Node** trees, int T, int max_nodes, long* done,
                   int* stop) except -1:
    """The monitor's call of ``poll`` (with the GIL): sets ``stop`` on a
    true answer or an exception (which is passed on)."""
    cdef int t
    cdef long total = 0
    for t in range(T):
        total += (<volatile long*>done)[t]
    try:
        visits, means, _ = root_stats(trees, T, max_nodes, NULL)
        if poll(total, visits, means):
            (<volatile int*>stop)[0] = 1
    except BaseException:
        (<volatile int*>stop)[0] = 1
        raise
    return 0


cdef int monitor(object poll, Node** trees, int T, int max_nodes, long* progress,
                 int* stop, int* finished) except -1 nogil:
    """Thread 0's loop while the trees grow: ``poll`` every POLL_SECONDS
    until every tree has finished."""
    cdef int t, all_done
    cdef double next_poll = now() + POLL_SECONDS
    while True:
        all_done = 1
        for t in range(T):
            if not (<volatile int*>finished)[t]:
                all_done = 0
        if all_done:
            return 0
        usleep(1000)
        if now() >= next_poll and not (<volatile int*>stop)[0]:
            next_poll = now() + POLL_SECONDS
            with gil:
                call_poll(poll, trees, T, max_nodes, progress, stop)


cdef object run_trees(const Ops* ops, const void* base, const void* R, void** samplers,
                      int T, long iterations, double seconds, uint64_t seed, double c,
                      object poll=None):
    """Grow ``T`` trees in parallel (``samplers[t]``: thread t's own data)
    while the calling thread monitors them (``poll``, see the module
    docstring); sum their root statistics: ``(visits, means, iterations,
    squares, per_tree)``, ``squares[a]`` the sum of the squared rewards of
    action ``a``'s iterations, ``per_tree`` each tree's ``{action: (visits,
    mean)}``."""
    cdef int t, w
    cdef long per = iterations // T, extra = iterations % T
    cdef double deadline = now() + seconds if seconds > 0 else 0.0
    # at most 50M nodes (2 GB) over all the trees of a search
    cdef int max_nodes = <int>min(per + 2, 50_000_000 // T)
    cdef Node** trees = <Node**>malloc(T * sizeof(Node*))
    cdef long* done = <long*>malloc(T * sizeof(long))
    cdef uint64_t* seeds = <uint64_t*>malloc(T * sizeof(uint64_t))
    cdef long* progress = <long*>calloc(T, sizeof(long))
    cdef double* sq = <double*>calloc(T * 64, sizeof(double))
    cdef int* stop = <int*>calloc(1, sizeof(int))
    cdef int* finished = <int*>calloc(T, sizeof(int))
    cdef int monitored = poll is not None
    cdef uint64_t x = seed
    if not trees or not done or not seeds or not progress or not sq or not stop or not finished:
        free(trees); free(done); free(seeds); free(progress); free(sq); free(stop)
        free(finished)
        raise MemoryError()
    for t in range(T):
        trees[t] = <Node*>malloc((max_nodes + 1) * sizeof(Node))
        seeds[t] = _splitmix(&x)
    try:
        for t in range(T):
            if not trees[t]:
                raise MemoryError()
        for t in range(T):
            trees[t][0].first_child = -1
        # iteration 0 is the monitor (the master thread: it runs Python, so
        # it receives Ctrl-C); iterations 1..T grow the trees.  A team too
        # small to hold both (OMP_NUM_THREADS=1...) runs without a monitor.
        for w in prange(T + monitored, nogil=True, num_threads=T + monitored,
                        schedule="static", chunksize=1):
            if w >= monitored:
                done[w - monitored] = grow_tree(
                    trees[w - monitored], max_nodes, ops, base, R, samplers[w - monitored],
                    seeds[w - monitored], per + (1 if w - monitored < extra else 0), deadline,
                    c, stop, &progress[w - monitored], &sq[(w - monitored) * 64])
                (<volatile int*>finished)[w - monitored] = 1
            elif openmp.omp_get_num_threads() > T:
                monitor(poll, trees, T, max_nodes, progress, stop, finished)
        total_it = 0
        for t in range(T):
            total_it += done[t]
        per_tree = []
        visits, means, squares = root_stats(trees, T, max_nodes, sq, per_tree)
        return visits, means, total_it, squares, per_tree
    finally:
        for t in range(T):
            free(trees[t])
        free(trees); free(done); free(seeds); free(progress); free(sq); free(stop)
        free(finished)


cdef object legal_and_searched(const Ops* ops, const void* base, const void* R, hands,
                               int nseats):
    """The base position with every seat's ``hands`` (card masks) in place of
    a determinization: ``(legal, searched)``, the masks of the legal cards
    and of those a tree searches below its root (one of each class of
    equivalent cards).  Every compact state starts with its hands."""
    cdef uint64_t P[64]
    cdef uint64_t L
    cdef int i
    memcpy(P, base, ops.state_size)
    for i in range(min(len(hands), nseats)):
        P[i] = hands[i]
    L = ops.legal(P, R)
    return L, ops.reduce(P, R, L, 0)


cdef class DixSearch:
    """A prepared search: rules, the base state and the sampler graph.

    Built by ``solver.search.native.native_dix_search`` from a dix seat view; see
    that function for the meaning of each field."""

    cdef DixRules R
    cdef DixPlay base
    cdef Graph g

    def __cinit__(self, compiled, dict rules, dict state):
        cdef int i
        dest = rules["dest"]
        if len(dest) > MAX_SLOTS or compiled.n_slots != len(dest):
            raise ValueError(f"at most {MAX_SLOTS} sampler slots, one dest each")
        graph_load(&self.g, compiled)
        for i in range(64):
            self.R.suit_of[i] = rules["suit_of"][i]
            self.R.strength[i] = rules["strength"][i]
            self.R.pips[i] = rules["pips"][i]
        for i in range(4):
            self.R.suit_mask[i] = rules["suit_mask"][i]
        self.R.trump = rules["trump"]
        self.R.free_play = rules["free_play"]
        self.R.stock_len = rules["stock_len"]
        self.R.total_tricks = rules["total_tricks"]
        self.R.seat = rules["seat"]
        self.R.played = rules["played"]
        self.R.playout = rules.get("playout", 0)
        self.R.root_keep = rules.get("root_keep", 0xFFFFFFFFFFFFFFFF)
        self.R.equiv = rules.get("equiv", 1)
        for i in range(4):
            self.R.order_len[i] = 0
        for i in range(11):
            self.R.pip_mask[i] = sum(1 << c for c in range(64)
                                     if rules["pips"][c] == i and rules["suit_of"][c] < 4)
        for c in sorted(range(64), key=lambda x: rules["strength"][x]):
            s = rules["suit_of"][c]
            if s < 4 and self.R.order_len[s] < 32:
                self.R.order[s][self.R.order_len[s]] = c
                self.R.order_len[s] += 1
        for i in range(len(dest)):
            self.R.dest[i] = dest[i]
        self.base.hands[0] = state["hands"][0]
        self.base.hands[1] = state["hands"][1]
        for i in range(26):
            self.base.stock[i] = state["stock"][i] if i < len(state["stock"]) else 0
        self.base.stock_pos = state["stock_pos"]
        self.base.leader = state["leader"]
        self.base.lead_card = state["lead_card"]
        self.base.tricks_done = state["tricks_done"]
        self.base.won[0], self.base.won[1] = state["won"]
        self.base.tens[0], self.base.tens[1] = state["tens"]
        self.base.last_winner = state["last_winner"]

    def __dealloc__(self):
        graph_free(&self.g)

    def run(self, long iterations, double seconds, uint64_t seed, int threads, double c,
            poll=None):
        """Grow ``threads`` trees (``iterations`` split between them; a
        positive ``seconds`` is a deadline too); returns
        ``({card: visits}, {card: mean reward of the searching seat},
        iterations done)``."""
        cdef int t
        if threads < 1 or threads > 64:
            raise ValueError("threads must be 1..64")
        cdef Graph* graphs = <Graph*>malloc(threads * sizeof(Graph))
        cdef void** samplers = <void**>malloc(threads * sizeof(void*))
        if not graphs or not samplers:
            free(graphs); free(samplers)
            raise MemoryError()
        for t in range(threads):
            graphs[t] = self.g
            graphs[t].pool = NULL
            graphs[t].pool_len = NULL
            samplers[t] = &graphs[t]
        try:
            for t in range(threads):
                graph_scratch(&graphs[t])
            return run_trees(&DIX_OPS, &self.base, &self.R, samplers, threads, iterations,
                             seconds, seed, c, poll)
        finally:
            for t in range(threads):
                free(graphs[t].pool)
                free(graphs[t].pool_len)
            free(graphs); free(samplers)

    def moves(self, hands):
        """``(legal, searched)`` with every seat's ``hands`` in place of a
        determinization (``legal_and_searched``), for tests."""
        return legal_and_searched(&DIX_OPS, &self.base, &self.R, hands, 2)

    def simulate(self, uint64_t seed):
        """One determinization and one play-out (the search's, random or
        greedy by ``rules["playout"]``), for tests: returns
        ``(opponent hand mask, stock list, cards played, won, tens,
        last_winner, reward of seat 0)``."""
        cdef Rng r
        cdef DixPlay P
        cdef int32_t slots[MAX_SLOTS]
        cdef int i, a
        cdef uint64_t opp = 0
        cdef Graph g = self.g
        graph_scratch(&g)
        try:
            rng_seed(&r, seed)
            memcpy(&P, &self.base, sizeof(DixPlay))
            graph_walk(&g, &r, slots)
            for i in range(g.n_slots):
                if self.R.dest[i] == -1:
                    opp |= (<uint64_t>1) << slots[i]
                elif self.R.dest[i] >= 0:
                    P.stock[self.R.dest[i]] = slots[i]
            P.hands[1 - self.R.seat] = opp & ~self.R.played
            hand = P.hands[1 - self.R.seat]
            stock = [P.stock[i] for i in range(self.R.stock_len)]
            played = []
            while P.tricks_done < self.R.total_tricks:
                a = dix_playout(&P, &self.R, legal(&P, &self.R), &r)
                played.append(a)
                apply(&P, &self.R, a)
            return (hand, stock, played, [P.won[0], P.won[1]], [P.tens[0], P.tens[1]],
                    P.last_winner, reward0(&P))
        finally:
            free(g.pool)
            free(g.pool_len)


cdef object run_graph_trees(const Ops* ops, const void* base, const void* R,
                            TypeGraph* g, int threads, long iterations, double seconds,
                            uint64_t seed, double c, object poll=None):
    """``run_trees`` for the searches whose determinization walks a type
    graph (trix / tricks trick contracts and layout: holder graphs;
    dixie-rook: column graphs): one scratch per thread."""
    cdef int t
    if threads < 1 or threads > 64:
        raise ValueError("threads must be 1..64")
    cdef TypeGraph* graphs = <TypeGraph*>malloc(threads * sizeof(TypeGraph))
    cdef void** samplers = <void**>malloc(threads * sizeof(void*))
    if not graphs or not samplers:
        free(graphs); free(samplers)
        raise MemoryError()
    for t in range(threads):
        graphs[t].scratch = NULL
        graphs[t].left = NULL
        samplers[t] = &graphs[t]
    try:
        for t in range(threads):
            typegraph_copy(&graphs[t], g)
        return run_trees(ops, base, R, samplers, threads, iterations, seconds, seed, c, poll)
    finally:
        for t in range(threads):
            typegraph_free_scratch(&graphs[t])
        free(graphs); free(samplers)


cdef class TrickSearch:
    """A prepared search of a trix / tricks trick contract (4 seats, no
    trumps).  Built by ``solver.search.native.native_trick_search`` from a seat view."""

    cdef TrickRules R
    cdef TrickPlay base
    cdef TypeGraph g

    def __cinit__(self, compiled, dict rules, dict state):
        cdef int i
        typegraph_load(&self.g, compiled)
        for i in range(64):
            self.R.win_pts[i] = rules["win_pts"][i]
            self.R.revealer[i] = rules["revealer"][i]
            self.R.attr[i] = self.R.win_pts[i] * 8 + self.R.revealer[i]
        self.R.trick_pts = rules["trick_pts"]
        self.R.discard_mask = rules["discard_mask"]
        self.R.played = rules["played"]
        for i in range(4):
            self.R.team[i] = rules["team"][i]
            self.R.fixed[i] = rules["fixed"][i]
        for i in range(3):
            self.R.others[i] = rules["others"][i]
        self.R.seat = rules["seat"]
        self.R.scale = rules["scale"]
        self.R.root_keep = rules.get("root_keep", 0xFFFFFFFFFFFFFFFF)
        self.R.equiv = rules.get("equiv", 1)
        self.R.playout = rules.get("playout", 0)
        for i in range(4):
            self.base.hands[i] = state["hands"][i]
            self.base.score[i] = state["score"][i]
            self.base.trick[i] = state["trick"][i] if i < len(state["trick"]) else 0
        self.base.ntrick = len(state["trick"])
        self.base.leader = state["leader"]
        self.base.tricks_done = state["tricks_done"]

    def __dealloc__(self):
        typegraph_free(&self.g)

    def run(self, long iterations, double seconds, uint64_t seed, int threads, double c,
            poll=None):
        """As ``DixSearch.run``."""
        return run_graph_trees(&TRICK_OPS, &self.base, &self.R, &self.g, threads, iterations,
                                seconds, seed, c, poll)
    def moves(self, hands):
        """``(legal, searched)`` with every seat's ``hands`` in place of a
        determinization (``legal_and_searched``), for tests."""
        return legal_and_searched(&TRICK_OPS, &self.base, &self.R, hands, 4)

    def simulate(self, uint64_t seed):
        """One determinization and one play-out (the search's, random or
        greedy by ``rules["playout"]``), for tests: returns
        ``(hands after the determinization, cards played, final scores)``."""
        cdef Rng r
        cdef TrickPlay P
        cdef TypeGraph g
        cdef int a
        typegraph_copy(&g, &self.g)
        try:
            rng_seed(&r, seed)
            memcpy(&P, &self.base, sizeof(TrickPlay))
            trick_determinize(&P, &self.R, &g, &r)
            hands = [P.hands[i] for i in range(4)]
            played = []
            while not trick_over(&P, &self.R):
                a = trick_playout(&P, &self.R, trick_legal(&P, &self.R), &r)
                played.append(a)
                trick_apply(&P, &self.R, a)
            return hands, played, [P.score[i] for i in range(4)]
        finally:
            typegraph_free_scratch(&g)


cdef class LayoutSearch:
    """A prepared search of the layout game (trix / tricks); the pass is the
    action 63.  Built by ``solver.search.native.native_layout_search``."""

    cdef TrickRules R
    cdef LayoutPlay base
    cdef TypeGraph g

    def __cinit__(self, compiled, dict rules, dict state):
        cdef int i
        typegraph_load(&self.g, compiled)
        self.R.played = rules["played"]
        for i in range(4):
            self.R.team[i] = rules["team"][i]
            self.R.fixed[i] = rules["fixed"][i]
            self.base.hands[i] = state["hands"][i]
            self.base.lo[i] = state["lo"][i]
            self.base.hi[i] = state["hi"][i]
            self.base.left[i] = state["left"][i]
            self.base.place[i] = state["place"][i]
        for i in range(3):
            self.R.others[i] = rules["others"][i]
        self.R.seat = rules["seat"]
        self.R.scale = rules["scale"]
        self.R.root_keep = rules.get("root_keep", 0xFFFFFFFFFFFFFFFF)
        self.R.equiv = rules.get("equiv", 1)
        self.base.fit = state["fit"]
        self.base.turn = state["turn"]
        self.base.nout = state["nout"]

    def __dealloc__(self):
        typegraph_free(&self.g)

    def run(self, long iterations, double seconds, uint64_t seed, int threads, double c,
            poll=None):
        """As ``DixSearch.run`` (the pass is reported as 63)."""
        return run_graph_trees(&LAYOUT_OPS, &self.base, &self.R, &self.g, threads, iterations,
                                seconds, seed, c, poll)
    def simulate(self, uint64_t seed):
        """One determinization and random playout, for tests: returns
        ``(hands after the determinization, actions (63 = pass), places)``."""
        cdef Rng r
        cdef LayoutPlay P
        cdef TypeGraph g
        cdef int a
        typegraph_copy(&g, &self.g)
        try:
            rng_seed(&r, seed)
            memcpy(&P, &self.base, sizeof(LayoutPlay))
            layout_determinize(&P, &self.R, &g, &r)
            hands = [P.hands[i] for i in range(4)]
            played = []
            while not layout_over(&P, &self.R):
                a = random_bit(layout_legal(&P, &self.R), &r)
                played.append(a)
                layout_apply(&P, &self.R, a)
            return hands, played, [P.place[i] for i in range(4)]
        finally:
            typegraph_free_scratch(&g)


# ---- dixie-rook card play --------------------------------------------------
# 4 or 6 seats in two teams by parity, a trump colour, count cards, the
# nest's count and one more trick to the last trick's taker, most tricks +20
# (a tie: the expectation of the fair cut, half the hand score each way),
# the bid made or set.  The determinization walks a column graph
# (``ColumnSampler``): the other seats' hands and, when the searcher did not
# win the bid, the discards (the nest the last trick takes).

DEF ROOK_BONUS = 20


cdef struct RookRules:
    int32_t points[64]         # a card's count
    int32_t nseats
    int32_t hand_size          # tricks in the hand
    int32_t trump              # colour 0..3
    int32_t bid
    int32_t bid_team
    int32_t seat               # the searching seat
    int32_t n_holders
    int32_t holder_seat[8]     # -1: the discards (their count is the nest's)
    double scale
    uint64_t root_keep         # the root's cards searched (one per class of equivalent cards)
    int equiv                  # 0: below the root, every legal card is searched (measurements)
    int playout                # 0: random play-outs; 1: the follower greedy (rook_playout); 2: always greedy (tests)


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


cdef inline int rook_to_move(const RookPlay* P, const RookRules* R) noexcept nogil:
    return (P.leader + P.ntrick) % R.nseats


cdef uint64_t rook_legal(const void* Pv, const void* Rv) noexcept nogil:
    cdef const RookPlay* P = <const RookPlay*>Pv
    cdef const RookRules* R = <const RookRules*>Rv
    cdef uint64_t hand = P.hands[rook_to_move(P, R)], f
    if P.ntrick == 0:
        return hand
    f = hand & ((<uint64_t>0xFFFF) << ((P.trick[0] >> 4) * 16))
    return f if f else hand


cdef inline int rook_beats(int c, int w, int trump) noexcept nogil:
    """Card ``c`` beats card ``w`` (the trick's best so far)."""
    if (c >> 4) == (w >> 4):
        return (c & 15) > (w & 15)
    return (c >> 4) == trump


cdef inline int rook_best(const RookPlay* P, int trump) noexcept nogil:
    """The place in the trick so far of the card winning it."""
    cdef int i, best = 0
    for i in range(1, P.ntrick):
        if rook_beats(P.trick[i], P.trick[best], trump):
            best = i
    return best


cdef void rook_apply(void* Pv, const void* Rv, int card) noexcept nogil:
    cdef RookPlay* P = <RookPlay*>Pv
    cdef const RookRules* R = <const RookRules*>Rv
    cdef int i, taker, team, pts = 0
    P.hands[rook_to_move(P, R)] &= ~((<uint64_t>1) << card)
    P.trick[P.ntrick] = card
    P.ntrick += 1
    if P.ntrick < R.nseats:
        return
    for i in range(R.nseats):
        pts += R.points[P.trick[i]]
    taker = (P.leader + rook_best(P, R.trump)) % R.nseats
    team = taker & 1
    P.won[team] += 1
    P.count[team] += pts
    P.tricks_done += 1
    if P.tricks_done == R.hand_size:
        P.won[team] += 1
        P.count[team] += P.nest_pts
    P.ntrick = 0
    P.leader = taker


cdef int rook_mover(const void* Pv) noexcept nogil:
    cdef const RookPlay* P = <const RookPlay*>Pv
    return (P.leader + P.ntrick) % P.nseats


cdef int rook_over(const void* Pv, const void* Rv) noexcept nogil:
    return (<const RookPlay*>Pv).tricks_done >= (<const RookRules*>Rv).hand_size


cdef inline double rook_hand_diff(const RookPlay* P, const RookRules* R, int most) noexcept nogil:
    """Team 0's hand score minus team 1's when team ``most`` gets the 20."""
    cdef int cap[2]
    cap[0] = P.count[0] + (ROOK_BONUS if most == 0 else 0)
    cap[1] = P.count[1] + (ROOK_BONUS if most == 1 else 0)
    if cap[R.bid_team] < R.bid:
        cap[R.bid_team] = -R.bid
    return cap[0] - cap[1]


cdef double rook_value0(const RookPlay* P, const RookRules* R) noexcept nogil:
    """Team 0's hand score difference (a tie for most tricks: the mean of
    the cut's two outcomes, each of probability 1/2)."""
    if P.won[0] != P.won[1]:
        return rook_hand_diff(P, R, 0 if P.won[0] > P.won[1] else 1)
    return 0.5 * (rook_hand_diff(P, R, 0) + rook_hand_diff(P, R, 1))


cdef void rook_rewards(const void* Pv, const void* Rv, double* out) noexcept nogil:
    cdef const RookRules* R = <const RookRules*>Rv
    cdef double v = rook_value0(<const RookPlay*>Pv, R) / R.scale
    cdef int s
    v = 1.0 if v > 1.0 else (-1.0 if v < -1.0 else v)
    for s in range(R.nseats):
        out[s] = v if (s & 1) == 0 else -v


cdef void rook_determinize(void* Pv, const void* Rv, void* gv, Rng* r) noexcept nogil:
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


cdef uint64_t rook_reduce(const void* Pv, const void* Rv, uint64_t L, int root) noexcept nogil:
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
    return reduce_ranked(L, live & ~P.hands[rook_to_move(P, R)], R.points)


cdef int rook_playout(const void* Pv, const void* Rv, uint64_t L, Rng* r) noexcept nogil:
    """A play-out's card in dixie-rook.  ``R.playout`` 0: any legal card at
    random.  1: the leader at random; the follower, three times in four, by
    a greedy rule: partner winning and last to play, the card with the most
    count (then the lowest); partner winning otherwise, the lowest card
    without count; an opponent winning, the cheapest card that beats it
    (a side card before a trump, then the lowest), else the lowest card
    without count; else at random."""
    cdef const RookPlay* P = <const RookPlay*>Pv
    cdef const RookRules* R = <const RookRules*>Rv
    cdef int c, w, wi, best = -1, key, best_key = 1 << 30
    cdef int partner, last
    cdef uint64_t m
    if R.playout == 0 or P.ntrick == 0 or (R.playout == 1 and rng_below(r, 4) == 0):
        return random_bit(L, r)
    wi = rook_best(P, R.trump)
    w = P.trick[wi]
    partner = (((P.leader + wi) % R.nseats) & 1) == (rook_to_move(P, R) & 1)
    last = P.ntrick == R.nseats - 1
    m = L
    while m:
        c = lowest_bit(m)
        m &= m - 1
        if partner and last:
            key = -R.points[c] * 64 + (c & 15)
        elif not partner and rook_beats(c, w, R.trump):
            key = -4096 + (c & 15) + (32 if (c >> 4) == R.trump else 0)
        else:
            key = R.points[c] * 64 + (c & 15) + (32 if (c >> 4) == R.trump else 0)
        if key < best_key:
            best, best_key = c, key
    return best


cdef Ops ROOK_OPS
ROOK_OPS.legal = rook_legal
ROOK_OPS.apply = rook_apply
ROOK_OPS.mover = rook_mover
ROOK_OPS.over = rook_over
ROOK_OPS.rewards = rook_rewards
ROOK_OPS.determinize = rook_determinize
ROOK_OPS.playout = rook_playout
ROOK_OPS.reduce = rook_reduce
ROOK_OPS.state_size = sizeof(RookPlay)


cdef class RookSearch:
    """A prepared search of dixie-rook card play (4 or 6 seats).  Built by
    ``solver.search.native.native_rook_search`` from a seat view's world sampler;
    rewards: team 0's hand score difference (``rook_value0``) over
    ``scale``, negated for team 1 (the Python twin's ``round_returns``)."""

    cdef RookRules R
    cdef RookPlay base
    cdef TypeGraph g

    def __cinit__(self, compiled, dict rules, dict state):
        cdef int i
        self.g.scratch = NULL
        self.g.left = NULL
        n = rules["nseats"]
        holders = rules["holder_seat"]
        if n not in (4, 6) or len(holders) > 8 or compiled.n_holders != len(holders):
            raise ValueError("4 or 6 seats, at most 8 holders, one seat (or -1) each")
        typegraph_load(&self.g, compiled)
        for i in range(64):
            self.R.points[i] = rules["points"][i]
        self.R.nseats = n
        self.R.hand_size = rules["hand_size"]
        self.R.trump = rules["trump"]
        self.R.bid = rules["bid"]
        self.R.bid_team = rules["bid_team"]
        self.R.seat = rules["seat"]
        self.R.n_holders = len(holders)
        for i in range(len(holders)):
            self.R.holder_seat[i] = holders[i]
        self.R.scale = rules["scale"]
        self.R.root_keep = rules.get("root_keep", 0xFFFFFFFFFFFFFFFF)
        self.R.equiv = rules.get("equiv", 1)
        self.R.playout = rules.get("playout", 0)
        for i in range(6):
            self.base.hands[i] = state["hands"][i] if i < n else 0
            self.base.trick[i] = state["trick"][i] if i < len(state["trick"]) else 0
        self.base.ntrick = len(state["trick"])
        self.base.leader = state["leader"]
        self.base.tricks_done = state["tricks_done"]
        self.base.won[0], self.base.won[1] = state["won"]
        self.base.count[0], self.base.count[1] = state["count"]
        self.base.nest_pts = state["nest_pts"]
        self.base.nseats = n

    def __dealloc__(self):
        typegraph_free(&self.g)

    def run(self, long iterations, double seconds, uint64_t seed, int threads, double c,
            poll=None):
        """As ``DixSearch.run``."""
        return run_graph_trees(&ROOK_OPS, &self.base, &self.R, &self.g, threads, iterations,
                                seconds, seed, c, poll)

    def moves(self, hands):
        """``(legal, searched)`` with every seat's ``hands`` in place of a
        determinization (``legal_and_searched``), for tests."""
        return legal_and_searched(&ROOK_OPS, &self.base, &self.R, hands, 6)

    def simulate(self, uint64_t seed):
        """One determinization and one play-out (the search's, random or
        greedy by ``rules["playout"]``), for tests: returns
        ``(cards per holder after the determinization (masks), cards
        played, tricks per team, count per team, team 0's hand score
        difference)``."""
        cdef Rng r
        cdef RookPlay P
        cdef TypeGraph g
        cdef uint64_t got[8]
        cdef int a, h
        typegraph_copy(&g, &self.g)
        try:
            rng_seed(&r, seed)
            memcpy(&P, &self.base, sizeof(RookPlay))
            for h in range(8):
                got[h] = 0
            columns_walk(&g, &r, got)
            held = [got[h] for h in range(self.R.n_holders)]
            # the same draw again, through the search's own determinization
            rng_seed(&r, seed)
            rook_determinize(&P, &self.R, &g, &r)
            played = []
            while not rook_over(&P, &self.R):
                a = rook_playout(&P, &self.R, rook_legal(&P, &self.R), &r)
                played.append(a)
                rook_apply(&P, &self.R, a)
            return (held, played, [P.won[0], P.won[1]], [P.count[0], P.count[1]],
                    rook_value0(&P, &self.R))
        finally:
            typegraph_free_scratch(&g)
