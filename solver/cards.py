"""Cards and notation for the three decks.

Card indices are bit positions in a 64-bit mask, 16 bits per suit::

    index = suit * 16 + rank

* French deck (dix, trix, tricks): suits C=0, D=1, H=2, S=3; ranks 2..14
  (2 .. A).  The dix joker is index 0 (clubs slot, rank 0: below every
  suit's bits, so no suit mask contains it).  Notation: ``AS KH TD 9C 2C``
  and ``JK``; ``10H`` and lower case are accepted on input; output is
  always canonical (``TH``).
* Rook deck (dixie-rook): colours R=0, G=1, Y=2, B=3; ranks 1..14.
  Notation ``R14``, ``G5``, ``Y1``, ``B10`` (lower case accepted).
* The dix-exchange value cards are not bit cards; see ``EXCHANGE_VALUES``.

Hands print in display order: suits S H D C (Rook: R G Y B), high rank
first.  Actions that are cards use the card index, so sorted legal actions
list cards clubs-first, low-first; that order is for machines, display order
is for people.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .errors import NotationError
from .front import N_
from .said import Quote, phrase

# the notation's errors (solver/errors.py: a code and its parameters;
# ``at``: the token's place in the list, counted from 0)
NOT_A_CARD = phrase("not_a_card", N_("{card} is not a card of the {deck} deck"))
CARD_NOT_STRING = phrase("card_not_string", N_("card must be a string, got {got}"))
CARD_NOT_STRING_AT = phrase("card_not_string_at",
                            N_("card at position {at} must be a string, got {got}"))
UNKNOWN_CARD = phrase("unknown_card", N_("unknown card {token} for the {deck} deck"))
UNKNOWN_CARD_AT = phrase("unknown_card_at",
                         N_("unknown card {token} at position {at} for the {deck} deck"))
DUPLICATE_IN_LIST = phrase("duplicate_in_list",
                           N_("duplicate card {card} at positions {first} and {at}"))

SUIT_BITS = 16


def suit_of(card: int) -> int:
    return card >> 4


def rank_of(card: int) -> int:
    return card & 15


def make_card(suit: int, rank: int) -> int:
    return (suit << 4) | rank


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """Card indices set in ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Deck:
    """A deck: its cards (indices), notation parse and format.

    ``Deck`` objects are immutable singletons: ``FRENCH``, ``DIX`` (French +
    joker), ``ROOK``.
    """

    def __init__(self, name: str, suit_letters: str, ranks: Sequence[int],
                 rank_names: dict[int, str], rank_first: bool,
                 joker: bool = False, aliases: dict[str, int] | None = None):
        self.name = name
        self.suit_letters = suit_letters
        self.ranks = tuple(ranks)
        self.rank_first = rank_first
        self.joker = joker
        cards = [make_card(s, r) for s in range(len(suit_letters)) for r in ranks]
        if joker:
            cards.append(JOKER)
        self.cards: tuple[int, ...] = tuple(sorted(cards))
        self.size = len(self.cards)
        self.mask = mask_of(self.cards)
        self._str: dict[int, str] = {}
        self._parse: dict[str, int] = {}
        for s, letter in enumerate(suit_letters):
            for r in ranks:
                name_r = rank_names[r]
                text = name_r + letter if rank_first else letter + name_r
                c = make_card(s, r)
                self._str[c] = text
                self._parse[text.upper()] = c
        if joker:
            self._str[JOKER] = "JK"
            self._parse["JK"] = JOKER
        for alias, c in (aliases or {}).items():
            self._parse[alias.upper()] = c
        #: each card's ``display_key``, looked up (a world sampler formats a
        #: hand per world drawn)
        self._display = {c: self.display_key(c) for c in self.cards}

    def __repr__(self) -> str:
        return f"<Deck {self.name}>"

    def __contains__(self, card: int) -> bool:
        return card in self._str

    def to_string(self, card: int) -> str:
        try:
            return self._str[card]
        except KeyError:
            raise NotationError(NOT_A_CARD(card=Quote(card), deck=self.name)) from None

    def parse(self, token: str, index: int | None = None) -> int:
        """Parse one card token; ``NotationError`` names it (and ``index``)."""
        if not isinstance(token, str):
            said = CARD_NOT_STRING if index is None else CARD_NOT_STRING_AT
            raise NotationError(said(at=index, got=Quote(token)), str(token), index)
        key = token.strip().upper()
        try:
            return self._parse[key]
        except KeyError:
            said = UNKNOWN_CARD if index is None else UNKNOWN_CARD_AT
            raise NotationError(said(token=Quote(token), at=index, deck=self.name), token, index)\
                from None

    def parse_cards(self, cards: str | Sequence[str], unique: bool = True) -> list[int]:
        """Parse ``"AS KH TD"`` or ``["AS", "KH"]``; order is kept.

        With ``unique`` a repeated card is a ``NotationError`` naming it."""
        tokens = cards.split() if isinstance(cards, str) else list(cards)
        out = [self.parse(t, i) for i, t in enumerate(tokens)]
        if unique:
            seen: dict[int, int] = {}
            for i, c in enumerate(out):
                if c in seen:
                    raise NotationError(DUPLICATE_IN_LIST(card=self._str[c], first=seen[c], at=i),
                                        tokens[i], i)
                seen[c] = i
        return out

    def display_key(self, card: int):
        """Sort key for display: suits S H D C (Rook: R G Y B), high first."""
        if card == JOKER and self.joker:
            return (-10, 0)
        if self.name == "rook":
            return (suit_of(card), -rank_of(card))
        return (-suit_of(card), -rank_of(card))

    def format_cards(self, cards: Iterable[int], sort: bool = True) -> str:
        cards = list(cards)
        if sort:
            try:
                cards.sort(key=self._display.__getitem__)
            except KeyError:       # not a card: to_string below names it
                cards.sort(key=self.display_key)
        return " ".join(self.to_string(c) for c in cards)


