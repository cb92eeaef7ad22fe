"""The server's settings (``dixtrix serve --help``): what caps every
request, how many searches run at once, where tables are kept."""

from __future__ import annotations

from dataclasses import dataclass

from solver.errors import OptionError
from solver.search.service import DEFAULT_TREES

#: the log formats of ``--log-format``
LOG_FORMATS = ("text", "json")


@dataclass(frozen=True)
class Settings:
    #: seconds one search may run (a request asking more gets this)
    max_time: float = 2.0
    #: ISMCTS iterations of one search
    max_iterations: int = 200_000
    #: sampled worlds of one PIMC search or evaluation
    max_worlds: int = 500
    #: search nodes of one double-dummy solve (past it: 422)
    max_nodes: int = 2_000_000
    #: bytes of one request body (past it: 413)
    max_body: int = (1 << 20) + 4096
    #: searches running at once (threads)
    workers: int = 2
    #: requests waiting for a worker; one more gets 503 with Retry-After
    queue: int = 16
    #: seconds a hint searches when the request gives no limit
    hint_time: float = 1.0
    #: independent ISMCTS trees of one search: the decision service's
    #: default, so the API advises as every other face does
    threads: int = DEFAULT_TREES
    #: where the tables are kept: an SQLite file (":memory:" keeps none) or a
    #: postgresql:// URL, which several server processes may share
    db: str = "dixtrix-tables.db"
    #: seconds an ended table stays before it is deleted
    grace: float = 600.0
    #: seconds a table may go unused before it is deleted
    idle: float = 86400.0
    #: tables held at once (one more gets 503)
    max_tables: int = 1000
    #: seconds the bots of a table play in one request (then the answer says
    #: a bot is to move, and the next GET lets them go on)
    bot_seconds: float = 5.0
    #: seconds a connection has to send a request's whole header
    header_timeout: float = 10.0
    #: seconds a process's claim on a table's bot turns lasts unless renewed
    #: (it is, after each bot action): a killed process's turns go to
    #: another after this long
    lease: float = 15.0
    #: the server's log lines: "text", or "json" (one JSON object a line,
    #: one line a request with its request id)
    log_format: str = "text"

    def __post_init__(self):
        for name in ("max_time", "hint_time", "grace", "idle", "bot_seconds",
                     "header_timeout", "lease"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v <= 86400 * 365:
                raise OptionError(f"server setting {name} must be seconds > 0, got {v!r}")
        for name, lo, hi in (("max_iterations", 1, 10**9), ("max_worlds", 1, 10**9),
                             ("max_nodes", 1, 10**12), ("max_body", 1024, 1 << 30),
                             ("workers", 1, 256), ("queue", 0, 100_000), ("threads", 1, 64),
                             ("max_tables", 1, 10**7)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise OptionError(f"server setting {name} must be an integer {lo}..{hi}, "
                                  f"got {v!r}")
        if not isinstance(self.db, str) or not self.db:
            raise OptionError("server setting db must be a file name (or :memory:) or a "
                              "postgresql:// URL")
        if self.log_format not in LOG_FORMATS:
            raise OptionError(f"server setting log_format must be one of {', '.join(LOG_FORMATS)}"
                              f", got {self.log_format!r}")


__all__ = ["Settings", "LOG_FORMATS"]
