"""Where tables are kept: one interface (``TableStore``), two databases.

* ``SqliteStore`` -- the standard library's ``sqlite3`` (WAL journal), the
  default: nothing to install, one machine;
* ``PostgresStore`` (``bots.server.pgstore``, the ``postgres`` extra) --
  ``dixtrix serve --db postgresql://...``: several server processes, on
  several machines, share every table (docs/server.md).

``bots.server.db.open_store(db)`` picks by the name.  The store is the one place a
table's record lives; a server rebuilds a table's game by replaying it
(``table.Table``) and catches up with moves another process committed
(``head`` then ``moves_from``).  The schema, the same in both databases:

* ``tables`` -- one row a table: its id, the game and options, the seed
  that deals every deal (decimal text: an unseeded table's seed has 128
  bits, more than an SQL integer holds) and whether the creator gave it
  (``seeded``), the seats (a person or a bot settings string each), the
  SHA-256 of the admin token, when it was created, last used and ended,
  ``moves``: the number of actions played (the table's version: every
  change raises it), and the claim on its bot turns (``claim_owner``, the
  process playing them, until ``claim_until``: a lease, so the turns of a
  killed process go to another once it runs out);
* ``seat_tokens`` -- the SHA-256 of each person seat's token (never the
  token: a copy of the database lets nobody act at a table);
* ``moves`` -- one row an action, keyed by ``(table_id, idx)``;
* ``schema_version`` -- the schema's number and when it was reached.

Schema 4 adds to ``tables`` what the lobby, the rematch and the absent
seats need: ``public`` (listed in the lobby, its open seats taken by
joining), ``away`` (the seconds a person's turn waits before a bot plays
the seat), ``moved`` (when the last move was stored: the turn's start) and
``rematch`` (the id of the table the match goes on at).  A seat's state
lives in its ``seats`` entry: ``open`` (a public table's seat nobody has
joined yet), ``standin`` (the bot playing a person's seat while the person
is away) and ``back`` (when the person last took the seat back).

Appending checks the table's version inside one transaction that holds
the table's row (SQLite: ``BEGIN IMMEDIATE``, PostgreSQL: ``SELECT ... FOR
UPDATE``), and the ``(table_id, idx)`` key backs it: two writers (two
requests, or two server processes) can never both play the same turn; the
loser gets ``MoveConflict``.  Every change is committed before the request
that made it is answered, so a killed server loses nothing it has
acknowledged.

Schema versions, upgraded in place in order when a store is opened
(``MIGRATIONS``): 1, one row a table with its actions as JSON and no
tokens (SQLite only); 2, tokens and one row a move; 3, the bot-turn claim
and the ``schema_version`` table; 4, the lobby, the rematch and absent
seats.  SQLite also keeps the number in ``PRAGMA user_version``, which is
what servers before schema 3 read, so they refuse a database newer than
they are.  The schema's SQL and the rows read are ``records.py``'s.
"""

from __future__ import annotations

import abc
import contextlib
import json
import sqlite3
import threading
import time as _time
from collections.abc import Callable, Iterator
from typing import Any

import solver
from solver.errors import DixtrixError

from .errors import CANNOT_OPEN, DUPLICATE, FAILED, MOVES_STORED, NEWER_SCHEMA
from .records import (
    COLUMNS,
    COLUMNS_2,
    LOBBY,
    MIGRATE_2_TO_3,
    MIGRATE_3_TO_4,
    SCHEMA_2,
    SCHEMA_VERSION,
    Head,
    Row,
    _statements,
)


class StoreError(DixtrixError):
    """The table database cannot be opened or written."""


class MoveConflict(DixtrixError):
    """Another writer appended a move at the same index first."""


