# A dix-exchange round as compact-state operations for the search
# (compile-time header, cimported by csrc/search/ismcts.pyx).  Built from a
# seat view by solver/search/native.py (native_exchange_search).
#
# The round's cards are "slots": the card each seat in the round drew
# (``drawn``), then the card the dealer would draw from the stock.  Every
# exchange, block and Putois only moves slots between seats (who holds
# which slot is public), so the state is which slot each seat holds and the
# value of each slot in this world.
#
# The determinization draws the slots' values from the view's exact world
# model (solver/games/dix_exchange/views.py, ``_WorldModel``): its count over the
# values, compiled to a graph (``ExGraph``: one step a value, each edge how
# many cards of it each group of interchangeable unseen positions gets,
# with its probability), is walked as ``_WorldModel.draw`` walks it; the
# unseen slots then take values from their group's cards without
# replacement (the positions of a group are interchangeable, so this is the
# group's uniform arrangement read at those places).  When the stock is
# empty the dealer would draw from a new stock of the used cards: its top
# card is one of them, uniformly.
#
# Actions are the game's own ids (0 keep, 1 ask, 2 accept, 3 draw, 4 + value
# block), all below 64.  Every decision is the rules player's
# (solver/games/dix_exchange/heuristic.py) in play-outs and as the PUCT
# prior.
from libc.stdint cimport uint64_t, int32_t
from libc.stdlib cimport malloc, free
from bits cimport lowest_bit
from rng cimport Rng, rng_below
from tree cimport Ops, random_bit, clamp1
from bags cimport ExGraph, exgraph_walk, exgraph_take
from pool cimport pool_pick

cdef enum:
    X_TURN = 0
    X_RESPOND = 1
    X_OVER = 2
    X_KEEP = 0
    X_ASK = 1
    X_ACCEPT = 2
    X_DRAW = 3
    X_BLOCK = 4
    #: value indices (solver/games/dix_exchange/notation.py, VALUE_INDEX)
    V_HIBOU = 0
    V_LOUP = 1
    V_PUTOIS = 2
    V_SAUTE_LAPIN = 3
    V_CHAT_JOKER = 14
    MAX_X_SEATS = 12
    MAX_X_SLOTS = 13           # a drawn card per seat, and the dealer's stock card
    MAX_X_USED = 64
    MIN_BLOCK_RANK = 6
    ASK_AT_OR_BELOW = 2


cdef struct ExRules:
    int32_t rank[15]           # comparison rank of each value index
    int32_t n                  # seats
    int32_t order[MAX_X_SEATS] # turn order of the round (the dealer last)
    int32_t norder
    int32_t dealer
    int32_t active             # bit per seat in the round
    int32_t nslots
    int32_t slot_known[MAX_X_SLOTS]   # the value, or -1 unseen
    int32_t slot_group[MAX_X_SLOTS]   # an unseen slot's group
    int32_t stock_empty        # the dealer's card comes from the used cards
    int32_t nused
    int32_t used_known[MAX_X_USED]
    int32_t used_group[MAX_X_USED]
    int32_t slot_place[MAX_X_SLOTS]   # an unseen slot's place in a pool's rows
    int32_t used_place[MAX_X_USED]
    int32_t playout            # 0: random; else the rules player's moves
    double scale


cdef struct ExPlay:
    int32_t value[MAX_X_SLOTS] # each slot's value in this world
    int32_t hand[MAX_X_SEATS]  # the slot each seat holds (-1: not in the round)
    int32_t drawn[MAX_X_SEATS] # the slot each seat drew
    int32_t tokens[MAX_X_SEATS]
    int32_t start_tokens[MAX_X_SEATS]
    int32_t turn               # place in ``order``
    int32_t phase
    int32_t mover              # the seat to move: ``order[turn]``, or the one asked
    int32_t asker
    int32_t target


# ---- the round ---------------------------------------------------------------------

cdef inline int ex_next_active(const ExRules* R, int seat) noexcept nogil:
    cdef int i
    for i in range(R.norder):
        if R.order[i] == seat:
            return R.order[(i + 1) % R.norder]
    return seat


cdef inline int ex_mover(const void* Pv) noexcept nogil:
    return (<const ExPlay*>Pv).mover


cdef inline uint64_t ex_legal(const void* Pv, const void* Rv) noexcept nogil:
    cdef const ExPlay* P = <const ExPlay*>Pv
    cdef const ExRules* R = <const ExRules*>Rv
    cdef int v
    if P.phase == X_RESPOND:
        v = P.value[P.hand[P.target]]
        if R.rank[v] >= MIN_BLOCK_RANK:
            return ((<uint64_t>1) << X_ACCEPT) | ((<uint64_t>1) << (X_BLOCK + v))
        return (<uint64_t>1) << X_ACCEPT
    if R.order[P.turn] == R.dealer:
        return ((<uint64_t>1) << X_KEEP) | ((<uint64_t>1) << X_DRAW)
    return ((<uint64_t>1) << X_KEEP) | ((<uint64_t>1) << X_ASK)


