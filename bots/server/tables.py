"""Tables: a match of any game between a person (one or more seats) and
bots, held by the server.

A table is its record: the game and options, a seed that deals every deal,
the seats the person takes, a bot settings string for every other seat,
and the actions played (``store.Row``).  The server keeps the game as a
``State`` rebuilt by replaying that record, so after a restart a table is
exactly where it was.  Bots play their turns server-side from their seat's
view only (``Bot.step_view``), each decision seeded from the table's seed,
the seat and the action's index, so a table replays the same way whenever
its bots are asked again.

A person sees a table as one of their seats: that seat's view of the
game (``state.information_state(seat)``), described in a player's words
(``bots.hint.describe``), the legal actions when it is that seat's turn,
the public log of actions, the score of every finished deal and the match
score.  The record with every hand is given only once the match is over.
"""

from __future__ import annotations

import random
import re
import secrets
import threading
import time as _time

import solver
from solver.errors import DixtrixError, OptionError, short_repr
from solver.position import SeatView

from .. import hint as hints
from ..base import make_bot
from ..rules import has_rules_bot
from .errors import RequestError, TableNotFound
from .pool import Busy
from .settings import Settings
from .store import Row, Store

#: the bots a table may seat (``cheat`` is unfair, ``engine`` runs a program)
TABLE_BOTS = ("random", "rules", "ismcts", "pimc")
#: a table id: what ``secrets.token_urlsafe`` makes
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
#: the public log entries a view carries (the latest)
LOG_ENTRIES = 80
#: seconds between two writes of a table's last use (reads are not written each time)
TOUCH_SECONDS = 30.0
#: the largest seed a table takes
MAX_SEED = 2**63 - 1

CREATE_KEYS = ("game", "options", "seats", "bots", "seed")


def default_bot(game) -> str:
    return "rules" if has_rules_bot(game) else "random"


def bot_seed(seed: int, seat: int, index: int) -> int:
    """The seed of the bot decision at action ``index`` (a table replays
    the same whenever a bot is asked again, after a restart too)."""
    return random.Random(f"{seed}/{seat}/{index}").getrandbits(62)


def check_bot(spec, game, seat: int, settings: Settings, path: str) -> str:
    """A bot settings string a table may use: a fair bot of ``TABLE_BOTS``
    whose search fits the server's caps (``RequestError`` naming ``path``)."""
    if not isinstance(spec, str):
        raise RequestError(f"a bot is a settings string like 'rules' or "
                           f"'ismcts:iterations=2000', got {short_repr(spec)}", path)
    name = spec.partition(":")[0].strip()
    if name not in TABLE_BOTS:
        raise RequestError(f"bot {short_repr(name)} cannot sit at a table "
                           f"(one of: {', '.join(TABLE_BOTS)})", path)
    try:
        bot = make_bot(spec, game, seat, seed=0)
    except DixtrixError as exc:
        raise RequestError(str(exc), path) from None
    limit = getattr(bot, "limit", None)
    if limit is None:                          # a bot that does not search
        return spec
    caps = {"time": settings.max_time, "iterations": settings.max_iterations,
            "py_iterations": settings.max_iterations, "worlds": settings.max_worlds,
            "nodes": settings.max_nodes, "threads": settings.threads}
    values = {**limit.to_dict(), **bot.options}
    for key, cap in caps.items():
        value = values.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > cap:
            raise RequestError(f"bot {name}: {key}={value} is over this server's cap of {cap}",
                               path)
    if limit.nodes is None:                    # an exact solve's bound: the server's cap
        spec += ("," if ":" in spec else ":") + f"nodes={settings.max_nodes}"
    if limit.time is None:
        # a search bot also stops at the server's time cap (its iterations or
        # worlds decide first, unless the machine is far slower than usual)
        spec += ("," if ":" in spec else ":") + f"time={settings.max_time:g}"
    return spec


