# cython: language_level=3
"""PIMC's play-outs in C (solver/search/pimc.py, ``GameSupport.native_playouts``):
dix (``DixWorlds``) and the trix / tricks trick contracts (``TrickWorlds``).

While the stock lasts no dix world can be solved (the draws after each
trick depend on who wins it), so PIMC values each legal card of a world by
a play-out: the card applied, the round played on by the rules player
(``solver/games/dix/heuristic.py``, ``DixRules``) at both seats, and,
once the stock is empty and the seat to lead holds at most ``leaf_cards``
cards, the rest of the round solved exactly.  In Python a world cost about
34 ms, four fifths of it in the rules player's steps (each builds the
seat's information state); here the same play-out and the same leaf solve
run without Python objects:

* the play-out state and its moves are the ISMCTS kernel's
  (csrc/search/dix.pxd: ``DixPlay``, ``dix_legal``, ``dix_apply``: the
  rules' follow-suit, draws and ten-tricks);
* ``rules_card`` is ``DixRules.step`` move for move: following, the best
  (outcome, cheapest winner / least useful loser); leading, the least
  (danger, keep value, -suit length, rank, is the joker), ties to the
  lowest card, as Python's ``max`` / ``min`` over the ascending legal list.
  "Unseen" is what the Python player reads from its view: every dix card
  but its own hand, the turned-up card and every card of the match's
  action history (earlier rounds' cards included, as the view lists them);
* the leaf is the two-seat dix solver (csrc/dd/dixsearch.pxd) on a table
  of its own kept across the worlds and cards of one decision (its keys
  carry the round's trump and joker, ``dix_set_rules``); its value is the
  one ``DixSupport.exact_value`` reads from ``solve``: the score difference,
  a tie worth half a point to the round's winner.  A leaf that passes the
  node bound lets the play-out go on, as in Python.

tests/search/test_pimc_native.py checks play-outs and values against the
Python path on sampled worlds.
"""
from libc.stdint cimport uint64_t, uint8_t, int32_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

from bits cimport popcount, lowest_bit, trick_winner_c
from interrupt cimport reraise
from ttable cimport tt_alloc, tt_next_gen
from dix cimport DixRules, DixPlay, dix_legal, dix_apply, dix_to_move
from trickrules cimport TrickPlay, trick_to_move, trick_legal_mask, trick_play_card
from contract_player cimport rules_trick_card
from ddstats cimport dix_stats_defaults
from dixctx cimport DixCtx, Entry, BUCKET, NO_CARD, TEN, dix_set_rules, dix_set_position
from dixsearch cimport mtd

#: the dix joker's card index (solver.cards.JOKER)
DEF JOKER = 0
#: the leaf solver's table: 2**13 buckets of four 16-byte entries (512 KiB),
#: plenty for endings of at most a dozen tricks
DEF LEAF_BUCKETS = 8192


cdef inline int pips_of(int card) noexcept nogil:
    """``solver.cardset.dix_pips``: an ace 1, 2-10 their face, courts and
    the joker 0."""
    cdef int r = card & 15
    if card == JOKER:
        return 0
    if r == 14:
        return 1
    if 2 <= r <= 10:
        return r
    return 0


