"""The Trix / Jacks layout game, shared by trix ("Trix") and tricks ("Jacks").

* A row of a suit is started by its jack; it then grows one rank at a time
  upward J-Q-K-A and downward J-10-...-2.  Empty layout: only jacks fit.
* The first player acts first, then seat order; players who are out are
  skipped.  A player must play a card that fits if they hold one, else they
  pass: a pass is forced, never a choice, and proves the player held no
  card that fitted at that moment (``passes`` records that moment's
  fitting cards for seat-view completion).
* Finishing order scores +200, +150, +100, +50.  With ``stop`` the deal
  ends when three players are out (the last one's play is forced and
  scores nothing more); the scores are the same either way.
"""

from __future__ import annotations

import re

from ...cards import ACE, FRENCH, JACK, SUIT_NAMES, TWO, make_card, rank_of, suit_of
from ...front import N_
from ...said import Said, Word, phrase

# the layout's reasons (solver/errors.py: a code and its parameters)
ROW_NOT_STARTED = phrase("row_not_started", N_("{card} does not fit: the {suit} row is not started (only "
                                               "its jack starts it)"))
ROW_HOLDS = phrase("row_holds", N_("{card} does not fit: the {suit} row holds {row}"))

FINISH_SCORES = (200, 150, 100, 50)
_JACKS = sum(1 << make_card(s, JACK) for s in range(4))
_SUIT_LETTERS = "CDHS"


class Layout:
    """The four rows: ``lo[s]``..``hi[s]`` are the ranks placed in suit
    ``s`` (0, 0 while the row is not started)."""

    __slots__ = ("lo", "hi", "fit")

    def __init__(self):
        self.lo = [0, 0, 0, 0]
        self.hi = [0, 0, 0, 0]
        self.fit = _JACKS            # mask of the cards that fit now

    def copy(self) -> Layout:
        new = Layout.__new__(Layout)
        new.lo = list(self.lo)
        new.hi = list(self.hi)
        new.fit = self.fit
        return new

    def fitting(self) -> int:
        """Mask of every card that fits now (whoever holds it)."""
        return self.fit

    def place(self, card: int) -> None:
        s, r = suit_of(card), rank_of(card)
        if not self.lo[s]:
            self.lo[s] = self.hi[s] = r
        elif r < self.lo[s]:
            self.lo[s] = r
        else:
            self.hi[s] = r
        m = self.fit & ~(0xFFFF << (16 * s))
        if self.lo[s] > TWO:
            m |= 1 << make_card(s, self.lo[s] - 1)
        if self.hi[s] < ACE:
            m |= 1 << make_card(s, self.hi[s] + 1)
        self.fit = m

    def why_not(self, card: int) -> Said:
        """Why ``card`` does not fit (it is known not to)."""
        s = suit_of(card)
        if not self.lo[s]:
            return ROW_NOT_STARTED(card=FRENCH.to_string(card), suit=Word(SUIT_NAMES[s]))
        return ROW_HOLDS(card=FRENCH.to_string(card), suit=Word(SUIT_NAMES[s]),
                         row=self.row_text(s))

    def row_text(self, s: int) -> str:
        if not self.lo[s]:
            return "-"
        lo = FRENCH.to_string(make_card(s, self.lo[s]))
        hi = FRENCH.to_string(make_card(s, self.hi[s]))
        return lo if lo == hi else f"{lo}..{hi}"

    def text(self) -> str:
        return " ".join(f"{_SUIT_LETTERS[s]}:{self.row_text(s)}" for s in (3, 2, 1, 0))


#: one row as ``Layout.text`` writes it: a suit, then ``-`` or its lowest
#: card and, past the jack alone, ``..`` and its highest
_ROW = re.compile(r"^([SHDC]):(?:-|([2-9TJQKA])([SHDC])(?:\.\.([2-9TJQKA])([SHDC]))?)$")
_ORDER = "23456789TJQKA"


def parse_text(text: str) -> dict[str, list[str]]:
    """The rows ``Layout.text`` writes (``"S:9S..AS H:JH D:- C:TC..AC"``)
    as each suit's cards from low to high: ``{"S": ["9S", "TS", ..., "AS"],
    "H": ["JH"], "D": [], "C": [...]}``.  A part not of that form (another
    suit's card in a row, a row written twice, a row running high to low)
    is refused: ValueError naming it."""
    out: dict[str, list[str]] = {}
    for part in text.split():
        m = _ROW.match(part)
        if not m:
            raise ValueError(f"not a layout row: {part!r}")
        suit, lo, lo_suit, hi, hi_suit = m.groups()
        if suit in out or (lo_suit or suit) != suit or (hi_suit or suit) != suit:
            raise ValueError(f"not a layout row: {part!r}")
        if not lo:
            out[suit] = []
            continue
        a, b = _ORDER.index(lo), _ORDER.index(hi or lo)
        if a > b:
            raise ValueError(f"not a layout row: {part!r}")
        out[suit] = [f"{r}{suit}" for r in _ORDER[a:b + 1]]
    return out


def _suit_word(s: int) -> str:
    return ("clubs", "diamonds", "hearts", "spades")[s]


class LayoutDeal:
    """One deal of the layout game among four seats (see the module
    docstring).  ``turn`` is the seat to act; ``finish`` the seats out, in
    order; ``plays`` [(seat, card)]; ``passes`` [(seat, fitting mask)]."""

    __slots__ = ("hands", "left", "layout", "turn", "finish", "plays", "passes", "stop",
                 "done")

    def __init__(self, hands: list[int], first: int, stop: bool = True):
        self.hands = list(hands)
        self.left = [13, 13, 13, 13]       # cards left, counted (public)
        self.layout = Layout()
        self.turn = first
        self.finish: list[int] = []
        self.plays: list[tuple[int, int]] = []
        self.passes: list[tuple[int, int]] = []
        self.stop = stop
        self.done = False

    def copy(self) -> LayoutDeal:
        new = LayoutDeal.__new__(LayoutDeal)
        new.hands = list(self.hands)
        new.left = list(self.left)
        new.layout = self.layout.copy()
        new.turn = self.turn
        new.finish = list(self.finish)
        new.plays = list(self.plays)
        new.passes = list(self.passes)
        new.stop = self.stop
        new.done = self.done
        return new

    def legal_mask(self) -> int:
        """Cards the seat to act may play (empty: it must pass)."""
        return self.hands[self.turn] & self.layout.fitting()

    def play(self, card: int) -> None:
        seat = self.turn
        self.layout.place(card)
        self.hands[seat] &= ~(1 << card)
        self.left[seat] -= 1
        self.plays.append((seat, card))
        if self.left[seat] == 0:
            self.finish.append(seat)
        self._advance()

    def pass_turn(self) -> None:
        self.passes.append((self.turn, self.layout.fitting()))
        self._advance()

    def _advance(self) -> None:
        out = len(self.finish)
        if out == 4 or (self.stop and out == 3):
            if out == 3:
                self.finish.append(next(s for s in range(4) if s not in self.finish))
            self.done = True
            return
        t = (self.turn + 1) % 4
        while self.left[t] == 0:
            t = (t + 1) % 4
        self.turn = t

    def scores(self) -> list[int]:
        out = [0, 0, 0, 0]
        for place, seat in enumerate(self.finish):
            out[seat] = FINISH_SCORES[place]
        return out


__all__ = ["Layout", "LayoutDeal", "FINISH_SCORES"]
