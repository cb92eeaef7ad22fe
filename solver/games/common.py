"""Small helpers shared by the game modules: JSON-path errors, card-list
parsing inside a deal object, bipartite completion of hidden cards."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from ..cards import Deck
from ..errors import NotationError, PositionError
from ..front import N_
from ..said import Quote, Word, phrase

# the deal objects' errors (solver/errors.py: a code and its parameters)
EXPECTED_OBJECT = phrase("expected_object", N_("expected an object, got {got}"))
MISSING = phrase("missing_key", N_("missing {key}"))
MUST_BE = phrase("wrong_type", N_("must be {kind}, got {got}"))
UNKNOWN_KEY = phrase("unknown_key", N_("unknown key {key} (allowed: {keys})"))
MATCH_NUMBER = phrase("match_number", N_("must be a {key} number 1..{top}, got {got}"))
EXPECTED = phrase("expected_list", N_("expected {what}, got {got}"))
NONE_LEFT = phrase("no_unseen_left",
                   N_("no unseen {unit} are left: the list already has more than the deck"))
UNSEEN_COUNT = phrase("unseen_count", N_("a count of unseen {unit} must be {least}..{top}, "
                                         "got {got}"))
#: a card given twice: ``paths`` its two places, ``also`` the first (docs/positions.md)
DUPLICATE_CARD = phrase("duplicate_card", N_("duplicate card {card} (also at {also})"))
# the games' records and views
VIEW_SHOWS_HAND = phrase("view_shows_hand", N_("seat {seat}'s view cannot show seat {other}'s "
                                               "cards: give their count ({want})"))
VIEW_HAND_SIZE = phrase("view_hand_size", N_("seat {seat} holds {want} cards, got {got}"))
TOTAL_NOT_INTEGER = phrase("total_not_integer", N_("a total is an integer, got {got}"))
TOTALS_COUNT = phrase("totals_count", N_("one total per seat ({want}), got {got}"))
NEST_SIZE = phrase("nest_size", N_("the nest has {want} cards, got {got}"))
#: a view no deal of the unseen cards fits (``why``: what the game's view
#: constrains, a phrase of its own)
NO_WORLD = phrase("no_world", N_("no deal of the unseen cards is consistent with seat {seat}'s "
                                 "view ({why})"))


def need(obj: Any, key: str, path: str, kind: type | tuple = object) -> Any:
    """``obj[key]`` with a ``PositionError`` naming ``path.key`` if missing
    or of the wrong type."""
    if not isinstance(obj, dict):
        raise PositionError(EXPECTED_OBJECT(got=type(obj).__name__), path)
    if key not in obj:
        raise PositionError(MISSING(key=Quote(key)), path)
    value = obj[key]
    if kind is not object and (not isinstance(value, kind) or
                               (isinstance(value, bool) and bool not in _as_tuple(kind))):
        names = "/".join(k.__name__ for k in _as_tuple(kind))
        raise PositionError(MUST_BE(kind=names, got=type(value).__name__), f"{path}.{key}")
    return value


def _as_tuple(kind):
    return kind if isinstance(kind, tuple) else (kind,)


def check_keys(obj: dict, allowed: Sequence[str], path: str) -> None:
    for key in obj:
        if key not in allowed:
            raise PositionError(UNKNOWN_KEY(key=Quote(key), keys=", ".join(allowed)), path)


#: the largest round (hand) number a mid-match position may give
MAX_MATCH_NUMBER = 1_000_000


def match_number(match: dict, key: str, most: int = MAX_MATCH_NUMBER) -> int:
    """``match[key]``: the number of the round (hand) a mid-match position
    starts in, 1..``most``; ``PositionError`` naming ``match.<key>``."""
    number = need(match, key, "match", int)
    if not 1 <= number <= most:
        raise PositionError(MATCH_NUMBER(key=key, top=most, got=number), f"match.{key}")
    return number


class TokenParser(Protocol):
    """What ``parse_card_list`` parses one token with: a ``Deck`` (a card
    name -> its card), or e.g. dix-exchange's card values (a value name ->
    its index).  ``size`` is the number of cards in the deck: a count of
    unseen cards never stands for more."""

    size: int

    def parse(self, token: Any, index: int | None = None) -> Any:
        """One token -> its card; ``NotationError`` naming it."""


def parse_card_list(cards: TokenParser, value: Any, path: str, unknown_ok: bool = False, *,
                    what: str = N_("a card list"), unit: str = N_("places")) -> list:
    """Parse ``"AS KH"`` or ``["AS", "KH"]``, each token by ``cards.parse``
    (a ``Deck``, or another ``TokenParser``); with ``unknown_ok`` a ``"?"``
    stands for an unseen card (returned as ``None``), and a count for a run
    of unseen cards: the whole list as an integer (``26``: all unseen), or an
    integer inside a JSON list (``["?", "TS", 24]``: 24 unseen places).  A
    count never makes the list longer than the deck (``cards.size``).
    ``what`` and ``unit`` name the list and its places in errors (message
    ids, said in the reader's words)."""
    size = cards.size
    if unknown_ok and isinstance(value, int) and not isinstance(value, bool):
        return [None] * _unseen_run(value, path, 0, size, unit)
    if isinstance(value, str):
        tokens = value.split()
    elif isinstance(value, list):
        tokens = value
    else:
        raise PositionError(EXPECTED(what=Word(what), got=type(value).__name__), path)
    out: list[int | None] = []
    for i, tok in enumerate(tokens):
        if unknown_ok and tok == "?":
            out.append(None)
            continue
        if unknown_ok and isinstance(tok, int) and not isinstance(tok, bool):
            out.extend([None] * _unseen_run(tok, f"{path}[{i}]", 1, size - len(out), unit))
            continue
        try:
            out.append(cards.parse(tok, i))
        except NotationError as exc:
            raise PositionError(exc.as_message(), f"{path}[{i}]") from None
    return out


def _unseen_run(count: int, path: str, least: int, most: int, unit: str) -> int:
    if most < least:
        raise PositionError(NONE_LEFT(unit=Word(unit)), path)
    if not least <= count <= most:
        raise PositionError(UNSEEN_COUNT(unit=Word(unit), least=least, top=most,
                                         got=Quote(count)), path)
    return count


def compact_unseen(tokens: list, size: int | None = None):
    """The canonical text of a list of card texts with ``"?"`` for the unseen
    ones: the count alone when every place is unseen (``26``), else the
    space-separated text (``"? TS 2C ? ..."``)."""
    if tokens and all(t == "?" for t in tokens):
        return len(tokens)
    return " ".join(tokens)


def check_distinct(deck: Deck, groups: Sequence[tuple[str, Sequence]], where: str) -> None:
    """No card appears twice across ``groups`` (``(path, cards)`` pairs)."""
    seen: dict[int, str] = {}
    for path, cards in groups:
        for i, c in enumerate(cards):
            if c is None:
                continue
            here = f"{path}[{i}]"
            if c in seen:
                text = deck.to_string(c)
                raise PositionError(DUPLICATE_CARD(card=text, also=seen[c], paths=[seen[c], here]),
                                    here)
            seen[c] = here


def match_cards(cards: list, slots: list, allowed, rng: random.Random | None) -> dict | None:
    """Assign every card in ``cards`` to a distinct slot (bipartite
    matching, Kuhn's augmenting paths).  ``allowed(card, slot)`` says whether
    a card may sit in a slot.  With ``rng`` the search order is shuffled, so
    different seeds give different consistent completions.  Returns
    ``{card: slot}`` or ``None`` if no complete assignment exists."""
    cards = list(cards)
    slot_idx = list(range(len(slots)))
    if rng is not None:
        rng.shuffle(cards)
        rng.shuffle(slot_idx)
    adj = {c: [j for j in slot_idx if allowed(c, slots[j])] for c in cards}
    owner: dict[int, Any] = {}

    def augment(c, seen):
        for j in adj[c]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = c
                return True
        return False

    for c in cards:
        if not augment(c, set()):
            return None
    return {c: slots[j] for j, c in owner.items()}
