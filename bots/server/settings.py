"""The server's settings (``dixtrix serve --help``): what caps every
request, how many searches run at once, where tables are kept.

Each field with help text is a flag of ``dixtrix serve`` by itself
(``add_flags``): ``max_time`` is ``--max-time``, read in the field's type
(a ``bool`` is ``--name`` / ``--no-name``; ``X | None`` reads an ``X``),
defaulting to the field's default, with the help text shown by
``--help``; ``from_flags`` makes the ``Settings`` of the parsed flags.  So
a new setting is one field here, and its checks in ``__post_init__``.
"""

from __future__ import annotations

import argparse
import types
import typing
from dataclasses import dataclass, field, fields
from typing import Any

from solver.errors import OptionError
from solver.front import N_
from solver.said import Quote, phrase
from solver.search.service import DEFAULT_TREES

#: the log formats of ``--log-format``
LOG_FORMATS = ("text", "json")


def setting(default: Any, help: str, **flag: Any) -> Any:
    """A field of ``Settings`` that is a flag of ``dixtrix serve``: its
    default, its help text, and any other ``argparse`` keyword
    (``choices``, ``metavar``) for its flag."""
    return field(default=default, metadata={"help": help, **flag})


@dataclass(frozen=True)
class Settings:
    max_time: float = setting(2.0, "seconds one search may run (a request asking more "
                                   "gets this)")
    max_iterations: int = setting(200_000, "ISMCTS iterations of one search")
    max_worlds: int = setting(500, "sampled worlds of one PIMC search or evaluation")
    max_nodes: int = setting(2_000_000, "search nodes of one double-dummy solve (past it: 422)")
    max_body: int = setting((1 << 20) + 4096, "bytes of one request body (past it: 413)")
    workers: int = setting(2, "searches running at once (threads)")
    queue: int = setting(16, "requests waiting for a worker; one more gets 503 with "
                             "Retry-After")
    hint_time: float = setting(1.0, "seconds a hint searches when the request gives no limit")
    trees: int = setting(DEFAULT_TREES, "independent ISMCTS trees of one search: the "
                                        "decision service's default, so the API advises as "
                                        "every other face does, on any machine")
    threads: int = setting(0, "threads that grow one search's trees (0: one a tree, at "
                              "most one a core); the answer does not depend on it")
    db: str = setting("dixtrix-tables.db", "where the tables are kept: an SQLite file "
                                           "(:memory: keeps none) or a postgresql:// URL that "
                                           "several servers share (the postgres extra)")
    grace: float = setting(600.0, "seconds an ended table stays before it is deleted")
    idle: float = setting(86400.0, "seconds a table may go unused before it is deleted")
    max_tables: int = setting(1000, "tables held at once (one more gets 503)")
    bot_seconds: float = setting(5.0, "seconds the bots of a table play in one request (then "
                                      "the answer says a bot is to move, and the next GET "
                                      "lets them go on)")
    header_timeout: float = setting(10.0, "seconds a connection has to send a request's "
                                          "whole header (then it is closed)")
    body_timeout: float = setting(30.0, "seconds a request's body has to arrive once its "
                                        "header has (then 408, and the connection is closed)")
    lease: float = setting(15.0, "seconds a server's claim on a table's bot turns lasts "
                                 "unless renewed (it is, after each bot action): a killed "
                                 "server's turns go to another after this long")
    log_format: str = setting("text", "the log lines: text, or json (one JSON object a line, "
                                      "one line a request with its request id)",
                              choices=LOG_FORMATS)

    def __post_init__(self):
        for name in ("max_time", "hint_time", "grace", "idle", "bot_seconds",
                     "header_timeout", "body_timeout", "lease"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v <= 86400 * 365:
                raise OptionError(SECONDS(name=name, got=Quote(v)))
        for name, lo, hi in (("max_iterations", 1, 10**9), ("max_worlds", 1, 10**9),
                             ("max_nodes", 1, 10**12), ("max_body", 1024, 1 << 30),
                             ("workers", 1, 256), ("queue", 0, 100_000), ("trees", 1, 64),
                             ("threads", 0, 64), ("max_tables", 1, 10**7)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise OptionError(INTEGER(name=name, low=lo, high=hi, got=Quote(v)))
        if not isinstance(self.db, str) or not self.db:
            raise OptionError(DB())
        if self.log_format not in LOG_FORMATS:
            raise OptionError(LOG_FORMAT(formats=list(LOG_FORMATS), got=Quote(self.log_format)))


# the errors raised here (solver/errors.py: a code and its parameters)
SECONDS = phrase("server_setting_seconds", N_("server setting {name} must be seconds > 0, got "
                                              "{got}"))
INTEGER = phrase("server_setting_int", N_("server setting {name} must be an integer "
                                          "{low}..{high}, got {got}"))
DB = phrase("server_setting_db", N_("server setting db must be a file name (or :memory:) or a "
                                    "postgresql:// URL"))
LOG_FORMAT = phrase("server_setting_log_format", N_("server setting log_format must be one of "
                                                    "{formats}, got {got}"))


def _flag_type(name: str, hint: Any) -> type:
    """The type a flag's text is read in: the field's own, or ``X`` of
    ``X | None``; a field of any other type has no flag (``TypeError``
    when the parser is built, so it shows at once)."""
    if hint in (bool, int, float, str):
        return typing.cast(type, hint)
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        kinds = [k for k in typing.get_args(hint) if k is not type(None)]
        if len(kinds) == 1 and kinds[0] in (bool, int, float, str):
            return typing.cast(type, kinds[0])
    raise TypeError(f"server setting {name}: no flag reads a {hint!r}")


def _flagged(cls: type) -> list[tuple[Any, type]]:
    """Each field of the dataclass ``cls`` that is a flag, with its type."""
    hints = typing.get_type_hints(cls)
    return [(f, _flag_type(f.name, hints[f.name])) for f in fields(cls)
            if "help" in f.metadata]


def add_flags(parser: argparse.ArgumentParser, cls: type = Settings) -> None:
    """One flag for each field with help text of ``cls`` (``Settings``)."""
    for f, kind in _flagged(cls):
        extra = {k: v for k, v in f.metadata.items() if k != "help"}
        flag = "--" + f.name.replace("_", "-")
        help_text = f.metadata["help"].replace("%", "%%") + " (default: %(default)s)"
        if kind is bool:
            parser.add_argument(flag, dest=f.name, action=argparse.BooleanOptionalAction,
                                default=f.default, help=help_text, **extra)
        else:
            parser.add_argument(flag, dest=f.name, type=kind, default=f.default,
                                help=help_text, **extra)


def from_flags(args: argparse.Namespace, cls: type = Settings) -> Any:
    """The ``cls`` (``Settings``) of flags parsed by a parser that
    ``add_flags`` made."""
    return cls(**{f.name: getattr(args, f.name) for f, _ in _flagged(cls)})


__all__ = ["Settings", "setting", "add_flags", "from_flags", "LOG_FORMATS"]