cdef class DixWorlds:
    """One PIMC decision's dix play-outs: the round's rules (built once)
    and the leaf solver's table.  ``values`` plays one world."""

    cdef DixRules R
    cdef DixCtx* D
    cdef uint64_t deck              # every card of the dix deck
    cdef uint64_t pipcards[11]      # the deck's cards of each pip value
    cdef int turn_up, joker_slot, seat, leaf_cards
    cdef uint64_t leaf_nodes
    cdef public unsigned long long leaf_solves, leaf_nodes_used

    def __cinit__(self, bytes table, int trump, int turn_up, uint64_t deck, int stock_len,
                  int total_tricks, bint free_play, int seat, int leaf_cards,
                  unsigned long long leaf_nodes):
        """``table``: the round's rank table (128 bytes: effective suit,
        then strength, per card); ``deck``: the dix deck's mask;
        ``leaf_cards`` 0: no leaf solve; ``leaf_nodes``: its node bound."""
        cdef int c, s
        if len(table) != 128:
            raise ValueError("a rank table has 128 entries")
        if stock_len > 26 or total_tricks > 27:
            raise ValueError("at most 26 stock cards and 27 tricks")
        memset(&self.R, 0, sizeof(DixRules))
        for c in range(64):
            self.R.suit_of[c] = table[c]
            self.R.strength[c] = table[64 + c]
            self.R.pips[c] = pips_of(c)
        for s in range(4):
            self.R.suit_mask[s] = 0
        for c in range(64):
            if (deck >> c) & 1 and table[c] < 4:
                self.R.suit_mask[table[c]] |= (<uint64_t>1) << c
        for c in range(11):
            self.pipcards[c] = 0
        for c in range(64):
            if (deck >> c) & 1:
                self.pipcards[pips_of(c)] |= (<uint64_t>1) << c
        self.R.trump = trump
        self.R.free_play = free_play
        self.R.stock_len = stock_len
        self.R.total_tricks = total_tricks
        self.R.seat = seat
        self.deck = deck
        self.turn_up = turn_up
        self.seat = seat
        self.leaf_cards = leaf_cards
        self.leaf_nodes = leaf_nodes
        # the solver's slot space: the joker takes the turned-up card's slot
        self.joker_slot = trump * 16 + (turn_up & 15) if trump >= 0 else -1
        self.D = NULL
        if leaf_cards > 0:
            self.D = <DixCtx*>calloc(1, sizeof(DixCtx))
            if self.D == NULL:
                raise MemoryError("cannot allocate the leaf solver")
            self.D.tt = <Entry*>tt_alloc(LEAF_BUCKETS * BUCKET * sizeof(Entry))
            if self.D.tt == NULL:
                free(self.D)
                self.D = NULL
                raise MemoryError("cannot allocate the leaf solver's table")
            self.D.nbuckets = LEAF_BUCKETS
            self.D.tt_mask = LEAF_BUCKETS - 1
            self.D.gen = tt_next_gen(self.D.tt, LEAF_BUCKETS * BUCKET * sizeof(Entry), 0)
            dix_stats_defaults(&self.D.st)
            dix_set_rules(self.D, trump, self.joker_slot)

    def __dealloc__(self):
        if self.D != NULL:
            free(self.D.tt)
            free(self.D)

    # ------------------------------------------------------------------

    cdef int rules_card(self, const DixPlay* P, uint64_t legal, uint64_t seen) noexcept nogil:
        """``DixRules.step`` of the seat to move (``seen``: the match's
        action history so far, as a mask)."""
        cdef const DixRules* R = &self.R
        cdef int mover = dix_to_move(P), lead = P.lead_card
        cdef int c, best = -1, wins, ten, outcome, tie, danger, keep, slen, rank
        cdef int b_outcome = 0, b_tie = 0, b_danger = 0, b_keep = 0, b_slen = 0, b_rank = 0
        cdef int b_joker = 0, cards[2]
        cdef uint64_t m = legal, unseen
        if popcount(legal) == 1:
            return lowest_bit(legal)
        if lead >= 0:
            cards[0] = lead
            while m:
                c = lowest_bit(m)
                m &= m - 1
                cards[1] = c
                wins = trick_winner_c(cards, 2, R.trump, R.suit_of, R.strength) == 1
                ten = R.pips[lead] + R.pips[c] == 10
                if wins:
                    outcome = -3 if ten else 1
                    tie = -(R.strength[c] + (20 if R.suit_of[c] == R.trump else 0))
                else:
                    outcome = 3 if ten else -1
                    tie = -self.keep_value(c)
                if best < 0 or outcome > b_outcome or (outcome == b_outcome and tie > b_tie):
                    best, b_outcome, b_tie = c, outcome, tie
            return best
        unseen = self.deck & ~P.hands[mover] & ~seen & ~((<uint64_t>1) << self.turn_up)
        while m:
            c = lowest_bit(m)
            m &= m - 1
            danger = popcount(unseen & self.pipcards[10 - R.pips[c]])
            keep = self.keep_value(c)
            slen = -popcount(legal & R.suit_mask[R.suit_of[c]]) if R.suit_of[c] < 4 else 0
            rank = c & 15
            if (best < 0 or danger < b_danger
                    or (danger == b_danger and (keep < b_keep
                        or (keep == b_keep and (slen < b_slen
                            or (slen == b_slen and (rank < b_rank
                                or (rank == b_rank and (c == JOKER) < b_joker)))))))):
                best, b_danger, b_keep, b_slen, b_rank = c, danger, keep, slen, rank
                b_joker = c == JOKER
        return best

    cdef inline int keep_value(self, int c) noexcept nogil:
        cdef int v = self.R.strength[c]
        if self.R.suit_of[c] == self.R.trump:
            v += 20
        if self.R.pips[c] == 9 or self.R.pips[c] == 10:
            v += 10
        return v

    cdef uint64_t slots(self, uint64_t hand) noexcept nogil:
        if hand & 1:
            hand &= ~(<uint64_t>1)
            if self.joker_slot >= 0:
                hand |= (<uint64_t>1) << self.joker_slot
        return hand

    cdef double round_result(self, const DixPlay* P) noexcept nogil:
        """``DixState.round_returns`` of the finished round, for the seat."""
        cdef int me = self.seat, opp = 1 - self.seat, winner
        cdef int d = (P.won[me] - 4 * P.tens[me]) - (P.won[opp] - 4 * P.tens[opp])
        if d != 0:
            return d
        if P.tens[0] != P.tens[1]:
            winner = 0 if P.tens[0] < P.tens[1] else 1
        else:
            winner = P.last_winner
        return 0.5 if winner == me else -0.5

    cdef int leaf_value(self, const DixPlay* P, double* out) noexcept nogil:
        """The exact rest of the round for the seat (``DixSupport.exact_value``
        of a solve); 0 when the search passed its node bound."""
        cdef int me = self.seat, opp = 1 - self.seat, mover = dix_to_move(P)
        cdef int k = popcount(P.hands[mover]), v, raw, diff, won
        dix_set_position(self.D, self.slots(P.hands[0]), self.slots(P.hands[1]), mover, -1)
        self.D.max_nodes = self.leaf_nodes if self.leaf_nodes > 0 else <uint64_t>0xFFFFFFFFFFFFFFFF
        # what the seat has already won, as a lexicographic value
        won = (256 * ((P.won[me] - 4 * P.tens[me]) - (P.won[opp] - 4 * P.tens[opp]))
               + 4 * (P.tens[opp] - P.tens[me]))
        # the round's result is all a leaf reads (its difference, and who
        # wins where the scores tie): no tie-break question beyond it
        v = mtd(self.D, NO_CARD, -(k * TEN + 2), k * TEN + 2, 0, NULL, False,
                won if mover == me else -won)
        self.leaf_solves += 1
        self.leaf_nodes_used += self.D.nodes
        if self.D.aborted:
            return 0
        raw = won + (v if mover == me else -v)
        # decode_dix: the nearest multiple of 256 (floor division)
        diff = raw + 128
        diff = diff // 256 if diff >= 0 else -((-diff + 255) // 256)
        out[0] = diff if diff != 0 else (0.5 if raw > 0 else -0.5)
        return 1

    cdef double playout(self, DixPlay* P, uint64_t seen) noexcept nogil:
        cdef int c
        cdef double v
        while P.tricks_done < self.R.total_tricks:
            if (self.leaf_cards and P.lead_card < 0
                    and (self.R.stock_len == 0 or P.tricks_done >= 13)
                    and popcount(P.hands[dix_to_move(P)]) <= self.leaf_cards):
                if self.leaf_value(P, &v):
                    return v
                if self.D.interrupted:
                    return 0.0
            c = self.rules_card(P, dix_legal(P, &self.R), seen)
            seen |= (<uint64_t>1) << c
            dix_apply(P, &self.R, c)
        return self.round_result(P)

    def values(self, hands, stock, int stock_pos, int leader, int lead_card, int tricks_done,
               won, tens, int last_winner, uint64_t seen, actions):
        """``{action: value}``: each card of ``actions`` played by the seat
        to move in the world given (the hands, the whole stock and the
        next stock place, the leader and the card led or -1, tricks done,
        won, tens, the last trick's winner; ``seen``: every card of the
        match's action history), the round played out, in
        ``round_returns`` units for the seat."""
        cdef DixPlay W, P
        cdef int i, a, n = len(actions)
        cdef int acts[64]
        cdef double vals[64]
        if n > 64 or len(stock) > 26:
            raise ValueError("at most 64 actions and 26 stock cards")
        memset(&W, 0, sizeof(DixPlay))
        W.hands[0] = hands[0]
        W.hands[1] = hands[1]
        for i in range(len(stock)):
            W.stock[i] = stock[i]
        W.stock_pos = stock_pos
        W.leader = leader
        W.lead_card = lead_card
        W.tricks_done = tricks_done
        W.won[0], W.won[1] = won
        W.tens[0], W.tens[1] = tens
        W.last_winner = last_winner
        for i in range(n):
            a = actions[i]
            if not 0 <= a < 64 or not (dix_legal(&W, &self.R) >> a) & 1:
                raise ValueError(f"card {a} is not legal in this world")
            acts[i] = a
        with nogil:
            for i in range(n):
                P = W
                dix_apply(&P, &self.R, acts[i])
                vals[i] = self.playout(&P, seen | ((<uint64_t>1) << acts[i]))
                if self.D != NULL and self.D.interrupted:
                    break
        if self.D != NULL and self.D.interrupted:
            self.D.interrupted = 0
            return reraise()
        return {acts[i]: vals[i] for i in range(n)}

    def new_table(self):
        """The leaf solver's table afresh (measurements: every world alike)."""
        if self.D != NULL:
            self.D.gen = tt_next_gen(self.D.tt, LEAF_BUCKETS * BUCKET * sizeof(Entry), self.D.gen)


