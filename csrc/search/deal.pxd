# A whole trix / tricks deal as compact-state operations for the search
# (compile-time header, cimported by csrc/search/ismcts.pyx): the chooser's
# contract choice, trix's doubling round, tricks' bad-hand redeal claims,
# then the play of the contract (trickrules.pxd's rules).  Built from a
# seat view by solver/games/contract_match/kernel.py (native_contract_search).
#
# The phases are those of solver/games/contract_match/state.py.  Actions are bit
# indices per phase: a contract's id (0..4) when choosing; a card revealed
# (its index) or ``DONE_BIT`` (63, "reveal done") when declaring; 0 (no
# redeal) or 1 (redeal) when claiming; a card, or the layout's pass
# (``PASS_BIT``), in play.
#
# A redeal claimed inside the search deals four new hands from the state's
# own generator (``rng``, seeded by the determinization) and asks for the
# claims again, as the game does: the value of a redeal is what the next
# deal's layout is worth, not nothing.
#
# Play-out policies (``DealRules.playout``): 0, every move at random; 1,
# the rules player's non-card decisions (``deal_rules_move``) and the card
# searches' play-outs (the greedy trick follower three times in four, a
# random leader; the layout at random); 2, as 1 with the greedy follower at
# every follower's card (tests); 3, the rules player's move everywhere
# (contract_player.pxd: solver/games/contract_match/heuristic.py ported move
# for move),
# the policy the contracts' average-deal values were measured with
# (solver/search/contract_choice.py), so that a contract's value and its baseline
# are measured alike.
from libc.stdint cimport uint64_t, int32_t, uint8_t
from bits cimport popcount, lowest_bit
from rng cimport Rng, rng_below, rng_seed, rng_next
from typegraph cimport TypeGraph, holders_walk
from tree cimport Ops, random_bit, reduce_ranked, shuffle_ints, card_tables
from trickrules cimport (C_KING, C_QUEENS, C_LAYOUT, TrickPlay, LayoutPlay, trick_to_move,
                         trick_legal_mask, trick_others_live, trick_play_card, layout_start,
                         layout_legal_mask, layout_play, layout_points)
from trick cimport trick_greedy, team_rewards
from contract_player cimport rules_contract, rules_trick_card, rules_layout_card

cdef enum:
    D_CHOOSE = 0
    D_DECLARE = 1
    D_CLAIM = 2
    D_TRICKS = 3
    D_LAYOUT = 4
    D_OVER = 5
    DONE_BIT = 63
    NO_REDEAL_BIT = 0
    REDEAL_BIT = 1
    #: redeals one play-out may deal (a bad hand comes about once in 200)
    MAX_REDEALS = 32


cdef struct DealRules:
    int32_t win_pts[5][64]     # per contract: points to the taker of each card
    int32_t trick_pts[5]       # per contract: points to the taker of each trick
    uint64_t pen_mask[5]       # per contract: its penalty cards
    int must_discard           # a void player holding a penalty card plays one
    int doubling               # trix: King of Hearts and Queens have a doubling round
    int claims                 # tricks: Jacks has bad-hand redeal claims
    int claim_dealer           # the chooser is asked too (Jacks is its last game)
    int32_t chooser
    int32_t team[4]            # team of each seat (individual: the seat)
    double scale
    int32_t seat               # the searching seat
    int32_t others[3]          # the holders of the determinization, in order
    uint64_t fixed[4]          # cards known to be with each seat
    int playout                # see the header comment
    uint8_t suit_of[64]
    uint8_t strength[64]


cdef struct DealPlay:
    uint64_t hands[4]          # the deal's hands (play: in ``tp`` / ``lp``)
    int32_t phase
    int32_t chooser
    int32_t contract
    int32_t open_contracts     # bits of the contracts still to play this round
    int32_t order[4]           # the seats asked (declarations, claims)
    int32_t norder
    int32_t order_pos
    int32_t redeals
    uint64_t revealed
    int32_t revealer[64]       # -1: not revealed
    Rng rng                    # the state's own draws (redeals)
    TrickPlay tp
    LayoutPlay lp