class Table:
    """One table: its record, the replayed game, a lock that orders the
    requests on it."""

    def __init__(self, row: Row):
        self.row = row
        self.lock = threading.Lock()
        self.last_touch = row.updated
        try:
            self.game = solver.load_game(row.game, **row.options)
            self.state = self.game.new_initial_state(seed=row.seed)
            self.actions: list[str] = []
            self.actors: list[int] = []
            for text in row.actions:
                self._apply(self.state.string_to_action(text))
        except DixtrixError as exc:
            raise RequestError(f"table {row.id}: its stored record no longer replays ({exc})",
                               status=409) from None

    @property
    def id(self) -> str:
        return self.row.id

    def _apply(self, action: int) -> None:
        seat = self.state.current_player()
        text = self.state.action_to_string(action)
        self.state.apply_action(action)
        self.actions.append(text)
        self.actors.append(seat)

    # ---- play ---------------------------------------------------------------

    def play_bots(self, store: Store | None = None, stop=None,
                  seconds: float | None = None) -> int:
        """Let the bots play until a person's seat is to move, the match is
        over, or ``seconds`` have passed (then a bot is still to move: the
        next request lets them go on); returns the number of actions they
        played (saved when a store is given)."""
        played = 0
        humans = set(self.row.humans)
        start = _time.monotonic()
        while not self.state.is_terminal():
            seat = self.state.current_player()
            if seat in humans or (stop is not None and stop.is_set()):
                break
            if played and seconds is not None and _time.monotonic() - start >= seconds:
                break
            legal = self.state.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            else:
                bot = make_bot(self.row.bots[seat], self.game, seat,
                               seed=bot_seed(self.row.seed, seat, len(self.actions)))
                info = self.state.information_state(seat)
                action = bot.step_view(SeatView(self.game, seat, info.view, info))
            self._apply(action)
            played += 1
        if played and store is not None:
            self.save(store)
        return played

    def act(self, seat: int, text: str, store: Store) -> None:
        """The person plays ``text`` for ``seat`` (``IllegalActionError`` with
        the reason, ``NotationError`` for text that names no action)."""
        if seat not in self.row.humans:
            raise RequestError(f"seat {seat} is played by a bot at this table (your seats: "
                               f"{', '.join(map(str, self.row.humans))})", "seat")
        action = self.state.string_to_action(text)
        name = self.state.action_to_string(action)
        # apply_action_for checks the turn and the rules and names the reason
        self.state.apply_action_for(seat, action)
        self.actions.append(name)
        self.actors.append(seat)
        self.save(store)

    def save(self, store: Store) -> None:
        now = _time.time()
        if self.state.is_terminal() and self.row.ended is None:
            self.row.ended = now
        self.row.updated = self.last_touch = now
        self.row.actions = list(self.actions)
        store.save(self.id, self.row.actions, now, self.row.ended)

    def touch(self, store: Store, idle: float) -> None:
        """A use: kept in memory; written when the row's time is a quarter
        of the idle time (or ``TOUCH_SECONDS``) old."""
        now = _time.time()
        self.last_touch = now
        if now - self.row.updated >= min(TOUCH_SECONDS, idle / 4):
            self.row.updated = now
            store.touch(self.id, now)

    # ---- what a seat sees -----------------------------------------------------

    def seat_view(self, seat: int) -> SeatView:
        info = self.state.information_state(seat)
        return SeatView(self.game, seat, info.view, info)

    def deal_scores(self) -> list[list[float]]:
        """The result of every finished deal (public once a deal ends)."""
        state = self.state
        finished = state.round_index() + (1 if state.is_terminal() else 0)
        scores = []
        for i in range(finished):
            try:
                scores.append([float(v) for v in state.round_returns(i)])
            except (IndexError, KeyError):
                break
        return scores

    def check_seat(self, seat: int) -> None:
        """``RequestError`` unless ``seat`` is one of the person's seats."""
        if seat not in self.row.humans:
            raise RequestError(f"seat {seat} is not one of your seats at this table (yours: "
                               f"{', '.join(map(str, self.row.humans))}); a seat shows only "
                               f"its own view", "seat")

    def payload(self, seat: int) -> dict:
        """The table as ``seat`` sees it (see the module docstring)."""
        self.check_seat(seat)
        state, game = self.state, self.game
        view = self.seat_view(seat)
        known = view.info.known
        n = game.num_players
        names = hints.seat_names(n, seat, game.partnership)
        over = state.is_terminal()
        cur = None if over else state.current_player()
        legal = []
        if cur == seat:
            for a in state.legal_actions():
                text = state.action_to_string(a)
                legal.append({"action": text, "card": game.is_card(a)})
        hand = known.get("hand")
        if hand is None and known.get("card"):
            hand = known["card"]
        actions = view.view["actions"]
        # a view lists the match's actions from the first (a view starting at a
        # later deal would list the last ones): align them with who played each
        offset = len(self.actors) - len(actions)
        start = max(0, len(actions) - LOG_ENTRIES)
        log = [{"index": offset + i, "seat": self.actors[offset + i],
                "who": names[self.actors[offset + i]], "action": actions[i]}
               for i in range(start, len(actions))]
        return {
            "table": self.id, "game": game.name, "options": dict(game.options),
            "seat": seat, "seats": list(self.row.humans),
            "bots": {str(s): spec for s, spec in sorted(self.row.bots.items())},
            "names": names, "players": n, "to_move": cur, "your_turn": cur == seat,
            "over": over, "legal": legal,
            "hand": hand.split() if isinstance(hand, str) else [],
            "facts": hints.describe(view), "known": known,
            "deal": state.round_index(), "deal_scores": self.deal_scores(),
            "unit": game.round_unit, "totals": known.get("totals"),
            "returns": [float(v) for v in state.returns()] if over else None,
            "log": log, "actions": len(actions), "view": view.view,
        }

    def record(self) -> dict:
        """The full record (every hand): only once the match is over."""
        if not self.state.is_terminal():
            raise RequestError("the record shows every hand: it is given once the match is "
                               "over", status=409)
        out = solver.to_json(self.state)
        out["seed"] = self.row.seed
        return out


