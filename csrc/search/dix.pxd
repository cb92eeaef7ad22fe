# dix card play as compact-state operations for the search (compile-time
# header, cimported by csrc/search/ismcts.pyx).  Built from a dix seat view
# by solver/search/native.py (native_dix_search), which documents each field.
#
# The compact state carries the stock, so a determinization plays the draws
# after tricks 1-13 exactly as the rules do.  The determinization walks the
# view's compiled interval sampler (walker.pxd): each slot a card, sent to
# the opponent's hand or to a stock place (``dest``).
from libc.stdint cimport uint64_t, int32_t, uint8_t
from bits cimport popcount, lowest_bit, trick_winner_c
from rng cimport Rng, rng_below
from walker cimport Graph, graph_walk
from tree cimport Ops, random_bit, clamp1
from cardfeat cimport CardPolicy, CardFacts, card_policy_probs, card_policy_draw, card_facts_fill
from leafvalue cimport LeafValue, leaf_dot

cdef enum:
    MAX_SLOTS = 64


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
    CardPolicy cp              # the learned card policy (``Search.set_policy``), if loaded
    LeafValue lv               # the learned leaf value (``Search.set_value``), if loaded


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
    uint64_t out               # the cards out of play as the player sees it: played
                               # (the table's included) and the turned-up card


cdef inline int dix_to_move(const DixPlay* P) noexcept nogil:
    return P.leader if P.lead_card < 0 else 1 - P.leader


cdef inline uint64_t dix_legal(const void* Pv, const void* Rv) noexcept nogil:
    cdef const DixPlay* P = <const DixPlay*>Pv
    cdef const DixRules* R = <const DixRules*>Rv
    cdef uint64_t hand = P.hands[dix_to_move(P)]
    cdef uint64_t f
    if P.lead_card < 0:
        return hand
    if R.free_play and P.stock_pos < R.stock_len:
        return hand
    f = hand & R.suit_mask[R.suit_of[P.lead_card]]
    return f if f else hand


cdef inline void dix_apply(void* Pv, const void* Rv, int card) noexcept nogil:
    cdef DixPlay* P = <DixPlay*>Pv
    cdef const DixRules* R = <const DixRules*>Rv
    cdef int seat = dix_to_move(P)
    cdef int winner
    cdef int cards[2]
    P.hands[seat] &= ~((<uint64_t>1) << card)
    P.out |= (<uint64_t>1) << card
    if P.lead_card < 0:
        P.lead_card = card
        return
    cards[0] = P.lead_card
    cards[1] = card
    winner = seat if trick_winner_c(cards, 2, R.trump, R.suit_of, R.strength) else P.leader
    P.won[winner] += 1
    if R.pips[cards[0]] + R.pips[card] == 10:
        P.tens[winner] += 1
    P.tricks_done += 1
    P.last_winner = winner
    P.lead_card = -1
    P.leader = winner
    if P.tricks_done <= 13 and P.stock_pos < R.stock_len:
        P.hands[winner] |= (<uint64_t>1) << P.stock[P.stock_pos]
        P.hands[1 - winner] |= (<uint64_t>1) << P.stock[P.stock_pos + 1]
        P.stock_pos += 2


cdef inline double dix_reward0(const DixPlay* P) noexcept nogil:
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
    return clamp1(d)


cdef inline int dix_mover(const void* P) noexcept nogil:
    return dix_to_move(<const DixPlay*>P)


cdef inline int dix_over(const void* P, const void* R) noexcept nogil:
    return (<const DixPlay*>P).tricks_done >= (<const DixRules*>R).total_tricks


cdef inline void dix_rewards(const void* P, const void* R, double* out) noexcept nogil:
    out[0] = dix_reward0(<const DixPlay*>P)
    out[1] = -out[0]


cdef inline void dix_determinize(void* Pv, const void* Rv, void* gv, Rng* r) noexcept nogil:
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


cdef inline void dix_facts(const DixPlay* P, const DixRules* R, CardFacts* F) noexcept nogil:
    """The public facts of the card to play now, for the learned policy (the
    opponent model's ``CardPlay`` of solver/games/dix/model.py): a trick of
    two, the lead winning it so far, no partner."""
    cdef int32_t lead = P.lead_card
    card_facts_fill(&R.cp, F, &lead, 1 if lead >= 0 else 0, 2, 0, 0, P.out)


cdef inline int dix_phase(const DixPlay* P, const DixRules* R) noexcept nogil:
    """The policy's phase: 0 while a stock is left to draw, 1 after."""
    return 0 if P.stock_pos < R.stock_len else 1


