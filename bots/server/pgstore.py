"""Tables kept in PostgreSQL (``dixtrix serve --db postgresql://...``):
several server processes, on one machine or several, share every table.

The SQL is ``store.SqlStore``'s; here are what PostgreSQL adds:

* a pool of connections (psycopg 3's ``psycopg_pool``) in autocommit: a
  statement that stands alone is one round trip, and an insert or an
  append is one transaction (READ COMMITTED);
* an append reads the table's version with ``SELECT ... FOR UPDATE``: two
  processes appending to one table wait for each other, and the second sees
  the first's move and gets ``MoveConflict``;
* the schema is created and upgraded under an advisory lock, so processes
  started together do it once;
* live updates cross between processes with ``NOTIFY`` on the channel
  ``dixtrix_tables`` (a JSON payload: table, version, origin) and one
  listening connection a process, reopened if it drops.

Schema 2 (the shape SQLite's had when this store was added) is what a
database at version 2 holds; it is upgraded in place as SQLite's is.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time as _time
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import ConnectionPool, PoolTimeout

from .errors import CANNOT_OPEN, DUPLICATE, FAILED, NEWER_SCHEMA
from .records import MIGRATE_2_TO_3, MIGRATE_3_TO_4, SCHEMA_2, SCHEMA_VERSION, _statements
from .store import MoveConflict, SqlStore, StoreError

log = logging.getLogger("dixtrix.server")

#: the NOTIFY channel of table changes
CHANNEL = "dixtrix_tables"
#: the advisory lock key held while the schema is created or upgraded
#: ("dixtrix" in ASCII)
MIGRATION_LOCK = 0x646978747269
#: connections of the pool (a worker's statement and the event loop's health
#: check never wait for each other)
POOL_SIZE = 8
#: seconds a statement waits for a free connection, then StoreError (503)
POOL_TIMEOUT = 10.0
#: seconds between two tries to reopen a dropped listening connection
RELISTEN_SECONDS = 1.0


def redacted(url: str) -> str:
    """The URL without its password (what the server prints and logs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host += f":{parts.port}"
    user = f"{parts.username}:***@" if parts.username else ""
    return urlunsplit((parts.scheme, user + host, parts.path, parts.query, parts.fragment))


class PostgresStore(SqlStore):
    for_update = " FOR UPDATE"
    now_sql = "EXTRACT(EPOCH FROM clock_timestamp())::double precision"

    def __init__(self, url: str, size: int = POOL_SIZE):
        self.url = url
        self.description = redacted(url)
        self._listener: threading.Thread | None = None
        self._closed = threading.Event()
        try:
            # one connection first: a wrong address, user or database is told
            # at once with the server's own reason, not as a pool timeout
            psycopg.connect(url, connect_timeout=max(1, round(POOL_TIMEOUT))).close()
            self.pool = ConnectionPool(url, min_size=1, max_size=size, timeout=POOL_TIMEOUT,
                                       open=False, kwargs={"autocommit": True},
                                       name="dixtrix-tables")
            self.pool.open(wait=True, timeout=POOL_TIMEOUT)
            self._migrate()
        except (psycopg.Error, PoolTimeout) as exc:
            self._close_pool()
            raise StoreError(CANNOT_OPEN(db=self.description, reason=_reason(exc))) from None

    @contextlib.contextmanager
    def _tx(self, atomic: bool = False) -> Iterator[Callable[..., Any]]:
        try:
            with self.pool.connection() as conn:
                def q(sql: str, params: tuple = ()) -> psycopg.Cursor:
                    return conn.execute(sql.replace("?", "%s"), params)
                if not atomic:              # autocommit: a statement, a round trip
                    yield q
                    return
                with conn.transaction():
                    yield q
        except pg_errors.UniqueViolation as exc:
            raise MoveConflict(DUPLICATE(reason=_reason(exc))) from None
        except (psycopg.Error, PoolTimeout) as exc:
            raise StoreError(FAILED(db=self.description, reason=_reason(exc))) from None

    # ---- schema ---------------------------------------------------------------

    def _version_in(self, q) -> int:
        known = {r[0] for r in q("SELECT table_name FROM information_schema.tables WHERE "
                                 "table_schema = current_schema()").fetchall()}
        if "schema_version" in known:
            got = q("SELECT MAX(version) FROM schema_version").fetchone()[0]
            if got is not None:
                return int(got)
        return 2 if "tables" in known else 0

    @property
    def schema_version(self) -> int:
        with self._tx() as q:
            return self._version_in(q)

    def _migrate(self) -> None:
        with self.pool.connection() as conn, conn.transaction():
            def q(sql: str, params: tuple = ()) -> psycopg.Cursor:
                return conn.execute(sql.replace("?", "%s"), params)
            q("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            version = self._version_in(q)
            if version > SCHEMA_VERSION:
                raise StoreError(NEWER_SCHEMA(db=self.description, version=version,
                                              supported=SCHEMA_VERSION))
            if version == SCHEMA_VERSION:
                return
            if version == 0:
                for statement in _statements(SCHEMA_2, "DOUBLE PRECISION"):
                    q(statement)
            # step by step from 2 (PostgreSQL's first schema)
            steps = {2: MIGRATE_2_TO_3, 3: MIGRATE_3_TO_4}
            for step in range(max(version, 2), SCHEMA_VERSION):
                for statement in _statements(steps[step], "DOUBLE PRECISION"):
                    q(statement)
            q("INSERT INTO schema_version (version, applied) VALUES (?, ?)",
              (SCHEMA_VERSION, _time.time()))

    # ---- live updates across processes ---------------------------------------

    def notify(self, table_id: str, version: int, origin: str) -> None:
        payload = json.dumps({"table": table_id, "version": version, "origin": origin})
        with self._tx() as q:
            q("SELECT pg_notify(?, ?)", (CHANNEL, payload))

    def listen(self, callback: Callable[[str, int, str], None]) -> None:
        if self._listener is not None:
            return
        self._listener = threading.Thread(target=self._listen, args=(callback,),
                                          name="dixtrix-listen", daemon=True)
        self._listener.start()

    def _listen(self, callback) -> None:
        while not self._closed.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    while not self._closed.is_set():
                        # a timeout, so that close() is seen within a second
                        for note in conn.notifies(timeout=1.0):
                            try:
                                doc = json.loads(note.payload)
                                callback(str(doc["table"]), int(doc["version"]),
                                         str(doc["origin"]))
                            except (ValueError, KeyError, TypeError):
                                log.warning("ignored a malformed notification %r",
                                            note.payload[:200])
            except psycopg.Error as exc:
                if self._closed.is_set():
                    return
                log.warning("the live-update connection to %s failed (%s); reopening",
                            self.description, _reason(exc))
                self._closed.wait(RELISTEN_SECONDS)

    def close(self) -> None:
        self._closed.set()
        if self._listener is not None:
            self._listener.join(5)
        self._close_pool()

    def _close_pool(self) -> None:
        pool = getattr(self, "pool", None)
        if pool is not None:
            pool.close()


def _reason(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:300] or type(exc).__name__


__all__ = ["PostgresStore", "redacted", "CHANNEL"]
