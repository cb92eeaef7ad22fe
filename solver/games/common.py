"""Small helpers shared by the game modules: JSON-path errors, card-list
parsing inside a deal object, bipartite completion of hidden cards."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from ..cards import Deck
from ..errors import NotationError, PositionError, short_repr


def need(obj: Any, key: str, path: str, kind: type | tuple = object) -> Any:
    """``obj[key]`` with a ``PositionError`` naming ``path.key`` if missing
    or of the wrong type."""
    if not isinstance(obj, dict):
        raise PositionError(f"expected an object, got {type(obj).__name__}", path)
    if key not in obj:
        raise PositionError(f"missing {short_repr(key)}", path)
    value = obj[key]
    if kind is not object and (not isinstance(value, kind) or
                               (isinstance(value, bool) and bool not in _as_tuple(kind))):
        names = "/".join(k.__name__ for k in _as_tuple(kind))
        raise PositionError(f"must be {names}, got {type(value).__name__}", f"{path}.{key}")
    return value


def _as_tuple(kind):
    return kind if isinstance(kind, tuple) else (kind,)


def check_keys(obj: dict, allowed: Sequence[str], path: str) -> None:
    for key in obj:
        if key not in allowed:
            raise PositionError(f"unknown key {short_repr(key)} (allowed: {', '.join(allowed)})", path)


#: the largest round (hand) number a mid-match position may give
MAX_MATCH_NUMBER = 1_000_000


def match_number(match: dict, key: str, most: int = MAX_MATCH_NUMBER) -> int:
    """``match[key]``: the number of the round (hand) a mid-match position
    starts in, 1..``most``; ``PositionError`` naming ``match.<key>``."""
    number = need(match, key, "match", int)
    if not 1 <= number <= most:
        raise PositionError(f"must be a {key} number 1..{most}, got {number}", f"match.{key}")
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
                    what: str = "a card list", unit: str = "places") -> list:
    """Parse ``"AS KH"`` or ``["AS", "KH"]``, each token by ``cards.parse``
    (a ``Deck``, or another ``TokenParser``); with ``unknown_ok`` a ``"?"``
    stands for an unseen card (returned as ``None``), and a count for a run
    of unseen cards: the whole list as an integer (``26``: all unseen), or an
    integer inside a JSON list (``["?", "TS", 24]``: 24 unseen places).  A
    count never makes the list longer than the deck (``cards.size``).
    ``what`` and ``unit`` name the list and its places in errors."""
    size = cards.size
    if unknown_ok and isinstance(value, int) and not isinstance(value, bool):
        return [None] * _unseen_run(value, path, 0, size, unit)
    if isinstance(value, str):
        tokens = value.split()
    elif isinstance(value, list):
        tokens = value
    else:
        raise PositionError(f"expected {what}, got {type(value).__name__}", path)
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
            raise PositionError(str(exc), f"{path}[{i}]") from None
    return out


def _unseen_run(count: int, path: str, least: int, most: int, unit: str) -> int:
    if most < least:
        raise PositionError(f"no unseen {unit} are left: the list already has more than "
                            f"the deck", path)
    if not least <= count <= most:
        raise PositionError(f"a count of unseen {unit} must be {least}..{most}, "
                            f"got {short_repr(count)}", path)
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
                raise PositionError(f"duplicate card {text} (also at {seen[c]})", here,
                                    code="duplicate_card",
                                    data={"card": text, "paths": [seen[c], here]})
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