cdef inline void ex_lose(ExPlay* P, int seat) noexcept nogil:
    if P.tokens[seat] > 0:
        P.tokens[seat] -= 1


cdef inline void ex_next_turn(ExPlay* P, const ExRules* R) noexcept nogil:
    P.phase = X_TURN
    P.turn += 1
    P.mover = R.order[P.turn] if P.turn < R.norder else -1
    P.asker = -1
    P.target = -1


cdef inline void ex_showdown(ExPlay* P, const ExRules* R) noexcept nogil:
    cdef int s, jokers = 0, low = 1 << 20, any_token = 0
    for s in range(R.n):
        if (R.active >> s) & 1:
            if P.value[P.hand[s]] == V_CHAT_JOKER:
                jokers += 1
            if R.rank[P.value[P.hand[s]]] < low:
                low = R.rank[P.value[P.hand[s]]]
    if jokers >= 2:
        for s in range(R.n):
            if P.tokens[s] == 0:
                P.tokens[s] = 1
    else:
        for s in range(R.n):
            if (R.active >> s) & 1 and R.rank[P.value[P.hand[s]]] == low:
                ex_lose(P, s)
    for s in range(R.n):
        if P.tokens[s] > 0:
            any_token = 1
    if not any_token:                    # the round is played again
        for s in range(R.n):
            P.tokens[s] = P.start_tokens[s]
    P.phase = X_OVER


cdef inline void ex_apply(void* Pv, const void* Rv, int a) noexcept nogil:
    cdef ExPlay* P = <ExPlay*>Pv
    cdef const ExRules* R = <const ExRules*>Rv
    cdef int seat, asker, target, t, v, drawer, s
    if P.phase == X_RESPOND:
        asker, target = P.asker, P.target
        if a == X_ACCEPT:
            t = P.hand[asker]
            P.hand[asker] = P.hand[target]
            P.hand[target] = t
            ex_next_turn(P, R)
            return
        v = a - X_BLOCK
        if v == V_SAUTE_LAPIN:
            t = ex_next_active(R, target)
            if t == asker:
                ex_next_turn(P, R)         # the request lapses
            else:
                P.target = P.mover = t
            return
        if v == V_LOUP:
            ex_lose(P, asker)
        elif v == V_PUTOIS:
            ex_lose(P, asker)
            drawer = asker
            for s in range(R.n):
                if P.drawn[s] == P.hand[asker] and (R.active >> s) & 1:
                    drawer = s
            if drawer != asker:
                ex_lose(P, drawer)
            for s in range(R.n):
                if (R.active >> s) & 1:
                    P.hand[s] = P.drawn[s]
        ex_next_turn(P, R)
        return
    seat = R.order[P.turn]
    if seat == R.dealer:
        if a == X_DRAW:
            P.hand[seat] = R.nslots - 1
        ex_showdown(P, R)
        return
    if a == X_KEEP:
        ex_next_turn(P, R)
        return
    P.asker = seat
    P.target = P.mover = ex_next_active(R, seat)
    P.phase = X_RESPOND


cdef inline int ex_over(const void* Pv, const void* Rv) noexcept nogil:
    return (<const ExPlay*>Pv).phase == X_OVER


cdef inline void ex_rewards(const void* Pv, const void* Rv, double* out) noexcept nogil:
    """Each seat's tokens won or lost this round, over ``scale``."""
    cdef const ExPlay* P = <const ExPlay*>Pv
    cdef const ExRules* R = <const ExRules*>Rv
    cdef int s
    for s in range(R.n):
        out[s] = clamp1((P.tokens[s] - P.start_tokens[s]) / R.scale)


cdef inline void ex_determinize(void* Pv, const void* Rv, void* gv, Rng* r) noexcept nogil:
    cdef ExPlay* P = <ExPlay*>Pv
    cdef const ExRules* R = <const ExRules*>Rv
    cdef ExGraph* g = <ExGraph*>gv
    cdef int i, u
    cdef const uint64_t* row
    if g.worlds.n > 0:
        # a world of the beliefs' pool: each unseen position's value as a bit
        row = pool_pick(&g.worlds, r)
        for i in range(R.nslots):
            if R.slot_known[i] >= 0:
                P.value[i] = R.slot_known[i]
            elif R.slot_place[i] >= 0:
                P.value[i] = lowest_bit(row[R.slot_place[i]])
        if R.stock_empty and R.nused > 0:
            u = rng_below(r, R.nused)
            P.value[R.nslots - 1] = R.used_known[u] if R.used_known[u] >= 0 else \
                lowest_bit(row[R.used_place[u]])
        return
    exgraph_walk(g, r)
    for i in range(R.nslots):
        if R.slot_known[i] >= 0:
            P.value[i] = R.slot_known[i]
        elif R.slot_group[i] >= 0:
            P.value[i] = exgraph_take(g, R.slot_group[i], r)
    if R.stock_empty and R.nused > 0:
        u = rng_below(r, R.nused)
        P.value[R.nslots - 1] = R.used_known[u] if R.used_known[u] >= 0 else \
            exgraph_take(g, R.used_group[u], r)


