"""Tables kept in SQLite (the standard library's ``sqlite3``, WAL journal).

The store is the one place a table's record lives; the server rebuilds a
table's game by replaying it (``tables.Table``).  Its interface is what a
table needs, so another database can sit behind it (docs/server.md):

* ``tables`` -- one row a table: its id, the game and options, the seed
  that deals every deal (decimal text: an unseeded table's seed has 128
  bits, more than an SQL integer holds) and whether the creator gave it
  (``seeded``), the
  seats (a person or a bot settings string each), the SHA-256 of the admin
  token, when it was created, last used and ended, and ``moves``: the
  number of actions played (the table's version: every change raises it);
* ``seat_tokens`` -- the SHA-256 of each person seat's token (never the
  token: a copy of the database lets nobody act at a table);
* ``moves`` -- one row an action, keyed by ``(table_id, idx)``: appending
  a move at an index that is already taken fails, so two writers (two
  requests, or two server processes) can never both play the same turn;
  the loser is told the table moved on.

Every change is committed before the request that made it is answered, so
a killed server loses nothing it has acknowledged.  ``PRAGMA user_version``
numbers the schema; a database of schema 1 (one row a table with its
actions as JSON and no tokens) is upgraded in place when it is opened: its
tables keep their moves, and since they had no tokens, their seats can be
watched but no longer played (they expire with ``--idle``).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass, field

from solver.errors import DixtrixError

#: the schema this code writes (``PRAGMA user_version``)
SCHEMA_VERSION = 2

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,      -- JSON object, the game's options
    seed TEXT NOT NULL,         -- decimal: deals every deal, the bots' seeds derive from it
    seeded INTEGER NOT NULL,    -- 1: the creator gave the seed (reproducible)
    seats TEXT NOT NULL,        -- JSON list, one per seat: {"bot": settings} or {"person": true}
    admin_hash TEXT,            -- SHA-256 (hex) of the admin token
    moves INTEGER NOT NULL,     -- actions played: the table's version
    created REAL NOT NULL,
    updated REAL NOT NULL,
    ended REAL                  -- when the match ended (NULL while it runs)
);
CREATE TABLE IF NOT EXISTS seat_tokens (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    token_hash TEXT NOT NULL,   -- SHA-256 (hex) of the seat's token
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,       -- 0, 1, 2...: the action's index in the match
    seat INTEGER NOT NULL,      -- who played it
    action TEXT NOT NULL,       -- the action in notation
    PRIMARY KEY (table_id, idx)
);
CREATE INDEX IF NOT EXISTS tables_expiry ON tables (ended, updated);
"""


class StoreError(DixtrixError):
    """The table database cannot be opened or written."""


class MoveConflict(DixtrixError):
    """Another writer appended a move at the same index first."""


