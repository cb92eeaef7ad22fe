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
import json
import os
import secrets
import socket
import threading
import time as _time
from collections.abc import Iterator

import solver
from solver.errors import OptionError, short_repr

from .errors import Forbidden, RequestError, TableNotFound, Unauthorized
from .pool import MAX_TABLES, Busy
from .settings import Settings
from .store import MoveConflict, Row, TableStore
from .table import (
    AWAY,
    AWAY_RANGE,
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

CREATE_KEYS = ("game", "options", "seats", "bots", "seed", "public", "away")


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
        #: the time an absent seat's turn is judged by (tests inject another)
        self.clock = _time.time
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
            raise RequestError.passing(exc, "options") from None
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
        public = doc.get("public", False)
        if not isinstance(public, bool):
            raise RequestError("public is true or false, got {got}", "public",
                               got=short_repr(public))
        away = doc.get("away", AWAY)
        low, high = AWAY_RANGE
        if isinstance(away, bool) or not isinstance(away, (int, float)) or \
                not low <= away <= high:
            raise RequestError("away is {low} to {high} seconds, got {got}", "away", low=low,
                               high=high, got=short_repr(away))
        admin = new_token()
        # a public table: the creator takes the first person seat, the others
        # are open, each taken by whoever joins it from the lobby
        invited = persons[:1] if public else persons
        for s in persons[1:] if public else ():
            seats[s] = {"person": True, "open": True}
        tokens = {s: new_token() for s in invited}
        now = _time.time()
        row = Row(secrets.token_urlsafe(12), game.name, game.non_default_options(), seed,
                  seeded, seats, token_hash(admin), now, now, None, [],
                  {s: token_hash(t) for s, t in tokens.items()}, public=public,
                  away=float(away))
        table = self.insert(row, stop)
        return table, (persons[0] if persons else None), admin, tokens

    def insert(self, row: Row, stop=None, rematch_of: str | None = None) -> Table:
        """Store a new table (as ``rematch_of``'s rematch: the one made
        before, if another player asked first) and let its bots play."""
        with self.lock:
            if self.store.count() >= self.settings.max_tables:
                raise Busy(MAX_TABLES(most=self.settings.max_tables), 60)
            made: str | None = row.id
            if rematch_of is None:
                self.store.insert(row)
            else:
                made = self.store.rematch(rematch_of, row)
            if made == row.id:
                table = Table(row)
                self.cache[row.id] = table
        if made is None:
            raise TableNotFound("no table {table}: never made, or deleted after it ended or "
                                "idled", table=repr(rematch_of))
        if made != row.id:
            return self.get(made)
        with table.lock:
            self.play_bots(table, stop)
        return table

    def play_bots(self, table: Table, stop=None) -> int:
        """The bots' turns (under the table's lock), then the news.  The
        turns are claimed first (``TableStore.claim``): while another
        process's claim runs, this one plays none of them (the view says a
        bot is to move, and that process's news follows); the claim is
        renewed after each action and handed back at the end, also when
        ``stop`` ends the bots early (a server shutting down), so another
        process goes on at once."""
        state = table.state
        if state.is_terminal() or state.current_player() in table.row.playing or \
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
        table.row.rematch = head.rematch
        if head.moved is not None:
            table.row.moved = head.moved        # the turn's start, by whoever stored the move
        if json.loads(head.seats) != table.row.seats:
            # another process let a person join, stood a bot in or gave a seat back
            table.row.seats = json.loads(head.seats)
            table.row.token_hashes = self.store.tokens(table.id)

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

    # ---- the lobby, absent seats, the rematch -----------------------------------

    def lobby(self) -> list[Row]:
        """The public tables not ended with an open seat (the newest first)."""
        return self.store.lobby()

    def cover_absent(self, table: Table) -> bool:
        """Under the table's lock: if the turn of the person to move has run
        out (``Table.turn_ends`` by this object's ``clock``), a bot stands
        in for the seat (the table's default bot) and plays; True if so.
        Asked on every look at the table, so a table whose person left goes
        on at the next look (the page looks when the turn runs out)."""
        ends = table.turn_ends()
        if ends is None or self.clock() < ends:
            return False
        seat = table.state.current_player()
        table.stand_in(seat, default_bot(table.game))
        self.store.set_seats(table.id, table.row.seats)
        self.notify(table.id, table.version)
        return True

    def set_away(self, table: Table, token: str | None, seat: int, away: bool,
                 bot: str | None) -> int | None:
        """Under the table's lock: a person seat handed to a bot (``away``:
        by the admin token, or by the seat's own) or taken back (by the
        seat's own token).  Returns the seat the caller sees the table as."""
        if token is None:
            raise Unauthorized("handing a seat to a bot needs the admin token or the seat's "
                               "own; taking it back, the seat's own token")
        n = table.game.num_players
        if not 0 <= seat < n or seat not in table.row.persons:
            raise RequestError("seat {seat} is no person's seat at this table (people's "
                               "seats: {seats})", "seat", seat=seat,
                               seats=", ".join(map(str, table.row.persons)) or "-")
        mine = table.seat_of(token)
        admin = table.is_admin(token)
        if mine is None and not admin:
            raise Forbidden("this token is not a seat token of table {table}", table=table.id)
        if not away and mine != seat:
            raise Forbidden("only seat {seat}'s own token takes the seat back", "seat",
                            seat=seat)
        if away and mine != seat and not admin:
            raise Forbidden("your token is seat {mine}'s, not seat {seat}'s", "seat",
                            mine=mine, seat=seat)
        if table.state.is_terminal():
            raise RequestError("the match is over", status=409)
        if away:
            spec, _ = (check_bot(bot, table.game, seat, self.settings, "bot")
                       if bot is not None else (default_bot(table.game), None))
            table.stand_in(seat, spec)
        else:
            table.take_back(seat, self.clock())
        self.store.set_seats(table.id, table.row.seats)
        self.notify(table.id, table.version)
        if away:
            self.play_bots(table)
        return mine

    def join(self, table: Table, seat: int | None) -> tuple[int, str]:
        """Under the table's lock: the caller takes an open seat of a public
        table (``seat``, or the first open one); returns it and its token."""
        if not table.row.public:
            raise Forbidden("table {table} is private: its seats are taken by their "
                            "invitation links", table=table.id)
        free = table.row.open
        if table.state.is_terminal() or not free:
            raise RequestError("table {table} has no open seat", status=409, table=table.id)
        if seat is None:
            seat = free[0]
        elif seat not in free:
            raise RequestError("seat {seat} is not open (open seats: {seats})", "seat",
                               status=409, seat=seat, seats=", ".join(map(str, free)))
        token = new_token()
        table.take_back(seat, self.clock())
        try:
            self.store.join(table.id, seat, token_hash(token), table.row.seats)
        except MoveConflict:
            # another joiner took it first: this copy holds what the store holds
            if not table.reload(self.store):
                self.forget(table.id)
            raise RequestError("seat {seat} was just taken: join again", "seat", status=409,
                               seat=seat) from None
        table.row.token_hashes[seat] = token_hash(token)
        self.notify(table.id, table.version)
        return seat, token

    def rematch(self, table: Table, token: str | None,
                stop=None) -> tuple[Table, int | None, bool]:
        """The same people and bots at a new table, dealt by the next seed
        (a seeded table's seed + 1; an unseeded one, 128 new random bits),
        once the match is over; every token of the table works there too
        (a seat's for the same seat, the admin's), so nobody needs a new
        link.  Asked by two players, one table.  Returns it, the caller's
        seat (None: the admin) and whether this call made it."""
        if token is None:
            raise Unauthorized("a rematch needs your seat's token or the admin token")
        mine = table.seat_of(token)
        if mine is None and not table.is_admin(token):
            raise Forbidden("this token is not a seat token of table {table}", table=table.id)
        if not table.state.is_terminal():
            raise RequestError("the match is not over: a rematch follows its end", status=409)
        if table.row.rematch is not None:
            return self.get(table.row.rematch), mine, False
        old = table.row
        seed = (old.seed + 1) % (MAX_SEED + 1) if old.seeded else \
            secrets.randbits(SEED_BITS)
        # a seat's stand-in and its open state go on: its person is still away
        seats = [{k: v for k, v in spec.items() if k != "back"} for spec in old.seats]
        now = _time.time()
        row = Row(secrets.token_urlsafe(12), old.game, dict(old.options), seed, old.seeded,
                  seats, old.admin_hash, now, now, None, [], dict(old.token_hashes),
                  public=old.public, away=old.away)
        new = self.insert(row, stop, rematch_of=old.id)
        table.row.rematch = new.id
        self.notify(table.id, table.version)
        return new, mine, new.id == row.id

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
