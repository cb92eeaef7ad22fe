"""What the solver and the bots say, as codes with parameters.

A sentence a person reads (a search's reason, a result's note, a
position's fact, a line of advice) travels as a ``Said``: a ``code``
("search.few") and its ``params`` (numbers, cards, seats), never as
English to be parsed back.  Each code is a ``Phrase`` declared once, by
the module that says it, with its English template, which is also the
message id under which every face finds it in its catalogue
(bots/server/i18n.py); ``Said.words(words)`` puts it in a face's words,
``Said.english()`` (and ``str``) in English, what the command line prints
and what the JSON's English fields keep.

A parameter is a number or a string as it is, or one of the things a
face names in its own way:

- ``Seat(n)``: a seat, which the face names from its reader's side (you,
  left, partner...) given the seat's number;
- ``Word(message)``: a message id of its own (a contract's title, a
  trump), said in the face's words;
- ``Act(action)``: an action in its notation, which a face may show by
  its label;
- ``Quote(value)``: a user's value quoted in the message as it was given
  (``short_repr``: ``'XX'``, ``a list of 3 items``), in an error's data
  as itself where it is a short scalar (``quoted``);
- another ``Said``, or a list (said one after the other, ", " between).

``Said.to_json()`` is the record as JSON (``{"code", "params"}``, a seat
``{"seat"}``, a word ``{"message", "context"}``, an action ``{"action",
"capital"}``: ``dataclasses.asdict``'s form), read back with
``Said.from_json``; docs/server.md lists the codes.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

#: characters of a user's value that a message quotes
QUOTE_LIMIT = 60


def short_repr(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A bounded, non-recursive description of a user's value for an error
    message: scalars by ``repr`` cut to ``limit`` characters, an integer too
    long to print by its size, a container by its type and length (never a
    recursive ``repr``, which a deeply nested value turns into a
    ``RecursionError`` and a huge one into a huge message)."""
    if isinstance(value, bool) or value is None or isinstance(value, float):
        text = repr(value)
    elif isinstance(value, int):
        if value.bit_length() > 200:
            return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
        text = repr(value)
    elif isinstance(value, (str, bytes, bytearray)):
        text = repr(value[:limit + 1])
    elif isinstance(value, (list, tuple, dict, set, frozenset)):
        kind = type(value).__name__
        return f"a {kind} of {len(value)} item{'s' if len(value) != 1 else ''}"
    else:
        text = f"<{type(value).__name__} object>"
    if len(text) > limit:
        text = text[:limit - 3] + "..."
    return text


class Words(Protocol):
    """A face's words: ``words(message, **params)`` and
    ``words.ngettext(singular, plural, n, **params)`` (the server's
    ``Translator``, the command line's ``ENGLISH``)."""

    def __call__(self, message: str, **params: Any) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, **params: Any) -> str: ...


class English:
    """The words as the phrases write them (their message ids are English)."""

    def __call__(self, message: str, msgctxt: str | None = None, **params: Any) -> str:
        return message.format(**params) if params else message

    def ngettext(self, singular: str, plural: str, n: int, **params: Any) -> str:
        return (singular if n == 1 else plural).format(n=n, **params)


ENGLISH = English()


@dataclass(frozen=True)
class Phrase:
    """A code and its English template (``plural``: the template's plural,
    for a phrase said of a count ``n``); calling it with the parameters
    makes the ``Said``.  ``module``: the module that declared it (where a
    list of the codes says it is said)."""

    code: str
    template: str
    plural: str | None = None
    module: str = field(default="", compare=False)

    def __call__(self, **params: Any) -> Said:
        return Said(self.code, params)


#: every phrase by its code (``phrase`` declares them)
PHRASES: dict[str, Phrase] = {}


def phrase(code: str, template: str, plural: str | None = None) -> Phrase:
    """Declare the phrase ``code`` with its English ``template`` (a message
    id, marked for extraction where it is written: ``N_`` or ``NP_``);
    declaring a code again with other words is a ``ValueError``."""
    new = Phrase(code, template, plural, sys._getframe(1).f_globals.get("__name__", ""))
    old = PHRASES.setdefault(code, new)
    if old != new:
        raise ValueError(f"the code {code!r} is already the phrase {old.template!r}")
    return new


