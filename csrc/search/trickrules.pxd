# The trix / tricks rules of play in C, once (compile-time header): no-trump
# trick play among four seats and the layout.  Every C kernel that plays
# them cimports them from here: the trick contract and layout searches
# (trick.pxd), the whole-deal search (deal.pxd), the rules player's C port
# (contract_player.pxd) and PIMC's play-outs (pimc.pyx).  Their readable
# reference, and the oracle the tests hold these to play by play, is the
# Python rules: solver/games/contract_match/trick_play.py (``TrickDeal``)
# and solver/games/contract_match/layout.py.
#
# Cards are indices suit * 16 + rank (ranks 2..14); a hand is a mask.
from libc.stdint cimport uint64_t, int32_t, uint8_t
from bits cimport suit_bits, trick_winner_c

cdef enum:
    #: the layout's pass: bit 63 is no card (ranks stop at 14)
    PASS_BIT = 63
    #: contract ids (solver/games/contract_match/trick_play.py)
    C_KING = 0
    C_QUEENS = 1
    C_DIAMONDS = 2
    C_LTOOSH = 3
    C_LAYOUT = 4


# ---- trick play --------------------------------------------------------------

cdef struct TrickPlay:
    uint64_t hands[4]
    int32_t trick[4]           # the cards on the table, the lead first
    int32_t ntrick
    int32_t leader
    int32_t tricks_done
    int32_t score[4]


cdef inline int trick_to_move(const TrickPlay* P) noexcept nogil:
    return (P.leader + P.ntrick) & 3


cdef inline uint64_t trick_led_cards(const TrickPlay* P, uint64_t cards) noexcept nogil:
    """The cards of ``cards`` in the suit led (a trick under way)."""
    return cards & suit_bits(P.trick[0] >> 4)


cdef inline uint64_t trick_legal_mask(const TrickPlay* P, uint64_t discard_mask) noexcept nogil:
    """Follow suit; void, a penalty card of ``discard_mask`` first
    (``must_discard_penalty``); else any card."""
    cdef uint64_t hand = P.hands[trick_to_move(P)], f
    if P.ntrick == 0:
        return hand
    f = trick_led_cards(P, hand)
    if f:
        return f
    f = hand & discard_mask
    return f if f else hand


cdef inline int trick_best(const TrickPlay* P, const uint8_t* suit_of,
                           const uint8_t* strength) noexcept nogil:
    """The place in the trick so far of the card winning it (no trumps: the
    highest card of the suit led)."""
    return trick_winner_c(<const int*>P.trick, P.ntrick, -1, suit_of, strength)


cdef inline uint64_t trick_others_live(const TrickPlay* P) noexcept nogil:
    """The cards still in play that the seat to move does not hold: the
    other hands and the table."""
    cdef uint64_t live = P.hands[0] | P.hands[1] | P.hands[2] | P.hands[3]
    cdef int i
    for i in range(P.ntrick):
        live |= (<uint64_t>1) << P.trick[i]
    return live & ~P.hands[trick_to_move(P)]


cdef inline int trick_play_card(TrickPlay* P, int card, const uint8_t* suit_of,
                                const uint8_t* strength, const int32_t* win_pts,
                                const int32_t* revealer, int trick_pts) noexcept nogil:
    """Play ``card`` for the seat to move; at the end of a trick score it
    (``win_pts`` to the taker, twice for a card another seat revealed,
    which gains it back) and return its taker, else -1."""
    cdef int seat = trick_to_move(P)
    cdef int i, c, taker, rv
    P.hands[seat] &= ~((<uint64_t>1) << card)
    P.trick[P.ntrick] = card
    P.ntrick += 1
    if P.ntrick < 4:
        return -1
    taker = (P.leader + trick_best(P, suit_of, strength)) & 3
    P.score[taker] += trick_pts
    for i in range(4):
        c = P.trick[i]
        rv = revealer[c]
        if rv < 0 or rv == taker:
            P.score[taker] += win_pts[c]
        else:
            P.score[taker] += 2 * win_pts[c]
            P.score[rv] -= win_pts[c]
    P.tricks_done += 1
    P.ntrick = 0
    P.leader = taker
    return taker


# ---- the layout --------------------------------------------------------------

cdef struct LayoutPlay:
    uint64_t hands[4]
    uint64_t fit               # cards that fit the layout now
    int32_t lo[4]
    int32_t hi[4]
    int32_t left[4]
    int32_t place[4]           # finishing place, -1 while in
    int32_t turn
    int32_t nout


cdef inline void layout_start(LayoutPlay* P, const uint64_t* hands, int first) noexcept nogil:
    """A new layout deal: empty rows (only jacks fit), 13 cards each."""
    cdef int s
    for s in range(4):
        P.hands[s] = hands[s]
        P.lo[s] = 0
        P.hi[s] = 0
        P.left[s] = 13
        P.place[s] = -1
    P.fit = (<uint64_t>1 << 11) | (<uint64_t>1 << 27) | (<uint64_t>1 << 43) | (<uint64_t>1 << 59)
    P.turn = first
    P.nout = 0


cdef inline uint64_t layout_legal_mask(const LayoutPlay* P) noexcept nogil:
    """The cards that fit, else the (forced) pass."""
    cdef uint64_t m = P.hands[P.turn] & P.fit
    return m if m else (<uint64_t>1) << PASS_BIT


cdef inline void layout_play(LayoutPlay* P, int card) noexcept nogil:
    """Play ``card`` (or ``PASS_BIT``) for the seat to move: its row grows,
    a seat with no card left takes the next place (the last seat's place
    is forced once three are out), the turn passes to the next seat in."""
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


cdef inline void layout_points(const LayoutPlay* P, int32_t* pts) noexcept nogil:
    """Each seat's layout score by its finishing place (+200 .. +50)."""
    cdef int s
    for s in range(4):
        pts[s] = 200 - 50 * P.place[s]
