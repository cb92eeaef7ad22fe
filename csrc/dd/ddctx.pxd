# The generic double-dummy kernel's context (header only: cimported at
# compile time, no runtime module): one C struct that the search, the
# bounds, the table and the move ordering units (csrc/dd/ddsearch.pxd,
# ddbounds.pxd, ddtable.pxd, ddorder.pxd) work on, and the trick mechanics
# over the position and rule structs of csrc/dd/trickstate.pxd (play, undo,
# scoring a trick, the forced last trick).  ``solver.dd._dd.Kernel``
# (csrc/dd/ddkernel.pxi) owns one, allocated once with its table.
from libc.stdint cimport uint64_t, uint32_t, uint8_t, uint16_t, int8_t, int16_t, int32_t
from ttable cimport TTEntry
from bits cimport popcount, highest_bit, lowest_bit, trick_winner_c
from trickstate cimport (RuleTable, TrickState, WEntry, pip_set, MAX_SEATS, MAX_PLY, NO_CARD)
from ddstats cimport DDStats

cdef enum:
    BUCKET = 4             # exact-key entries a bucket (16 bytes each: a cache line)
    XBUCKET = 4            # exact-key entries a bucket (winning-ranks mode)
    WBUCKET = 256          # winning-ranks entries a bucket: a hand distribution's list
    WHEAD = 1088           # bucket header (generation, count, cursor) + 32-bit tags, padded
    INF = 1000000


ctypedef struct MaxnRules:
    # each seat's own points (issue #40's max^n value, csrc/dd/ddmaxn.pxd),
    # in the units of the values: a card's points go to its taker
    # (``taker``; ``self_pts`` when the taker is the card's revealer) and,
    # when another seat takes a revealed card, ``rev_pts`` to its revealer
    # ``rev`` (trix doubling; -1: not revealed)
    int8_t taker[64]
    int8_t self_pts[64]
    int8_t rev_pts[64]
    int8_t rev[64]
    int32_t trick_pts        # to each trick's taker
    int32_t last_pts         # to the last trick's taker
    uint64_t pts_mask        # cards with points for any seat
    int root                 # the seat whose value is asked (ties go against it)
    uint64_t salt            # mixed into the table keys (the root, the scoring)


