# A card decision's features and the learned card policy, in C, once
# (compile-time header): ``solver.cardplay.card_features`` feature by
# feature, for the beliefs' per-world loop (csrc/core/beliefs.pyx) and for
# the search kernels' learned prior and play-outs (csrc/search/trick.pxd,
# csrc/search/dix.pxd).  The Python twin and the features' definition is
# solver/cardplay.py; the kernels' policy is held equal to
# ``solver.search.learned.action_probabilities`` by
# tests/search/test_learned.py.
#
# ``CardRulesRef`` points at one ``TrickRules`` laid out as arrays (the
# beliefs keep several side by side, a kernel one in its ``CardPolicy``);
# ``CardFacts`` are the public facts of the moment (``solver.cardplay.CardPlay``).
from libc.math cimport exp
from libc.string cimport memset
from libc.stdint cimport uint64_t, int32_t
from bits cimport popcount, lowest_bit
from rng cimport Rng, rng_double

cdef enum:
    # solver.cardplay.CARD_FEATURES, in order
    F_WINS = 0
    F_SURE = 1
    F_TAKE = 2
    F_GIVE_MATE = 3
    F_GIVE_OPP = 4
    F_POINTS = 5
    F_RANK = 6
    F_TRUMP = 7
    F_OFFSUIT = 8
    F_MASTER = 9
    F_LOWEST = 10
    F_HIGHEST = 11
    F_LENGTH = 12
    F_SINGLETON = 13
    F_CHEAP_WIN = 14
    F_HIGH_DUCK = 15
    F_OTHERS_SUIT = 16
    F_SPECIAL_WIN = 17
    F_SPECIAL_LOSE = 18
    F_OTHERS_COMPLETE = 19
    NF = 20
    MAX_PIPS = 32              # solver.cardplay.MAX_PIPS
    #: the phases a kernel's policy tells apart (dix: with a stock, without)
    POLICY_PHASES = 2
    #: the most units a card policy's hidden layer has
    #: (``solver.search.learned.HIDDEN_MAX``)
    HIDDEN_MAX = 32
    #: a policy's weight slots: per phase, a lead's and a follow's
    POLICY_SLOTS = 4


cdef struct CardRulesRef:
    const uint64_t* suit       # per card, the cards of its effective suit
    const uint64_t* above      # per card, the cards of its suit ranking above it
    const double* points       # per card, its worth to the trick's taker
    const int32_t* strength    # per card, its rank in its suit
    const int32_t* pips        # per card, its pips
    const uint64_t* pipcards   # per pip value (MAX_PIPS), the cards with that many
    uint64_t trumps
    double trick_value
    double scale
    int32_t special            # the special pip sum, -1 none
    double special_value


cdef struct CardFacts:
    int leading
    int last
    int mate                   # a partner wins the trick now
    uint64_t led               # the suit led's cards (0 leading)
    uint64_t winners           # the cards that would win the trick now (0 leading)
    uint64_t out               # the cards out of play (the table's included)
    double on_table            # the points on the table
    int32_t pip_sum            # the pips on the table


cdef inline void card_features_into(const CardRulesRef* T, const CardFacts* F, uint64_t hand,
                                    int card, double* f) noexcept nogil:
    """``card_features(...)`` of ``card`` for a player holding ``hand``
    into ``f`` (``NF`` doubles; ``solver.cardplay.card_features``, feature
    by feature)."""
    cdef int k, need, n_suit, special
    cdef uint64_t low = (<uint64_t>1) << card
    cdef uint64_t sm = T.suit[card], above = T.above[card]
    cdef uint64_t below = sm & ~above & ~low, live_suit, comp
    cdef double scale = T.scale
    for k in range(NF):
        f[k] = 0.0
    f[F_POINTS] = T.points[card] / scale
    f[F_RANK] = T.strength[card] / 15.0
    f[F_TRUMP] = 1.0 if T.trumps & low else 0.0
    live_suit = sm & ~F.out
    f[F_OTHERS_SUIT] = (popcount(live_suit) - popcount(hand & live_suit)) / 13.0
    f[F_LOWEST] = 0.0 if hand & below else 1.0
    f[F_HIGHEST] = 0.0 if hand & above else 1.0
    n_suit = popcount(hand & sm)
    f[F_LENGTH] = n_suit / 13.0
    f[F_SINGLETON] = 1.0 if n_suit == 1 else 0.0
    f[F_MASTER] = 0.0 if above & ~F.out & ~hand else 1.0
    if F.leading:
        if T.special >= 0:
            need = T.special - T.pips[card]
            if 0 <= need < MAX_PIPS:
                comp = T.pipcards[need] & ~low & ~F.out & ~hand
                f[F_OTHERS_COMPLETE] = popcount(comp) / 13.0
    else:
        f[F_OFFSUIT] = 0.0 if F.led & low else 1.0
        special = T.special >= 0 and F.last and F.pip_sum + T.pips[card] == T.special
        if F.winners & low:
            f[F_WINS] = 1.0
            f[F_SURE] = 1.0 if F.last else 0.0
            f[F_TAKE] = (T.trick_value + F.on_table + T.points[card] +
                         (T.special_value if special else 0.0)) / scale
            if special:
                f[F_SPECIAL_WIN] = 1.0
            f[F_CHEAP_WIN] = 0.0 if hand & F.winners & below else 1.0
        else:
            if F.mate:
                f[F_GIVE_MATE] = T.points[card] / scale
            else:
                f[F_GIVE_OPP] = T.points[card] / scale
            if special:
                f[F_SPECIAL_LOSE] = 1.0
            if F.led & low:
                f[F_HIGH_DUCK] = 0.0 if hand & above & ~F.winners else 1.0