JOKER = 0

_FRENCH_RANK_NAMES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
                      10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
_TEN_ALIASES = {f"10{s}": make_card(i, 10) for i, s in enumerate("CDHS")}

FRENCH = Deck("french", "CDHS", range(2, 15), _FRENCH_RANK_NAMES, rank_first=True,
              aliases=_TEN_ALIASES)
DIX = Deck("dix", "CDHS", range(2, 15), _FRENCH_RANK_NAMES, rank_first=True, joker=True,
           aliases=_TEN_ALIASES)
ROOK = Deck("rook", "RGYB", range(1, 15), {r: str(r) for r in range(1, 15)}, rank_first=False)

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
# message ids too: a rule's reason says them in the reader's words
SUIT_NAMES = {CLUBS: N_("clubs"), DIAMONDS: N_("diamonds"), HEARTS: N_("hearts"),
              SPADES: N_("spades")}
ROOK_COLOURS = {0: N_("red"), 1: N_("green"), 2: N_("yellow"), 3: N_("black")}

#: Ranks by name for the French deck.
TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(2, 15)


def suit_mask(suit: int) -> int:
    """All 16 bits of ``suit``'s slot (the joker, index 0, is in no suit's
    rank range 1..15 but does sit in slot 0: use ``SUIT_RANK_MASK``)."""
    return 0xFFFF << (suit * SUIT_BITS)


#: Bits 1..15 of each suit slot: every real card of a suit, never the joker.
SUIT_RANK_MASK = tuple(0xFFFE << (s * SUIT_BITS) for s in range(4))

# dix-exchange value cards (physical cards carry an id; this is the value
# notation).  Values high to low; the Chat-Joker ties with the Lion.
EXCHANGE_VALUES = ("10", "9", "8", "7", "6", "5", "4", "3", "2", "1",
                   "0", "00", "000", "0000", "CJ")
EXCHANGE_NAMES = {
    "10": "Hibou", "9": "Loup", "8": "Putois", "7": "Saute-lapin", "6": "Hotel",
    "5": "Cinq", "4": "Quatre", "3": "Trois", "2": "Deux", "1": "Un",
    "0": "Roc", "00": "Ogre", "000": "Masqueleon", "0000": "Lion froussard",
    "CJ": "Chat-Joker",
}
