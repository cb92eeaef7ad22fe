"""The dixie-rook auction, one implementation for the state and the
seat-view replay."""

from __future__ import annotations

from ...front import N_
from ...said import Said, phrase
from .notation import BID_BASE, BID_STEP, MAX_BID, MIN_BID, PASS

# the auction's reasons (solver/errors.py: a code and its parameters)
BID_LOW = phrase("bid_low", N_("a bid is at least {least}"))
BID_STEP_OF = phrase("bid_step", N_("a bid is a multiple of {step}"))
BID_HIGH = phrase("bid_high", N_("the highest bid is {most}"))
BID_HIGHER = phrase("bid_higher", N_("a bid must be higher than {bid} (seat {seat}'s bid)"))
NOT_NOW = phrase("not_legal_now", N_("not legal now"))
DEALER_BIDS = phrase("dealer_bids", N_("the dealer (seat {seat}) must bid: every other seat passed "
                                       "without a bid (dealer_must_bid)"))


class Auction:
    """The bidding of one hand: ``to_act``, ``passed``, ``high_bid`` (0: no
    bid yet), ``high_bidder`` (-1), and the outcome once over: ``winner``
    (-1 while open or when every seat passed) and ``passed_out``."""

    __slots__ = ("n", "dealer", "must_bid", "to_act", "passed", "high_bid", "high_bidder",
                 "winner", "passed_out")

    def __init__(self, n: int, dealer: int, must_bid: bool):
        self.n = n
        self.dealer = dealer
        self.must_bid = must_bid
        self.to_act = (dealer + 1) % n
        self.passed = [False] * n
        self.high_bid = 0
        self.high_bidder = -1
        self.winner = -1
        self.passed_out = False

    def copy(self) -> Auction:
        new = Auction.__new__(Auction)
        for k in Auction.__slots__:
            setattr(new, k, getattr(self, k))
        new.passed = list(self.passed)
        return new

    @property
    def over(self) -> bool:
        return self.winner >= 0 or self.passed_out

    def lowest_bid(self) -> int:
        return max(MIN_BID, self.high_bid + BID_STEP)

    def pass_forced_away(self) -> bool:
        """``dealer_must_bid``: the dealer, every other seat passed, no bid."""
        return (self.must_bid and self.high_bidder < 0 and
                sum(self.passed) == self.n - 1 and not self.passed[self.to_act])

    def legal(self) -> list[int]:
        out = [BID_BASE + v for v in range(self.lowest_bid(), MAX_BID + 1, BID_STEP)]
        if not self.pass_forced_away():
            out.append(PASS)
        return out

    def why_not_bid(self, value: int) -> Said:
        if value < MIN_BID:
            return BID_LOW(least=MIN_BID)
        if value % BID_STEP:
            return BID_STEP_OF(step=BID_STEP)
        if value > MAX_BID:
            return BID_HIGH(most=MAX_BID)
        if value <= self.high_bid:
            return BID_HIGHER(bid=self.high_bid, seat=self.high_bidder)
        return NOT_NOW()

    def why_not_pass(self) -> Said:
        return DEALER_BIDS(seat=self.to_act)

    def bid(self, value: int) -> None:
        seat = self.to_act
        self.high_bid = value
        self.high_bidder = seat
        self._advance(seat)

    def pass_(self) -> None:
        seat = self.to_act
        self.passed[seat] = True
        self._advance(seat)

    def _advance(self, seat: int) -> None:
        live = [s for s in range(self.n) if not self.passed[s]]
        if self.high_bid == MAX_BID or (self.high_bidder >= 0 and live == [self.high_bidder]):
            self.winner = self.high_bidder
            return
        if not live:
            self.passed_out = True
            return
        nxt = (seat + 1) % self.n
        while self.passed[nxt]:
            nxt = (nxt + 1) % self.n
        self.to_act = nxt
