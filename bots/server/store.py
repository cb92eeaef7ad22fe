"""Tables kept in SQLite (the standard library's ``sqlite3``, WAL journal).

One row a table: its id, the game and options, the seed that deals every
deal, the seats the person takes, the bots' settings strings, the actions
played so far (notation), and when it was created, last used and ended.
That is the table's whole record: after a restart the server rebuilds the
game by replaying the actions from the seed (``tables.Table``).  Every
change is committed before the request that made it is answered, so a
killed server loses nothing it has acknowledged.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass

from solver.errors import DixtrixError

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,      -- JSON object, the game's options
    seed INTEGER NOT NULL,      -- deals every deal; bots' seeds derive from it
    humans TEXT NOT NULL,       -- JSON list of the seats the person takes
    bots TEXT NOT NULL,         -- JSON object seat -> bot settings string
    actions TEXT NOT NULL,      -- JSON list of actions in notation
    created REAL NOT NULL,
    updated REAL NOT NULL,
    ended REAL                  -- when the match ended (NULL while it runs)
)
"""


class StoreError(DixtrixError):
    """The table database cannot be opened or written."""


@dataclass
class Row:
    id: str
    game: str
    options: dict
    seed: int
    humans: list
    bots: dict
    actions: list
    created: float
    updated: float
    ended: float | None


class Store:
    """The table database; one connection shared by the worker threads
    behind a lock (each statement is short)."""

    def __init__(self, path: str):
        self.path = path
        self.lock = threading.Lock()
        try:
            self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None,
                                      timeout=10)
            if path != ":memory:":
                self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute(SCHEMA)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the table database {path!r}: {exc}") from None

    def close(self) -> None:
        with self.lock:
            self.db.close()

    def _execute(self, sql: str, params=(), fetch: str | None = None):
        """One statement under the lock; a database error (locked past the
        timeout, disk full, a file that went away) is a ``StoreError``,
        which the server answers 503: the request may be tried again."""
        with self.lock:
            try:
                cur = self.db.execute(sql, params)
                if fetch == "one":
                    return cur.fetchone()
                if fetch == "all":
                    return cur.fetchall()
                return cur
            except sqlite3.Error as exc:
                raise StoreError(f"the table database {self.path!r} failed: {exc}") from None

    def insert(self, row: Row) -> None:
        self._execute("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      (row.id, row.game, json.dumps(row.options), row.seed,
                       json.dumps(row.humans),
                       json.dumps({str(k): v for k, v in row.bots.items()}),
                       json.dumps(row.actions), row.created, row.updated, row.ended))

    def save(self, table_id: str, actions: list, updated: float, ended: float | None) -> None:
        self._execute("UPDATE tables SET actions = ?, updated = ?, ended = ? WHERE id = ?",
                      (json.dumps(actions), updated, ended, table_id))

    def touch(self, table_id: str, updated: float) -> None:
        self._execute("UPDATE tables SET updated = ? WHERE id = ?", (updated, table_id))

    def load(self, table_id: str) -> Row | None:
        got = self._execute("SELECT * FROM tables WHERE id = ?", (table_id,), "one")
        if got is None:
            return None
        (tid, game, options, seed, humans, bots, actions, created, updated, ended) = got
        return Row(tid, game, json.loads(options), seed, json.loads(humans),
                   {int(k): v for k, v in json.loads(bots).items()}, json.loads(actions),
                   created, updated, ended)

    def exists(self, table_id: str) -> bool:
        return self._execute("SELECT 1 FROM tables WHERE id = ?", (table_id,), "one") \
            is not None

    def delete(self, table_id: str) -> bool:
        return self._execute("DELETE FROM tables WHERE id = ?", (table_id,)).rowcount > 0

    def expired(self, now: float, idle: float, grace: float) -> list[str]:
        """The ids of tables ended more than ``grace`` seconds ago or unused
        for ``idle`` seconds."""
        rows = self._execute(
            "SELECT id FROM tables WHERE (ended IS NOT NULL AND ended < ?) OR updated < ?",
            (now - grace, now - idle), "all")
        return [r[0] for r in rows]

    def count(self) -> int:
        return self._execute("SELECT COUNT(*) FROM tables", (), "one")[0]


__all__ = ["Store", "Row", "StoreError"]
