# trix / tricks card play as compact-state operations for the search
# (compile-time header, cimported by csrc/search/ismcts.pyx and deal.pxd):
# the four trick contracts (4 seats, no trumps, per-card and per-trick
# penalties, trix doubling) and the layout (trix "Trix" / tricks "Jacks").
# Built from a seat view by solver/games/contract_match/kernel.py
# (native_trick_search, native_layout_search).
#
# The rules of play (legal cards, a card played and its trick scored, the
# layout's rows) are trickrules.pxd's, shared with the whole-deal search
# (deal.pxd), the rules player's C port and PIMC; this header adds what
# the searches need around them: the rules as data (``TrickRules``), the
# greedy follower of the play-outs, the rewards, the determinization and
# the ``Ops`` tables.
from libc.stdint cimport uint64_t, int32_t, uint8_t
from bits cimport lowest_bit, highest_bit
from rng cimport Rng, rng_below
from typegraph cimport TypeGraph, holders_walk
from tree cimport (Ops, random_bit, random_playout, no_reduce, reduce_ranked, clamp1,
                  card_tables)
from cardfeat cimport CardPolicy, CardFacts, card_policy_probs, card_policy_draw, card_facts_fill
from trickrules cimport (PASS_BIT, TrickPlay, LayoutPlay, trick_to_move, trick_led_cards,
                         trick_legal_mask, trick_best, trick_others_live, trick_play_card,
                         layout_legal_mask, layout_play, layout_points)


cdef struct TrickRules:
    int32_t win_pts[64]        # points to the taker of the card
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
    uint8_t suit_of[64]        # a card's suit (index >> 4), for trick_winner_c
    uint8_t strength[64]       # its rank (index & 15)
    CardPolicy cp              # the learned card policy (``Search.set_policy``), if loaded


cdef inline int trick_greedy(const TrickPlay* P, uint64_t L, const int32_t* win_pts,
                             const int32_t* revealer, const int32_t* team,
                             const uint8_t* suit_of, const uint8_t* strength) noexcept nogil:
    """The greedy follower's card (``P.ntrick`` > 0): under the card winning
    the trick, the highest card that stays under it; over it, the highest
    card when last to play, else the lowest; void, the card that costs its
    taker most (a penalty card, then the highest) when another team's seat
    wins the trick, else the highest card costing nothing (then the least
    costly)."""
    cdef int seat, c, w, best = -1, key, best_key, winner
    cdef uint64_t m, f
    w = trick_best(P, suit_of, strength)
    f = trick_led_cards(P, L)
    if f:
        m = f & ((((<uint64_t>1) << P.trick[w]) - 1))    # the cards staying under
        if m:
            return highest_bit(m)
        if P.ntrick == 3:
            return highest_bit(f)
        return lowest_bit(f)
    seat = trick_to_move(P)
    winner = (P.leader + w) & 3
    best_key = -(1 << 30)
    m = L
    while m:
        c = lowest_bit(m)
        m &= m - 1
        # what the card costs its taker (a revealed card costs it twice)
        key = -win_pts[c] * (1 if revealer[c] < 0 else 2)
        if team[winner] == team[seat]:
            key = -key
        key = key * 16 + (c & 15)
        if key > best_key:
            best, best_key = c, key
    return best


cdef inline void team_rewards(const int32_t* pts, const int32_t* team, double scale,
                              double* out) noexcept nogil:
    """Each seat's reward: its team's points (``pts`` per seat) over
    ``scale``, clamped to [-1, 1]."""
    cdef int s, t
    cdef double v
    for s in range(4):
        v = 0
        for t in range(4):
            if team[t] == team[s]:
                v += pts[t]
        v /= scale
        out[s] = clamp1(v)


cdef inline void deal_others(uint64_t* hands, const TrickRules* R, void* gv, Rng* r) noexcept nogil:
    """The determinization of the 4-seat card searches: the other three
    seats' hidden cards by a holder-graph walk, plus what each is known to
    hold."""
    cdef uint64_t got[8]
    cdef int h
    for h in range(3):
        got[h] = 0
    holders_walk(<TypeGraph*>gv, r, got)
    for h in range(3):
        hands[R.others[h]] = (got[h] | R.fixed[R.others[h]]) & ~R.played


# ---- a trick contract as Ops ----------------------------------------------

