# cython: language_level=3
"""The per-world loop of the beliefs (solver/beliefs.py) in C: each world's
log-weight under an opponent model whose scores were compiled once per view
(``solver.beliefs.compile_observations``).

For a world (one row of place masks) and each observation: the actor's hand
(the cards of its places in and those the view places with it, less those
of its places out and those the view rules out), the actions legal for that hand, each one's score,
and the probability of the action taken by a log-sum-exp; the world's
log-weight is ``alpha * sum log(max(p, floor))``.  Two families:

* a choice: each action is legal when the hand holds its card, all of one
  of its ``need`` masks and none of ``forbid``; its score is its fixed
  part plus its counted terms;
* a card in a trick: the legal cards by the follow rule, each one's
  features (``solver.cardplay.card_features``, computed here from the
  rules' tables and the decision's public facts) times theta.

The pure-Python twin is ``solver.beliefs.log_likelihoods_py``; the two agree
to rounding (tests/search/test_beliefs.py).
"""
from libc.math cimport exp, log
from libc.stdint cimport uint64_t, int32_t
from libc.stdlib cimport malloc, free

from bits cimport popcount, lowest_bit
from cardfeat cimport CardRulesRef, CardFacts, MAX_PIPS, card_score as cardfeat_score

cdef struct Obs:
    # every array of a ``Compiled``, as pointers (see its docstring)
    const int32_t* family
    const int32_t* place_start
    const int32_t* places
    const int32_t* n_in
    const uint64_t* added
    const uint64_t* removed
    const int32_t* taken
    const int32_t* action_start
    const int32_t* card
    const int32_t* need_start
    const uint64_t* needs
    const uint64_t* forbid
    const double* base
    const int32_t* term_start
    const double* t_weight
    const uint64_t* t_mask
    const int32_t* t_lo
    const int32_t* t_hi
    const uint64_t* t_cmask
    const int32_t* t_clo
    const int32_t* t_chi
    const int32_t* theta_start
    const double* theta
    const int32_t* c_rules
    const int32_t* c_flags
    const uint64_t* c_led
    const uint64_t* c_winners
    const uint64_t* c_out
    const uint64_t* c_discard
    const double* c_table
    const int32_t* c_pips
    const uint64_t* r_suit
    const uint64_t* r_above
    const double* r_points
    const int32_t* r_strength
    const int32_t* r_pips
    const uint64_t* r_pipcards
    const uint64_t* r_trumps
    const double* r_trick
    const double* r_scale
    const int32_t* r_special
    const double* r_special_value
    int n_obs


cdef double card_score(const Obs* o, int d, uint64_t hand, int card) noexcept nogil:
    """``theta . card_features(...)`` of ``card`` for observation ``d``
    (the shared definition: cardfeat.pxd's ``card_score``)."""
    cdef int r = o.c_rules[d], flags = o.c_flags[d]
    cdef int base = 64 * r
    cdef CardRulesRef T
    cdef CardFacts F
    T.suit = o.r_suit + base
    T.above = o.r_above + base
    T.points = o.r_points + base
    T.strength = o.r_strength + base
    T.pips = o.r_pips + base
    T.pipcards = o.r_pipcards + MAX_PIPS * r
    T.trumps = o.r_trumps[r]
    T.trick_value = o.r_trick[r]
    T.scale = o.r_scale[r]
    T.special = o.r_special[r]
    T.special_value = o.r_special_value[r]
    F.leading = flags & 1
    F.last = (flags >> 1) & 1
    F.mate = (flags >> 2) & 1
    F.led = o.c_led[d]
    F.winners = o.c_winners[d]
    F.out = o.c_out[d]
    F.on_table = o.c_table[d]
    F.pip_sum = o.c_pips[d]
    return cardfeat_score(&T, &F, hand, card, o.theta + o.theta_start[d])