@dataclass
class Row:
    id: str
    game: str
    options: dict
    seed: int
    seeded: bool
    #: one per seat: {"bot": "settings", "level": "hard"?} or {"person": True}
    seats: list
    admin_hash: str | None
    created: float
    updated: float
    ended: float | None
    #: ``(seat, action)`` of every move, in order
    moves: list = field(default_factory=list)
    #: seat -> SHA-256 of its token
    token_hashes: dict = field(default_factory=dict)

    @property
    def persons(self) -> list[int]:
        return [s for s, spec in enumerate(self.seats) if "person" in spec]

    @property
    def bots(self) -> dict[int, str]:
        return {s: spec["bot"] for s, spec in enumerate(self.seats) if "bot" in spec}


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
            self.db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the table database {path!r}: {exc}") from None

    # ---- schema ---------------------------------------------------------------

    def _migrate(self) -> None:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"the table database {self.path!r} has schema {version}, newer "
                             f"than this server's {SCHEMA_VERSION}: upgrade dixtrix")
        old = version == 0 and self.db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tables'").fetchone()
        self.db.execute("BEGIN IMMEDIATE")
        try:
            if old:
                self.db.execute("ALTER TABLE tables RENAME TO tables_v1")
            # one statement at a time: executescript would commit the transaction
            for statement in filter(str.strip, SCHEMA.split(";")):
                self.db.execute(statement)
            if old:
                self._upgrade_from_1()
            self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def _upgrade_from_1(self) -> None:
        """Schema 1: ``tables(id, game, options, seed, humans, bots, actions,
        created, updated, ended)``; no tokens and no record of who played
        each action (replayed here to find it)."""
        import solver
        rows = self.db.execute("SELECT id, game, options, seed, humans, bots, actions, "
                               "created, updated, ended FROM tables_v1").fetchall()
        for tid, game, options, seed, humans, bots, actions, created, updated, ended in rows:
            humans, bots = json.loads(humans), {int(k): v for k, v in json.loads(bots).items()}
            actions = json.loads(actions)
            state = solver.load_game(game, **json.loads(options)).new_initial_state(seed=seed)
            seats = [{"person": True} if s in humans else {"bot": bots.get(s, "rules")}
                     for s in range(state.game.num_players)]
            self.db.execute("INSERT INTO tables VALUES (?, ?, ?, ?, 1, ?, NULL, ?, ?, ?, ?)",
                            (tid, game, options, str(seed), json.dumps(seats), len(actions),
                             created, updated, ended))
            for i, text in enumerate(actions):
                seat = state.current_player()
                state.apply_action(state.string_to_action(text))
                self.db.execute("INSERT INTO moves VALUES (?, ?, ?, ?)", (tid, i, seat, text))
        self.db.execute("DROP TABLE tables_v1")

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

    # ---- tables ---------------------------------------------------------------

    def insert(self, row: Row) -> None:
        with self.lock:
            try:
                self.db.execute("BEGIN IMMEDIATE")
                self.db.execute(
                    "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (row.id, row.game, json.dumps(row.options), str(row.seed), int(row.seeded),
                     json.dumps(row.seats), row.admin_hash, len(row.moves), row.created,
                     row.updated, row.ended))
                self.db.executemany("INSERT INTO seat_tokens VALUES (?, ?, ?)",
                                    [(row.id, s, h) for s, h in sorted(row.token_hashes.items())])
                self.db.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback()
                raise StoreError(f"the table database {self.path!r} failed: {exc}") from None

    def append(self, table_id: str, start: int, moves: list, updated: float,
               ended: float | None) -> None:
        """Append ``moves`` (``(seat, action)``) at indices ``start``...; one
        transaction.  ``MoveConflict`` when the table holds another move at
        ``start`` already (another writer played that turn first)."""
        with self.lock:
            try:
                self.db.execute("BEGIN IMMEDIATE")
                got = self.db.execute("SELECT moves FROM tables WHERE id = ?",
                                      (table_id,)).fetchone()
                if got is None or got[0] != start:
                    self.db.execute("ROLLBACK")
                    raise MoveConflict(f"table {table_id}: {got and got[0]} moves stored, "
                                       f"expected {start}")
                self.db.executemany("INSERT INTO moves VALUES (?, ?, ?, ?)",
                                    [(table_id, start + i, seat, action)
                                     for i, (seat, action) in enumerate(moves)])
                self.db.execute("UPDATE tables SET moves = ?, updated = ?, ended = ? "
                                "WHERE id = ?", (start + len(moves), updated, ended, table_id))
                self.db.execute("COMMIT")
            except sqlite3.IntegrityError:
                self._rollback()
                raise MoveConflict(f"table {table_id}: move {start} is taken") from None
            except sqlite3.Error as exc:
                self._rollback()
                raise StoreError(f"the table database {self.path!r} failed: {exc}") from None

    def _rollback(self) -> None:
        try:
            self.db.execute("ROLLBACK")
        except sqlite3.Error:
            pass

    def touch(self, table_id: str, updated: float) -> None:
        self._execute("UPDATE tables SET updated = ? WHERE id = ?", (updated, table_id))

    def load(self, table_id: str) -> Row | None:
        with self.lock:
            try:
                got = self.db.execute(
                    "SELECT id, game, options, seed, seeded, seats, admin_hash, created, "
                    "updated, ended FROM tables WHERE id = ?", (table_id,)).fetchone()
                if got is None:
                    return None
                moves = self.db.execute("SELECT seat, action FROM moves WHERE table_id = ? "
                                        "ORDER BY idx", (table_id,)).fetchall()
                tokens = self.db.execute("SELECT seat, token_hash FROM seat_tokens WHERE "
                                         "table_id = ?", (table_id,)).fetchall()
            except sqlite3.Error as exc:
                raise StoreError(f"the table database {self.path!r} failed: {exc}") from None
        (tid, game, options, seed, seeded, seats, admin_hash, created, updated, ended) = got
        return Row(tid, game, json.loads(options), int(seed), bool(seeded), json.loads(seats),
                   admin_hash, created, updated, ended, [tuple(m) for m in moves],
                   {s: h for s, h in tokens})

    def exists(self, table_id: str) -> bool:
        return self._execute("SELECT 1 FROM tables WHERE id = ?", (table_id,), "one") \
            is not None

    def delete(self, table_id: str) -> bool:
        # seat tokens and moves go with it (ON DELETE CASCADE)
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


__all__ = ["Store", "Row", "StoreError", "MoveConflict", "SCHEMA_VERSION"]