cdef inline uint64_t trick_legal(const void* Pv, const void* Rv) noexcept nogil:
    return trick_legal_mask(<const TrickPlay*>Pv, (<const TrickRules*>Rv).discard_mask)


cdef inline void trick_apply(void* Pv, const void* Rv, int card) noexcept nogil:
    cdef const TrickRules* R = <const TrickRules*>Rv
    trick_play_card(<TrickPlay*>Pv, card, R.suit_of, R.strength, R.win_pts, R.revealer,
                    R.trick_pts)


cdef inline int trick_mover(const void* Pv) noexcept nogil:
    return trick_to_move(<const TrickPlay*>Pv)


cdef inline int trick_over(const void* Pv, const void* Rv) noexcept nogil:
    return (<const TrickPlay*>Pv).tricks_done >= 13


cdef inline void trick_rewards(const void* Pv, const void* Rv, double* out) noexcept nogil:
    cdef const TrickRules* R = <const TrickRules*>Rv
    team_rewards((<const TrickPlay*>Pv).score, R.team, R.scale, out)


cdef inline void trick_determinize(void* Pv, const void* Rv, void* gv, Rng* r) noexcept nogil:
    deal_others((<TrickPlay*>Pv).hands, <const TrickRules*>Rv, gv, r)


cdef inline uint64_t trick_reduce(const void* Pv, const void* Rv, uint64_t L, int root) noexcept nogil:
    """As ``dix_reduce`` for the trix / tricks trick contracts: a card's
    score is its penalty and who revealed it."""
    cdef const TrickPlay* P = <const TrickPlay*>Pv
    cdef const TrickRules* R = <const TrickRules*>Rv
    if root:
        return L & R.root_keep
    if not R.equiv:
        return L
    return reduce_ranked(L, trick_others_live(P), R.attr)


cdef inline void trick_facts(const TrickPlay* P, const TrickRules* R, CardFacts* F) noexcept nogil:
    """The public facts of the card to play now, for the learned policy
    (the opponent model's ``CardPlay`` of solver/games/contract_match/model.py):
    every card of the deck not in a hand is out (the table's included)."""
    cdef int w = trick_best(P, R.suit_of, R.strength) if P.ntrick else 0
    # the 52 cards: ranks 2..14 of each suit
    card_facts_fill(&R.cp, F, P.trick, P.ntrick, 4, w,
                    P.ntrick and R.team[(P.leader + w) & 3] == R.team[trick_to_move(P)],
                    (<uint64_t>0x7FFC7FFC7FFC7FFC) &
                    ~(P.hands[0] | P.hands[1] | P.hands[2] | P.hands[3]))


cdef inline int trick_policy(const void* Pv, const void* Rv, uint64_t L,
                             double* probs) noexcept nogil:
    """``Ops.policy``: the learned policy's probability of each card of
    ``L`` for the mover's hand in this world."""
    cdef const TrickPlay* P = <const TrickPlay*>Pv
    cdef const TrickRules* R = <const TrickRules*>Rv
    cdef CardFacts F
    trick_facts(P, R, &F)
    card_policy_probs(&R.cp, 0, &F, P.hands[trick_to_move(P)], L, probs)
    return 1


cdef inline int trick_playout(const void* Pv, const void* Rv, uint64_t L, Rng* r) noexcept nogil:
    """A play-out's card in a trick contract.  With a learned policy whose
    ``playout`` is 1, a card drawn from it; 2, a lead drawn from it and a
    follower's card by the rule below.  Else ``R.playout`` 0: any
    legal card at random.  1: the leader at random; the follower, three
    times in four, by the greedy rule (``trick_greedy``), else at random.
    2: the greedy rule at every follower's card (tests)."""
    cdef const TrickPlay* P = <const TrickPlay*>Pv
    cdef const TrickRules* R = <const TrickRules*>Rv
    cdef CardFacts F
    if R.cp.playout == 1 or (R.cp.playout == 2 and P.ntrick == 0):
        trick_facts(P, R, &F)
        return card_policy_draw(&R.cp, 0, &F, P.hands[trick_to_move(P)], L, r)
    if R.playout == 0 or P.ntrick == 0 or (R.playout == 1 and rng_below(r, 4) == 0):
        return random_bit(L, r)
    return trick_greedy(P, L, R.win_pts, R.revealer, R.team, R.suit_of, R.strength)


