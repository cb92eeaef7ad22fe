"""The shapes of a game's values, as a game declares them: a small
vocabulary that names what a value is in the game's own terms (a seat, a
card, a card list, a list of one entry a seat) rather than in JSON's.
A position's ``deal`` and ``match`` objects are declared in it
(``Game.deal_fields``, ``Game.match_fields``), so that the JSON Schema
of every game's positions (``solver.position.position_schema``, served
in the HTTP API's document) is made from the declarations and a new game
gets its schema by declaring its shapes; so are the facts a seat knows
(``Game.facts``, solver/facts.py), which ``conforms`` checks and
``described`` words for docs/facts.md.

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
from dataclasses import MISSING, dataclass, field, fields
from typing import Any


@dataclass(frozen=True)
class Shape:
    """What one value of a deal or a match object, or of a fact, is."""


@dataclass(frozen=True)
class Seat(Shape):
    """A seat number: 0 .. the game's most players - 1 (-1 too where
    ``none``: no seat yet)."""

    none: bool = False


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
class CardText(Shape):
    """Card ids written as one text, separated by spaces (a seat's facts'
    form: ``"AS KH"``; a hidden card ``"?"``)."""


@dataclass(frozen=True)
class Whole(Shape):
    """An integer ``low`` .. ``high`` (None: no bound), a multiple of
    ``step``."""

    low: int | None = None
    high: int | None = None
    step: int = 1


@dataclass(frozen=True)
class Flag(Shape):
    """True or false."""


@dataclass(frozen=True)
class Text(Shape):
    """Any words or code, as the game writes them."""


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
class MapOf(Shape):
    """A JSON object from ``key`` (a string: a card id, a name) to
    ``value``."""

    key: Shape
    value: Shape


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
        return {"type": "integer", "minimum": -1 if shape.none else 0,
                "maximum": terms.max_players - 1}
    if isinstance(shape, Card):
        return ({"enum": list(terms.cards)} if terms.cards else
                {"type": "string", "pattern": f"^{_token(())}$"})
    if isinstance(shape, Cards):
        return _cards(shape, terms)
    if isinstance(shape, CardText):
        names = list(terms.cards) + (["?"] if terms.cards else [])
        return {"type": "string", "pattern": card_list_pattern(names)}
    if isinstance(shape, Whole):
        out: dict[str, Any] = {"type": "integer"}
        if shape.low is not None:
            out["minimum"] = shape.low
        if shape.high is not None:
            out["maximum"] = shape.high
        if shape.step != 1:
            out["multipleOf"] = shape.step
        return out
    if isinstance(shape, Word):
        return {"enum": list(shape.choices)}
    if isinstance(shape, Flag):
        return {"type": "boolean"}
    if isinstance(shape, Text):
        return {"type": "string"}
    if isinstance(shape, MapOf):
        return {"type": "object", "additionalProperties": json_schema(shape.value, terms)}
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


def conforms(shape: Shape, value: Any, seats: int | None = None) -> bool:
    """Whether ``value`` (as a game gives it, not parsed from a person's
    input) is of ``shape``, in any game's terms: a card is one token, a
    seat a number below ``seats`` where it is given; a ``Fields``'s keys
    are its own, every one but the optional given."""
    def whole(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    if isinstance(shape, Seat):
        return whole(value) and (-1 if shape.none else 0) <= value \
            and (seats is None or value < seats)
    if isinstance(shape, Card):
        return isinstance(value, str) and len(value.split()) == 1
    if isinstance(shape, CardText):
        return isinstance(value, str)
    if isinstance(shape, Cards):
        return isinstance(value, str) or (isinstance(value, list) and all(
            isinstance(c, str) and len(c.split()) == 1 for c in value))
    if isinstance(shape, Whole):
        return whole(value) and (shape.low is None or value >= shape.low) \
            and (shape.high is None or value <= shape.high) and value % shape.step == 0
    if isinstance(shape, Word):
        return value in shape.choices
    if isinstance(shape, Flag):
        return isinstance(value, bool)
    if isinstance(shape, Text):
        return isinstance(value, str)
    if isinstance(shape, ListOf):
        return isinstance(value, list) and shape.least <= len(value) \
            and (shape.most is None or len(value) <= shape.most) \
            and (not shape.distinct or len({repr(v) for v in value}) == len(value)) \
            and all(conforms(shape.item, v, seats) for v in value)
    if isinstance(shape, PerSeat):
        return isinstance(value, list) and (seats is None or len(value) == seats) \
            and all(conforms(shape.item, v, seats) for v in value)
    if isinstance(shape, MapOf):
        return isinstance(value, dict) and all(
            conforms(shape.key, k, seats) and conforms(shape.value, v, seats)
            for k, v in value.items())
    if isinstance(shape, Fields):
        return isinstance(value, dict) and set(value) <= set(shape.fields) \
            and set(shape.fields) - set(shape.optional) <= set(value) \
            and all(conforms(shape.fields[k], v, seats) for k, v in value.items())
    raise TypeError(f"not a shape: {type(shape).__name__}")


def described(shape: Shape) -> str:
    """What a value of ``shape`` is, in words (docs/facts.md, and the
    fact checker's complaints)."""
    if isinstance(shape, Seat):
        return "a seat, counted from 0" + (" (-1: none yet)" if shape.none else "")
    if isinstance(shape, Card):
        return "a card id in the game's notation"
    if isinstance(shape, CardText):
        return "card ids in the game's notation, separated by spaces"
    if isinstance(shape, Cards):
        return "card ids, separated by spaces or as a list"
    if isinstance(shape, Whole):
        bounds = [f"at least {shape.low}"] if shape.low is not None else []
        bounds += [f"at most {shape.high}"] if shape.high is not None else []
        bounds += [f"a multiple of {shape.step}"] if shape.step != 1 else []
        return "a whole number" + (f" ({', '.join(bounds)})" if bounds else "")
    if isinstance(shape, Word):
        return "one of " + ", ".join(shape.choices)
    if isinstance(shape, Flag):
        return "true or false"
    if isinstance(shape, Text):
        return "words or a code as the game writes them"
    if isinstance(shape, ListOf):
        return f"a list, each item {described(shape.item)}"
    if isinstance(shape, PerSeat):
        return f"a list of one a seat, each {described(shape.item)}"
    if isinstance(shape, MapOf):
        return f"an object from {described(shape.key)} to {described(shape.value)}"
    if isinstance(shape, Fields):
        return "an object of " + ", ".join(shape.fields)
    raise TypeError(f"not a shape: {type(shape).__name__}")


def spelled(shape: Shape) -> str:
    """A shape as Python writes it, its fields at their defaults left
    out: ``ListOf(Whole())``, ``Seat(none=True)``."""
    args = []
    for f in fields(shape):
        value = getattr(shape, f.name)
        if isinstance(value, Shape):
            args.append(spelled(value))
        elif f.default is MISSING or value != f.default:
            args.append(f"{f.name}={value!r}")
    return f"{type(shape).__name__}({', '.join(args)})"


__all__ = ["Shape", "Seat", "Card", "Cards", "CardText", "Whole", "Word", "Flag", "Text",
           "ListOf", "PerSeat", "MapOf", "Fields", "Terms", "json_schema", "card_list_pattern",
           "conforms", "described", "spelled"]