@dataclass(frozen=True)
class Seat:
    """A seat (counted from 0), named by the face from its reader's side."""

    seat: int


@dataclass(frozen=True)
class Word:
    """A message id said in the face's words (``context``: its msgctxt)."""

    message: str
    context: str | None = None


@dataclass(frozen=True)
class Act:
    """An action in its notation (``capital``: its words start a sentence)."""

    action: str
    capital: bool = False


@dataclass(frozen=True)
class Quote:
    """A user's value, said as ``short_repr`` quotes it."""

    value: Any

    def quoted(self) -> Any:
        """The value as JSON data: a string cut to ``QUOTE_LIMIT``
        characters, a bool, None, a finite number that prints short, as
        itself; anything else (a container, bytes, a huge integer, NaN) by
        its quoted description."""
        v = self.value
        if v is None or isinstance(v, bool):
            return v
        if isinstance(v, str):
            return v[:QUOTE_LIMIT]
        if isinstance(v, int) and v.bit_length() <= 64:
            return v
        if isinstance(v, float) and math.isfinite(v):
            return v
        return short_repr(v)


@dataclass(frozen=True)
class Said:
    """A phrase's code and its parameters (the module docstring)."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.code not in PHRASES:
            raise ValueError(f"no phrase has the code {self.code!r}")

    def words(self, words: Words = ENGLISH, seat: Callable[[int], str] | None = None,
              action: Callable[[str], str] | None = None,
              own: Callable[[str], str | None] | None = None) -> str:
        """The phrase in ``words``: each seat named by ``seat`` (default
        "seat n", counted from 1), each action by ``action`` (default its
        notation); ``own``: a game's own template for a code, or None
        (``solver.front.Front.phrase``)."""
        def say(value: Any) -> Any:
            if isinstance(value, Said):
                return value.words(words, seat, action, own)
            if isinstance(value, Seat):
                return seat(value.seat) if seat is not None else f"seat {value.seat + 1}"
            if isinstance(value, Word):
                if value.context:
                    return words(value.message, msgctxt=value.context)
                return words(value.message)
            if isinstance(value, Act):
                text = action(value.action) if action is not None else value.action
                return text[:1].upper() + text[1:] if value.capital else text
            if isinstance(value, Quote):
                return short_repr(value.value)
            if isinstance(value, (list, tuple)):
                return words(", ").join(str(say(v)) for v in value)
            return value

        ph = PHRASES[self.code]
        template = (own(self.code) if own is not None else None) or ph.template
        params = {k: say(v) for k, v in self.params.items()}
        if ph.plural is not None:
            n = params.pop("n")
            return words.ngettext(template, ph.plural, n, **params)
        return words(template, **params) if params else words(template)

    def english(self, seat: Callable[[int], str] | None = None,
                action: Callable[[str], str] | None = None) -> str:
        """The phrase in English (``words``' defaults)."""
        return self.words(ENGLISH, seat, action)

    def __str__(self) -> str:
        return self.english()

    def to_json(self) -> dict[str, Any]:
        """``{"code", "params"}``, the parameters as JSON (the module docstring)."""
        return asdict(self)

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Said:
        """The record ``to_json`` wrote (``ValueError`` naming what is wrong)."""
        said = _from_json(doc)
        if not isinstance(said, Said):
            raise ValueError(f"not a said record: {doc!r:.80}")
        return said


def _from_json(value: Any) -> Any:
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    if not isinstance(value, Mapping):
        return value
    keys = set(value)
    if keys == {"code", "params"} and isinstance(value["params"], Mapping):
        return Said(str(value["code"]), {str(k): _from_json(v)
                                         for k, v in value["params"].items()})
    if keys == {"seat"}:
        return Seat(int(value["seat"]))
    if keys == {"message", "context"}:
        return Word(str(value["message"]), value["context"])
    if keys == {"action", "capital"}:
        return Act(str(value["action"]), bool(value["capital"]))
    if keys == {"value"}:
        return Quote(value["value"])
    raise ValueError(f"not a said record: {dict(value)!r:.80}")


__all__ = ["Said", "Phrase", "phrase", "PHRASES", "Seat", "Word", "Act", "Quote", "Words",
           "English", "ENGLISH", "short_repr", "QUOTE_LIMIT"]