cdef inline Ops trick_ops() noexcept:
    cdef Ops o
    o.legal = trick_legal
    o.apply = trick_apply
    o.mover = trick_mover
    o.over = trick_over
    o.rewards = trick_rewards
    o.determinize = trick_determinize
    o.playout = trick_playout
    o.reduce = trick_reduce
    o.prior = NULL
    o.policy = NULL
    o.value = NULL
    o.state_size = sizeof(TrickPlay)
    return o


cdef inline int holder_rules_load(TrickRules* R, dict rules) except -1:
    """The determinization part of the 4-seat rules (``_holder_rules`` in
    solver/search/native.py): teams, known cards, the holders, the scale."""
    cdef int i
    R.played = rules["played"]
    for i in range(4):
        R.team[i] = rules["team"][i]
        R.fixed[i] = rules["fixed"][i]
    for i in range(3):
        R.others[i] = rules["others"][i]
    R.seat = rules["seat"]
    R.scale = rules["scale"]
    R.root_keep = rules.get("root_keep", 0xFFFFFFFFFFFFFFFF)
    R.equiv = rules.get("equiv", 1)
    card_tables(R.suit_of, R.strength)
    return 0


cdef inline int trick_load(TrickRules* R, TrickPlay* P, dict rules, dict state) except -1:
    cdef int i
    holder_rules_load(R, rules)
    for i in range(64):
        R.win_pts[i] = rules["win_pts"][i]
        R.revealer[i] = rules["revealer"][i]
        R.attr[i] = R.win_pts[i] * 8 + R.revealer[i]
    R.trick_pts = rules["trick_pts"]
    R.discard_mask = rules["discard_mask"]
    R.playout = rules.get("playout", 0)
    for i in range(4):
        P.hands[i] = state["hands"][i]
        P.score[i] = state["score"][i]
        P.trick[i] = state["trick"][i] if i < len(state["trick"]) else 0
    P.ntrick = len(state["trick"])
    P.leader = state["leader"]
    P.tricks_done = state["tricks_done"]
    return 0


# ---- the layout --------------------------------------------------------------
# Rules: a TrickRules (its team, seat, holder and played fields); the pass is
# the action PASS_BIT.

cdef inline uint64_t layout_legal(const void* Pv, const void* Rv) noexcept nogil:
    return layout_legal_mask(<const LayoutPlay*>Pv)


cdef inline void layout_apply(void* Pv, const void* Rv, int card) noexcept nogil:
    layout_play(<LayoutPlay*>Pv, card)


cdef inline int layout_mover(const void* Pv) noexcept nogil:
    return (<const LayoutPlay*>Pv).turn


cdef inline int layout_over(const void* Pv, const void* Rv) noexcept nogil:
    return (<const LayoutPlay*>Pv).nout >= 4


cdef inline void layout_rewards(const void* Pv, const void* Rv, double* out) noexcept nogil:
    cdef const TrickRules* R = <const TrickRules*>Rv
    cdef int32_t pts[4]
    layout_points(<const LayoutPlay*>Pv, pts)
    team_rewards(pts, R.team, R.scale, out)


cdef inline void layout_determinize(void* Pv, const void* Rv, void* gv, Rng* r) noexcept nogil:
    deal_others((<LayoutPlay*>Pv).hands, <const TrickRules*>Rv, gv, r)


cdef inline Ops layout_ops() noexcept:
    cdef Ops o
    o.legal = layout_legal
    o.apply = layout_apply
    o.mover = layout_mover
    o.over = layout_over
    o.rewards = layout_rewards
    o.determinize = layout_determinize
    o.playout = random_playout
    o.reduce = no_reduce
    o.prior = NULL
    o.policy = NULL
    o.value = NULL
    o.state_size = sizeof(LayoutPlay)
    return o


cdef inline int layout_load(TrickRules* R, LayoutPlay* P, dict rules, dict state) except -1:
    cdef int i
    holder_rules_load(R, rules)
    R.playout = 0
    for i in range(4):
        P.hands[i] = state["hands"][i]
        P.lo[i] = state["lo"][i]
        P.hi[i] = state["hi"][i]
        P.left[i] = state["left"][i]
        P.place[i] = state["place"][i]
    P.fit = state["fit"]
    P.turn = state["turn"]
    P.nout = state["nout"]
    return 0