cdef inline int is_bad_hand(uint64_t hand) noexcept nogil:
    """All four 2s, or three 2s and the 3s of at least two of their suits."""
    cdef int s, twos = 0, threes = 0
    for s in range(4):
        if (hand >> (16 * s + 2)) & 1:
            twos += 1
            threes += (hand >> (16 * s + 3)) & 1
    return twos == 4 or (twos == 3 and threes >= 2)


# ---- the phases ------------------------------------------------------------------

cdef inline int deal_mover(const void* Pv) noexcept nogil:
    cdef const DealPlay* P = <const DealPlay*>Pv
    if P.phase == D_TRICKS:
        return trick_to_move(&P.tp)
    if P.phase == D_LAYOUT:
        return P.lp.turn
    if P.phase == D_DECLARE or P.phase == D_CLAIM:
        return P.order[P.order_pos]
    return P.chooser


cdef inline uint64_t deal_legal(const void* Pv, const void* Rv) noexcept nogil:
    cdef const DealPlay* P = <const DealPlay*>Pv
    cdef const DealRules* R = <const DealRules*>Rv
    cdef int seat
    if P.phase == D_TRICKS:
        return trick_legal_mask(&P.tp, R.pen_mask[P.contract] if R.must_discard else 0)
    if P.phase == D_LAYOUT:
        return layout_legal_mask(&P.lp)
    if P.phase == D_CHOOSE:
        return <uint64_t>P.open_contracts
    seat = P.order[P.order_pos]
    if P.phase == D_DECLARE:
        return ((<uint64_t>1) << DONE_BIT) | (R.pen_mask[P.contract] & P.hands[seat] & ~P.revealed)
    if is_bad_hand(P.hands[seat]):
        return ((<uint64_t>1) << NO_REDEAL_BIT) | ((<uint64_t>1) << REDEAL_BIT)
    return (<uint64_t>1) << NO_REDEAL_BIT


cdef inline void start_claims(DealPlay* P, const DealRules* R) noexcept nogil:
    cdef int i
    P.norder = 0
    for i in range(1, 4):
        P.order[P.norder] = (R.chooser + i) & 3
        P.norder += 1
    if R.claim_dealer:
        P.order[P.norder] = R.chooser
        P.norder += 1
    P.order_pos = 0
    P.phase = D_CLAIM


cdef inline void start_play(DealPlay* P, const DealRules* R) noexcept nogil:
    cdef int s
    if P.contract == C_LAYOUT:
        layout_start(&P.lp, P.hands, R.chooser)
        P.phase = D_LAYOUT
        return
    for s in range(4):
        P.tp.hands[s] = P.hands[s]
        P.tp.score[s] = 0
    P.tp.ntrick = 0
    P.tp.leader = R.chooser
    P.tp.tricks_done = 0
    P.phase = D_TRICKS


cdef inline void redeal(DealPlay* P) noexcept nogil:
    """Four new hands of 13 from the state's generator."""
    cdef int32_t deck[52]
    cdef int s, r, i
    for s in range(4):
        for r in range(13):
            deck[s * 13 + r] = s * 16 + r + 2
    shuffle_ints(deck, 52, &P.rng)
    for s in range(4):
        P.hands[s] = 0
        for i in range(13):
            P.hands[s] |= (<uint64_t>1) << deck[s * 13 + i]
    P.redeals += 1


