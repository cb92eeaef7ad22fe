"""How much to search: one ``Limit``, checked once, read by every face.

The Python API builds a ``Limit`` directly; the bots' settings strings
(``ismcts:time=0.5``), the engine protocol's ``go`` words and the HTTP API's
``limit`` object are turned into one by ``Limit.from_mapping`` /
``Limit.from_words``, so a limit means the same everywhere and is refused
with the same words.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Any

from ..errors import LimitError, short_repr
from ..front import N_
from ..said import Quote, phrase

#: the longest search a limit may ask for (seconds): a day
MAX_SECONDS = 86400.0
#: the most iterations or worlds a limit may ask for
MAX_COUNT = 10**9
#: the most nodes an exact solve may be given
MAX_NODES = 10**12

# a limit's errors (solver/errors.py): a field's value refused, the
# field named by the error's path (``Limit.time``, a document's
# ``limit.time``), written before the phrase
TIME = phrase("limit_time", N_("must be seconds in (0, {top}], got {got}"))
COUNT = phrase("limit_count", N_("must be an integer 1..{top}, got {got}"))
NEEDS = phrase("limit_needs", N_("a Limit needs time, iterations or worlds"))
NOT_LIMIT = phrase("limit_not_object", N_("expected an object with time, iterations, worlds or "
                                          "nodes, got {got}"))
UNKNOWN_KEY = phrase("limit_unknown_key", N_("unknown key {key} (known: {keys})"))
PAIRS = phrase("limit_pairs", N_("expected pairs of a key and a value, got {got}"))
A_NUMBER = phrase("limit_number", N_("a number, got {got}"))
A_COUNT = phrase("limit_positive", N_("a positive integer, got {got}"))
NOT_A_LIMIT = phrase("limit_type", N_("limit must be a solver.search.Limit, got {got}"))


@dataclass(frozen=True)
class Limit:
    """How much to search: ``time`` in seconds, ``iterations`` (ISMCTS),
    ``worlds`` (sampled deals: PIMC and ``evaluate``), ``nodes`` (the bound
    of an exact solve: the whole solve of a position the view determines,
    and one world's solve in PIMC).  Any combination of the first three;
    the search stops at the first limit reached."""

    time: float | None = None
    iterations: int | None = None
    worlds: int | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.time is not None:
            if isinstance(self.time, bool) or not isinstance(self.time, (int, float)) \
                    or not math.isfinite(self.time) or not 0 < self.time <= MAX_SECONDS:
                raise LimitError(TIME(top=f"{MAX_SECONDS:g}", got=Quote(self.time)), "Limit.time")
        for name, top, text in (("iterations", MAX_COUNT, "1e9"), ("worlds", MAX_COUNT, "1e9"),
                                ("nodes", MAX_NODES, "1e12")):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int)
                                  or not 1 <= v <= top):
                raise LimitError(COUNT(top=text, got=Quote(v)), f"Limit.{name}")
        if self.time is None and self.iterations is None and self.worlds is None:
            raise LimitError(NEEDS())

    # ---- reading a limit from a face ------------------------------------

    @classmethod
    def from_mapping(cls, doc: Any, where: str = "limit") -> Limit:
        """A limit from a mapping such as the HTTP API's ``limit`` object or
        a bot's settings (``{"time": 0.5}``); a wrong key or value is a
        ``LimitError`` whose ``path`` names it (``limit.time``)."""
        if not isinstance(doc, dict):
            raise LimitError(NOT_LIMIT(got=Quote(doc)), where)
        known = [f.name for f in fields(cls)]
        for key, value in doc.items():
            if key not in known:
                raise LimitError(UNKNOWN_KEY(key=Quote(key), keys=", ".join(known)),
                                 f"{where}.{key}" if isinstance(key, str) else where)
            if value is not None:
                try:
                    cls(**{key: value, **({} if key == "time" else {"time": 1.0})})
                except LimitError as exc:
                    said = exc.said
                    assert said is not None and said.code in (TIME.code, COUNT.code), exc
                    raise LimitError(said, f"{where}.{key}") from None
        try:
            return cls(**{k: doc[k] for k in known if doc.get(k) is not None})
        except LimitError as exc:
            raise LimitError(exc.as_message(), where) from None

    @classmethod
    def from_words(cls, words: list[str], where: str = "limit") -> Limit:
        """A limit from ``key value`` words (the engine protocol's ``go time 1
        iterations 5000``; ``movetime`` is milliseconds, for UCI habits)."""
        doc: dict[str, Any] = {}
        if len(words) % 2:
            raise LimitError(PAIRS(got=short_repr(" ".join(words), 60)), where)
        for key, value in zip(words[::2], words[1::2], strict=True):
            if key in ("time", "movetime"):
                try:
                    seconds = float(value)
                except ValueError:
                    raise LimitError(A_NUMBER(got=Quote(value)), f"{where}.{key}") from None
                doc["time"] = seconds / 1000.0 if key == "movetime" else seconds
            elif key in ("iterations", "worlds", "nodes"):
                if not value.isdigit() or len(value) > 13:
                    raise LimitError(A_COUNT(got=Quote(value)), f"{where}.{key}")
                doc[key] = int(value)
            else:
                raise LimitError(UNKNOWN_KEY(key=Quote(key),
                                             keys="time, movetime, iterations, worlds, nodes"),
                                 where)
        return cls.from_mapping(doc, where)

    def capped(self, caps: Limit) -> tuple[Limit, dict[str, Any]]:
        """This limit within ``caps`` (a server's most): each field no larger
        than the cap's, a missing time or node bound set to the cap's (so no
        search holds a worker longer than the cap's time, whatever it
        counts); returns the limit and ``{field: capped value}`` for each
        field that changed."""
        applied = {}
        values = {}
        for f in fields(self):
            mine, top = getattr(self, f.name), getattr(caps, f.name)
            if top is not None and (mine is None and f.name in ("time", "nodes") or
                                    mine is not None and mine > top):
                applied[f.name] = top
                mine = top
            values[f.name] = mine
        return replace(self, **values), applied

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) is not None}


def check_limit(limit: Any, default: Limit) -> Limit:
    """``limit`` itself (a ``Limit``), or ``default`` for None."""
    if limit is None:
        return default
    if not isinstance(limit, Limit):
        raise LimitError(NOT_A_LIMIT(got=type(limit).__name__))
    return limit


__all__ = ["Limit", "check_limit", "MAX_SECONDS", "MAX_COUNT", "MAX_NODES"]