# ---- the trix / tricks trick contracts --------------------------------------

cdef class TrickWorlds:
    """One PIMC decision's trick-contract play-outs (trix, tricks): the
    rules player (``solver/games/contract_match/heuristic.py``,
    ``ContractRules._trick_card``; its C port is
    csrc/search/contract_player.pxd's ``rules_trick_card``, shared with the
    ISMCTS kernel's deal search) at every seat, under the trick rules every
    kernel shares (csrc/search/trickrules.pxd: follow suit, must-discard,
    per-card and per-trick points, a revealed card's double points).
    ``run`` plays one line until the deal ends or, with ``stop_cards``, a
    trick boundary where the seat to lead holds at most that many cards:
    the leaf, which the caller solves (``solver.games.contract_match.search``)."""

    cdef int32_t win_pts[64]
    cdef int32_t revealer[64]
    cdef int trick_pts
    cdef uint64_t discard_mask, penalty
    cdef uint8_t suit_of[64]
    cdef uint8_t strength[64]

    def __cinit__(self, win_pts, revealer, int trick_pts, uint64_t discard_mask,
                  uint64_t penalty):
        """``win_pts[c]``: the points card ``c`` brings its taker;
        ``revealer[c]``: the seat that revealed it (-1); ``penalty``: the
        contract's penalty cards (the rules player's "danger")."""
        cdef int c
        if len(win_pts) != 64 or len(revealer) != 64:
            raise ValueError("win_pts and revealer have 64 entries")
        for c in range(64):
            self.win_pts[c] = win_pts[c]
            self.revealer[c] = revealer[c]
            self.suit_of[c] = c >> 4
            self.strength[c] = c & 15
        self.trick_pts = trick_pts
        self.discard_mask = discard_mask
        self.penalty = penalty

    def run(self, hands, trick, int leader, int tricks_done, int card, int stop_cards,
            bint play_first=False):
        """Play ``card`` (-1: none) for the seat to move, then the rules
        player at every seat (at least one card when ``play_first``: after
        a leaf the solver could not take), until the deal ends or a leaf
        (see the class).  Returns ``(leaf, hands, leader, tricks_done,
        points, tricks)``: ``points`` and ``tricks`` each seat's gains
        since the position given (a revealed card taken by another seat
        costs its revealer)."""
        cdef TrickPlay P
        cdef int i, taker, first = play_first
        cdef int won[4]
        memset(&P, 0, sizeof(TrickPlay))
        if len(hands) != 4 or len(trick) > 3:
            raise ValueError("four hands and at most three cards on the table")
        for i in range(4):
            P.hands[i] = hands[i]
            won[i] = 0
        for i in range(len(trick)):
            P.trick[i] = trick[i]
        P.ntrick = len(trick)
        P.leader = leader
        P.tricks_done = tricks_done
        if card >= 0:
            if not 0 <= card < 64 or not (trick_legal_mask(&P, self.discard_mask) >> card) & 1:
                raise ValueError(f"card {card} is not legal here")
        with nogil:
            if card >= 0:
                taker = trick_play_card(&P, card, self.suit_of, self.strength, self.win_pts,
                                        self.revealer, self.trick_pts)
                if taker >= 0:
                    won[taker] += 1
            while P.tricks_done < 13:
                if (stop_cards and not first and P.ntrick == 0
                        and popcount(P.hands[P.leader]) <= stop_cards):
                    break
                first = 0
                taker = trick_play_card(
                    &P, rules_trick_card(&P, trick_legal_mask(&P, self.discard_mask),
                                         self.penalty, self.suit_of, self.strength),
                    self.suit_of, self.strength, self.win_pts, self.revealer, self.trick_pts)
                if taker >= 0:
                    won[taker] += 1
        return (P.tricks_done < 13, (P.hands[0], P.hands[1], P.hands[2], P.hands[3]),
                P.leader, P.tricks_done, (P.score[0], P.score[1], P.score[2], P.score[3]),
                (won[0], won[1], won[2], won[3]))