cdef inline void deal_apply(void* Pv, const void* Rv, int a) noexcept nogil:
    cdef DealPlay* P = <DealPlay*>Pv
    cdef const DealRules* R = <const DealRules*>Rv
    cdef int seat
    cdef uint64_t left
    if P.phase == D_TRICKS:
        if trick_play_card(&P.tp, a, R.suit_of, R.strength, R.win_pts[P.contract],
                           P.revealer, R.trick_pts[P.contract]) >= 0:
            left = P.tp.hands[0] | P.tp.hands[1] | P.tp.hands[2] | P.tp.hands[3]
            # the scores cannot change once every penalty card is taken
            # (Ltoosh: after the last trick)
            if P.tp.tricks_done >= 13 or (R.trick_pts[P.contract] == 0 and
                                          not (left & R.pen_mask[P.contract])):
                P.phase = D_OVER
        return
    if P.phase == D_LAYOUT:
        layout_play(&P.lp, a)
        if P.lp.nout >= 4:
            P.phase = D_OVER
        return
    if P.phase == D_CHOOSE:
        P.contract = a
        P.open_contracts &= ~(1 << a)
        if R.doubling and (a == C_KING or a == C_QUEENS):
            for seat in range(4):
                P.order[seat] = (R.chooser + seat) & 3
            P.norder = 4
            P.order_pos = 0
            P.phase = D_DECLARE
        elif R.claims and a == C_LAYOUT:
            start_claims(P, R)
        else:
            start_play(P, R)
        return
    seat = P.order[P.order_pos]
    if P.phase == D_DECLARE:
        if a == DONE_BIT:
            P.order_pos += 1
            if P.order_pos == P.norder:
                start_play(P, R)
        else:
            P.revealed |= (<uint64_t>1) << a
            P.revealer[a] = seat
        return
    if a == REDEAL_BIT and P.redeals < MAX_REDEALS:
        redeal(P)
        start_claims(P, R)
        return
    P.order_pos += 1
    if P.order_pos == P.norder:
        start_play(P, R)


cdef inline int deal_over(const void* Pv, const void* Rv) noexcept nogil:
    return (<const DealPlay*>Pv).phase == D_OVER


cdef inline void deal_rewards(const void* Pv, const void* Rv, double* out) noexcept nogil:
    cdef const DealPlay* P = <const DealPlay*>Pv
    cdef const DealRules* R = <const DealRules*>Rv
    cdef int32_t pts[4]
    if P.contract == C_LAYOUT:
        layout_points(&P.lp, pts)
        team_rewards(pts, R.team, R.scale, out)
    else:
        team_rewards(P.tp.score, R.team, R.scale, out)


cdef inline void deal_determinize(void* Pv, const void* Rv, void* gv, Rng* r) noexcept nogil:
    """The other three seats' hands by a holder-graph walk, plus the cards
    each is known to hold; the state's own generator seeded."""
    cdef DealPlay* P = <DealPlay*>Pv
    cdef const DealRules* R = <const DealRules*>Rv
    cdef uint64_t got[8]
    cdef int h
    for h in range(3):
        got[h] = 0
    holders_walk(<TypeGraph*>gv, r, got)
    for h in range(3):
        P.hands[R.others[h]] = got[h] | R.fixed[R.others[h]]
    rng_seed(&P.rng, rng_next(r))


cdef inline int deal_rules_move(const DealPlay* P, const DealRules* R, uint64_t L) noexcept nogil:
    """The rules player's decision in a phase without cards (-1 in play):
    the contract with the best estimate; reveal a penalty card of a suit of
    five or more (the first such, in card order), else "done"; redeal a bad
    hand."""
    cdef int seat
    cdef uint64_t m
    cdef int c
    if P.phase == D_CHOOSE:
        return rules_contract(P.hands[R.chooser], P.open_contracts & <int>L)
    if P.phase == D_DECLARE:
        seat = P.order[P.order_pos]
        m = L & ~((<uint64_t>1) << DONE_BIT)
        while m:
            c = lowest_bit(m)
            m &= m - 1
            if popcount(P.hands[seat] & ((<uint64_t>0xFFFF) << (c & ~15))) >= 5:
                return c
        return DONE_BIT
    if P.phase == D_CLAIM:
        return REDEAL_BIT if (L >> REDEAL_BIT) & 1 else NO_REDEAL_BIT
    return -1


cdef inline int deal_prior(const void* Pv, const void* Rv, uint64_t L) noexcept nogil:
    return deal_rules_move(<const DealPlay*>Pv, <const DealRules*>Rv, L)


