"""toy's rules as a state machine (``game.py`` has them in words): one
method a phase, the auction (``_apply_bid``) and the card play
(``_apply_play``)."""

from __future__ import annotations

from typing import Any

from solver.cards import Deck, cards_of, mask_of, rank_of, suit_of
from solver.errors import NotationError, short_repr
from solver.game import TERMINAL, InfoState, State

SEATS = 4
HAND = 4
#: the bids' action ids: "bid n" is ``BID + n``, above the 64 card ids
BID = 64
#: the highest bid: every trick of the deal
MAX_BID = HAND
AUCTION, PLAY, OVER = "auction", "play", "over"
#: the toy deck: J Q K A of the four French suits, with their French card
#: ids (so the double-dummy kernel's French deck holds them)
TOY = Deck("toy", "CDHS", range(11, 15), {11: "J", 12: "Q", 13: "K", 14: "A"},
           rank_first=True)


def trick_winner(leader: int, trick: list[int] | tuple[int, ...], seats: int) -> int:
    """The seat that takes a full trick led by ``leader``: the highest card
    of the suit led (no trumps)."""
    led = suit_of(trick[0])
    best = max((i for i, c in enumerate(trick) if suit_of(c) == led),
               key=lambda i: rank_of(trick[i]))
    return (leader + best) % seats


def follow(hand: int, trick: list[int] | tuple[int, ...]) -> int:
    """The cards of ``hand`` (a mask) legal on ``trick``: the suit led if
    the hand has it, else any card."""
    if not trick:
        return hand
    led = suit_of(trick[0])
    same = mask_of(c for c in cards_of(hand) if suit_of(c) == led)
    return same or hand


def score(bid: int, took: int) -> int:
    """A seat's points for a deal (``game.py`` states the rule): nil made
    +10, missed -10; a bid of n made, 10 n and 1 an overtrick; missed,
    -10 n.  Never lower for a trick more (a bid of n) or fewer (nil), so
    the exact solver's paranoid minimax of the tricks gives the score's."""
    if bid == 0:
        return 10 if took == 0 else -10
    return 10 * bid + (took - bid) if took >= bid else -10 * bid


def is_bid(action: int) -> bool:
    return BID <= action <= BID + MAX_BID


def bid_to_string(action: int) -> str:
    return f"bid {action - BID}"


def parse_action(text: str, index: int | None = None) -> int:
    """An action's id from its notation: a card (``AS``), ``bid n`` (n from
    0 to 4) or ``nil`` (``bid 0``); ``NotationError`` names the token."""
    if not isinstance(text, str):
        raise NotationError(f"an action is a card or a bid, got {short_repr(text)}", str(text),
                            index)
    words = text.strip().lower().split()
    if words == ["nil"]:
        return BID
    if words[:1] == ["bid"]:
        if len(words) == 2 and words[1] in {str(n) for n in range(MAX_BID + 1)}:
            return BID + int(words[1])
        raise NotationError(f"a bid is 'bid 0' to 'bid {MAX_BID}' (or 'nil'), got "
                            f"{short_repr(text)}", text, index)
    return TOY.parse(text, index)


class ToyState(State):
    def __init__(self, game, chance):
        super().__init__(game, chance)
        n = game.num_players
        hands = self._chance.draw("deal", game.generate_deal)
        self.hands = [mask_of(h) for h in hands]
        self.leader: int = game.options["first_leader"]
        self.trick: list[int] = []
        self.tricks_won = [0] * n
        #: each seat's bid, -1 until it bids; the seats bid in turn from
        #: the first leader
        self.bids = [-1] * n

    @property
    def phase(self) -> str:
        if not any(self.hands):
            return OVER
        return AUCTION if -1 in self.bids else PLAY

    # ---- the protocol ----
    def current_player(self) -> int:
        phase = self.phase
        if phase == OVER:
            return TERMINAL
        n = self.game.num_players
        if phase == AUCTION:
            return (self.game.options["first_leader"] + n - self.bids.count(-1)) % n
        return (self.leader + len(self.trick)) % n

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == OVER:
            return []
        if phase == AUCTION:
            return [BID + b for b in range(MAX_BID + 1)]
        return cards_of(follow(self.hands[self.current_player()], self.trick))

    def why_illegal(self, action: int) -> str:
        seat = self.current_player()
        if self.phase == AUCTION:
            return f"seat {seat} bids first: bid 0 (nil) to bid {MAX_BID}"
        if is_bid(action):
            return "the auction is over: the seats play their cards"
        if action not in TOY or not (self.hands[seat] >> action) & 1:
            return f"seat {seat} does not hold it"
        return "a player must follow the suit led"

    def _apply(self, action: int) -> None:
        if self.phase == AUCTION:
            self._apply_bid(action)
        else:
            self._apply_play(action)

    def _apply_bid(self, action: int) -> None:
        self.bids[self.current_player()] = action - BID

    def _apply_play(self, action: int) -> None:
        n = self.game.num_players
        seat = self.current_player()
        self.hands[seat] &= ~(1 << action)
        self.trick.append(action)
        if len(self.trick) == n:
            winner = trick_winner(self.leader, self.trick, n)
            self.tricks_won[winner] += 1
            self._last_trick = (self.leader, tuple(self.trick), winner)
            self.leader = winner
            self.trick = []

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.game.num_players
        return self.round_returns()

    def round_returns(self, index: int | None = None) -> list[float]:
        """The deal's points by the bids (the tricks so far: a deal in play
        scores as if it ended now; nothing before the auction ends)."""
        if index not in (None, 0):
            raise IndexError(index)
        if self.phase == AUCTION:
            return [0.0] * self.game.num_players
        return [float(score(b, t)) for b, t in zip(self.bids, self.tricks_won, strict=True)]

    def trick_number(self) -> tuple[int, int] | None:
        if self.phase != PLAY:
            return None
        done = sum(self.tricks_won)
        return done + 1, done + bin(self.hands[self.current_player()]).count("1")

    # ---- notation ----
    def action_to_string(self, action: int) -> str:
        return bid_to_string(action) if is_bid(action) else TOY.to_string(action)

    def string_to_action(self, text: str) -> int:
        return parse_action(text)

    # ---- views ----
    def information_state(self, seat: int) -> InfoState:
        n = self.game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, got {short_repr(seat)}")
        deals = [{"hands": [TOY.format_cards(value[s]) if s == seat else len(value[s])
                            for s in range(n)]}
                 for kind, value in self._chance.log if kind == "deal"]
        view = self._view_head(seat, {"deals": deals})
        view["actions"] = [self.action_to_string(a) for a in self._history]
        # every bid is public, as every card played is (game.py's facts)
        known: dict[str, Any] = {"hand": TOY.format_cards(cards_of(self.hands[seat])),
                                 "trick": [TOY.to_string(c) for c in self.trick],
                                 "leader": self.leader, "tricks_won": list(self.tricks_won),
                                 "phase": self.phase, "bids": list(self.bids)}
        return InfoState(seat, view, known)

    def to_text(self) -> str:
        hands = " | ".join(TOY.format_cards(cards_of(h)) for h in self.hands)
        return (f"toy: hands {hands}; trick [{TOY.format_cards(self.trick, sort=False)}] "
                f"led by seat {self.leader}; bids {self.bids}; tricks {self.tricks_won}")