class Tables:
    """Every table: SQLite holds them, a cache holds the replayed ones."""

    def __init__(self, settings: Settings, store: Store):
        self.settings = settings
        self.store = store
        self.lock = threading.Lock()
        self.cache: dict[str, Table] = {}

    def create(self, doc: dict, stop=None) -> tuple[Table, int]:
        """A new table from a checked request body (``CREATE_KEYS``); its
        bots play until a person's seat is to move.  Returns the table and
        the person's first seat."""
        for key in doc:
            if key not in CREATE_KEYS:
                raise RequestError(f"unknown key {short_repr(key)} (a table takes: "
                                   f"{', '.join(CREATE_KEYS)})", key)
        if "game" not in doc:
            raise RequestError(f"missing 'game' (one of: "
                               f"{', '.join(solver.registered_games())})", "game")
        name = doc["game"]
        if not isinstance(name, str) or name not in solver.registered_games():
            raise RequestError(f"unknown game {short_repr(name)} (one of: "
                               f"{', '.join(solver.registered_games())})", "game")
        options = doc.get("options", {})
        if not isinstance(options, dict):
            raise RequestError(f"options are an object, got {short_repr(options)}", "options")
        try:
            game = solver.load_game(name, **options)
        except OptionError as exc:
            raise RequestError(str(exc), "options") from None
        n = game.num_players
        seats = doc.get("seats", [0])
        if not isinstance(seats, list) or not seats or len(seats) > n:
            raise RequestError(f"seats: the list of seats you take (1 to {n} of 0..{n - 1}), "
                               f"got {short_repr(seats)}", "seats")
        for i, s in enumerate(seats):
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n:
                raise RequestError(f"a seat is 0..{n - 1}, got {short_repr(s)}", f"seats[{i}]")
        if len(set(seats)) != len(seats):
            raise RequestError("a seat is taken twice", "seats")
        others = [s for s in range(n) if s not in seats]
        given = doc.get("bots", default_bot(game))
        if isinstance(given, str):
            specs = {s: (given, "bots") for s in others}
        elif isinstance(given, dict):
            specs = {}
            for key, spec in given.items():
                if not (key.isascii() and key.isdigit()) or len(key) > 3 or \
                        int(key) not in others:
                    raise RequestError(f"bots are keyed by the bots' seats "
                                       f"({', '.join(map(str, others)) or 'none'}), got "
                                       f"{short_repr(key)}", f"bots.{key}")
                specs[int(key)] = (spec, f"bots.{key}")
            for s in others:
                specs.setdefault(s, (default_bot(game), "bots"))
        else:
            raise RequestError(f"bots: one settings string for every other seat, or an "
                               f"object seat -> settings string, got {short_repr(given)}",
                               "bots")
        bots = {s: check_bot(spec, game, s, self.settings, path)
                for s, (spec, path) in sorted(specs.items())}
        seed = doc.get("seed")
        if seed is None:
            seed = secrets.randbits(32)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise RequestError(f"a seed is an integer 0..2**63-1, got {short_repr(seed)}",
                               "seed")
        with self.lock:
            if self.store.count() >= self.settings.max_tables:
                raise Busy(f"this server holds its maximum of {self.settings.max_tables} "
                           f"tables: retry later", 60)
            now = _time.time()
            row = Row(secrets.token_urlsafe(12), game.name, game.non_default_options(), seed,
                      list(seats), bots, [], now, now, None)
            self.store.insert(row)
            table = Table(row)
            self.cache[row.id] = table
        with table.lock:
            table.play_bots(self.store, stop, self.settings.bot_seconds)
        return table, seats[0]

    @staticmethod
    def check_id(table_id: str) -> None:
        if not isinstance(table_id, str) or not ID_PATTERN.match(table_id):
            raise TableNotFound(f"no table {short_repr(table_id)} (a table id is what "
                                f"POST /v1/tables answered)")

    def require(self, table_id: str) -> None:
        """``TableNotFound`` unless the table exists (one indexed lookup)."""
        self.check_id(table_id)
        if table_id not in self.cache and not self.store.exists(table_id):
            raise TableNotFound(f"no table {table_id!r}: never made, or deleted after it "
                                f"ended or idled")

    def get(self, table_id: str) -> Table:
        self.check_id(table_id)
        with self.lock:
            table = self.cache.get(table_id)
        if table is not None:
            return table
        row = self.store.load(table_id)
        if row is None:
            raise TableNotFound(f"no table {table_id!r}: never made, or deleted after "
                                f"it ended or idled")
        # the replay runs outside the lock (a long match must not hold up
        # every other table); two requests racing here keep the first
        table = Table(row)
        with self.lock:
            return self.cache.setdefault(table_id, table)

    def delete(self, table_id: str) -> None:
        with self.lock:
            self.require(table_id)
            self.cache.pop(table_id, None)
            self.store.delete(table_id)

    def sweep(self, now: float | None = None) -> int:
        """Delete the tables ended more than ``grace`` seconds ago or idle
        for ``idle`` seconds; returns how many."""
        now = _time.time() if now is None else now
        ids = self.store.expired(now, self.settings.idle, self.settings.grace)
        deleted = 0
        with self.lock:
            for tid in ids:
                table = self.cache.get(tid)
                if table is not None and table.last_touch >= now - self.settings.idle and \
                        (table.row.ended is None or table.row.ended >= now - self.settings.grace):
                    continue                    # used since it was last written
                self.cache.pop(tid, None)
                self.store.delete(tid)
                deleted += 1
        return deleted


__all__ = ["Table", "Tables", "TABLE_BOTS", "check_bot", "bot_seed", "default_bot"]
