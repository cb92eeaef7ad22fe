"""The ladder's SQLite store: one row per finished game.

The coordinator is the only writer and commits each game as soon as it
arrives, so a killed run loses at most the games in flight.  A game's key
``(schedule_id, deal, grp, rotation)`` is UNIQUE: a game is never stored
twice, even by two coordinators racing on the same file (WAL journal, a
busy timeout, and an insert that skips a key already there).  The
schedule's definition is stored once in ``meta``; opening the file for
another schedule raises :class:`ScheduleMismatchError` and changes
nothing.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from datetime import datetime, timezone
from typing import overload

from solver.errors import DixtrixError
from solver.front import N_
from solver.said import Quote, Said, phrase

from .play import GameResult
from .schedule import Schedule

# the errors raised here (solver/errors.py: a code and its parameters; ``db``
# the database's file name as given)
NOT_SQLITE = phrase("ladder_not_sqlite", N_("{db}: not a usable SQLite database ({reason})"))
OTHER_LADDER = phrase("ladder_other_schedule", N_("{db} holds another ladder (schedule "
                                                  "{stored_id}: {stored}); this one is "
                                                  "schedule {schedule_id} ({schedule}): use "
                                                  "another --db"))
#: a schedule's definition in a message: its game and options, entries, seed
DEFINITION = phrase("ladder_definition", N_("{game}[{options}], entries {entries}, seed {seed}"))
NO_LADDER = phrase("ladder_missing", N_("{db}: no such ladder database"))
STAYED_LOCKED = phrase("ladder_locked", N_("{db}: database stayed locked; is another run "
                                           "writing it?"))
NOT_A_LADDER = phrase("ladder_not_a_ladder", N_("{db}: not a dixtrix ladder database (tables: "
                                                "{tables})"))
NOT_A_LADDER_EMPTY = phrase("ladder_not_a_ladder_empty", N_("{db}: not a dixtrix ladder "
                                                            "database (tables: none)"))
NO_SCHEDULE = phrase("ladder_no_schedule", N_("{db}: ladder database without a schedule (meta "
                                              "incomplete)"))
OTHER_FORMAT = phrase("ladder_format", N_("{db}: ladder database format {got}, this dixtrix "
                                          "reads format {format}"))
DEFINITION_NOT_JSON = phrase("ladder_definition_json", N_("{db}: ladder schedule definition is "
                                                          "not JSON"))

STORE_FORMAT = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY,
    schedule_id TEXT    NOT NULL,
    deal        INTEGER NOT NULL,
    grp         INTEGER NOT NULL,
    rotation    INTEGER NOT NULL,
    deal_seed   INTEGER NOT NULL,
    arrangement TEXT    NOT NULL,   -- JSON: entry index per seat
    entries     TEXT    NOT NULL,   -- JSON: bot settings string per seat
    bot_seeds   TEXT    NOT NULL,   -- JSON: bot seed per seat
    returns     TEXT    NOT NULL,   -- JSON: state.returns() per seat
    scores      TEXT    NOT NULL,   -- JSON: summed deal scores per seat
    rounds      INTEGER NOT NULL,
    actions     INTEGER NOT NULL,
    record      TEXT    NOT NULL,   -- JSON: solver.to_json(final state)
    seconds     REAL    NOT NULL,   -- time to play the game
    finished_at TEXT    NOT NULL,   -- UTC, ISO 8601
    UNIQUE (schedule_id, deal, grp, rotation)
);
"""


class LadderError(DixtrixError, ValueError):
    """A ladder database that cannot be used (not a ladder, unreadable)."""


class ScheduleMismatchError(LadderError):
    """The database holds the games of another schedule."""


def _connect(path: str) -> sqlite3.Connection:
    try:
        conn = sqlite3.connect(path, timeout=30.0)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
    except sqlite3.DatabaseError as exc:
        raise LadderError(NOT_SQLITE(db=path, reason=str(exc))) from None
    return conn