cdef inline int dix_policy(const void* Pv, const void* Rv, uint64_t L,
                           double* probs) noexcept nogil:
    """``Ops.policy``: the learned policy's probability of each card of
    ``L`` for the mover's hand in this world."""
    cdef const DixPlay* P = <const DixPlay*>Pv
    cdef const DixRules* R = <const DixRules*>Rv
    cdef CardFacts F
    dix_facts(P, R, &F)
    card_policy_probs(&R.cp, dix_phase(P, R), &F, P.hands[dix_to_move(P)], L, probs)
    return 1


cdef inline int dix_playout(const void* Pv, const void* Rv, uint64_t L, Rng* r) noexcept nogil:
    """A play-out's card.  With a learned policy whose ``playout`` is 1, a
    card drawn from it; 2, a lead drawn from it and a follower's card by the
    rule below.  Else ``R.playout`` 0: any legal card at random.  1: the
    leader at random; the follower, three times in four, by a greedy rule
    (let the leader win a ten-trick; else win cheaply without a ten; else
    throw the lowest card that makes no ten; else the lowest card), else at
    random: most of a random play-out's spread comes from the follower's
    blunders, and a search's values are only as steady as its play-outs."""
    cdef const DixPlay* P = <const DixPlay*>Pv
    cdef const DixRules* R = <const DixRules*>Rv
    cdef int lead = P.lead_card, c, cls, key, best = -1, best_cls = 9, best_key = 1 << 30
    cdef int win, ten
    cdef int duel[2]                # the lead, then the follower's candidate
    cdef uint64_t m = L
    cdef CardFacts F
    if R.cp.playout == 1 or (R.cp.playout == 2 and lead < 0):
        dix_facts(P, R, &F)
        return card_policy_draw(&R.cp, dix_phase(P, R), &F, P.hands[dix_to_move(P)], L, r)
    if R.playout == 0 or lead < 0 or (R.playout == 1 and rng_below(r, 4) == 0):
        return random_bit(L, r)
    duel[0] = lead
    while m:
        c = lowest_bit(m)
        m &= m - 1
        duel[1] = c                 # the trick rule itself decides who wins
        win = trick_winner_c(duel, 2, R.trump, R.suit_of, R.strength)
        ten = R.pips[c] + R.pips[lead] == 10
        cls = (0 if not win else 3) if ten else (1 if win else 2)
        key = R.strength[c] + (64 if R.suit_of[c] == R.trump else 0)
        if cls < best_cls or (cls == best_cls and key < best_key):
            best, best_cls, best_key = c, cls, key
    return best


cdef inline uint64_t dix_reduce(const void* Pv, const void* Rv, uint64_t L, int root) noexcept nogil:
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
    other = live & ~P.hands[dix_to_move(P)]
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


# ---- the learned value at a leaf (leafvalue.pxd) ------------------------------

cdef enum:
    #: dix's value features (``solver.games.dix.kernel.DIX_VALUE_FEATURES``, in order)
    DIX_VF = 30
    DV_MASTERS = 27
    DV_VOIDS = 28
    DV_LEAD = 29


cdef inline int dix_card_class(const DixRules* R, int c) noexcept nogil:
    """A card's class for the value: its rank among the trumps (0..12,
    the joker 13) or among the plain suits (14..26): the suits but the
    trump's are alike to the value."""
    if c == 0:
        return 13
    if R.suit_of[c] == R.trump:
        return (c & 15) - 2
    return 14 + (c & 15) - 2


cdef inline int dix_masters(const DixRules* R, uint64_t hand, uint64_t others) noexcept nogil:
    """The cards of ``hand`` that no card of ``others`` outranks in their
    effective suit."""
    cdef int n = 0, c, k, s
    cdef uint64_t m = hand
    while m:
        c = lowest_bit(m)
        m &= m - 1
        s = R.suit_of[c]
        if s >= 4:                  # out of play (never in a hand)
            continue
        for k in range(R.order_len[s]):
            if R.order[s][k] == c:
                break
        k += 1
        while k < R.order_len[s] and not (others >> R.order[s][k]) & 1:
            k += 1
        if k >= R.order_len[s]:
            n += 1
    return n


