"""toy's rules as a state machine (``game.py`` has them in words)."""

from __future__ import annotations

from typing import Any

from solver.cards import Deck, cards_of, mask_of, rank_of, suit_of
from solver.errors import NotationError, short_repr
from solver.game import TERMINAL, InfoState, State

SEATS = 4
HAND = 4
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


class ToyState(State):
    def __init__(self, game, chance):
        super().__init__(game, chance)
        n = game.num_players
        hands = self._chance.draw("deal", game.generate_deal)
        self.hands = [mask_of(h) for h in hands]
        self.leader: int = game.options["first_leader"]
        self.trick: list[int] = []
        self.tricks_won = [0] * n

    # ---- the protocol ----
    def current_player(self) -> int:
        if not any(self.hands):
            return TERMINAL
        return (self.leader + len(self.trick)) % self.game.num_players

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        return cards_of(follow(self.hands[self.current_player()], self.trick))

    def why_illegal(self, action: int) -> str:
        seat = self.current_player()
        if action not in TOY or not (self.hands[seat] >> action) & 1:
            return f"seat {seat} does not hold it"
        return "a player must follow the suit led"

    def _apply(self, action: int) -> None:
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
        return [float(t) for t in self.tricks_won]

    def round_returns(self, index: int | None = None) -> list[float]:
        if index not in (None, 0):
            raise IndexError(index)
        return [float(t) for t in self.tricks_won]

    def trick_number(self) -> tuple[int, int] | None:
        if self.is_terminal():
            return None
        done = sum(self.tricks_won)
        return done + 1, done + bin(self.hands[self.current_player()]).count("1")

    # ---- notation ----
    def action_to_string(self, action: int) -> str:
        return TOY.to_string(action)

    def string_to_action(self, text: str) -> int:
        if not isinstance(text, str):
            raise NotationError(f"an action is a card, got {short_repr(text)}", str(text))
        return TOY.parse(text)

    # ---- views ----
    def information_state(self, seat: int) -> InfoState:
        n = self.game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, got {short_repr(seat)}")
        deals = [{"hands": [TOY.format_cards(value[s]) if s == seat else len(value[s])
                            for s in range(n)]}
                 for kind, value in self._chance.log if kind == "deal"]
        view = self._view_head(seat, {"deals": deals})
        view["actions"] = [TOY.to_string(a) for a in self._history]
        known: dict[str, Any] = {"hand": TOY.format_cards(cards_of(self.hands[seat])),
                                 "trick": TOY.format_cards(self.trick, sort=False),
                                 "tricks": list(self.tricks_won)}
        return InfoState(seat, view, known)

    def to_text(self) -> str:
        hands = " | ".join(TOY.format_cards(cards_of(h)) for h in self.hands)
        return (f"toy: hands {hands}; trick [{TOY.format_cards(self.trick, sort=False)}] "
                f"led by seat {self.leader}; tricks {self.tricks_won}")
