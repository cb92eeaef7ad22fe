"""A table: a match of any game between people and bots, held by the server.

A table is its record: the game and options, a seed that deals every deal,
its seats (each a person or a bot settings string), and the moves played
(``store.Row``).  The server keeps the game as a ``State`` rebuilt by
replaying that record, so after a restart a table is exactly where it was.
Bots play their turns server-side from their seat's view only
(``Bot.step_view``), each decision seeded from the table's seed, the seat
and the action's index, so a table replays the same way whenever its bots
are asked again.

Keys (docs/server.md, "Who may do what"): each person seat has its own
secret token (192 random bits), given once, in the seat's invitation
link; the creator also gets the admin token, which deletes the table.
The store keeps only their SHA-256, and a token is compared with every
seat's hash in constant time.  Without a token a client is a spectator:
it sees what every seat sees alike (``public_known``), never a hand.

A viewer sees the table through ``payload``: its presentation is
``present.py``'s (the seats, the board, the deals' summaries, every word).
"""
from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
import threading
import time as _time
from collections.abc import Callable

import solver
from solver.errors import DixtrixError, short_repr
from solver.front import N_
from solver.position import SeatView
from solver.said import phrase

from .. import levels as bot_levels
from ..registry import make_bot
from ..rules import has_rules_bot
from . import present
from .errors import Forbidden, RequestError, Unauthorized
from .i18n import Translator
from .settings import Settings
from .store import Row, TableStore

# the error raised here (solver/errors.py: a code and its parameters)
STORED_SEAT = phrase("table_stored_seat", N_("move {move} is stored as seat {seat}'s, but seat "
                                             "{turn} is to move"))

#: the bots a table may seat (``cheat`` is unfair, ``engine`` runs a program);
#: the levels (``bots.levels``) too; ``learned``, the learned policy without a
#: search, is the player for a server with many tables
TABLE_BOTS = ("random", "rules", "learned", "ismcts", "pimc")
#: a table id: what ``secrets.token_urlsafe`` makes
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
#: random bytes of a seat or admin token (192 bits)
TOKEN_BYTES = 24
#: random bits of an unseeded table's seed
SEED_BITS = 128
#: seconds between two writes of a table's last use (reads are not written each time)
TOUCH_SECONDS = 30.0
#: the largest seed a creator may give
MAX_SEED = solver.game.MAX_SEED
#: seconds a person's turn waits, by default, before a bot plays the seat
#: (``away``: a table's setting, AWAY_RANGE)
AWAY = 300.0
AWAY_RANGE = (10, 86400)



def default_bot(game) -> str:
    return "rules" if has_rules_bot(game) else "random"


