# Compact perfect-information state of the layout game (Trix "Trix"
# contract, Tricks "Jacks") and the search context of its exact solver.
# Declarations only (compile-time header, cimported by csrc/dd/layoutdd.pyx).
from libc.stdint cimport uint64_t, int64_t, int8_t, uint8_t

cdef enum:
    LAYOUT_MAX_DEPTH = 64      # card plays in one search (<= 52) + slack
    LAYOUT_MAX_MOVES = 8       # legal cards of one seat: 2 ends x 4 suits
    LAYOUT_JACK = 11           # rank of the card that starts a row
    LAYOUT_PASS = -1           # the single (forced) action of a seat without a legal card


cdef struct TTEntry:           # 32 bytes; two entries per 64-byte bucket
    uint64_t k0                # cards still in hands | seat to move (bits 0-1, never cards)
    uint64_t k1                # cards held by seat 1 or 3 (low bit of the owner)
    uint64_t k2                # cards held by seat 2 or 3 (high bit of the owner)
    int8_t lower               # proven lower bound of the future value (units of 50 points)
    int8_t upper               # proven upper bound of the future value
    int8_t best                # card index of the best move found, -1 none
    uint8_t ncards             # cards still in hands (replacement priority: bigger subtree wins)
    uint8_t gen                # search generation; another generation means empty
    uint8_t pad[3]


cdef struct LayoutCtx:
    uint64_t hand[4]           # cards held by each seat (bit = card index suit*16+rank)
    int lo[4]                  # lowest rank on suit s's row; 0 = row not started
    int hi[4]                  # highest rank on suit s's row; 0 = row not started
    int cnt[4]                 # cards held by each seat
    int nout                   # seats already out (places 0..nout-1 are awarded)
    int to_move                # seat whose turn it is (a pass or out seat is skipped in search)
    int score_mask             # seats whose points are the value; they maximise, the others minimise
    int64_t nodes              # search nodes visited
    TTEntry* tt                # transposition table: nbuckets * 2 entries
    uint64_t bucket_mask       # nbuckets - 1 (nbuckets is a power of two)
    uint8_t gen                # current generation (1..255)
    int moves[LAYOUT_MAX_DEPTH][LAYOUT_MAX_MOVES]   # depth-indexed move lists: no allocation in search