cdef inline int dix_value_point(const void* Pv, const void* Rv, int seat, double* f,
                                double* partial) noexcept nogil:
    """At a trick's start with more than ``lv.floor`` tricks left: ``seat``'s
    value features (each what ``seat`` has minus what the other seat has,
    and who leads) into ``f``, the reward so far of each seat (the score
    difference over 30, no tie-break) into ``partial``, and the phase (by
    tricks left) returned; elsewhere -1."""
    cdef const DixPlay* P = <const DixPlay*>Pv
    cdef const DixRules* R = <const DixRules*>Rv
    cdef int left = R.total_tricks - P.tricks_done, k, c, s
    cdef uint64_t mine, theirs, stock = 0, m
    cdef int voids
    if P.lead_card >= 0 or left <= R.lv.floor:
        return -1
    partial[0] = ((P.won[0] - 4 * P.tens[0]) - (P.won[1] - 4 * P.tens[1])) / 30.0
    partial[1] = -partial[0]
    for k in range(DIX_VF):
        f[k] = 0.0
    mine = P.hands[seat]
    theirs = P.hands[1 - seat]
    for k in range(P.stock_pos, R.stock_len):
        stock |= (<uint64_t>1) << P.stock[k]
    m = mine
    while m:
        c = lowest_bit(m)
        m &= m - 1
        f[dix_card_class(R, c)] += 1.0
    m = theirs
    while m:
        c = lowest_bit(m)
        m &= m - 1
        f[dix_card_class(R, c)] -= 1.0
    f[DV_MASTERS] = (dix_masters(R, mine, theirs | stock) -
                     dix_masters(R, theirs, mine | stock)) / 13.0
    voids = 0
    for s in range(4):
        voids += (0 if mine & R.suit_mask[s] else 1) - (0 if theirs & R.suit_mask[s] else 1)
    f[DV_VOIDS] = voids / 4.0
    f[DV_LEAD] = 1.0 if P.leader == seat else -1.0
    return 0 if left > 19 else (1 if left > 13 else (2 if left > 7 else 3))


cdef inline int dix_value(const void* Pv, const void* Rv, int moves, double* out) noexcept nogil:
    """``Ops.value``: after ``lv.cut`` tricks of play-out (``moves`` cards),
    at a trick's start, each seat's reward estimated: the score so far plus
    the learned value of the rest; 0 (play on) elsewhere."""
    cdef const DixRules* R = <const DixRules*>Rv
    cdef double f[DIX_VF]
    cdef double partial[2]
    cdef int phase
    if moves < 2 * R.lv.cut:
        return 0
    phase = dix_value_point(Pv, Rv, 0, f, partial)
    if phase < 0:
        return 0
    out[0] = clamp1(partial[0] + leaf_dot(&R.lv, phase, f))
    out[1] = -out[0]
    return 1


cdef inline Ops dix_ops() noexcept:
    cdef Ops o
    o.legal = dix_legal
    o.apply = dix_apply
    o.mover = dix_mover
    o.over = dix_over
    o.rewards = dix_rewards
    o.determinize = dix_determinize
    o.playout = dix_playout
    o.reduce = dix_reduce
    o.prior = NULL
    o.policy = NULL
    o.value = NULL
    o.state_size = sizeof(DixPlay)
    return o


cdef inline int dix_load(DixRules* R, DixPlay* P, object compiled, dict rules,
                         dict state) except -1:
    """Fill the rules and the base state from ``native_dix_search``'s dicts."""
    cdef int i, c, k, s
    dest = rules["dest"]
    if len(dest) > MAX_SLOTS or compiled.n_slots != len(dest):
        raise ValueError(f"at most {MAX_SLOTS} sampler slots, one dest each")
    for i in range(64):
        R.suit_of[i] = rules["suit_of"][i]
        R.strength[i] = rules["strength"][i]
        R.pips[i] = rules["pips"][i]
    for i in range(4):
        R.suit_mask[i] = rules["suit_mask"][i]
    R.trump = rules["trump"]
    R.free_play = rules["free_play"]
    R.stock_len = rules["stock_len"]
    R.total_tricks = rules["total_tricks"]
    R.seat = rules["seat"]
    R.played = rules["played"]
    R.playout = rules.get("playout", 0)
    R.root_keep = rules.get("root_keep", 0xFFFFFFFFFFFFFFFF)
    R.equiv = rules.get("equiv", 1)
    for i in range(4):
        R.order_len[i] = 0
    for i in range(11):
        R.pip_mask[i] = 0
    for c in range(64):
        if rules["suit_of"][c] < 4 and 0 <= rules["pips"][c] <= 10:
            R.pip_mask[rules["pips"][c]] |= (<uint64_t>1) << c
    # each effective suit's cards, weakest first (ties: the lower card)
    suits = list(rules["suit_of"])
    for k, c in sorted([(rules["strength"][c], c) for c in range(64)]):
        s = suits[c]
        if s < 4 and R.order_len[s] < 32:
            R.order[s][R.order_len[s]] = c
            R.order_len[s] += 1
    for i in range(len(dest)):
        R.dest[i] = dest[i]
    P.hands[0] = state["hands"][0]
    P.hands[1] = state["hands"][1]
    for i in range(26):
        P.stock[i] = state["stock"][i] if i < len(state["stock"]) else 0
    P.stock_pos = state["stock_pos"]
    P.leader = state["leader"]
    P.lead_card = state["lead_card"]
    P.tricks_done = state["tricks_done"]
    P.won[0], P.won[1] = state["won"]
    P.tens[0], P.tens[1] = state["tens"]
    P.last_winner = state["last_winner"]
    P.out = state.get("out", 0)
    return 0
