"""Tables: every table the server holds -- the store keeps their records
(``store.py``), a cache the replayed ones (``table.Table``: one table's
record, keys and bot turns; ``present.py``: how a viewer sees it).

A new table is checked here (its game, options, seats, bots and seed:
``RequestError`` naming the culprit's path), its bots' turns are claimed
in the store so that one process plays them (``play_bots``), a copy is
brought up to what the store holds before each use (``sync``), and the
tables ended or idle are swept.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import threading
import time as _time
from collections.abc import Iterator

import solver
from solver.errors import OptionError, short_repr

from .errors import Forbidden, RequestError, TableNotFound, Unauthorized
from .pool import Busy
from .settings import Settings
from .store import MoveConflict, Row, TableStore
from .table import (
    ID_PATTERN,
    MAX_SEED,
    SEED_BITS,
    TABLE_BOTS,
    Table,
    bot_seed,
    check_bot,
    default_bot,
    new_token,
    token_hash,
)

CREATE_KEYS = ("game", "options", "seats", "bots", "seed")


class Tables:
    """Every table: the store holds them, a cache holds the replayed ones."""

    def __init__(self, settings: Settings, store: TableStore, notify=None,
                 owner: str | None = None):
        self.settings = settings
        self.store = store
        self.lock = threading.Lock()
        self.cache: dict[str, Table] = {}
        #: called with (table id, version) after every change (live updates)
        self.notify = notify or (lambda table_id, version: None)
        #: this process's name in the bot-turn claims (unique among processes
        #: on one database, restarts included)
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"

    def create(self, doc: dict, stop=None) -> tuple[Table, int | None, str, dict]:
        """A new table from a checked request body (``CREATE_KEYS``); its
        bots play until a person's seat is to move.  Returns the table, the
        first person's seat (None: bots only), the admin token and each
        person seat's token."""
        for key in doc:
            if key not in CREATE_KEYS:
                raise RequestError("unknown key {key} (a table takes: {keys})", key,
                                   key=short_repr(key), keys=", ".join(map(repr, CREATE_KEYS)))
        if "game" not in doc:
            raise RequestError("missing 'game' (one of: {games})", "game",
                               games=", ".join(solver.registered_games()))
        name = doc["game"]
        if not isinstance(name, str) or name not in solver.registered_games():
            raise RequestError("unknown game {game} (one of: {games})", "game",
                               game=short_repr(name), games=", ".join(solver.registered_games()))
        options = doc.get("options", {})
        if not isinstance(options, dict):
            raise RequestError("options are an object, got {got}", "options",
                               got=short_repr(options))
        try:
            game = solver.load_game(name, **options)
        except OptionError as exc:
            raise RequestError("{why}", "options", why=str(exc)) from None
        n = game.num_players
        persons = doc.get("seats", [0])
        if not isinstance(persons, list) or len(persons) > n:
            raise RequestError("seats: the list of the seats people take (0 to {n} of "
                               "0..{top}), got {got}", "seats", n=n, top=n - 1,
                               got=short_repr(persons))
        for i, s in enumerate(persons):
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n:
                raise RequestError("a seat is 0..{top}, got {got}", f"seats[{i}]", top=n - 1,
                                   got=short_repr(s))
        if len(set(persons)) != len(persons):
            raise RequestError("a seat is taken twice", "seats")
        others = [s for s in range(n) if s not in persons]
        given = doc.get("bots", default_bot(game))
        if isinstance(given, str):
            specs = {s: (given, "bots") for s in others}
        elif isinstance(given, dict):
            specs = {}
            for key, spec in given.items():
                if not (key.isascii() and key.isdigit()) or len(key) > 3 or \
                        int(key) not in others:
                    raise RequestError("bots are keyed by the bots' seats ({seats}), got {got}",
                                       f"bots.{key}", seats=", ".join(map(str, others)) or "-",
                                       got=short_repr(key))
                specs[int(key)] = (spec, f"bots.{key}")
            for s in others:
                specs.setdefault(s, (default_bot(game), "bots"))
        else:
            raise RequestError("bots: one level or settings string for every other seat, or "
                               "an object seat -> level or settings string, got {got}", "bots",
                               got=short_repr(given))
        seats: list[dict] = [{"person": True} for _ in range(n)]
        for s, (spec, path) in sorted(specs.items()):
            settings_string, level = check_bot(spec, game, s, self.settings, path)
            seats[s] = {"bot": settings_string, **({"level": level} if level else {})}
        seed = doc.get("seed")
        seeded = seed is not None
        if seed is None:
            # 128 bits: nobody can search the seeds for the one that deals their hand
            seed = secrets.randbits(SEED_BITS)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise RequestError("a seed is an integer 0..2**63-1, got {got}", "seed",
                               got=short_repr(seed))
        admin = new_token()
        tokens = {s: new_token() for s in persons}
        with self.lock:
            if self.store.count() >= self.settings.max_tables:
                raise Busy(f"this server holds its maximum of {self.settings.max_tables} "
                           f"tables: retry later", 60)
            now = _time.time()
            row = Row(secrets.token_urlsafe(12), game.name, game.non_default_options(), seed,
                      seeded, seats, token_hash(admin), now, now, None, [],
                      {s: token_hash(t) for s, t in tokens.items()})
            self.store.insert(row)
            table = Table(row)
            self.cache[row.id] = table
        with table.lock:
            self.play_bots(table, stop)
        return table, (persons[0] if persons else None), admin, tokens

    def play_bots(self, table: Table, stop=None) -> int:
        """The bots' turns (under the table's lock), then the news.  The
        turns are claimed first (``TableStore.claim``): while another
        process's claim runs, this one plays none of them (the view says a
        bot is to move, and that process's news follows); the claim is
        renewed after each action and handed back at the end, also when
        ``stop`` ends the bots early (a server shutting down), so another
        process goes on at once."""
        state = table.state
        if state.is_terminal() or state.current_player() in table.row.persons or \
                (stop is not None and stop.is_set()):
            return 0
        lease = self.settings.lease
        if not self.store.claim(table.id, self.owner, table.version, lease):
            return 0
        try:
            played = table.play_bots(
                self.store, stop, self.settings.bot_seconds,
                renew=lambda: self.store.claim(table.id, self.owner, table.version, lease))
        except MoveConflict:
            # another process played these turns first (our claim ran out
            # during a long decision): what it stored stands, ours is dropped
            if not table.reload(self.store):
                self.forget(table.id)
            return 0
        finally:
            self.store.release(table.id, self.owner)
        if played:
            self.notify(table.id, table.version)
        return played

    def sync(self, table: Table) -> None:
        """Bring ``table`` (under its lock) up to what the store holds: the
        moves another process committed since this copy last looked, its
        end; ``TableNotFound`` (and dropped from memory) if another process
        deleted it.  One indexed read when nothing changed."""
        head = self.store.head(table.id)
        if head is None:
            self.forget(table.id)
            raise TableNotFound("no table {table}: never made, or deleted after it ended or "
                                "idled", table=repr(table.id))
        if head.moves > table.saved:
            table.catch_up(self.store.moves_from(table.id, table.saved, head.moves))
        elif head.moves < table.saved:
            # cannot happen with one id a table; start again from the store
            if not table.reload(self.store):
                self.forget(table.id)
                raise TableNotFound("no table {table}: never made, or deleted after it ended "
                                    "or idled", table=repr(table.id))
        if head.ended is not None and table.row.ended is None:
            table.row.ended = head.ended
        table.row.updated = max(table.row.updated, head.updated)

    @contextlib.contextmanager
    def locked(self, table: Table) -> Iterator[Table]:
        """``with tables.locked(table):`` the table's lock, the table brought
        up to date with the store (``sync``)."""
        with table.lock:
            self.sync(table)
            yield table

    def act(self, table: Table, seat: int, text: str, stop=None) -> None:
        """A person's action and the bots' answer (under the table's lock)."""
        try:
            table.act(seat, text, self.store)
        except MoveConflict:
            # another writer played this turn first: this copy drops the
            # move it could not store and holds what the store holds
            if not table.reload(self.store):
                self.forget(table.id)
            raise RequestError("the table moved on meanwhile: ask again", status=409) from None
        self.notify(table.id, table.version)
        self.play_bots(table, stop)

    def forget(self, table_id: str) -> None:
        with self.lock:
            self.cache.pop(table_id, None)

    @staticmethod
    def check_id(table_id: str) -> None:
        if not isinstance(table_id, str) or not ID_PATTERN.match(table_id):
            raise TableNotFound("no table {table} (a table id is what POST /v1/tables answered)",
                                table=short_repr(table_id))

    def require(self, table_id: str) -> None:
        """``TableNotFound`` unless the table exists (one indexed lookup)."""
        self.check_id(table_id)
        if table_id not in self.cache and not self.store.exists(table_id):
            raise TableNotFound("no table {table}: never made, or deleted after it ended or "
                                "idled", table=repr(table_id))

    def get(self, table_id: str) -> Table:
        self.check_id(table_id)
        with self.lock:
            table = self.cache.get(table_id)
        if table is not None:
            return table
        row = self.store.load(table_id)
        if row is None:
            raise TableNotFound("no table {table}: never made, or deleted after it ended or "
                                "idled", table=repr(table_id))
        # the replay runs outside the lock (a long match must not hold up
        # every other table); two requests racing here keep the first
        table = Table(row)
        with self.lock:
            return self.cache.setdefault(table_id, table)

    def delete(self, table_id: str, token: str | None) -> None:
        """Delete a table: only with its admin token."""
        table = self.get(table_id)
        if token is None:
            raise Unauthorized("deleting a table needs its admin token (Authorization: Bearer "
                               "<admin token>, given to its creator)")
        if not table.is_admin(token):
            raise Forbidden("only the table's admin token deletes it")
        with self.lock:
            self.cache.pop(table_id, None)
            self.store.delete(table_id)
        self.notify(table_id, -1)

    def sweep(self, now: float | None = None) -> int:
        """Delete the tables ended more than ``grace`` seconds ago or idle
        for ``idle`` seconds; returns how many."""
        now = _time.time() if now is None else now
        ids = self.store.expired(now, self.settings.idle, self.settings.grace)
        deleted = []
        with self.lock:
            for tid in ids:
                table = self.cache.get(tid)
                if table is not None and table.last_touch >= now - self.settings.idle and \
                        (table.row.ended is None or table.row.ended >= now - self.settings.grace):
                    continue                    # used since it was last written
                self.cache.pop(tid, None)
                if self.store.delete(tid):      # False: another process swept it first
                    deleted.append(tid)
        for tid in deleted:
            self.notify(tid, -1)
        return len(deleted)


__all__ = ["Table", "Tables", "TABLE_BOTS", "check_bot", "bot_seed", "default_bot",
           "token_hash", "CREATE_KEYS"]
