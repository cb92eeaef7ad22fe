"""dix-exchange's notation: the card values, the actions' text, the deck
option's text, and the cards of a deal object (``solver/games/dix_exchange/game.py``
has the rules in words)."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from ...cards import EXCHANGE_NAMES, EXCHANGE_VALUES
from ...errors import NOT_AN_OBJECT, SEAT_RANGE, NotationError, OptionError, PositionError, short_repr
from ...front import N_
from ...game import Option
from ...said import Quote, phrase
from ..common import check_keys, need, parse_card_list

# the errors raised here (solver/errors.py: a code and its parameters)
MORE_THAN_CARDS_DECK = phrase("more_than_cards_deck", N_("more than {size} cards, the deck has {size}"))
CARDS_DECK_HAS = phrase("cards_deck_has", N_("{n} cards {value}, the deck has {most}"))
SHUFFLE_HAS_LEAST_CARD = phrase("shuffle_has_least_card", N_("a shuffle has at least one card"))

# the notation's and the deck option's errors (solver/errors.py)
CARD_NOT_STRING = phrase("exchange_card_not_string", N_("a card is a string, got {got}"))
UNKNOWN_CARD = phrase("exchange_unknown_card", N_("unknown card {token} (values: {values})"))
UNKNOWN_VALUE = phrase("exchange_unknown_value", N_("unknown card value {token} (values: {values})"))
DECK_PAIR = phrase("deck_pair", N_("{got} is not value:count (e.g. '9:4')"))
DECK_KIND = phrase("deck_kind", N_("{option} must be 'standard', a string like '10:4 9:4 ... CJ:3' or a "
                                   "mapping value -> count, got {got}"))
DECK_COUNT = phrase("deck_count", N_("the count of {value} must be an integer 0..{most}, got {got}"))
DECK_TWICE = phrase("deck_twice", N_("value {value} is given twice"))
DECK_EMPTY = phrase("deck_empty", N_("the deck has no cards"))

#: this game (DixExchangeGame, ``game.py``), for annotations: ``game.py`` imports
#: this module, so this module does not import it back
AnyGame = Any


# ----------------------------------------------------------------------
# values

VALUE_INDEX = {v: i for i, v in enumerate(EXCHANGE_VALUES)}
#: comparison rank of each value index: 10 .. 1, 0, then 00 / 000 / 0000
#: below zero; the Chat-Joker ranks with the Lion.
RANK = (10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -3)
HIBOU, LOUP, PUTOIS, SAUTE_LAPIN, HOTEL = (VALUE_INDEX[v] for v in ("10", "9", "8", "7", "6"))
CHAT_JOKER = VALUE_INDEX["CJ"]
MIN_BLOCK_RANK = 6
_NAME_INDEX = {EXCHANGE_NAMES[v].lower(): i for i, v in enumerate(EXCHANGE_VALUES)}
_NAME_INDEX.update({"hôtel": HOTEL, "masquéléon": VALUE_INDEX["000"],
                    "lion": VALUE_INDEX["0000"], "chat": CHAT_JOKER, "joker": CHAT_JOKER,
                    "saute lapin": SAUTE_LAPIN})

STANDARD_COUNTS = {"10": 4, "9": 4, "8": 4, "7": 4, "6": 4, "5": 4, "4": 4, "3": 4, "2": 4,
                   "1": 4, "0": 3, "00": 3, "000": 3, "0000": 3, "CJ": 3}

MIN_PLAYERS, MAX_PLAYERS = 4, 12
FULL_SHUFFLE_PLAYERS = 5        # with this many active players: reshuffle every round

# actions
KEEP, ASK, ACCEPT, DRAW = 0, 1, 2, 3
BLOCK = 4                       # BLOCK + value index: "block <value>"
NUM_ACTIONS = BLOCK + len(EXCHANGE_VALUES)
_WORDS = {"keep": KEEP, "stay": KEEP, "ask": ASK, "exchange": ASK, "swap": ASK,
          "accept": ACCEPT, "ok": ACCEPT, "draw": DRAW, "stock": DRAW}
_ACTION_STRINGS = ("keep", "ask", "accept", "draw") + tuple(f"block {v}" for v in EXCHANGE_VALUES)

# phases
TURN, RESPOND, OVER = "turn", "respond", "over"


def _is_action(action) -> bool:
    return not isinstance(action, bool) and isinstance(action, int) and 0 <= action < NUM_ACTIONS


def value_text(v: int) -> str:
    """``"9 (Loup)"``."""
    name = EXCHANGE_VALUES[v]
    return f"{name} ({EXCHANGE_NAMES[name]})"


def parse_value(token) -> int:
    """A value token (``"9"``, ``"cj"``, ``"loup"``) -> value index."""
    if not isinstance(token, str):
        raise NotationError(CARD_NOT_STRING(got=Quote(token)), str(token))
    key = token.strip()
    if key.upper() in VALUE_INDEX:
        return VALUE_INDEX[key.upper()]
    if key.lower() in _NAME_INDEX:
        return _NAME_INDEX[key.lower()]
    raise NotationError(UNKNOWN_CARD(token=Quote(token), values=" ".join(EXCHANGE_VALUES)), token)


# ----------------------------------------------------------------------
# the deck option

def deck_counts(text: str) -> list[int]:
    """Counts per value index of a canonical deck string."""
    counts = [0] * len(EXCHANGE_VALUES)
    for item in text.split():
        v, _, c = item.partition(":")
        counts[VALUE_INDEX[v]] = int(c)
    return counts


def canonical_deck(counts: dict) -> str:
    return " ".join(f"{v}:{counts[v]}" for v in EXCHANGE_VALUES if counts.get(v, 0))


#: the most cards of one value the deck option may give
MAX_COUNT = 99


class DeckOption(Option):
    """The ``deck`` option: ``"standard"``, a string ``"10:4 9:4 ... CJ:3"``
    (separators: spaces or commas; ``10x4`` and ``10=4`` accepted), or a
    mapping ``{"10": 4, "CJ": 3}``.  Values left out have no cards.  The
    stored value is the canonical string (non-zero counts, high to low)."""

    def check(self, game: str, name: str, value):
        where = f"{game}: option {short_repr(name)}"
        if isinstance(value, str) and value.strip().lower() in ("standard", "default"):
            return canonical_deck(STANDARD_COUNTS)
        if isinstance(value, str):
            items: list[tuple[Any, Any]] = []
            for tok in value.replace(",", " ").split():
                for sep in (":", "x", "X", "="):
                    if sep in tok:
                        v, _, c = tok.partition(sep)
                        break
                else:
                    raise OptionError(DECK_PAIR(got=Quote(tok)), where)
                items.append((v, c))
        elif isinstance(value, dict):
            items = list(value.items())
        else:
            raise OptionError(DECK_KIND(option=where, got=Quote(value)))
        counts: dict[str, int] = {}
        for v, n in items:
            key = str(v).strip().upper() if (isinstance(v, str) or isinstance(v, int) and
                                             not isinstance(v, bool) and abs(v) < 1000) \
                else None
            if key not in VALUE_INDEX:
                raise OptionError(UNKNOWN_VALUE(token=Quote(v), values=" ".join(EXCHANGE_VALUES)),
                                  where)
            if isinstance(n, str) and n.strip().isdigit() and len(n.strip()) <= 3:
                n = int(n)
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_COUNT:
                raise OptionError(DECK_COUNT(value=Quote(key), most=MAX_COUNT, got=Quote(n)),
                                  where)
            if key in counts:
                raise OptionError(DECK_TWICE(value=Quote(key)), where)
            counts[key] = n
        if not any(counts.values()):
            raise OptionError(DECK_EMPTY(), where)
        return canonical_deck(counts)

    def json_schema(self) -> dict[str, Any]:
        """The forms ``check`` reads, written plainly: ``"standard"``, the
        value:count text, or the mapping value -> count (a count 0..99)."""
        value = "(?:" + "|".join(re.escape(v) for v in sorted(EXCHANGE_VALUES, key=len,
                                                               reverse=True)) + ")"
        pair = f"{value}[:xX=][0-9]{{1,2}}"
        count = {"type": "integer", "minimum": 0, "maximum": MAX_COUNT}
        return {"anyOf": [
            {"type": "string",
             "pattern": f"^(?:\\s*(?:standard|default)\\s*|[\\s,]*{pair}(?:[\\s,]+{pair})*[\\s,]*)$"},
            {"type": "object", "properties": {v: count for v in EXCHANGE_VALUES},
             "additionalProperties": False, "minProperties": 1}]}


class _CardValues:
    """The token parser of a dix-exchange card list (``parse_card_list``):
    a value name -> its index; ``size``: the cards in the deck."""

    __slots__ = ("size",)

    def __init__(self, size: int):
        self.size = size

    def parse(self, token, index: int | None = None) -> int:
        key = token.strip().upper() if isinstance(token, str) else None
        if key not in VALUE_INDEX:
            raise NotationError(UNKNOWN_VALUE(token=Quote(token), values=" ".join(EXCHANGE_VALUES)),
                                str(token), index)
        return VALUE_INDEX[key]


def _parse_values(game: AnyGame, raw, path: str, unknown_ok: bool) -> list:
    """A list of card values (text or a JSON list, see ``parse_card_list``:
    with ``unknown_ok`` a ``"?"`` is an unseen position, ``None``, and a
    count stands for a run of them), no value more often than the deck
    holds it."""
    vals = parse_card_list(_CardValues(game.size), raw, path, unknown_ok,
                           what=N_("a list of card values"), unit=N_("cards"))
    if len(vals) > game.size:
        raise PositionError(MORE_THAN_CARDS_DECK(size=game.size), path)
    got = Counter(v for v in vals if v is not None)
    for v, c in got.items():
        if c > game.counts[v]:
            raise PositionError(CARDS_DECK_HAS(n=c, value=EXCHANGE_VALUES[v], most=game.counts[v]), path)
    return vals


def _parse_deal(game: AnyGame, deal, unknown_ok: bool, mid: bool = False):
    """``deal`` -> (outcomes, masked shuffles); with ``unknown_ok`` a ``"?"``
    (or a count of them) is an unseen position (``None``).  ``mid``: the
    deal of a mid-match position (no first dealer: it is in the match)."""
    if not isinstance(deal, dict):
        raise PositionError(NOT_AN_OBJECT(), "deal")
    n = game.num_players
    if mid:
        check_keys(deal, ("shuffles",), "deal")
        outcomes = []
    else:
        check_keys(deal, ("first_dealer", "shuffles"), "deal")
        first = need(deal, "first_dealer", "deal", int)
        if not 0 <= first < n:
            raise PositionError(SEAT_RANGE(top=n - 1, got=first), "deal.first_dealer")
        outcomes = [("first_dealer", first)]
    raw = need(deal, "shuffles", "deal", list)
    masked = []
    for k, sh in enumerate(raw):
        path = f"deal.shuffles[{k}]"
        vals = _parse_values(game, sh, path, unknown_ok)
        if not vals:
            raise PositionError(SHUFFLE_HAS_LEAST_CARD(), path)
        masked.append(vals)
        if not unknown_ok:
            outcomes.append(("shuffle", tuple(vals)))
    return outcomes, masked


def _multiset_text(values: list) -> str:
    c = Counter(values)
    return " ".join(f"{EXCHANGE_VALUES[v]}:{c[v]}" for v in sorted(c))