cdef inline int ex_rules_move(const ExPlay* P, const ExRules* R, uint64_t L) noexcept nogil:
    """The rules player: block whenever it may; ask (or, the dealer, draw)
    with a 2 or lower; else keep or accept."""
    cdef int seat = ex_mover(P), rank
    if (L & (L - 1)) == 0:
        return lowest_bit(L)
    if L >> X_BLOCK:
        return lowest_bit(L >> X_BLOCK) + X_BLOCK
    rank = R.rank[P.value[P.hand[seat]]]
    if (L >> X_ASK) & 1:
        return X_ASK if rank <= ASK_AT_OR_BELOW else X_KEEP
    if (L >> X_DRAW) & 1:
        return X_DRAW if rank <= ASK_AT_OR_BELOW else X_KEEP
    return X_ACCEPT


cdef inline int ex_prior(const void* Pv, const void* Rv, uint64_t L) noexcept nogil:
    return ex_rules_move(<const ExPlay*>Pv, <const ExRules*>Rv, L)


cdef inline int ex_playout(const void* Pv, const void* Rv, uint64_t L, Rng* r) noexcept nogil:
    cdef const ExRules* R = <const ExRules*>Rv
    if R.playout == 0:
        return random_bit(L, r)
    return ex_rules_move(<const ExPlay*>Pv, R, L)


cdef inline uint64_t ex_reduce(const void* Pv, const void* Rv, uint64_t L, int root) noexcept nogil:
    return L


cdef inline Ops ex_ops() noexcept:
    cdef Ops o
    o.legal = ex_legal
    o.apply = ex_apply
    o.mover = ex_mover
    o.over = ex_over
    o.rewards = ex_rewards
    o.determinize = ex_determinize
    o.playout = ex_playout
    o.reduce = ex_reduce
    o.prior = ex_prior
    o.policy = NULL
    o.value = NULL
    o.state_size = sizeof(ExPlay)
    return o


cdef inline int ex_load(ExRules* R, ExPlay* P, dict rules, dict state) except -1:
    """Fill the rules and the base state from ``native_exchange_search``'s
    dicts."""
    cdef int i
    R.n = rules["n"]
    if R.n > MAX_X_SEATS or len(rules["order"]) > MAX_X_SEATS:
        raise ValueError(f"at most {MAX_X_SEATS} seats")
    if len(rules["slot_known"]) > MAX_X_SLOTS or len(rules["used_known"]) > MAX_X_USED:
        raise ValueError("too many cards for the compact round")
    for i in range(15):
        R.rank[i] = rules["rank"][i]
    R.norder = len(rules["order"])
    for i in range(R.norder):
        R.order[i] = rules["order"][i]
    R.dealer = rules["dealer"]
    R.active = 0
    for i in range(R.norder):
        R.active |= 1 << R.order[i]
    R.nslots = len(rules["slot_known"])
    for i in range(R.nslots):
        R.slot_known[i] = rules["slot_known"][i]
        R.slot_group[i] = rules["slot_group"][i]
        R.slot_place[i] = rules["slot_place"][i]
    R.stock_empty = rules["stock_empty"]
    R.nused = len(rules["used_known"])
    for i in range(R.nused):
        R.used_known[i] = rules["used_known"][i]
        R.used_group[i] = rules["used_group"][i]
        R.used_place[i] = rules["used_place"][i]
    R.playout = rules["playout"]
    R.scale = rules["scale"]
    for i in range(MAX_X_SLOTS):
        P.value[i] = 0
    for i in range(MAX_X_SEATS):
        P.hand[i] = state["hand"][i] if i < R.n else -1
        P.drawn[i] = state["drawn"][i] if i < R.n else -1
        P.tokens[i] = state["tokens"][i] if i < R.n else 0
        P.start_tokens[i] = state["start_tokens"][i] if i < R.n else 0
    P.turn = state["turn"]
    P.phase = state["phase"]
    P.mover = state["mover"]
    P.asker = state["asker"]
    P.target = state["target"]
    return 0