cdef inline int deal_playout(const void* Pv, const void* Rv, uint64_t L, Rng* r) noexcept nogil:
    cdef const DealPlay* P = <const DealPlay*>Pv
    cdef const DealRules* R = <const DealRules*>Rv
    cdef int a
    if R.playout == 0:
        return random_bit(L, r)
    if P.phase == D_TRICKS:
        if R.playout == 3:
            return rules_trick_card(&P.tp, L, R.pen_mask[P.contract], R.suit_of, R.strength)
        if P.tp.ntrick == 0 or (R.playout == 1 and rng_below(r, 4) == 0):
            return random_bit(L, r)
        return trick_greedy(&P.tp, L, R.win_pts[P.contract], P.revealer, R.team, R.suit_of,
                            R.strength)
    if P.phase == D_LAYOUT:
        if R.playout == 3:
            return rules_layout_card(&P.lp, L)
        return random_bit(L, r)
    a = deal_rules_move(P, R, L)
    return a if a >= 0 else random_bit(L, r)


cdef inline uint64_t deal_reduce(const void* Pv, const void* Rv, uint64_t L, int root) noexcept nogil:
    """Below the root, in a trick contract, one card of each run of
    equivalent cards (as ``trick_reduce``: a card's score is its penalty and
    who revealed it); elsewhere every legal move."""
    cdef const DealPlay* P = <const DealPlay*>Pv
    cdef const DealRules* R = <const DealRules*>Rv
    cdef int32_t attr[64]
    cdef int i
    if root or P.phase != D_TRICKS:
        return L
    for i in range(64):
        attr[i] = R.win_pts[P.contract][i] * 8 + P.revealer[i]
    return reduce_ranked(L, trick_others_live(&P.tp), attr)


cdef inline Ops deal_ops() noexcept:
    cdef Ops o
    o.legal = deal_legal
    o.apply = deal_apply
    o.mover = deal_mover
    o.over = deal_over
    o.rewards = deal_rewards
    o.determinize = deal_determinize
    o.playout = deal_playout
    o.reduce = deal_reduce
    o.prior = deal_prior
    o.policy = NULL
    o.value = NULL
    o.state_size = sizeof(DealPlay)
    return o


cdef inline int deal_load(DealRules* R, DealPlay* P, dict rules, dict state) except -1:
    """Fill the rules and the base state from ``native_contract_search``'s
    dicts."""
    cdef int i, k
    for k in range(5):
        R.trick_pts[k] = rules["trick_pts"][k]
        R.pen_mask[k] = rules["pen_mask"][k]
        for i in range(64):
            R.win_pts[k][i] = rules["win_pts"][k][i]
    R.must_discard = rules["must_discard"]
    R.doubling = rules["doubling"]
    R.claims = rules["claims"]
    R.claim_dealer = rules["claim_dealer"]
    R.chooser = rules["chooser"]
    for i in range(4):
        R.team[i] = rules["team"][i]
        R.fixed[i] = rules["fixed"][i]
    for i in range(3):
        R.others[i] = rules["others"][i]
    R.seat = rules["seat"]
    R.scale = rules["scale"]
    R.playout = rules["playout"]
    card_tables(R.suit_of, R.strength)
    for i in range(4):
        P.hands[i] = state["hands"][i]
    P.phase = state["phase"]
    P.contract = state["contract"]
    P.open_contracts = state["open_contracts"]
    order = state["order"]
    if len(order) > 4:
        raise ValueError("at most 4 seats asked")
    P.norder = len(order)
    for i in range(4):
        P.order[i] = order[i] if i < len(order) else 0
    P.chooser = R.chooser
    P.order_pos = state["order_pos"]
    P.redeals = 0
    P.revealed = 0
    for i in range(64):
        P.revealer[i] = -1
    for seat, card in state["reveals"]:
        P.revealed |= (<uint64_t>1) << card
        P.revealer[card] = seat
    rng_seed(&P.rng, 0)
    return 0