cdef inline double card_score(const CardRulesRef* T, const CardFacts* F, uint64_t hand,
                              int card, const double* theta) noexcept nogil:
    """``theta . card_features(...)`` of ``card`` for a player holding
    ``hand``: the linear score the beliefs weigh the worlds with."""
    cdef double f[NF]
    cdef double s = 0.0
    cdef int k
    card_features_into(T, F, hand, card, f)
    for k in range(NF):
        s += theta[k] * f[k]
    return s


cdef inline double hidden_score(const double* f, int units, const double* w,
                                const double* b, const double* v) noexcept nogil:
    """The hidden layer's part of a score, ``v . relu(W f + b)``, with
    ``W`` stored feature by feature (``w[k * HIDDEN_MAX + j]``: feature
    ``k``'s weight into unit ``j``), so that a feature that is 0, most of
    a card's, costs one test and the units' sums run over contiguous
    weights.  The twins: ``solver.search.learned.hidden_scores`` and
    ``bots.modelfit.hidden_forward``."""
    cdef double a[HIDDEN_MAX]
    cdef double s = 0.0, x
    cdef const double* row
    cdef int j, k
    for j in range(units):
        a[j] = b[j]
    for k in range(NF):
        x = f[k]
        if x != 0.0:
            row = w + k * HIDDEN_MAX
            for j in range(units):
                a[j] += row[j] * x
    for j in range(units):
        if a[j] > 0.0:
            s += v[j] * a[j]
    return s


# ---- the learned card policy of a search kernel ----------------------------------

cdef struct CardPolicy:
    uint64_t suit[64]
    uint64_t above[64]
    double points[64]
    int32_t strength[64]
    int32_t pips[64]
    uint64_t pipcards[MAX_PIPS]
    uint64_t trumps
    double trick_value
    double scale
    int32_t special
    double special_value
    double theta[POLICY_SLOTS * NF]   # per phase: a lead's weights, a follow's
    # the hidden layer (``hidden`` units, 0: linear), slot by slot as theta:
    # its weights (a slot: ``NF`` rows of ``HIDDEN_MAX``, feature by
    # feature: ``hidden_score``), biases and outputs
    int hidden
    double hw[POLICY_SLOTS * HIDDEN_MAX * NF]
    double hb[POLICY_SLOTS * HIDDEN_MAX]
    double hv[POLICY_SLOTS * HIDDEN_MAX]
    int loaded                 # 1 once ``card_policy_load`` filled it
    int playout                # 1: play-outs draw every card from the policy; 2: their
                               # leads only (a follower keeps the game's greedy rule)


cdef inline CardRulesRef card_policy_ref(const CardPolicy* C) noexcept nogil:
    cdef CardRulesRef T
    T.suit = <const uint64_t*>&C.suit[0]
    T.above = <const uint64_t*>&C.above[0]
    T.points = <const double*>&C.points[0]
    T.strength = <const int32_t*>&C.strength[0]
    T.pips = <const int32_t*>&C.pips[0]
    T.pipcards = <const uint64_t*>&C.pipcards[0]
    T.trumps = C.trumps
    T.trick_value = C.trick_value
    T.scale = C.scale if C.scale != 0.0 else 1.0
    T.special = C.special
    T.special_value = C.special_value
    return T


cdef inline uint64_t card_beaten_by(const CardPolicy* C, int card) noexcept nogil:
    """The cards that beat ``card`` when it wins the trick now
    (``TrickRules.beaten_by``)."""
    if C.trumps and not (C.trumps >> card) & 1:
        return C.above[card] | C.trumps
    return C.above[card]


cdef inline void card_facts_fill(const CardPolicy* C, CardFacts* F, const int32_t* trick,
                                 int ntrick, int nseats, int winner_at, int mate,
                                 uint64_t out) noexcept nogil:
    """The public facts of the card to play with ``trick`` (``ntrick``
    cards, the lead first) on the table in a trick of ``nseats`` cards:
    ``winner_at`` the place of the card winning it, ``mate`` whether a
    partner of the mover played it, ``out`` the cards out of play (every
    kernel's ``*_facts`` fills its state's into this)."""
    cdef int i
    F.leading = ntrick == 0
    F.last = ntrick == nseats - 1
    F.out = out
    F.led = 0
    F.winners = 0
    F.mate = 0
    F.on_table = 0.0
    F.pip_sum = 0
    if ntrick:
        F.led = C.suit[trick[0]]
        F.winners = card_beaten_by(C, trick[winner_at])
        F.mate = mate
        for i in range(ntrick):
            F.on_table += C.points[trick[i]]
            F.pip_sum += C.pips[trick[i]]


