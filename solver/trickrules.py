"""One trick game's rules, declared once: ``Rulebook``.

Three parts of the solver read a trick game's rules, each in its own
shape: the double-dummy kernels a ``solver.dd.Contract`` (derived by
``solver.dd.trick.contract_of``), the opponent models a
``solver.cardplay.TrickRules`` (``trick_rules``), and the Cython search
kernels a dict of plain lists (``kernel_table``, whose entries each
game's ``kernel.py`` hands to its kernel under the names the kernel
reads).  A game declares its ``Rulebook`` in its own package
(``solver/games/dix/rules.py``, ``solver/games/contract_match/rules.py``,
``solver/games/dixie_rook/rules.py``), one per deal as the deal's public
facts fix it (the trump, the contract, the cards revealed), and every
consumer's shape is derived from it here or in ``solver.dd.trick``, never
written again.

The record holds what decides a trick and what it is worth:

* who plays: ``nseats`` seats, ``teams[s]`` seat ``s``'s team;
* the cards: ``deck`` (a deck's name, ``solver.cards``), ``trump`` (-1:
  none) and the dix joker (card 0) as a trump of ``joker_rank`` (None: not
  in play); every other card counts as its own suit and rank, ace high;
* following: ``must_follow`` (a player able to follow suit must),
  ``discard`` (the must-discard rule: a follower void in the suit led who
  holds one of these cards must play one: trix's penalty-card option)
  and ``free_play_while_stock`` (dix: no need to follow while the stock
  lasts);
* scoring, to the team that takes the trick: ``card_points`` (card ->
  points, the penalty contracts' negative), ``trick_points`` a trick,
  except a trick whose dix pips total ``ten_total``, worth ``ten_points``
  instead; ``last_points`` and ``last_extra_tricks`` to the last trick's
  taker (dixie-rook's nest); ``most_tricks_bonus`` to the team with more
  tricks (a tie: half each); ``doubled`` (card -> the seat that revealed
  it, trix's doubling: another team's taker scores twice its points and the
  revealer's team loses them);
* ``objective``: how the double-dummy kernels value a deal (``own``,
  ``difference``, or dix's lexicographic ``dix``); ``name`` the contract's
  name there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from .cardplay import TrickRules
from .cards import DIX, FRENCH, JOKER, ROOK, Deck, rank_of, suit_of
from .cardset import dix_pips, make_rank_table

#: the decks a rulebook may name (``Rulebook.deck``)
DECKS: dict[str, Deck] = {deck.name: deck for deck in (FRENCH, DIX, ROOK)}


def _pairs(value: Any) -> tuple[tuple[int, int], ...]:
    """A card -> number mapping (or pairs) as sorted pairs, zeros left out."""
    items = value.items() if isinstance(value, Mapping) else value
    return tuple(sorted((int(c), int(v)) for c, v in items if v))


@dataclass(frozen=True)
class Rulebook:
    """One deal's trick rules as data (see the module docstring); hashable,
    so each consumer's shape is derived once a rulebook.  ``card_points``
    and ``doubled`` are ``(card, value)`` pairs (a mapping is taken too),
    kept sorted (``card_points`` without its zeros); ``discard`` is a card
    mask."""

    name: str
    nseats: int
    teams: tuple[int, ...]
    deck: str = "french"
    trump: int = -1
    joker_rank: int | None = None
    must_follow: bool = True
    free_play_while_stock: bool = False
    discard: int = 0
    card_points: tuple[tuple[int, int], ...] = field(default=())
    trick_points: int = 0
    ten_total: int | None = None
    ten_points: int = 0
    last_points: int = 0
    last_extra_tricks: int = 0
    most_tricks_bonus: int = 0
    doubled: tuple[tuple[int, int], ...] = field(default=())
    objective: str = "own"

    def __post_init__(self):
        if self.deck not in DECKS:
            raise ValueError(f"rulebook {self.name!r}: unknown deck {self.deck!r} "
                             f"(known: {', '.join(DECKS)})")
        object.__setattr__(self, "teams", tuple(self.teams))
        object.__setattr__(self, "card_points", _pairs(self.card_points))
        # a seat number may be 0: keep every revealed card
        object.__setattr__(self, "doubled", tuple(sorted(
            (int(c), int(s)) for c, s in (self.doubled.items()
                                          if isinstance(self.doubled, Mapping)
                                          else self.doubled))))

    def with_deal(self, **changes: Any) -> Rulebook:
        """The same rules with a deal's facts changed (``trump=2``,
        ``doubled=((45, 3),)``, ...)."""
        return replace(self, **changes)

    # ---- what a card counts as ------------------------------------------
    @property
    def cards(self) -> int:
        """The mask of the cards in play (the dix joker only as a trump)."""
        mask = DECKS[self.deck].mask
        if DECKS[self.deck].joker and self.joker_rank is None:
            mask &= ~(1 << JOKER)
        return mask

    def suit(self, card: int) -> int:
        """The suit ``card`` follows as (the dix joker: the trump suit)."""
        if card == JOKER and self.joker_rank is not None:
            return self.trump
        return suit_of(card)

    def strength(self, card: int) -> int:
        """``card``'s rank within its suit (higher wins)."""
        if card == JOKER and self.joker_rank is not None:
            return self.joker_rank
        return rank_of(card)

    def rank_table(self) -> bytes:
        """The rank table of ``solver.cardset`` (suits, then strengths;
        the joker out of play has the suit 255)."""
        if self.joker_rank is None:
            return make_rank_table()
        return make_rank_table(self.trump, self.joker_rank)

    def points_of(self, card: int) -> int:
        """The points ``card`` is worth to its taker (doubling aside)."""
        return dict(self.card_points).get(card, 0)

    @property
    def scale(self) -> int:
        """The largest points one card or one trick is worth (the opponent
        models divide their features by it)."""
        return max([abs(p) for _, p in self.card_points] +
                   [abs(self.trick_points), abs(self.ten_points)])