ctypedef struct DDCtx:
    RuleTable R
    TrickState S
    # the table: ``tt`` (exact keys, 4-entry buckets), or in winning-ranks
    # mode the same memory split in half: ``xtt`` exact keys, ``wtt`` the
    # distribution lists (csrc/dd/ddtable.pxd)
    TTEntry* tt
    uint64_t nbuckets
    uint64_t tt_mask
    uint16_t gen             # the table generation: entries of another are invisible
    uint64_t rules_key       # the rule table's fingerprint, mixed into every key: an
                             # entry is only ever found under the rules it was proved with
    char* wtt                # half the memory of tt: the distribution lists
    uint64_t wt_count        # buckets there (WHEAD + WBUCKET entries each)
    WEntry* xtt              # the other half: exact keys
    uint64_t xt_mask
    uint16_t levmask[256]    # levels byte of a tag -> the tag bits it keys (ddtable.pxd)
    uint64_t nodes
    uint64_t node_limit      # 0: none; else abort past it (aborted set)
    bint aborted
    bint interrupted         # a signal handler raised (Ctrl-C): re-raise it
    int32_t base_hi          # max over tricks of the per-trick base value
    int32_t base_lo
    int32_t end_hi           # last-trick + most-tricks extras, max / min
    int32_t end_lo
    bint penal               # winning a trick or a card never helps the max side
    bint wmode               # winning ranks: 4 seats with relative keys
    uint64_t pinned          # cards always keyed (penalty classes)
    uint64_t win_add         # the trick just finished: its winner if contested
    uint64_t qwin            # the bounds: the cards whose ranks decided them
    bint sweep_ok            # no ten rule and slot == card: sweep() applies
    bint duck_ok             # sweep_ok, no trumps, must follow: never_wins() applies
    bint pivot_ok            # duck_ok, one max seat, tricks and the last trick
                             # alike to both sides, no most-tricks bonus: pivot_safe()
    bint cover_ok            # pivot_ok: holder_cover() applies
    bint part_ok             # pivot_ok: part_cover() applies
    bint second_ok           # 4 seats, partners opposite, quick_ok, slot == card:
                             # second_hand_quick() applies
    int max_seat             # the max seat (-1 none, -2 several)
    bint lock_ok             # sweep_ok, trumps, not quick_ok: lock_bounds() applies
    bint cash_ok             # sweep_ok, trumps, not quick_ok, must follow: lock_bounds()
                             # adds what the hand on lead cashes (cash_run)
    bint last_ok             # the same: lock_bounds() gives the last trick to the top
                             # trump's side when its hand is longest in trumps, and the
                             # run's side as many tricks as one hand holds of the run
    bint later_ok            # quick_ok, sweep_ok, trumps, must follow, free discards
    bint later_alt           # 4 seats, the sides alternate (the finesse, the split top two)
    bint forced_ok           # sweep_ok, no trumps, must follow, one max seat
    bint toosh_ok            # duck_ok, one max seat, free discards, no card points, tricks
                             # worth less to M, the last trick alike, no most-tricks
                             # bonus (Ltoosh): toosh_floor() applies
    bint count_ok            # pivot_ok, free discards, no card worth more to M when it
                             # takes it, two penalty cards at least (the paranoid
                             # Queens and Diamonds): count_floor() applies
    uint64_t pts_mask        # cards with card points (either side)
    # per-ply buffers: the search never allocates
    uint8_t moves[MAX_PLY][64]
    int32_t scores[MAX_PLY][64]
    int32_t history[MAX_SEATS][64]   # cut-off history (ordering hint)
    # wr[ply]: cards whose rank (and every higher card's) decided the result
    # of the last search at ply: only the lowest per suit matters
    uint64_t wr[MAX_PLY]
    uint64_t runs[MAX_PLY][64]       # equivalence class of each listed move
    uint8_t killer[MAX_PLY]          # the last card that cut at each ply (NO_CARD: none)
    DDStats st               # switches and counters (read only when DD_STATS)
    MaxnRules mx             # the max^n value's scoring (load_maxn)


cdef inline uint64_t side_trumps(const RuleTable* R, const TrickState* S,
                                 uint64_t* side_t) noexcept nogil:
    """Each side's trumps still in hand (``side_t[0]``, ``side_t[1]``);
    returns all of them."""
    cdef uint64_t tm = R.suit_mask[R.trump]
    cdef int i
    side_t[0] = side_t[1] = 0
    for i in range(R.nseats):
        side_t[R.side[i]] |= S.hands[i] & tm
    return side_t[0] | side_t[1]


cdef inline int current_seat_c(DDCtx* K) noexcept nogil:
    return (K.S.leader + K.S.ncards) % K.R.nseats


cdef inline uint32_t partner_pips(DDCtx* K, int seat) noexcept nogil:
    """pip_set of the cards that may share a trick with ``seat``'s."""
    cdef uint64_t m = 0
    cdef int i
    if not K.R.pip_partners:
        return 0
    for i in range(K.R.nseats):
        if i != seat:
            m |= K.S.hands[i]
    for i in range(K.S.ncards):
        m |= (<uint64_t>1) << K.S.trick[i]
    return pip_set(m)


cdef inline void play(DDCtx* K, int seat, int card) noexcept nogil:
    cdef TrickState* S = &K.S
    S.hands[seat] &= ~((<uint64_t>1) << card)
    S.trick[S.ncards] = card
    S.ncards += 1


cdef inline void unplay(DDCtx* K, int seat, int card) noexcept nogil:
    cdef TrickState* S = &K.S
    S.ncards -= 1
    S.hands[seat] |= (<uint64_t>1) << card