class TableStore(abc.ABC):
    """What the server needs of a table database.  Every method is one
    short transaction, safe from any worker thread; a database failure is a
    ``StoreError`` (the server answers 503: the request may be tried
    again)."""

    #: what the server prints about where its tables are (no password)
    description: str = ""

    @abc.abstractmethod
    def insert(self, row: Row) -> None:
        """A new table, its seat tokens with it."""

    @abc.abstractmethod
    def append(self, table_id: str, start: int, moves: list, updated: float,
               ended: float | None) -> None:
        """Append ``moves`` (``(seat, action)``) at indices ``start``...; one
        transaction.  ``MoveConflict`` when the table holds another move at
        ``start`` already (another writer played that turn first) or is
        gone."""

    @abc.abstractmethod
    def touch(self, table_id: str, updated: float) -> None:
        """The table was used (its idle time starts again)."""

    @abc.abstractmethod
    def load(self, table_id: str) -> Row | None:
        """The table's whole record (None: there is none)."""

    @abc.abstractmethod
    def head(self, table_id: str) -> Head | None:
        """The table's version and times (None: there is none)."""

    @abc.abstractmethod
    def moves_from(self, table_id: str, start: int, stop: int) -> list[tuple[int, str]]:
        """The ``(seat, action)`` of moves ``start`` .. ``stop - 1``."""

    @abc.abstractmethod
    def exists(self, table_id: str) -> bool: ...

    @abc.abstractmethod
    def delete(self, table_id: str) -> bool:
        """Delete the table (its tokens and moves with it); False: it was
        not there (another process deleted it first)."""

    @abc.abstractmethod
    def expired(self, now: float, idle: float, grace: float) -> list[str]:
        """The ids of tables ended more than ``grace`` seconds ago or unused
        for ``idle`` seconds."""

    @abc.abstractmethod
    def count(self) -> int: ...

    @abc.abstractmethod
    def claim(self, table_id: str, owner: str, version: int, lease: float) -> bool:
        """Claim (or renew) the right to play the table's bot turns for
        ``lease`` seconds of the database's clock, if the table is at
        ``version`` and no other owner's claim is running.  True: the claim
        is ``owner``'s."""

    @abc.abstractmethod
    def release(self, table_id: str, owner: str) -> None:
        """Hand back ``owner``'s claim (another process may take the turns
        at once)."""

    @abc.abstractmethod
    def set_seats(self, table_id: str, seats: list) -> None:
        """Store the table's seats (a seat handed to a bot or taken back)."""

    @abc.abstractmethod
    def join(self, table_id: str, seat: int, token_hash: str, seats: list) -> None:
        """Give the open ``seat`` its token and store ``seats`` (the seat no
        longer open), one transaction; ``MoveConflict`` when the seat has a
        token already (another joiner was first)."""

    @abc.abstractmethod
    def tokens(self, table_id: str) -> dict[int, str]:
        """seat -> the SHA-256 of its token."""

    @abc.abstractmethod
    def lobby(self, limit: int = LOBBY) -> list[Row]:
        """The public tables not ended with an open seat, the newest first
        (at most ``limit``; their moves and tokens are not read)."""

    @abc.abstractmethod
    def rematch(self, table_id: str, row: Row) -> str | None:
        """Insert ``row`` as ``table_id``'s rematch unless it has one; one
        transaction, so two players asking at once get one table.  Returns
        the rematch's id (``row.id``, or the one made before), None if the
        table is gone."""

    @abc.abstractmethod
    def ping(self) -> None:
        """One round trip to the database (``StoreError`` if it does not
        answer): what ``/healthz`` reports."""

    def notify(self, table_id: str, version: int, origin: str) -> None:
        """Tell the other server processes on this database that a table
        changed (``origin``: the process that changed it).  A database of
        one process has nobody to tell."""
        return None

    def listen(self, callback: Callable[[str, int, str], None]) -> None:
        """Call ``callback(table_id, version, origin)`` for every other
        process's ``notify``, from a thread of the store's, until
        ``close``."""
        return None

    @abc.abstractmethod
    def close(self) -> None: ...

    @property
    @abc.abstractmethod
    def schema_version(self) -> int:
        """The schema of the open database (``SCHEMA_VERSION`` once open)."""


def _row(got: tuple, moves: list, tokens: list) -> Row:
    (tid, game, options, seed, seeded, seats, admin_hash, _count, created, updated,
     ended, public, away, moved, rematch) = got
    return Row(tid, game, json.loads(options), int(seed), bool(seeded), json.loads(seats),
               admin_hash, created, updated, ended, [(int(s), a) for s, a in moves],
               {int(s): h for s, h in tokens}, bool(public), away, moved, rematch)


