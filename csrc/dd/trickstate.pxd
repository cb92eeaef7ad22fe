# The compact perfect-information trick state and its rule table (header
# only: ctypedefs and inline helpers, cimported at compile time by the
# kernels; no runtime module).  Card index = suit * 16 + rank as in
# solver/cards.py; the dix joker is index 0.
#
# A RuleTable is built per solve by solver/dd/trick.py for one MAX SIDE (the seats
# whose value is maximised; every other seat minimises it).  Every scoring
# rule is two numbers: what the max side gets when it wins the trick, and
# what it gets when the other side wins it ("win"/"lose").  So "own points"
# objectives (bridge tricks, penalty contracts, Rook count) and "difference"
# objectives (dix) are the same kernel with different tables.
from libc.stdint cimport uint64_t, uint32_t, uint8_t, uint16_t, int16_t, int32_t

cdef enum:
    MAX_SEATS = 8          # array size; games use 2, 4 or 6 seats
    MAX_PLY = 72           # >= cards in play (56) + a margin
    NO_CARD = 255


ctypedef struct RuleTable:
    int32_t nseats          # 2, 4 or 6
    int32_t trump           # effective trump suit, -1: no trumps
    int32_t must_follow     # 1: a follower must play the led (effective) suit if able
    int32_t ten_total       # dix: a trick whose pips total this is a ten-trick; -1: no rule
    int32_t trick_win       # to the max side per trick it wins (bridge 1, Ltoosh -15, dix +1)
    int32_t trick_lose      # to the max side per trick the other side wins
    int32_t ten_win         # replaces trick_win for a ten-trick (dix -3)
    int32_t ten_lose        # replaces trick_lose for a ten-trick
    int32_t last_win        # extra to the max side when it wins the last trick (Rook nest)
    int32_t last_lose       # extra to the max side when the other side wins it
    int32_t last_extra      # tricks the last trick's winner counts in addition (Rook: 1)
    int32_t use_most        # 1: a most-tricks bonus is scored at the end
    int32_t most_win        # max side took strictly more tricks (extras included)
    int32_t most_lose       # the other side took more
    int32_t most_tie        # equal (dixie-rook's cut: half the bonus, see docs/solver.md)
    int32_t total_tricks    # tricks of the whole round, extras included (for use_most)
    int32_t pip_partners    # 1: cls leaves pips out; two cards with different pips are
                            #    still equivalent when no card that could share a trick
                            #    with them (other hands, the table) makes ten with either
    int32_t quick_ok        # 1: pure trick scoring (no card points, tens, last/most
                            #    extras) and slot[c] == c: sure-trick bounds apply
    int32_t relative_ok     # 1: scoring never tells cards of a suit apart: TT keys use
                            #    relative ranks (requires slot[c] == c)
    int32_t class_relative  # 1: not relative_ok, but slot[c] == c and no pips: TT keys
                            #    use relative ranks plus the scoring class of every
                            #    card whose class is not cls_base (penalty cards)
    int32_t cls_base        # the most common class among the cards in play
    int32_t unit            # points per value unit (solver/dd/trick.py in_units):
                            #    move ordering weighs card points in points
    uint8_t side[MAX_SEATS]     # 1 if the seat is on the max side
    uint8_t next_seat[MAX_SEATS]
    uint8_t suit_of[64]     # effective suit of a card (joker: trumps); 255 not in play
    uint8_t strength[64]    # rank within the effective suit (joker: turned-up rank)
    uint8_t slot[64]        # suit_of * 16 + strength: position in "strength space"
    uint8_t card_at[64]     # inverse of slot; NO_CARD where no card
    uint8_t cls[64]         # scoring class: equal class => scoring cannot tell apart
    uint8_t pips[64]        # dix pips (ten rule)
    int32_t win_pts[64]     # to the max side when it wins a trick holding the card
    int32_t lose_pts[64]    # to the max side when the other side wins it
    uint64_t suit_mask[4]   # cards whose effective suit is s
    uint64_t discard_mask   # a void follower holding any of these must play one


ctypedef struct TrickState:
    uint64_t hands[MAX_SEATS]
    uint64_t rem_slot       # strength-space slots of the cards in hands or on the table
    int32_t leader          # seat that led the trick in progress
    int32_t ncards          # cards on the table
    int trick[MAX_SEATS]
    int32_t tricks_left     # tricks not finished (the one in progress included)
    int32_t max_tricks      # tricks (extras included) the max side has won so far
    int32_t card_ub         # sum over cards in hands of max(win_pts, lose_pts)
    int32_t card_lb         # sum over cards in hands of min(win_pts, lose_pts)


ctypedef struct WEntry:
    # a "winning ranks" entry (4 seats, relative keys): it matches every
    # position with the same hand lengths per suit, leader and key extras
    # (the bucket and ``check``) whose top ``k`` remaining cards of each suit
    # have the same owners (``pat``: two owner bits a card from the top, the
    # low 4 bits hold k); the cards below were never compared for the result
    uint64_t check
    uint32_t pat[4]
    int16_t lo
    int16_t hi
    uint16_t gen
    uint8_t move
    uint8_t depth


cdef inline uint64_t mix64(uint64_t x) noexcept nogil:
    """splitmix64 finaliser."""
    x ^= x >> 30
    x *= <uint64_t>0xbf58476d1ce4e5b9
    x ^= x >> 27
    x *= <uint64_t>0x94d049bb133111eb
    x ^= x >> 31
    return x


cdef inline uint64_t between_bits(int hi, int lo) noexcept nogil:
    """Bits strictly between positions ``lo`` < ``hi``."""
    return ((<uint64_t>1 << hi) - 1) & ~((<uint64_t>2 << lo) - 1)


cdef inline uint32_t pip_set(uint64_t cards) noexcept nogil:
    """Bit p set if ``cards`` hold a card of dix pips p (0..10)."""
    cdef uint64_t r = cards | (cards >> 16) | (cards >> 32) | (cards >> 48)
    cdef uint32_t ranks = <uint32_t>(r & 0xFFFF)
    cdef uint32_t out = (ranks & 0x7FC) | ((ranks >> 13) & 2)
    if ranks & 0x3801:          # joker (rank 0), J, Q, K: 0 pips
        out |= 1
    return out


cdef inline bint interchangeable(const RuleTable* R, int a, int b, uint32_t partners) noexcept nogil:
    """Whether scoring can never tell cards ``a`` and ``b`` apart (they are
    adjacent in rank: checked by the caller).  ``partners``: pip_set of the
    cards that may share a trick with them."""
    cdef int ta, tb
    if R.cls[a] != R.cls[b]:
        return 0
    if not R.pip_partners or R.pips[a] == R.pips[b]:
        return 1
    ta = R.ten_total - R.pips[a]
    tb = R.ten_total - R.pips[b]
    if 0 <= ta <= 15 and (partners >> ta) & 1:
        return 0
    if 0 <= tb <= 15 and (partners >> tb) & 1:
        return 0
    return 1


cdef inline uint64_t legal_mask(const RuleTable* R, const TrickState* S, int seat) noexcept nogil:
    """The cards ``seat`` may play now."""
    cdef uint64_t hand = S.hands[seat]
    cdef uint64_t f
    if S.ncards == 0:
        return hand
    f = hand & R.suit_mask[R.suit_of[S.trick[0]]]
    if f != 0:
        if R.must_follow:
            return f
        return hand
    f = hand & R.discard_mask
    if f != 0:
        return f
    return hand
