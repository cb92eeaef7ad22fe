# The rules player of trix / tricks (solver/games/contract_match/heuristic.py,
# ``ContractRules``) ported to C move for move (compile-time header): the
# contract it calls, its card in a trick contract, its layout card.  The
# whole-deal search (deal.pxd) plays it in its play-outs and priors, PIMC
# (csrc/search/pimc.pyx, ``TrickWorlds``) at every seat of its trick
# play-outs.  The rules it plays by are trickrules.pxd's.
from libc.stdint cimport uint64_t, uint8_t
from bits cimport popcount, lowest_bit
from trickrules cimport (C_KING, C_QUEENS, C_DIAMONDS, C_LTOOSH, PASS_BIT, TrickPlay,
                         LayoutPlay, trick_to_move, trick_led_cards, trick_best)


cdef inline double expected_tricks(uint64_t hand) noexcept nogil:
    """A 0.9, K 0.65, Q 0.4, J 0.2; +0.1 to the lower cards of a suit of
    five or more."""
    cdef double total = 0.0, p
    cdef int s, r, n
    cdef uint64_t m
    for s in range(4):
        m = hand & ((<uint64_t>0xFFFF) << (16 * s))
        n = popcount(m)
        while m:
            r = lowest_bit(m) & 15
            m &= m - 1
            p = 0.9 if r == 14 else (0.65 if r == 13 else (0.4 if r == 12 else (
                0.2 if r == 11 else 0.0)))
            if n >= 5 and r < 11:
                p += 0.1
            total += p
    return total


cdef inline double contract_estimate(int contract, uint64_t hand) noexcept nogil:
    """The rules player's estimated result of calling ``contract``."""
    cdef double t = expected_tricks(hand), p, cost, value
    cdef int s, r, c, high
    cdef uint64_t m
    if contract == C_LTOOSH:
        return -15 * t
    if contract == C_KING:
        if (hand >> 45) & 1:                                  # KH
            p = 0.6 if popcount(hand & (<uint64_t>0xFFFF << 32)) <= 3 and \
                not ((hand >> 46) & 1) else 0.3               # AH
        else:
            p = 0.15
        return -75 * p
    if contract == C_QUEENS:
        cost = 0.0
        for s in range(4):
            if (hand >> (16 * s + 12)) & 1:
                cost += 25 * (0.6 if popcount(hand & (<uint64_t>0xFFFF << (16 * s))) <= 2
                              else 0.3)
        return -cost - 2.5 * t
    if contract == C_DIAMONDS:
        high = popcount(hand & (<uint64_t>0x7C00 << 16))      # diamonds 10..A
        return -10 * high - 3 * t
    value = 125.0
    m = hand
    while m:
        c = lowest_bit(m)
        m &= m - 1
        r = c & 15
        if r == 11:
            value += 15
        elif (r == 12 or r == 10) and (hand >> ((c & ~15) + 11)) & 1:
            value += 15
        elif r == 2:
            value -= 25
        elif r == 3 or r == 4:
            value -= 10
    return value


cdef inline int rules_contract(uint64_t hand, int open_contracts) noexcept nogil:
    """The contract the rules player calls: the best estimate, ties to the
    lowest."""
    cdef int k, best = -1
    cdef double v, best_v = -1e300
    for k in range(5):
        if (open_contracts >> k) & 1:
            v = contract_estimate(k, hand)
            if v > best_v:
                best, best_v = k, v
    return best


cdef inline int rules_trick_card(const TrickPlay* P, uint64_t L, uint64_t pen,
                                 const uint8_t* suit_of, const uint8_t* strength) noexcept nogil:
    """The rules player's card in a trick contract (``pen``: its penalty
    cards; ``suit_of`` and ``strength``: the deck's tables, for the card
    winning the trick): leading, the lowest card of the suit with the most low cards
    (7 or less), never a penalty card if another lead exists; void, the
    penalty card first, else the highest card of the shortest suit;
    following, the highest card that still loses the trick (a penalty card
    first), else, last to play, the highest card (not a penalty card),
    else the lowest (not a penalty card)."""
    cdef uint64_t hand = P.hands[trick_to_move(P)], safe, m
    cdef int c, s, key, best = -1, best_key, top, danger
    cdef int count[4]
    if P.ntrick == 0:
        safe = L & ~pen
        if not safe:
            safe = L
        for s in range(4):
            count[s] = popcount(hand & ((<uint64_t>0xFF) << (16 * s)))   # ranks 0..7
        best_key = 1 << 30
        m = safe
        while m:
            c = lowest_bit(m)
            m &= m - 1
            key = (c & 15) * 4096 + (16 - count[c >> 4]) * 64 + c
            if key < best_key:
                best, best_key = c, key
        return best
    if not trick_led_cards(P, L):                            # void: discard
        for s in range(4):
            count[s] = popcount(hand & ((<uint64_t>0xFFFF) << (16 * s)))
        best_key = -1
        m = L
        while m:
            c = lowest_bit(m)
            m &= m - 1
            danger = (c & 15) + (100 if (pen >> c) & 1 else 0)
            key = danger * 4096 + (16 - count[c >> 4]) * 64 + c
            if key > best_key:
                best, best_key = c, key
        return best
    top = P.trick[trick_best(P, suit_of, strength)] & 15     # the rank winning so far
    best_key = -1
    m = L
    while m:                                                 # the losers
        c = lowest_bit(m)
        m &= m - 1
        if (c & 15) < top:
            danger = (c & 15) + (100 if (pen >> c) & 1 else 0)
            key = danger * 64 + c
            if key > best_key:
                best, best_key = c, key
    if best >= 0:
        return best
    if P.ntrick == 3:                                        # the trick is ours: spend the top
        best_key = -1
        m = L
        while m:
            c = lowest_bit(m)
            m &= m - 1
            key = (0 if (pen >> c) & 1 else 16) + (c & 15)
            if key > best_key:
                best, best_key = c, key
        return best
    best_key = 1 << 30
    m = L
    while m:
        c = lowest_bit(m)
        m &= m - 1
        key = (16 if (pen >> c) & 1 else 0) + (c & 15)
        if key < best_key:
            best, best_key = c, key
    return best


cdef inline int rules_layout_card(const LayoutPlay* P, uint64_t L) noexcept nogil:
    """The rules player's layout card: +1 for each own card it brings
    nearer, -0.4 for each unseen one; a jack is held unless we have low
    cards of its suit; ties to the lowest card."""
    cdef uint64_t hand = P.hands[P.turn], m, own
    cdef int c, s, r, x, low, high, up, beyond_own, beyond_all, best = -1
    cdef double score, best_score = -1e300
    if L == (<uint64_t>1) << PASS_BIT:
        return PASS_BIT
    m = L
    while m:
        c = lowest_bit(m)
        m &= m - 1
        s = c >> 4
        r = c & 15
        own = hand & ((<uint64_t>0xFFFF) << (16 * s)) & ~((<uint64_t>1) << c)
        if r == 11:
            low = popcount(own & ((<uint64_t>0x07FF) << (16 * s)))     # ranks below J
            high = popcount(own) - low
            score = (low + high) - 0.4 * (12 - low - high) - (0 if low else 3)
        else:
            up = r > 11 if P.lo[s] else 1
            beyond_own = 0
            while own:
                x = lowest_bit(own) & 15
                own &= own - 1
                if (x > r) if up else (x < r):
                    beyond_own += 1
            beyond_all = (14 - r) if up else (r - 2)
            score = beyond_own - 0.4 * (beyond_all - beyond_own)
        if score > best_score:
            best, best_score = c, score
    return best