cdef double card_prob(const Obs* o, int d, uint64_t hand, double* scores) noexcept nogil:
    """The probability of observation ``d``'s card for ``hand`` (0 when the
    card is not legal for it)."""
    cdef uint64_t legal = hand, m
    cdef int flags = o.c_flags[d], card, n = 0, taken_at = -1, k
    cdef double top = -1e300, z = 0.0
    if not (flags & 1) and (flags >> 3) & 1:
        if hand & o.c_led[d]:
            legal = hand & o.c_led[d]
        elif hand & o.c_discard[d]:
            legal = hand & o.c_discard[d]
    if not (legal >> o.taken[d]) & 1:
        return 0.0
    m = legal
    while m:
        card = lowest_bit(m)
        m &= m - 1
        scores[n] = card_score(o, d, hand, card)
        if card == o.taken[d]:
            taken_at = n
        if scores[n] > top:
            top = scores[n]
        n += 1
    for k in range(n):
        z += exp(scores[k] - top)
    return exp(scores[taken_at] - top) / z


cdef double choice_prob(const Obs* o, int d, uint64_t hand, double* scores,
                        char* legal) noexcept nogil:
    """The probability of observation ``d``'s choice for ``hand`` (0 when
    it is not legal for it)."""
    cdef int a, a0 = o.action_start[d], a1 = o.action_start[d + 1], t, j, n, cnt, ok
    cdef double s, top = -1e300, z = 0.0
    cdef int found = 0
    for a in range(a0, a1):
        ok = 1
        if o.card[a] >= 0 and not (hand >> o.card[a]) & 1:
            ok = 0
        if ok and o.need_start[a + 1] > o.need_start[a]:
            ok = 0
            for j in range(o.need_start[a], o.need_start[a + 1]):
                if hand & o.needs[j] == o.needs[j]:
                    ok = 1
                    break
        if ok and hand & o.forbid[a]:
            ok = 0
        legal[a - a0] = ok
        if not ok:
            continue
        s = o.base[a]
        for t in range(o.term_start[a], o.term_start[a + 1]):
            if o.t_cmask[t]:
                cnt = popcount(hand & o.t_cmask[t])
                if cnt < o.t_clo[t] or cnt > o.t_chi[t]:
                    continue
            n = popcount(hand & o.t_mask[t])
            if o.t_hi[t] < 0:
                s += o.t_weight[t] * n
            elif o.t_lo[t] <= n <= o.t_hi[t]:
                s += o.t_weight[t]
        scores[a - a0] = s
        if s > top:
            top = s
        if a == o.taken[d]:
            found = 1
    if not found:
        return 0.0
    for a in range(a0, a1):
        if legal[a - a0]:
            z += exp(scores[a - a0] - top)
    return exp(scores[o.taken[d] - a0] - top) / z


cdef double world_logw(const Obs* o, const uint64_t* row, double log_floor, double* scores,
                       char* legal) noexcept nogil:
    """One world's ``sum log(max(p_d, floor))``."""
    cdef double total = 0.0, p
    cdef uint64_t hand
    cdef int d, k
    for d in range(o.n_obs):
        hand = o.added[d]
        for k in range(o.place_start[d], o.place_start[d] + o.n_in[d]):
            hand |= row[o.places[k]]
        for k in range(o.place_start[d] + o.n_in[d], o.place_start[d + 1]):
            hand &= ~row[o.places[k]]
        hand &= ~o.removed[d]
        if o.family[d] == 1:
            p = card_prob(o, d, hand, scores)
        else:
            p = choice_prob(o, d, hand, scores, legal)
        if p > 0.0 and log(p) > log_floor:
            total += log(p)
        else:
            total += log_floor
    return total


cdef uint64_t ZERO_U = 0
cdef int32_t ZERO_I = 0
cdef double ZERO_D = 0.0


cdef const uint64_t* _pu(const uint64_t[::1] a):
    return &a[0] if a.shape[0] else &ZERO_U


cdef const int32_t* _pi(const int32_t[::1] a):
    return &a[0] if a.shape[0] else &ZERO_I


cdef const double* _pd(const double[::1] a):
    return &a[0] if a.shape[0] else &ZERO_D


