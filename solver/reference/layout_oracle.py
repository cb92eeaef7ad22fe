"""Pure-Python twin of ``csrc/dd/layoutdd.pyx``: plain minimax of the layout
game, no pruning, no table, no equivalences, so that the kernel has an
oracle simple enough to trust (``DIXTRIX_PUREPYTHON=1`` runs it instead).

Same input and output as ``solver.dd._layoutdd.LayoutSolver.solve``: a
validated position (hand masks, per-suit row ends ``lo``/``hi`` with 0 for a
row not started, seat to move, seats already out, the mask of scoring
seats) and the exact *future* value in units of 50 points (place k = 0..3
is worth 4 - k units) of every action.  The scoring seats maximise, the
others minimise.  Exponential: for small endings only (tests, fallback).
"""

from __future__ import annotations

IMPLEMENTATION = "python"
PASS = -1
JACK = 11


def legal_mask(lo, hi) -> int:
    """Cards that may be played now by whoever holds them."""
    m = 0
    for s in range(4):
        base = s * 16
        if lo[s] == 0:
            m |= 1 << (base + JACK)
        else:
            if lo[s] > 2:
                m |= 1 << (base + lo[s] - 1)
            if hi[s] < 14:
                m |= 1 << (base + hi[s] + 1)
    return m


def _cards(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class _Search:
    def __init__(self, hands, lo, hi, nout, score_mask):
        self.hands = list(hands)
        self.lo = list(lo)
        self.hi = list(hi)
        self.nout = nout
        self.score_mask = score_mask
        self.nodes = 0

    def play(self, p: int, c: int):
        """Seat p plays c: (units awarded to scoring seats, game over?)."""
        s, r = c >> 4, c & 15
        self.hands[p] ^= 1 << c
        if r == JACK:
            self.lo[s] = self.hi[s] = JACK
        elif r < JACK:
            self.lo[s] = r
        else:
            self.hi[s] = r
        imm = 0
        if self.hands[p] == 0:
            if (self.score_mask >> p) & 1:
                imm += 4 - self.nout
            self.nout += 1
            if self.nout == 3:
                for q in range(4):
                    if self.hands[q] and (self.score_mask >> q) & 1:
                        imm += 1
                return imm, True
        return imm, False

    def unplay(self, p: int, c: int):
        s, r = c >> 4, c & 15
        if self.hands[p] == 0:
            self.nout -= 1
        self.hands[p] ^= 1 << c
        if r == JACK:
            self.lo[s] = self.hi[s] = 0
        elif r < JACK:
            self.lo[s] = r + 1
        else:
            self.hi[s] = r - 1

    def child(self, p: int, c: int) -> int:
        imm, over = self.play(p, c)
        v = imm if over else imm + self.value((p + 1) & 3)
        self.unplay(p, c)
        return v

    def value(self, to_move: int) -> int:
        """Future units from the position with ``to_move`` about to act."""
        self.nodes += 1
        legal = legal_mask(self.lo, self.hi)
        p = to_move
        while not self.hands[p] & legal:       # out seats and forced passes
            p = (p + 1) & 3
        vals = [self.child(p, c) for c in _cards(self.hands[p] & legal)]
        return max(vals) if (self.score_mask >> p) & 1 else min(vals)


def solve(hands, lo, hi, to_move: int, nout: int, score_mask: int):
    """``(value, [(action, value), ...], nodes)`` like the Cython kernel."""
    srch = _Search(hands, lo, hi, nout, score_mask)
    legal = legal_mask(lo, hi)
    playable = srch.hands[to_move] & legal
    if not playable:
        v = srch.value(to_move)
        return v, [(PASS, v)], srch.nodes
    actions = [(c, srch.child(to_move, c)) for c in _cards(playable)]
    vals = [v for _, v in actions]
    best = max(vals) if (score_mask >> to_move) & 1 else min(vals)
    return best, actions, srch.nodes


class LayoutSolver:
    """Same interface as the Cython ``LayoutSolver`` (the table size is
    accepted and ignored: the oracle has no table)."""

    def __init__(self, tt_bytes: int):
        self.tt_bytes = 0
        self.tt_entries = 0

    def solve(self, hands, lo, hi, to_move, nout, score_mask):
        return solve(hands, lo, hi, to_move, nout, score_mask)


def random_position(rng, cards_left: int):
    """A random reachable layout position for tests and benchmarks.

    Deals a shuffled deck (13 cards a seat), picks a random first seat, then
    plays uniformly random legal cards until at most ``cards_left`` cards are
    in hands (``cards_left=52``: the deal itself).  Returns ``(hands, rows,
    to_move, finished)`` as ``solver.dd.layout.solve_layout`` takes them:
    hands as lists of card indices, rows as {suit: (low, high)} for the
    started rows, finished as the seats out in order.
    """
    cards = [s * 16 + r for s in range(4) for r in range(2, 15)]
    rng.shuffle(cards)
    hands = [0, 0, 0, 0]
    for i, c in enumerate(cards):
        hands[i % 4] |= 1 << c
    lo, hi = [0] * 4, [0] * 4
    finished: list[int] = []
    to_move = rng.randrange(4)
    while sum(bin(h).count("1") for h in hands) > cards_left and len(finished) < 3:
        legal = legal_mask(lo, hi)
        while not hands[to_move] & legal:
            to_move = (to_move + 1) & 3
        c = rng.choice(list(_cards(hands[to_move] & legal)))
        s, r = c >> 4, c & 15
        hands[to_move] ^= 1 << c
        if r == JACK:
            lo[s] = hi[s] = JACK
        elif r < JACK:
            lo[s] = r
        else:
            hi[s] = r
        if hands[to_move] == 0:
            finished.append(to_move)
        to_move = (to_move + 1) & 3
        while hands[to_move] == 0 and len(finished) < 3:
            to_move = (to_move + 1) & 3
    rows = {s: (lo[s], hi[s]) for s in range(4) if lo[s]}
    return [list(_cards(h)) for h in hands], rows, to_move, finished
