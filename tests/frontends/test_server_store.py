"""The table store: the same tests against SQLite and a throwaway
PostgreSQL (``conftest.postgres_server``): the record, the version check
that refuses a second writer of one turn, the bot-turn claim and its
lease, the upgrade of a database of the previous schema (2) in place, and
two servers' ``Tables`` over one database (catch-up, claims, a shutdown
that hands the turns back, deletion)."""

from __future__ import annotations

import json
import sqlite3
import threading
import time

import pytest

from bots.server.db import open_store
from bots.server.errors import RequestError, TableNotFound
from bots.server.settings import Settings
from bots.server.store import (
    SCHEMA_2,
    SCHEMA_VERSION,
    MoveConflict,
    Row,
    SqliteStore,
    StoreError,
    TableStore,
    _statements,
)
from bots.server.tables import Table, Tables, token_hash


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path):
    """A database name for ``open_store``: an SQLite file, or a fresh
    PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "tables.db")
    return request.getfixturevalue("pg_url")


@pytest.fixture()
def store(db):
    s = open_store(db)
    yield s
    s.close()


def new_row(tid: str = "table0001", seats=None, moves=()) -> Row:
    now = time.time()
    return Row(tid, "dix", {"variant": "seventeen"}, 2**100 + 7, False,
               seats or [{"person": True}, {"bot": "rules"}], token_hash("admin"), now, now,
               None, list(moves), {0: token_hash("seat0")})


def test_a_record_round_trips(store):
    assert isinstance(store, TableStore) and store.schema_version == SCHEMA_VERSION
    row = new_row()
    store.insert(row)
    got = store.load(row.id)
    assert got == row                          # a 101-bit seed too (decimal text)
    assert store.exists(row.id) and not store.exists("nothing1")
    assert store.load("nothing1") is None and store.head("nothing1") is None
    assert store.count() == 1
    store.append(row.id, 0, [(0, "QS"), (1, "KS")], row.updated + 1, None)
    head = store.head(row.id)
    assert head is not None and head.moves == 2 and head.updated == row.updated + 1
    assert store.moves_from(row.id, 1, 2) == [(1, "KS")]
    assert store.load(row.id).moves == [(0, "QS"), (1, "KS")]
    store.ping()
    assert store.delete(row.id) and not store.delete(row.id)
    assert store.load(row.id) is None and store.moves_from(row.id, 0, 9) == []


def test_a_turn_is_appended_once_however_many_writers_race(db, store):
    """Eight writers, each its own connection (as eight server processes
    have), race to append the same next move again and again: each index is
    taken by exactly one, the others get MoveConflict, nothing is lost or
    doubled."""
    store.insert(new_row())
    stores = [open_store(db) for _ in range(4)]
    wins: list[tuple[int, int]] = []
    lock = threading.Lock()

    def writer(w: int):
        s = stores[w % len(stores)]
        for _ in range(40):
            head = s.head("table0001")
            assert head is not None
            if head.moves >= 30:
                return
            try:
                s.append("table0001", head.moves, [(w, f"m{head.moves}")], time.time(), None)
            except MoveConflict:
                continue
            with lock:
                wins.append((head.moves, w))
    threads = [threading.Thread(target=writer, args=(w,)) for w in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in stores:
        s.close()
    moves = store.load("table0001").moves
    assert len(moves) == 30 == store.head("table0001").moves
    assert [a for _, a in moves] == [f"m{i}" for i in range(30)]
    assert sorted(i for i, _ in wins) == list(range(30))      # one winner an index
    assert [seat for seat, _ in moves] == [w for _, w in sorted(wins)]
    with pytest.raises(MoveConflict):
        store.append("table0001", 29, [(0, "again")], time.time(), None)
    with pytest.raises(MoveConflict):
        store.append("nothing1", 0, [(0, "QS")], time.time(), None)


def test_a_claim_is_one_owners_until_its_lease_runs_out(store):
    store.insert(new_row())
    assert store.claim("table0001", "a", 0, 30.0)
    assert store.claim("table0001", "a", 0, 30.0)            # renewed by its owner
    assert not store.claim("table0001", "b", 0, 30.0)        # a's lease runs
    assert not store.claim("table0001", "a", 1, 30.0)        # not at that version
    store.release("table0001", "b")                          # not b's: nothing happens
    assert not store.claim("table0001", "b", 0, 30.0)
    store.release("table0001", "a")
    assert store.claim("table0001", "b", 0, 0.2)             # handed back: b at once
    assert not store.claim("table0001", "a", 0, 30.0)
    time.sleep(0.4)                                          # b died: its lease ran out
    assert store.claim("table0001", "a", 0, 30.0)
    assert not store.claim("nothing1", "a", 0, 30.0)


def test_expiry_lists_ended_and_idle_tables(store):
    now = time.time()
    old, ended, fresh = new_row("oldtable1"), new_row("endedtab1"), new_row("freshtab1")
    old.updated = now - 5000
    ended.ended = now - 700
    for r in (old, ended, fresh):
        store.insert(r)
    store.append("endedtab1", 0, [(0, "QS")], now, now - 700)
    assert sorted(store.expired(now, 3600, 600)) == ["endedtab1", "oldtable1"]
    store.touch("oldtable1", now)
    assert store.expired(now, 3600, 600) == ["endedtab1"]


def make_schema_2(db: str, rows: list[Row]) -> None:
    """A database as the server before this store wrote it (schema 2, the
    shape on main before schema 3), with ``rows`` in it."""
    if db.startswith("postgresql://"):
        import psycopg
        with psycopg.connect(db, autocommit=True) as conn:
            for statement in _statements(SCHEMA_2, "DOUBLE PRECISION"):
                conn.execute(statement)
            ex = lambda sql, p: conn.execute(sql.replace("?", "%s"), p)  # noqa: E731
            _fill(ex, rows)
        return
    con = sqlite3.connect(db, isolation_level=None)
    for statement in _statements(SCHEMA_2, "REAL"):
        con.execute(statement)
    con.execute("PRAGMA user_version = 2")
    _fill(con.execute, rows)
    con.close()


def _fill(ex, rows: list[Row]) -> None:
    for r in rows:
        ex("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
           (r.id, r.game, json.dumps(r.options), str(r.seed), int(r.seeded), json.dumps(r.seats),
            r.admin_hash, len(r.moves), r.created, r.updated, r.ended))
        for s, h in r.token_hashes.items():
            ex("INSERT INTO seat_tokens VALUES (?, ?, ?)", (r.id, s, h))
        for i, (s, a) in enumerate(r.moves):
            ex("INSERT INTO moves VALUES (?, ?, ?, ?)", (r.id, i, s, a))


def test_a_schema_2_database_is_upgraded_in_place(db):
    rows = [new_row("keptrow01", moves=[(0, "QS"), (1, "KS")]), new_row("keptrow02")]
    make_schema_2(db, rows)
    store = open_store(db)
    try:
        assert store.schema_version == SCHEMA_VERSION
        assert [store.load(r.id) for r in rows] == rows               # every row kept
        store.append("keptrow01", 2, [(0, "JS")], time.time(), None)  # and writable
        assert store.claim("keptrow02", "a", 0, 10.0)                 # with the claim
    finally:
        store.close()
    again = open_store(db)                                            # opened again: as is
    try:
        assert again.schema_version == SCHEMA_VERSION
        assert [a for _, a in again.load("keptrow01").moves] == ["QS", "KS", "JS"]
    finally:
        again.close()
    if not db.startswith("postgresql://"):
        # a server before schema 3 reads user_version, and so refuses this file
        con = sqlite3.connect(db)
        assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        con.close()


def test_a_newer_schema_is_refused(db):
    open_store(db).close()
    if db.startswith("postgresql://"):
        import psycopg
        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute("INSERT INTO schema_version VALUES (99, 0)")
    else:
        con = sqlite3.connect(db, isolation_level=None)
        con.execute("INSERT INTO schema_version VALUES (99, 0)")
        con.close()
    with pytest.raises(StoreError, match="schema 99, newer"):
        open_store(db)


def test_a_database_that_cannot_be_reached_is_a_store_error(tmp_path):
    with pytest.raises(StoreError, match="cannot open"):
        SqliteStore(str(tmp_path / "no" / "such" / "dir.db"))
    pytest.importorskip("psycopg")
    import socket
    with socket.socket() as s:                 # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    from bots.server import pgstore
    before = pgstore.POOL_TIMEOUT
    pgstore.POOL_TIMEOUT = 0.5
    try:
        with pytest.raises(StoreError, match=r"cannot open the table database "
                                             r"postgresql://u:\*\*\*@127.0.0.1"):
            open_store(f"postgresql://u:secret@127.0.0.1:{port}/x")
    finally:
        pgstore.POOL_TIMEOUT = before


# ---- two servers' tables over one database ------------------------------------------


def two_servers(db: str, **settings):
    """Two ``Tables`` over one database, each with its own store
    connection(s) and owner name: two server processes, in one."""
    opts = dict(db=db, max_time=1.0, bot_seconds=60.0, **settings)
    a = Tables(Settings(**opts), open_store(db), owner="server-a")
    b = Tables(Settings(**opts), open_store(db), owner="server-b")
    return a, b


class StopAt:
    """A stop event that is set once the table holds ``n`` stored moves
    (what a shutdown at that moment does)."""

    def __init__(self, store: TableStore, table_id: str, n: int):
        self.store, self.table_id, self.n = store, table_id, n

    def is_set(self) -> bool:
        head = self.store.head(self.table_id)
        return head is None or head.moves >= self.n


def first_legal(tables: Tables, table: Table) -> None:
    """The person to move plays their first legal action."""
    tables.act(table, table.state.current_player(),
               table.state.action_to_string(table.state.legal_actions()[0]))


def test_a_move_made_on_one_server_is_seen_by_the_other(db):
    a, b = two_servers(db)
    try:
        table, _, admin, _ = a.create({"game": "dixie-rook", "options": {"target": 1},
                                       "seed": 5, "seats": [0, 1], "bots": "rules"})
        theirs = b.get(table.id)
        for turn in range(12):
            here = (a, b)[turn % 2]
            t = here.get(table.id)
            with here.locked(t):
                assert t.state.current_player() in (0, 1)
                first_legal(here, t)
        with b.locked(theirs), a.locked(table):
            assert theirs.actions == table.actions and theirs.actors == table.actors
            assert [m for _, m in a.store.load(table.id).moves] == table.actions
        # a move from a copy that is behind: 409, and that copy catches up
        stale = Table(a.store.load(table.id))
        with a.locked(table):
            first_legal(a, table)
        with pytest.raises(RequestError, match="moved on"):
            first_legal(b, stale)
        assert stale.actions == [m for _, m in a.store.load(table.id).moves]
        # a deletion on one server is seen by the other
        a.delete(table.id, admin)
        with pytest.raises(TableNotFound):
            with b.locked(theirs):
                pass
        assert table.id not in b.cache
    finally:
        a.store.close()
        b.store.close()


def test_a_join_a_seat_handed_to_a_bot_and_a_rematch_cross_servers(db):
    """Schema 4 on both databases: a public table is in the lobby of both
    servers until a person joins it through one (the other then knows the
    joiner's token); a seat handed to a bot on one is played by a bot on the
    other; two servers asked for one rematch at once make one table."""
    a, b = two_servers(db)
    try:
        table, _, admin, tokens = a.create({"game": "dixie-rook", "options": {"target": 1},
                                            "seed": 5, "seats": [0, 2], "bots": "rules",
                                            "public": True, "away": 60})
        assert [r.id for r in b.store.lobby()] == [table.id] and table.row.open == [2]
        theirs = b.get(table.id)
        with b.locked(theirs):
            seat, token = b.join(theirs, None)
        assert seat == 2 and a.store.lobby() == []
        with a.locked(table):
            assert table.seat_of(token) == 2 and table.row.open == []
        # a seat handed to a bot on b: a's copy lets the stand-in play it
        with b.locked(theirs):
            b.set_away(theirs, admin, 2, True, None)
        with a.locked(table):
            assert table.row.seats[2]["standin"] == "rules" and 2 not in table.row.playing
        for _ in range(400):
            with a.locked(table):
                if table.state.is_terminal():
                    break
                first_legal(a, table)
        assert table.state.is_terminal()
        with b.locked(theirs):
            assert theirs.state.is_terminal()
            stale = theirs.row.rematch
        assert stale is None
        # both ask for the rematch: one table, whichever asks first
        with a.locked(table):
            new, mine, made = a.rematch(table, tokens[0])
        other = Table(b.store.load(table.id))
        other.row.rematch = None                  # a copy that has not heard of it
        again, _, made_again = b.rematch(other, token)
        assert made and not made_again and again.id == new.id and mine == 0
        row = a.store.load(new.id)
        assert row.seed == 6 and row.public and row.away == 60
        assert row.token_hashes == b.store.load(table.id).token_hashes
        assert row.seats[2]["standin"] == "rules"        # its person is still away
    finally:
        a.store.close()
        b.store.close()


def test_bot_turns_are_played_by_the_server_holding_the_claim(db):
    """Server A holds the claim: B plays no bot turn and shows a bot to
    move; A's stop event (a shutdown) ends its bots after the decision under
    way and hands the claim back, so B goes on at once; a claim whose
    holder died is taken once its lease runs out; and the record is the
    one a single server plays from the same seed."""
    a, b = two_servers(db, lease=30.0)
    try:
        body = {"game": "dixie-rook", "options": {"target": 1}, "seed": 9, "seats": [],
                "bots": "rules"}
        never = threading.Event()
        never.set()                                      # no bot moves at creation
        table, _, _, _ = a.create(body, never)
        assert table.version == 0
        assert a.store.claim(table.id, "server-a", 0, 30.0)
        theirs = b.get(table.id)
        with b.locked(theirs):
            assert b.play_bots(theirs) == 0 and theirs.version == 0    # A's claim runs
        a.store.release(table.id, "server-a")
        with a.locked(table):
            assert a.play_bots(table, StopAt(a.store, table.id, 3)) == 3
        with b.locked(theirs):                            # handed back: B goes on at once
            assert theirs.version == 3
            assert b.play_bots(theirs, StopAt(b.store, table.id, 7)) == 4
        # B "dies" holding the claim (a short lease): A waits, then takes over
        assert b.store.claim(table.id, "server-b", 7, 0.3)
        with a.locked(table):
            assert a.play_bots(table, StopAt(a.store, table.id, 9)) == 0
        time.sleep(0.5)
        with a.locked(table):
            assert a.play_bots(table) > 0 and table.state.is_terminal()
        alone = Tables(Settings(db=":memory:", max_time=1.0, bot_seconds=60.0),
                       SqliteStore(":memory:"))
        twin, _, _, _ = alone.create(body)
        assert twin.state.is_terminal() and twin.actions == table.actions
        assert [m for _, m in a.store.load(table.id).moves] == table.actions
    finally:
        a.store.close()
        b.store.close()


def test_a_table_expired_by_one_server_is_gone_for_the_other(db):
    a, b = two_servers(db, idle=3600.0)
    told: list = []
    b.notify = lambda table_id, version: told.append((table_id, version))
    try:
        table, _, _, _ = a.create({"game": "dix", "seed": 1})
        theirs = b.get(table.id)                     # held in B's memory too
        later = time.time() + 3700
        assert a.sweep(now=later) == 1
        assert b.sweep(now=later) == 0 and told == []   # swept once, told once (by A)
        with pytest.raises(TableNotFound):
            with b.locked(theirs):
                pass
        assert table.id not in b.cache
    finally:
        a.store.close()
        b.store.close()


def test_a_bot_turn_lost_to_another_server_is_dropped_not_doubled(db):
    """A's claim runs out before A stores its bot's action (a decision
    longer than the lease): B takes the turns and stores them; A's append
    then conflicts, and A's copy goes back to what the store holds, with
    nothing doubled and no error for the request that asked."""
    a, b = two_servers(db, lease=0.01)
    try:
        never = threading.Event()
        never.set()
        table, _, _, _ = a.create({"game": "dixie-rook", "options": {"target": 1}, "seed": 4,
                                   "seats": [], "bots": "rules"}, never)
        theirs = b.get(table.id)

        class OvertakenOnce:
            """A's stop event: at its second look (the first is before A
            claims, the second after), A's lease has run out and B plays
            three bot actions before A decides."""
            looks = 0

            def is_set(self):
                self.looks += 1
                if self.looks == 2:
                    time.sleep(0.1)
                    with b.locked(theirs):
                        assert b.play_bots(theirs, StopAt(b.store, table.id, 3)) == 3
                return False
        with a.locked(table):
            assert a.play_bots(table, OvertakenOnce()) == 0
            assert table.version == 3 and table.saved == 3
            assert table.actions == [m for _, m in a.store.load(table.id).moves]
        assert [m for _, m in b.store.load(table.id).moves] == theirs.actions[:3]
    finally:
        a.store.close()
        b.store.close()