def log_likelihoods(c, const uint64_t[::1] rows, double floor, double alpha):
    """Each world's log-weight (``solver.beliefs.log_likelihoods``): ``c``
    a ``Compiled``, ``rows`` the worlds' rows one after the other."""
    # the memoryviews hold the arrays' buffers for as long as the loop runs
    cdef const int32_t[::1] family = c.family, place_start = c.place_start, places = c.places
    cdef const int32_t[::1] n_in = c.n_in, taken = c.taken, action_start = c.action_start
    cdef const int32_t[::1] card = c.card, need_start = c.need_start, term_start = c.term_start
    cdef const int32_t[::1] t_lo = c.t_lo, t_hi = c.t_hi, t_clo = c.t_clo, t_chi = c.t_chi
    cdef const int32_t[::1] theta_start = c.theta_start, c_rules = c.c_rules
    cdef const int32_t[::1] c_flags = c.c_flags, c_pips = c.c_pips
    cdef const int32_t[::1] r_strength = c.r_strength, r_pips = c.r_pips
    cdef const int32_t[::1] r_special = c.r_special
    cdef const uint64_t[::1] added = c.added, removed = c.removed, needs = c.needs
    cdef const uint64_t[::1] forbid = c.forbid, t_mask = c.t_mask, t_cmask = c.t_cmask
    cdef const uint64_t[::1] c_led = c.c_led, c_winners = c.c_winners, c_out = c.c_out
    cdef const uint64_t[::1] c_discard = c.c_discard, r_suit = c.r_suit, r_above = c.r_above
    cdef const uint64_t[::1] r_pipcards = c.r_pipcards, r_trumps = c.r_trumps
    cdef const double[::1] base = c.base, t_weight = c.t_weight, theta = c.theta
    cdef const double[::1] c_table = c.c_table, r_points = c.r_points, r_trick = c.r_trick
    cdef const double[::1] r_scale = c.r_scale, r_special_value = c.r_special_value
    cdef Obs o
    cdef int P = c.n_places, d, widest = 64, i, n
    cdef double log_floor = log(floor)
    if P <= 0:
        return []
    n = rows.shape[0] // P
    o.n_obs = c.n_obs
    o.family = _pi(family); o.place_start = _pi(place_start); o.places = _pi(places)
    o.n_in = _pi(n_in); o.added = _pu(added); o.removed = _pu(removed); o.taken = _pi(taken)
    o.action_start = _pi(action_start); o.card = _pi(card); o.need_start = _pi(need_start)
    o.needs = _pu(needs); o.forbid = _pu(forbid); o.base = _pd(base)
    o.term_start = _pi(term_start); o.t_weight = _pd(t_weight); o.t_mask = _pu(t_mask)
    o.t_lo = _pi(t_lo); o.t_hi = _pi(t_hi); o.t_cmask = _pu(t_cmask); o.t_clo = _pi(t_clo)
    o.t_chi = _pi(t_chi); o.theta_start = _pi(theta_start); o.theta = _pd(theta)
    o.c_rules = _pi(c_rules); o.c_flags = _pi(c_flags); o.c_led = _pu(c_led)
    o.c_winners = _pu(c_winners); o.c_out = _pu(c_out); o.c_discard = _pu(c_discard)
    o.c_table = _pd(c_table); o.c_pips = _pi(c_pips); o.r_suit = _pu(r_suit)
    o.r_above = _pu(r_above); o.r_points = _pd(r_points); o.r_strength = _pi(r_strength)
    o.r_pips = _pi(r_pips); o.r_pipcards = _pu(r_pipcards); o.r_trumps = _pu(r_trumps)
    o.r_trick = _pd(r_trick); o.r_scale = _pd(r_scale); o.r_special = _pi(r_special)
    o.r_special_value = _pd(r_special_value)
    for d in range(o.n_obs):
        widest = max(widest, action_start[d + 1] - action_start[d])
    cdef double* scores = <double*>malloc(widest * sizeof(double))
    cdef char* legal = <char*>malloc(widest)
    cdef double* out = <double*>malloc(max(1, n) * sizeof(double))
    if not scores or not legal or not out:
        free(scores); free(legal); free(out)
        raise MemoryError()
    try:
        with nogil:
            for i in range(n):
                out[i] = alpha * world_logw(&o, &rows[i * P], log_floor, scores, legal)
        return [out[i] for i in range(n)]
    finally:
        free(scores); free(legal); free(out)