class LadderStore:
    """``LadderStore.create(path, schedule)`` for a run (creates the file or
    checks that it holds this schedule); ``LadderStore.open(path)`` to read
    an existing ladder (``.schedule`` rebuilt from the stored definition)."""

    def __init__(self, path: str, conn: sqlite3.Connection, schedule: Schedule):
        self.path = path
        self.conn = conn
        self.schedule = schedule

    @classmethod
    def create(cls, path: str, schedule: Schedule) -> LadderStore:
        conn = _connect(path)
        try:
            meta = _read_meta(conn, path, missing_ok=True)
            if meta is None:
                with conn:
                    conn.executescript(_SCHEMA)
                    conn.executemany(
                        "INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)",
                        [("format", str(STORE_FORMAT)),
                         ("schedule_id", schedule.schedule_id),
                         ("definition", json.dumps(schedule.definition, sort_keys=True)),
                         ("created_at", _now())])
                meta = _read_meta(conn, path)
            if meta["schedule_id"] != schedule.schedule_id:
                raise ScheduleMismatchError(OTHER_LADDER(
                    db=path, stored_id=meta["schedule_id"], stored=_describe(meta["definition"]),
                    schedule_id=schedule.schedule_id, schedule=_describe(schedule.definition)))
        except BaseException:
            conn.close()
            raise
        return cls(path, conn, schedule)

    @classmethod
    def open(cls, path: str) -> LadderStore:
        if not os.path.exists(path):
            raise LadderError(NO_LADDER(db=path))
        conn = _connect(path)
        try:
            meta = _read_meta(conn, path)
            schedule = Schedule.from_definition(meta["definition"])
        except BaseException:
            conn.close()
            raise
        return cls(path, conn, schedule)

    # ---- writing ----
    def add(self, res: GameResult) -> bool:
        """Store one finished game (one transaction).  False if its key is
        already there (it is never stored twice)."""
        for attempt in range(20):
            try:
                with self.conn:
                    cur = self.conn.execute(
                        "INSERT OR IGNORE INTO games (schedule_id, deal, grp, rotation, "
                        "deal_seed, arrangement, entries, bot_seeds, returns, scores, rounds, "
                        "actions, record, seconds, finished_at) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (self.schedule.schedule_id, res.deal, res.group, res.rotation,
                         res.deal_seed, json.dumps(list(res.arrangement)),
                         json.dumps(list(res.specs)), json.dumps(list(res.bot_seeds)),
                         json.dumps(list(res.returns)), json.dumps(list(res.scores)),
                         res.rounds, res.actions, res.record, res.seconds, _now()))
                return cur.rowcount == 1
            except sqlite3.OperationalError as exc:   # locked by another writer
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                time.sleep(0.05 * (attempt + 1))
        raise LadderError(STAYED_LOCKED(db=self.path))

    def set_meta(self, key: str, value: str) -> None:
        with self.conn:
            self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                              (key, value))

    def meta(self, key: str, default=None):
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return default if row is None else row[0]

    # ---- reading ----
    def done_keys(self) -> set[tuple[int, int, int]]:
        rows = self.conn.execute("SELECT deal, grp, rotation FROM games WHERE schedule_id = ?",
                                 (self.schedule.schedule_id,))
        return {tuple(r) for r in rows}

    def count(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    def rows(self, with_record: bool = False) -> list[dict]:
        """Every stored game in (deal, group, rotation) order, JSON decoded."""
        cols: tuple[str, ...] = ("deal", "grp", "rotation", "deal_seed", "arrangement",
                                 "entries", "bot_seeds", "returns", "scores", "rounds",
                                 "actions", "seconds")
        if with_record:
            cols = (*cols, "record")
        cur = self.conn.execute(f"SELECT {', '.join(cols)} FROM games WHERE schedule_id = ? "
                                f"ORDER BY deal, grp, rotation", (self.schedule.schedule_id,))
        out = []
        for row in cur:
            d = dict(zip(cols, row, strict=True))
            for k in ("arrangement", "entries", "bot_seeds", "returns", "scores"):
                d[k] = json.loads(d[k])
            if with_record:
                d["record"] = json.loads(d["record"])
            out.append(d)
        return out

    def close(self) -> None:
        self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _describe(defn: dict) -> Said:
    opts = ",".join(f"{k}={v}" for k, v in sorted(defn.get("options", {}).items()))
    return DEFINITION(game=str(defn.get("game")), options=opts,
                      entries=",".join(defn.get("entries", [])), seed=defn.get("seed"))


@overload
def _read_meta(conn: sqlite3.Connection, path: str) -> dict: ...
@overload
def _read_meta(conn: sqlite3.Connection, path: str, missing_ok: bool) -> dict | None: ...
def _read_meta(conn: sqlite3.Connection, path: str, missing_ok: bool = False) -> dict | None:
    try:
        tables = {r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as exc:
        raise LadderError(NOT_SQLITE(db=path, reason=str(exc))) from None
    if not tables and missing_ok:
        return None
    if not {"meta", "games"} <= tables:
        raise LadderError(NOT_A_LADDER(db=path, tables=sorted(tables)) if tables
                          else NOT_A_LADDER_EMPTY(db=path))
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    if "schedule_id" not in meta or "definition" not in meta:
        raise LadderError(NO_SCHEDULE(db=path))
    if meta.get("format") != str(STORE_FORMAT):
        raise LadderError(OTHER_FORMAT(db=path, got=Quote(meta.get("format")),
                                       format=STORE_FORMAT))
    try:
        meta["definition"] = json.loads(meta["definition"])
    except ValueError:
        raise LadderError(DEFINITION_NOT_JSON(db=path)) from None
    return meta