cdef inline int finish_trick(DDCtx* K) noexcept nogil:
    """Score the complete trick on the table, clear it, set the leader.
    Returns the max side's points for it (end-of-round extras included)."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int n = S.ncards
    cdef int off = trick_winner_c(S.trick, n, R.trump, R.suit_of, R.strength)
    cdef int winner = S.leader
    cdef int i, c, pts = 0, pip = 0, other
    cdef int wcard = S.trick[off]
    cdef bint mine
    for i in range(off):
        winner = R.next_seat[winner]
    mine = R.side[winner]
    # the winner's rank decided the trick only if another card of its
    # suit was in it (winning ranks)
    K.win_add = 0
    for i in range(n):
        c = S.trick[i]
        if i != off and R.suit_of[c] == R.suit_of[wcard]:
            K.win_add = (<uint64_t>1) << wcard
        pip += R.pips[c]
        S.rem_slot &= ~((<uint64_t>1) << R.slot[c])
        S.card_ub -= max(R.win_pts[c], R.lose_pts[c])
        S.card_lb -= min(R.win_pts[c], R.lose_pts[c])
        if mine:
            pts += R.win_pts[c]
        else:
            pts += R.lose_pts[c]
    if R.ten_total >= 0 and pip == R.ten_total:
        pts += R.ten_win if mine else R.ten_lose
    else:
        pts += R.trick_win if mine else R.trick_lose
    if mine:
        S.max_tricks += 1
    S.tricks_left -= 1
    if S.tricks_left == 0:
        if mine:
            pts += R.last_win
            S.max_tricks += R.last_extra
        else:
            pts += R.last_lose
        if R.use_most:
            other = R.total_tricks - S.max_tricks
            if S.max_tricks > other:
                pts += R.most_win
            elif S.max_tricks < other:
                pts += R.most_lose
            else:
                pts += R.most_tie
    S.leader = winner
    S.ncards = 0
    return pts


cdef inline void unfinish_trick(DDCtx* K, int* saved, int n, int leader, int max_tricks) noexcept nogil:
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int i, c
    for i in range(n):
        c = saved[i]
        S.trick[i] = c
        S.rem_slot |= (<uint64_t>1) << R.slot[c]
        S.card_ub += max(R.win_pts[c], R.lose_pts[c])
        S.card_lb += min(R.win_pts[c], R.lose_pts[c])
    S.ncards = n
    S.leader = leader
    S.max_tricks = max_tricks
    S.tricks_left += 1


cdef inline int last_trick(DDCtx* K) noexcept nogil:
    """One card a hand: the last trick is forced; its value, directly."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int cards[MAX_SEATS]
    cdef int seat = S.leader
    cdef int i, pts, saved_leader = S.leader, saved_max = S.max_tricks
    for i in range(R.nseats):
        cards[i] = lowest_bit(S.hands[seat])
        S.trick[i] = cards[i]
        S.hands[seat] = 0
        seat = R.next_seat[seat]
    S.ncards = R.nseats
    pts = finish_trick(K)
    unfinish_trick(K, cards, R.nseats, saved_leader, saved_max)
    seat = saved_leader
    for i in range(R.nseats):
        S.hands[seat] = (<uint64_t>1) << cards[i]
        seat = R.next_seat[seat]
    S.ncards = 0
    return pts