class SqlStore(TableStore):
    """The SQL both databases run; a subclass gives the transaction, the
    parameter style and the database's clock."""

    #: appended to the SELECT that reads a table's version before an append
    for_update = ""
    #: the database's clock in seconds since 1970 (claims' leases use it, so
    #: that processes on machines whose clocks differ agree on a lease)
    now_sql = ""

    @abc.abstractmethod
    def _tx(self, atomic: bool = False) -> contextlib.AbstractContextManager[Callable[..., Any]]:
        """Statements on one connection (``atomic``: in one transaction;
        otherwise each commits by itself, which is all a single statement,
        or reads that need no common snapshot, need): yields ``q(sql, params)`` returning a cursor (SQL
        written with ``?`` placeholders); commits at the end, rolls back on
        an exception, and turns the database's errors into ``StoreError``
        (a duplicate key into ``MoveConflict``)."""

    def insert(self, row: Row) -> None:
        with self._tx(atomic=True) as q:
            self._insert(q, row)

    @staticmethod
    def _insert(q, row: Row) -> None:
        q(f"INSERT INTO tables ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
          (row.id, row.game, json.dumps(row.options), str(row.seed), int(row.seeded),
           json.dumps(row.seats), row.admin_hash, len(row.moves), row.created,
           row.updated, row.ended, int(row.public), row.away, row.moved, row.rematch))
        for s, h in sorted(row.token_hashes.items()):
            q("INSERT INTO seat_tokens (table_id, seat, token_hash) VALUES (?, ?, ?)",
              (row.id, s, h))

    def append(self, table_id, start, moves, updated, ended) -> None:
        with self._tx(atomic=True) as q:
            got = q("SELECT moves FROM tables WHERE id = ?" + self.for_update,
                    (table_id,)).fetchone()
            if got is None or got[0] != start:
                raise MoveConflict(MOVES_STORED(table=table_id, stored=got and got[0], expected=start))
            for i, (seat, action) in enumerate(moves):
                q("INSERT INTO moves (table_id, idx, seat, action) VALUES (?, ?, ?, ?)",
                  (table_id, start + i, seat, action))
            q("UPDATE tables SET moves = ?, updated = ?, moved = ?, ended = ? WHERE id = ?",
              (start + len(moves), updated, updated, ended, table_id))

    def touch(self, table_id, updated) -> None:
        with self._tx() as q:
            q("UPDATE tables SET updated = ? WHERE id = ?", (updated, table_id))

    def load(self, table_id) -> Row | None:
        with self._tx() as q:
            got = q(f"SELECT {COLUMNS} FROM tables WHERE id = ?", (table_id,)).fetchone()
            if got is None:
                return None
            # the moves the row counts: one more committed meanwhile by another
            # process is read at the next catch-up, never half of it now
            moves = q("SELECT seat, action FROM moves WHERE table_id = ? AND idx < ? "
                      "ORDER BY idx", (table_id, got[7])).fetchall()
            tokens = q("SELECT seat, token_hash FROM seat_tokens WHERE table_id = ?",
                       (table_id,)).fetchall()
        return _row(tuple(got), moves, tokens)

    def head(self, table_id) -> Head | None:
        with self._tx() as q:
            got = q("SELECT moves, updated, ended, seats, rematch, moved FROM tables "
                    "WHERE id = ?",
                    (table_id,)).fetchone()
        return None if got is None else Head(*got)

    def moves_from(self, table_id, start, stop) -> list[tuple[int, str]]:
        with self._tx() as q:
            rows = q("SELECT seat, action FROM moves WHERE table_id = ? AND idx >= ? AND "
                     "idx < ? ORDER BY idx", (table_id, start, stop)).fetchall()
        return [(int(s), a) for s, a in rows]

    def exists(self, table_id) -> bool:
        with self._tx() as q:
            return q("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone() is not None

    def delete(self, table_id) -> bool:
        # seat tokens and moves go with it (ON DELETE CASCADE)
        with self._tx() as q:
            return q("DELETE FROM tables WHERE id = ?", (table_id,)).rowcount > 0

    def expired(self, now, idle, grace) -> list[str]:
        with self._tx() as q:
            rows = q("SELECT id FROM tables WHERE (ended IS NOT NULL AND ended < ?) OR "
                     "updated < ?", (now - grace, now - idle)).fetchall()
        return [r[0] for r in rows]

    def count(self) -> int:
        with self._tx() as q:
            return int(q("SELECT COUNT(*) FROM tables").fetchone()[0])

    def claim(self, table_id, owner, version, lease) -> bool:
        with self._tx() as q:
            cur = q(f"UPDATE tables SET claim_owner = ?, claim_until = {self.now_sql} + ? "
                    f"WHERE id = ? AND moves = ? AND (claim_owner IS NULL OR claim_owner = ? "
                    f"OR claim_until < {self.now_sql})",
                    (owner, lease, table_id, version, owner))
            return cur.rowcount == 1

    def release(self, table_id, owner) -> None:
        with self._tx() as q:
            q("UPDATE tables SET claim_owner = NULL, claim_until = NULL WHERE id = ? AND "
              "claim_owner = ?", (table_id, owner))

    def set_seats(self, table_id, seats) -> None:
        with self._tx() as q:
            q("UPDATE tables SET seats = ? WHERE id = ?", (json.dumps(seats), table_id))

    def join(self, table_id, seat, token_hash, seats) -> None:
        # the (table_id, seat) key refuses a second token: MoveConflict
        with self._tx(atomic=True) as q:
            q("INSERT INTO seat_tokens (table_id, seat, token_hash) VALUES (?, ?, ?)",
              (table_id, seat, token_hash))
            q("UPDATE tables SET seats = ? WHERE id = ?", (json.dumps(seats), table_id))

    def tokens(self, table_id) -> dict[int, str]:
        with self._tx() as q:
            rows = q("SELECT seat, token_hash FROM seat_tokens WHERE table_id = ?",
                     (table_id,)).fetchall()
        return {int(s): h for s, h in rows}

    def lobby(self, limit=LOBBY) -> list[Row]:
        # an open seat is written '"open": true' in the seats' JSON (json.dumps)
        with self._tx() as q:
            rows = q(f"SELECT {COLUMNS} FROM tables WHERE public = 1 AND ended IS NULL AND "
                     f"seats LIKE ? ORDER BY created DESC, id LIMIT ?",
                     ('%"open": true%', limit)).fetchall()
        return [_row(tuple(r), [], []) for r in rows]

    def rematch(self, table_id, row) -> str | None:
        with self._tx(atomic=True) as q:
            # the row's lock (PostgreSQL) or the write lock (SQLite): a second
            # player asking at once waits here, then finds the first's rematch
            if q("UPDATE tables SET rematch = ? WHERE id = ? AND rematch IS NULL",
                 (row.id, table_id)).rowcount == 1:
                self._insert(q, row)
                return row.id
            got = q("SELECT rematch FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if got is None else got[0]

    def ping(self) -> None:
        with self._tx() as q:
            q("SELECT 1").fetchone()


class SqliteStore(SqlStore):
    """SQLite: one connection shared by the worker threads behind a lock
    (each statement is short); WAL, so readers of the file in other
    processes never wait for a writer."""

    now_sql = "((julianday('now') - 2440587.5) * 86400.0)"

    def __init__(self, path: str):
        self.path = path
        self.description = path
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
            raise StoreError(CANNOT_OPEN(db=repr(path), reason=str(exc))) from None

    @contextlib.contextmanager
    def _tx(self, atomic: bool = False) -> Iterator[Callable[..., Any]]:
        with self.lock:
            try:
                if not atomic:
                    yield self.db.execute
                    return
                # a writer takes the file's write lock at once: two processes on
                # one file then wait for each other instead of failing mid-way
                self.db.execute("BEGIN IMMEDIATE")
                try:
                    yield self.db.execute
                except BaseException:
                    self.db.execute("ROLLBACK")
                    raise
                self.db.execute("COMMIT")
            except sqlite3.IntegrityError as exc:
                raise MoveConflict(DUPLICATE(reason=str(exc))) from None
            except sqlite3.Error as exc:
                raise StoreError(FAILED(db=repr(self.path), reason=str(exc))) from None

    # ---- schema ---------------------------------------------------------------

    def _version(self) -> int:
        if self.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                           "name = 'schema_version'").fetchone():
            got = self.db.execute("SELECT MAX(version) FROM schema_version").fetchone()
            if got[0] is not None:
                return int(got[0])
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version == 0 and self.db.execute("SELECT 1 FROM sqlite_master WHERE type = "
                                            "'table' AND name = 'tables'").fetchone():
            return 1                        # schema 1 never set user_version
        return int(version)

    @property
    def schema_version(self) -> int:
        with self.lock:
            return self._version()

    def _migrate(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            version = self._version()
            if version > SCHEMA_VERSION:
                raise StoreError(NEWER_SCHEMA(db=repr(self.path), version=version, supported=SCHEMA_VERSION))
            if version < SCHEMA_VERSION:
                if version == 0:
                    for statement in _statements(SCHEMA_2, "REAL"):
                        self.db.execute(statement)
                    version = 2
                for step in range(version, SCHEMA_VERSION):
                    MIGRATIONS[step](self)
                self.db.execute("INSERT INTO schema_version VALUES (?, ?)",
                                (SCHEMA_VERSION, _time.time()))
                self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def _upgrade_from_1(self) -> None:
        """Schema 1: ``tables(id, game, options, seed, humans, bots, actions,
        created, updated, ended)``; no tokens and no record of who played
        each action (replayed here to find it).  Its tables keep their
        moves; since they had no tokens, their seats can be watched but no
        longer played (they expire with ``--idle``)."""
        self.db.execute("ALTER TABLE tables RENAME TO tables_v1")
        for statement in _statements(SCHEMA_2, "REAL"):
            self.db.execute(statement)
        rows = self.db.execute("SELECT id, game, options, seed, humans, bots, actions, "
                               "created, updated, ended FROM tables_v1").fetchall()
        for tid, game, options, seed, humans, bots, actions, created, updated, ended in rows:
            humans, bots = json.loads(humans), {int(k): v for k, v in json.loads(bots).items()}
            actions = json.loads(actions)
            state = solver.load_game(game, **json.loads(options)).new_initial_state(seed=seed)
            seats = [{"person": True} if s in humans else {"bot": bots.get(s, "rules")}
                     for s in range(state.game.num_players)]
            self.db.execute(f"INSERT INTO tables ({COLUMNS_2}) VALUES "
                            "(?, ?, ?, ?, 1, ?, NULL, ?, ?, ?, ?)",
                            (tid, game, options, str(seed), json.dumps(seats), len(actions),
                             created, updated, ended))
            for i, text in enumerate(actions):
                seat = state.current_player()
                state.apply_action(state.string_to_action(text))
                self.db.execute("INSERT INTO moves VALUES (?, ?, ?, ?)", (tid, i, seat, text))
        self.db.execute("DROP TABLE tables_v1")

    def _upgrade_from_2(self) -> None:
        for statement in _statements(MIGRATE_2_TO_3, "REAL"):
            self.db.execute(statement)

    def _upgrade_from_3(self) -> None:
        for statement in _statements(MIGRATE_3_TO_4, "REAL"):
            self.db.execute(statement)

    def close(self) -> None:
        with self.lock:
            self.db.close()


#: the step from schema ``v`` to ``v + 1`` (SQLite; PostgreSQL starts at 2)
MIGRATIONS: dict[int, Callable[[SqliteStore], None]] = {
    1: SqliteStore._upgrade_from_1,
    2: SqliteStore._upgrade_from_2,
    3: SqliteStore._upgrade_from_3,
}


#: the name the server used before there were two stores
Store = SqliteStore

__all__ = ["TableStore", "SqlStore", "SqliteStore", "Store", "Row", "Head", "StoreError",
           "MoveConflict", "SCHEMA_VERSION", "LOBBY"]