def bot_seed(seed: int, seat: int, index: int) -> int:
    """The seed of the bot decision at action ``index`` (a table replays
    the same whenever a bot is asked again, after a restart too)."""
    return random.Random(f"{seed}/{seat}/{index}").getrandbits(62)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """What the store keeps of a token: its SHA-256 (a token has 192 random
    bits, so no slower hash is needed against guessing)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def not_at_table(name: str, path: str) -> RequestError:
    """The refusal of a bot no table takes (``TABLE_BOTS`` or a level)."""
    return RequestError("bot {name} cannot sit at a table (one of: {bots}; or a level: "
                        "{levels})", path, name=short_repr(name), bots=", ".join(TABLE_BOTS),
                        levels=", ".join(bot_levels.LEVELS))


def check_bot(spec, game, seat: int, settings: Settings, path: str) -> tuple[str, str | None]:
    """A bot settings string a table may use: a level, or a fair bot of
    ``TABLE_BOTS`` whose search fits the server's caps (``RequestError``
    naming ``path``).  Returns the settings string the table keeps and the
    level it came from (or None)."""
    if not isinstance(spec, str):
        raise RequestError("a bot is a level ({levels}) or a settings string like "
                           "'ismcts:iterations=2000', got {got}", path,
                           levels=", ".join(bot_levels.LEVELS), got=short_repr(spec))
    level = spec.strip() if bot_levels.is_level(spec.strip()) else None
    if level is not None:
        spec = bot_levels.level_settings(level, game)
    name = spec.partition(":")[0].strip()
    if name not in TABLE_BOTS:
        raise not_at_table(name, path)
    try:
        bot = make_bot(spec, game, seat, seed=0)
    except DixtrixError as exc:
        raise RequestError.passing(exc, path) from None
    limit = getattr(bot, "limit", None)
    if limit is None:                          # a bot that does not search
        return spec, level
    caps = {"time": settings.max_time, "iterations": settings.max_iterations,
            "py_iterations": settings.max_iterations, "worlds": settings.max_worlds,
            "nodes": settings.max_nodes, "trees": settings.trees,
            "threads": settings.threads or settings.trees}
    values = {**limit.to_dict(), **getattr(bot, "options", {})}   # a search bot's
    for key, cap in caps.items():
        value = values.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > cap:
            raise RequestError("bot {name}: {key}={value} is over this server's cap of {cap}",
                               path, name=name, key=key, value=value, cap=cap)
    if limit.nodes is None:                    # an exact solve's bound: the server's cap
        spec += ("," if ":" in spec else ":") + f"nodes={settings.max_nodes}"
    if limit.time is None:
        # a search bot also stops at the server's time cap (its iterations or
        # worlds decide first, unless the machine is far slower than usual)
        spec += ("," if ":" in spec else ":") + f"time={settings.max_time:g}"
    return spec, level


class Table:
    """One table: its record, the replayed game, a lock that orders the
    requests on it."""

    def __init__(self, row: Row):
        self.lock = threading.Lock()
        self._replay(row)

    def _replay(self, row: Row) -> None:
        self.row = row
        self.last_touch = row.updated
        try:
            self.game = solver.load_game(row.game, **row.options)
            self.state = self.game.new_initial_state(seed=row.seed)
            self.actions: list[str] = []
            self.actors: list[int] = []
            self.deals: list[int] = []            # the deal each action was played in
            for _, text in row.moves:
                self._apply(self.state.string_to_action(text))
        except DixtrixError as exc:
            raise RequestError("table {table}: its stored record no longer replays ({why})",
                               status=409, table=row.id, why=str(exc)) from None
        self.saved = len(self.actions)

    def catch_up(self, moves: list) -> None:
        """Apply the moves another process stored after ours (``(seat,
        action)``, from the store's move ``self.saved`` on)."""
        try:
            for seat, text in moves:
                if self.state.current_player() != seat:
                    raise DixtrixError(STORED_SEAT(move=len(self.actions), seat=seat,
                                                   turn=self.state.current_player()))
                self._apply(self.state.string_to_action(text))
        except DixtrixError as exc:
            raise RequestError("table {table}: its stored record no longer replays ({why})",
                               status=409, table=self.id, why=str(exc)) from None
        self.row.moves.extend(moves)
        self.saved = len(self.actions)

    def reload(self, store: TableStore) -> bool:
        """Start again from what the store holds (after another writer won
        a race: what this copy played and did not save is dropped); False:
        the table is gone."""
        row = store.load(self.id)
        if row is None:
            return False
        self._replay(row)
        return True

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def version(self) -> int:
        """The number of moves played: every change raises it."""
        return len(self.actions)

    def _apply(self, action: int) -> None:
        seat = self.state.current_player()
        deal = self.state.round_index()
        text = self.state.action_to_string(action)
        self.state.apply_action(action)
        self.actions.append(text)
        self.actors.append(seat)
        self.deals.append(deal)

    # ---- keys ---------------------------------------------------------------

    def seat_of(self, token: str | None) -> int | None:
        """The seat whose token this is (None: no token).  Every seat's hash
        is compared, in constant time, whether or not one matched before."""
        if token is None:
            return None
        digest = token_hash(token)
        found = None
        for seat, stored in sorted(self.row.token_hashes.items()):
            if hmac.compare_digest(digest, stored):
                found = seat
        return found

    def is_admin(self, token: str | None) -> bool:
        return (token is not None and self.row.admin_hash is not None
                and hmac.compare_digest(token_hash(token), self.row.admin_hash))

    def viewer(self, token: str | None, seat: int | None = None) -> int | None:
        """The seat a request sees the table as (None: a spectator): the
        token's seat.  ``Forbidden`` for a token of no seat of this table (the
        admin token is a spectator's), or a ``seat`` that is not the token's;
        ``Unauthorized`` for a ``seat`` asked without a token."""
        if token is None:
            if seat is not None:
                raise Unauthorized("seat {seat}'s view needs its token (Authorization: Bearer "
                                   "<token> from the seat's invitation link); without one you "
                                   "see what a spectator sees", "seat", seat=seat)
            return None
        mine = self.seat_of(token)
        if mine is None:
            if self.is_admin(token) and seat is None:
                return None
            raise Forbidden("this token is not a seat token of table {table}", table=self.id)
        if seat is not None and seat != mine:
            raise Forbidden("your token is seat {mine}'s, not seat {seat}'s", "seat",
                            mine=mine, seat=seat)
        return mine

    def acting_seat(self, token: str | None, seat: int | None) -> int:
        """The seat a request acts (or asks a hint) for: its token's."""
        if token is None:
            raise Unauthorized("playing or asking a hint at a table needs your seat's token "
                               "(Authorization: Bearer <token> from your invitation link)")
        mine = self.viewer(token, seat)
        if mine is None:
            raise Forbidden("the admin token deletes the table; playing needs a seat's token")
        return mine

    # ---- play ---------------------------------------------------------------

    def play_bots(self, store: TableStore | None = None, stop=None,
                  seconds: float | None = None, clock=_time.monotonic,
                  renew: Callable[[], bool] | None = None) -> int:
        """Let the bots play until a person's seat is to move, the match is
        over, ``stop`` is set, or ``seconds`` have passed (then a bot is
        still to move: the next request lets them go on); returns the number
        of actions they played.  With a store, each action is saved as it is
        played (a killed process loses at most the decision it was making)
        and then ``renew`` (the claim on the turns) is called: False stops
        the bots (another process has the turns now)."""
        played = 0
        persons = set(self.row.playing)      # a person away: its stand-in plays
        start = clock()
        while not self.state.is_terminal():
            seat = self.state.current_player()
            if seat in persons or (stop is not None and stop.is_set()):
                break
            if played and seconds is not None and clock() - start >= seconds:
                break
            legal = self.state.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            else:
                bot = make_bot(self.row.bot_of(seat), self.game, seat,
                               seed=bot_seed(self.row.seed, seat, len(self.actions)))
                info = self.state.information_state(seat)
                action = bot.step_view(SeatView(self.game, seat, info.view, info))
            self._apply(action)
            played += 1
            if store is not None:
                self.save(store)
                if renew is not None and not renew():
                    break
        return played

    def act(self, seat: int, text: str, store: TableStore) -> None:
        """A person plays ``text`` for ``seat`` (``IllegalActionError`` with
        the reason, ``NotationError`` for text that names no action)."""
        action = self.state.string_to_action(text)
        name = self.state.action_to_string(action)
        deal = self.state.round_index()
        # apply_action_for checks the turn and the rules and names the reason
        self.state.apply_action_for(seat, action)
        self.actions.append(name)
        self.actors.append(seat)
        self.deals.append(deal)
        self.save(store)

    def save(self, store: TableStore) -> None:
        """Append the unsaved moves (one transaction); ``MoveConflict`` when
        another writer played first (``Tables`` then reloads this copy from
        the store)."""
        now = _time.time()
        if self.state.is_terminal() and self.row.ended is None:
            self.row.ended = now
        self.row.updated = self.last_touch = now
        if self.saved < len(self.actions):
            self.row.moved = now                # the store's too: the next turn starts now
        moves = list(zip(self.actors[self.saved:], self.actions[self.saved:], strict=True))
        store.append(self.id, self.saved, moves, now, self.row.ended)
        self.row.moves.extend(moves)
        self.saved = len(self.actions)

    def touch(self, store: TableStore, idle: float) -> None:
        """A use: kept in memory; written when the row's time is a quarter
        of the idle time (or ``TOUCH_SECONDS``) old."""
        now = _time.time()
        self.last_touch = now
        if now - self.row.updated >= min(TOUCH_SECONDS, idle / 4):
            self.row.updated = now
            store.touch(self.id, now)

    # ---- what a viewer sees ---------------------------------------------------

    # ---- absent seats ---------------------------------------------------------

    def turn_ends(self) -> float | None:
        """When the turn of the person to move runs out and a bot takes the
        seat (seconds since 1970), None where nobody waits for a person: the
        match is over, a bot is to move, or the table waits for ever.  The
        turn starts at the last move (or the table's creation), or when the
        person took the seat back, whichever is later."""
        if self.row.away is None or self.state.is_terminal():
            return None
        seat = self.state.current_player()
        if seat not in self.row.playing:
            return None
        start = max(self.row.moved or self.row.created, self.row.seats[seat].get("back", 0))
        return start + self.row.away

    def stand_in(self, seat: int, bot: str) -> None:
        """A bot plays ``seat`` (its person is away) until the person takes
        it back; the caller stores the seats."""
        self.row.seats[seat] = {**self.row.seats[seat], "standin": bot}

    def take_back(self, seat: int, now: float) -> None:
        """The person plays ``seat`` again; their turn's clock starts now."""
        spec = {k: v for k, v in self.row.seats[seat].items() if k not in ("standin", "open")}
        self.row.seats[seat] = {**spec, "back": now}

    def seat_view(self, seat: int) -> SeatView:
        # SeatView.of keeps a clone of the table's state, which the view's
        # sampler starts from: a hint at the table replays nothing
        return SeatView.of(self.state, seat)

    def deal_scores(self) -> list[list[float]]:
        """The result of every finished deal (public once a deal ends)."""
        return self.state.finished_round_returns()

    def review_request(self, token: str, seat: int | None,
                       deal: int | None) -> tuple[dict, int | None, int]:
        """What a review of this table may judge (``bots.review``): the
        position, the seat and the deal (1 = the table's first).  A seat's
        token reviews that seat's own decisions from its own view (no card
        it did not see); the admin token reviews every seat, with the exact
        solver's hindsight, but only once the match is over, when the full
        record is public anyway: before that, the hands of a finished deal
        that were never played would reach the admin, who is usually a
        player too.  Only a finished deal is reviewed."""
        mine = self.seat_of(token)
        if mine is not None:
            if seat is not None and seat != mine:
                raise Forbidden("your token is seat {mine}'s, not seat {seat}'s", "seat",
                                mine=mine, seat=seat)
            # the seat's view alone (no clone of the state: nothing samples here)
            pos: dict = self.state.information_state(mine).view
            seat = mine
        elif self.is_admin(token):
            if not self.state.is_terminal():
                raise Forbidden("before the match is over, a review shows a seat's hand: only "
                                "that seat's token may ask for it (the admin token may once "
                                "the match is over)")
            if seat is not None and not 0 <= seat < self.game.num_players:
                raise RequestError("{game} has seats 0..{top}, got {seat}", "seat",
                                   game=self.game.name, top=self.game.num_players - 1,
                                   seat=seat)
            pos = self.record()
        else:
            raise Forbidden("this token is not a token of table {table}", table=self.id)
        finished = len(self.deal_scores())
        if finished == 0:
            raise RequestError("no deal of this table is finished yet: a review judges a "
                               "finished deal", "deal", status=409)
        if deal is None:
            deal = finished
        elif deal > finished:
            raise RequestError("deal {deal} is not finished (finished: 1 to {top})", "deal",
                               status=409, deal=deal, top=finished)
        return pos, seat, deal

    def label_review(self, doc: dict, tr: Translator) -> None:
        """Every action a review names in the viewer's words
        (``present.label_review``)."""
        present.label_review(self, doc, tr)

    def payload(self, seat: int | None, tr: Translator | None = None) -> dict:
        """The table as ``seat`` sees it (None: a spectator): ``present.payload``."""
        return present.payload(self, seat, tr)

    def record(self) -> dict:
        """The full record (every hand): only once the match is over."""
        if not self.state.is_terminal():
            raise RequestError("the record shows every hand: it is given once the match is "
                               "over", status=409)
        out = solver.to_json(self.state)
        if self.row.seeded:
            out["seed"] = self.row.seed
        return out


__all__ = ["Table", "TABLE_BOTS", "AWAY", "AWAY_RANGE", "check_bot", "bot_seed", "default_bot", "new_token",
           "token_hash"]
