"""The shapes of a position's ``deal`` and ``match`` objects, as a game
declares them (``Game.deal_fields``, ``Game.match_fields``): a small
vocabulary that names what a value is in the game's own terms (a seat, a
card, a card list, a list of one entry a seat) rather than in JSON's, so
that the JSON Schema of every game's positions (``solver.position.
position_schema``, served in the HTTP API's document) is made from the
declarations and a new game gets its schema by declaring its shapes.

A shape says what the game's reading of a deal or a match object takes
of that value's type, keys, size and range; what depends on the rules (a
card given twice, a hand of the wrong size for these options, totals that
no match makes) stays the reading's to refuse, with the JSON path of the
culprit.  ``json_schema(shape, Terms(...))`` writes a shape as JSON Schema
for one game (its card names, its seats) in a record or in a seat view,
where a card list may hold unseen cards (``"?"``) and counts of them
(``solver/games/common.py`` ``parse_card_list``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


class Shape:
    """What one value of a deal or a match object is."""


@dataclass(frozen=True)
class Seat(Shape):
    """A seat number: 0 .. the game's most players - 1."""


@dataclass(frozen=True)
class Card(Shape):
    """One card, by its canonical name (``AS``; dix-exchange's ``CJ``)."""


@dataclass(frozen=True)
class Cards(Shape):
    """A card list: ``"AS KH"`` or ``["AS", "KH"]``, at least ``least``
    cards and at most the deck's; in a seat view an unseen card is
    ``"?"``, a JSON list may hold a count of unseen cards (``["?", "TS",
    24]``) and the whole list may be that count (``13``)."""

    least: int = 0


@dataclass(frozen=True)
class Whole(Shape):
    """An integer ``low`` .. ``high``, a multiple of ``step``."""

    low: int
    high: int
    step: int = 1


@dataclass(frozen=True)
class Word(Shape):
    """One of the strings ``choices``."""

    choices: tuple[str, ...]


@dataclass(frozen=True)
class ListOf(Shape):
    """A JSON list of ``item``, ``least`` .. ``most`` long (None: no
    bound), its items distinct if ``distinct``."""

    item: Shape
    least: int = 0
    most: int | None = None
    distinct: bool = False


@dataclass(frozen=True)
class PerSeat(Shape):
    """A JSON list with one ``item`` a seat (as many as the game's
    players: between its fewest and its most)."""

    item: Shape


@dataclass(frozen=True)
class Fields(Shape):
    """A JSON object with only these keys, each of its shape; every key
    must be given but those in ``optional``."""

    fields: dict[str, Shape] = field(default_factory=dict)
    optional: tuple[str, ...] = ()


@dataclass(frozen=True)
class Terms:
    """What a shape is written in for one game: its card names, the cards
    of its deck (a count of unseen cards never stands for more), its
    fewest and most players, and whether the value is a seat view's."""

    cards: tuple[str, ...]          # none: a game that names no cards (any token)
    deck_size: int
    min_players: int
    max_players: int
    view: bool = False


def card_list_pattern(names, least: int = 0) -> str:
    """A regular expression of a card list written as text: card names
    separated by white space (``"AS KH"``), the longest names tried first
    (no names: any tokens); with ``least`` not blank."""
    token = _token(names)
    return f"^\\s*(?:{token}(?:\\s+{token})*){'' if least else '?'}\\s*$"


def _token(names) -> str:
    if not names:
        return "\\S+"
    return "(?:" + "|".join(re.escape(n) for n in sorted(names, key=lambda n: (-len(n), n))) \
        + ")"


def json_schema(shape: Shape, terms: Terms) -> dict[str, Any]:
    """``shape`` as JSON Schema (draft 2020-12, OpenAPI 3.1) for one game."""
    if isinstance(shape, Seat):
        return {"type": "integer", "minimum": 0, "maximum": terms.max_players - 1}
    if isinstance(shape, Card):
        return ({"enum": list(terms.cards)} if terms.cards else
                {"type": "string", "pattern": f"^{_token(())}$"})
    if isinstance(shape, Cards):
        return _cards(shape, terms)
    if isinstance(shape, Whole):
        out: dict[str, Any] = {"type": "integer", "minimum": shape.low, "maximum": shape.high}
        if shape.step != 1:
            out["multipleOf"] = shape.step
        return out
    if isinstance(shape, Word):
        return {"enum": list(shape.choices)}
    if isinstance(shape, ListOf):
        out = {"type": "array", "items": json_schema(shape.item, terms)}
        if shape.least:
            out["minItems"] = shape.least
        if shape.most is not None:
            out["maxItems"] = shape.most
        if shape.distinct:
            out["uniqueItems"] = True
        return out
    if isinstance(shape, PerSeat):
        return {"type": "array", "items": json_schema(shape.item, terms),
                "minItems": terms.min_players, "maxItems": terms.max_players}
    if isinstance(shape, Fields):
        out = {"type": "object",
               "properties": {k: json_schema(v, terms) for k, v in shape.fields.items()},
               "additionalProperties": False}
        required = [k for k in shape.fields if k not in shape.optional]
        if required:
            out["required"] = required
        return out
    raise TypeError(f"not a shape: {type(shape).__name__}")


def _cards(shape: Cards, terms: Terms) -> dict[str, Any]:
    names = list(terms.cards) + (["?"] if terms.view and terms.cards else [])
    text = {"type": "string", "pattern": card_list_pattern(names, shape.least)}
    item: dict[str, Any] = ({"enum": names} if names else
                            {"type": "string", "pattern": f"^{_token(names)}$"})
    if terms.view:
        # a count of unseen places inside a list: at least one
        item = {"anyOf": [item, {"type": "integer", "minimum": 1,
                                 "maximum": terms.deck_size}]}
    listed: dict[str, Any] = {"type": "array", "items": item, "maxItems": terms.deck_size}
    if shape.least:
        listed["minItems"] = shape.least
    forms = [text, listed]
    if terms.view:
        forms.append({"type": "integer", "minimum": shape.least, "maximum": terms.deck_size})
    return {"anyOf": forms}


__all__ = ["Shape", "Seat", "Card", "Cards", "Whole", "Word", "ListOf", "PerSeat", "Fields",
           "Terms", "json_schema", "card_list_pattern"]