@cache
def trick_rules(book: Rulebook) -> TrickRules:
    """The opponent models' view of ``book`` (``solver.cardplay``): each
    card's suit and strength, the points to the trick's taker (a revealed
    card doubled: the models do not ask who revealed it), a trick's value
    and dix's ten-trick as the pips that make it and what it adds."""
    cards = book.cards
    points = dict(book.card_points)
    doubled = dict(book.doubled)
    suit = tuple(book.suit(c) if cards >> c & 1 else -1 for c in range(64))
    strength = tuple(book.strength(c) for c in range(64))
    value = tuple(float(points.get(c, 0) * (2 if c in doubled else 1)) for c in range(64))
    if book.ten_total is None:
        return TrickRules(suit, strength, book.trump, value, float(book.trick_points),
                          float(book.scale))
    deck = DECKS[book.deck].mask
    pips = tuple(dix_pips(c) if deck >> c & 1 else 0 for c in range(64))
    return TrickRules(suit, strength, book.trump, value, float(book.trick_points),
                      float(book.scale), pips, book.ten_total,
                      float(book.ten_points - book.trick_points))


#: ``kernel_table``'s entries
KERNEL_KEYS = ("suit_of", "strength", "pips", "suit_mask", "trump", "nseats", "team",
               "points", "revealer", "trick_points", "discard_mask", "penalty_mask")


@cache
def _kernel_table(book: Rulebook) -> tuple[tuple[str, Any], ...]:
    table = book.rank_table()
    deck = DECKS[book.deck]
    revealer = [-1] * 64
    for c, s in book.doubled:
        revealer[c] = s
    points = [book.points_of(c) for c in range(64)]
    pips = [dix_pips(c) for c in range(64)] if book.ten_total is not None else [0] * 64
    return (("suit_of", [table[c] for c in range(64)]),
            ("strength", [table[64 + c] for c in range(64)]),
            ("pips", pips),
            ("suit_mask", [sum(1 << c for c in deck.cards if table[c] == s) for s in range(4)]),
            ("trump", book.trump), ("nseats", book.nseats), ("team", list(book.teams)),
            ("points", points), ("revealer", revealer), ("trick_points", book.trick_points),
            ("discard_mask", book.discard),
            ("penalty_mask", sum(1 << c for c, p in book.card_points if p)))


def kernel_table(book: Rulebook) -> dict[str, Any]:
    """``book`` as the Cython search kernels read rules (plain ints and
    lists, ``KERNEL_KEYS``): per card (64 entries) its suit (``suit_of``,
    255: the joker out of play) and strength as ``solver.cardset``'s rank
    table has them, its dix pips (``pips``, zeros without a ten-trick),
    its ``points`` to the taker and who revealed it (``revealer``, -1: not
    revealed); per suit its cards (``suit_mask``); ``trump``, ``nseats``,
    each seat's ``team``, ``trick_points``, the must-discard cards
    (``discard_mask``) and the cards that carry points
    (``penalty_mask``).  A fresh dict of fresh lists each call (a caller
    may add to it)."""
    return {k: list(v) if isinstance(v, list) else v for k, v in _kernel_table(book)}


__all__ = ["DECKS", "KERNEL_KEYS", "Rulebook", "kernel_table", "trick_rules"]