cdef inline void card_policy_probs(const CardPolicy* C, int phase, const CardFacts* F,
                                   uint64_t hand, uint64_t legal, double* probs) noexcept nogil:
    """The policy's probability of each card of ``legal`` (``probs[card]``;
    the others untouched): a softmax of ``theta . features`` over them,
    with the weights of ``phase`` for a lead or a follow."""
    cdef CardRulesRef T = card_policy_ref(C)
    cdef int slot = 2 * phase + (0 if F.leading else 1)
    cdef const double* theta = C.theta + slot * NF
    cdef const double* hw = C.hw + slot * HIDDEN_MAX * NF
    cdef const double* hb = C.hb + slot * HIDDEN_MAX
    cdef const double* hv = C.hv + slot * HIDDEN_MAX
    cdef uint64_t m = legal
    cdef int card, k
    cdef double f[NF]
    cdef double top = -1e300, z = 0.0, s
    while m:
        card = lowest_bit(m)
        m &= m - 1
        card_features_into(&T, F, hand, card, f)
        s = 0.0
        for k in range(NF):
            s += theta[k] * f[k]
        if C.hidden:
            s += hidden_score(f, C.hidden, hw, hb, hv)
        probs[card] = s
        if s > top:
            top = s
    m = legal
    while m:
        card = lowest_bit(m)
        m &= m - 1
        probs[card] = exp(probs[card] - top)
        z += probs[card]
    m = legal
    while m:
        card = lowest_bit(m)
        m &= m - 1
        probs[card] /= z


cdef inline int card_policy_draw(const CardPolicy* C, int phase, const CardFacts* F,
                                 uint64_t hand, uint64_t legal, Rng* r) noexcept nogil:
    """A card of ``legal`` drawn from the policy (a play-out's move)."""
    cdef double probs[64]
    cdef double u, acc = 0.0
    cdef uint64_t m = legal
    cdef int card = -1
    card_policy_probs(C, phase, F, hand, legal, probs)
    u = rng_double(r)
    while m:
        card = lowest_bit(m)
        m &= m - 1
        acc += probs[card]
        if u < acc:
            return card
    return card


cdef inline int card_policy_load(CardPolicy* C, dict spec) except -1:
    """Fill ``C`` from ``solver.search.learned.kernel_spec``'s dict."""
    cdef int i, j, k, units
    for i in range(64):
        C.suit[i] = spec["suit"][i]
        C.above[i] = spec["above"][i]
        C.points[i] = spec["points"][i]
        C.strength[i] = spec["strength"][i]
        C.pips[i] = spec["pips"][i]
    for i in range(MAX_PIPS):
        C.pipcards[i] = spec["pipcards"][i]
    C.trumps = spec["trumps"]
    C.trick_value = spec["trick_value"]
    C.scale = spec["scale"]
    C.special = spec["special"]
    C.special_value = spec["special_value"]
    theta = spec["theta"]
    if len(theta) != POLICY_SLOTS * NF:
        raise ValueError(f"a card policy has {POLICY_SLOTS * NF} weights, "
                         f"got {len(theta)}")
    for i in range(POLICY_SLOTS * NF):
        C.theta[i] = theta[i]
    # the hidden layer: ``units`` and, per slot, its rows padded to HIDDEN_MAX
    units = spec.get("hidden", 0)
    if not 0 <= units <= HIDDEN_MAX:
        raise ValueError(f"a card policy's hidden layer has 0..{HIDDEN_MAX} units, "
                         f"got {units}")
    memset(C.hw, 0, sizeof(C.hw))
    memset(C.hb, 0, sizeof(C.hb))
    memset(C.hv, 0, sizeof(C.hv))
    C.hidden = units
    if units:
        hw, hb, hv = spec["hw"], spec["hb"], spec["hv"]
        if len(hw) != POLICY_SLOTS * units * NF or len(hb) != POLICY_SLOTS * units \
                or len(hv) != POLICY_SLOTS * units:
            raise ValueError(f"a card policy's hidden layer of {units} units has "
                             f"{POLICY_SLOTS} slots of {units} x {NF} weights, biases "
                             f"and outputs")
        for i in range(POLICY_SLOTS):
            for j in range(units):
                C.hb[i * HIDDEN_MAX + j] = hb[i * units + j]
                C.hv[i * HIDDEN_MAX + j] = hv[i * units + j]
                for k in range(NF):
                    C.hw[(i * NF + k) * HIDDEN_MAX + j] = hw[(i * units + j) * NF + k]
    C.playout = spec.get("playout", 0)
    if C.playout not in (0, 1, 2):
        raise ValueError(f"a card policy's playout is 0, 1 or 2, got {C.playout}")
    C.loaded = 1
    return 0