cdef inline int trick_value(DDCtx* K, int card) noexcept nogil:
    """The max side's points for the trick on the table completed by
    ``card`` (end-of-round extras left out): exact ordering for the
    last seat to play."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int n = S.ncards
    cdef int i, c, pts = 0, pip = 0, off, winner
    cdef bint mine
    S.trick[n] = card
    off = trick_winner_c(S.trick, n + 1, R.trump, R.suit_of, R.strength)
    winner = S.leader
    for i in range(off):
        winner = R.next_seat[winner]
    mine = R.side[winner]
    for i in range(n + 1):
        c = S.trick[i]
        pip += R.pips[c]
        pts += R.win_pts[c] if mine else R.lose_pts[c]
    if R.ten_total >= 0 and pip == R.ten_total:
        pts += R.ten_win if mine else R.ten_lose
    else:
        pts += R.trick_win if mine else R.trick_lose
    return pts


cdef inline int pair_value(DDCtx* K, int leader, int lead, int follow) noexcept nogil:
    """Two seats: the max side's points for the trick ``lead``, ``follow``."""
    cdef RuleTable* R = &K.R
    cdef bint follower_wins
    cdef bint mine
    cdef int pts
    if R.suit_of[follow] == R.suit_of[lead]:
        follower_wins = R.strength[follow] > R.strength[lead]
    else:
        follower_wins = R.suit_of[follow] == R.trump
    mine = R.side[R.next_seat[leader]] if follower_wins else R.side[leader]
    if mine:
        pts = R.win_pts[lead] + R.win_pts[follow]
        if R.ten_total >= 0 and R.pips[lead] + R.pips[follow] == R.ten_total:
            return pts + R.ten_win
        return pts + R.trick_win
    pts = R.lose_pts[lead] + R.lose_pts[follow]
    if R.ten_total >= 0 and R.pips[lead] + R.pips[follow] == R.ten_total:
        return pts + R.ten_lose
    return pts + R.trick_lose


cdef inline int lead_value(DDCtx* K, int seat, int card) noexcept nogil:
    """Two seats: the max side's points for the trick led with ``card``
    after the follower's best immediate reply."""
    cdef RuleTable* R = &K.R
    cdef TrickState* S = &K.S
    cdef int other = R.next_seat[seat]
    cdef uint64_t f, hand = S.hands[other]
    cdef int c, v, best
    cdef bint fmax = R.side[other]
    f = hand & R.suit_mask[R.suit_of[card]]
    if f == 0 or not R.must_follow:
        f = hand
    best = -INF if fmax else INF
    while f:
        c = lowest_bit(f)
        f &= f - 1
        v = pair_value(K, seat, card, c)
        if (fmax and v > best) or (not fmax and v < best):
            best = v
    return best


cdef inline int most_of(DDCtx* K, int f) noexcept nogil:
    """The most-tricks bonus to the max side for a final count ``f``
    (extras included)."""
    cdef int o = K.R.total_tricks - f
    if f > o:
        return K.R.most_win
    if f < o:
        return K.R.most_lose
    return K.R.most_tie


cdef inline int most_range(DDCtx* K, int* lo, int* hi) noexcept nogil:
    """The least and the most bonus the max side can still end with
    (its final count lies between what it has and that plus every trick
    left and the last trick's extras).  Returns the table key's part:
    the count while the bonus is open, else 64 + the settled level (so
    positions that differ only in a count that can no longer change
    the bonus share entries: their future values are equal)."""
    cdef RuleTable* R = &K.R
    cdef int a = K.S.max_tricks
    cdef int b = a + K.S.tricks_left + R.last_extra
    cdef int x = most_of(K, a), y = most_of(K, b)
    lo[0] = min(x, y)
    hi[0] = max(x, y)
    if R.total_tricks % 2 == 0 and 2 * a <= R.total_tricks <= 2 * b:
        lo[0] = min(lo[0], R.most_tie)
        hi[0] = max(hi[0], R.most_tie)
    if lo[0] != hi[0]:
        return a
    if lo[0] == R.most_win:
        return 66
    if lo[0] == R.most_tie:
        return 65
    return 64


cdef inline void bump_history(DDCtx* K, int seat, int card) noexcept nogil:
    cdef int32_t* h = K.history[seat]
    cdef int k = K.S.tricks_left
    h[card] += k * k
    if h[card] > 1000:          # keep it below one heuristic step (1024)
        for k in range(64):
            h[k] >>= 1

