"""Tables: a match of any game between people and bots, held by the server.

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

A viewer sees the table through ``payload``: the seats around it (names,
person or bot and its level, card counts), the trick with who played each
card (and the last trick until the next lead), trumps, the game's board
(the contracts played and open, the auction and the nest, the tokens and
the exchanges of the round), its hand and legal actions when it is a
seat, a summary of every finished deal, and every card and action in words
in the viewer's language (``labels``).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import random
import re
import secrets
import socket
import threading
import time as _time
from collections.abc import Callable, Iterator

import solver
from solver.cards import ROOK_COLOURS
from solver.errors import DixtrixError, OptionError, short_repr
from solver.games.contract_match.layout import parse_text
from solver.position import SeatView

from .. import advice
from .. import levels as bot_levels
from ..registry import make_bot
from ..rules import has_rules_bot
from . import labels, words
from .errors import Forbidden, RequestError, TableNotFound, Unauthorized
from .i18n import Translator
from .pool import Busy
from .settings import Settings
from .store import MoveConflict, Row, TableStore
from .words import seat_name

#: the bots a table may seat (``cheat`` is unfair, ``engine`` runs a program);
#: the levels (``bots.levels``) too
TABLE_BOTS = ("random", "rules", "ismcts", "pimc")
#: a table id: what ``secrets.token_urlsafe`` makes
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
#: random bytes of a seat or admin token (192 bits)
TOKEN_BYTES = 24
#: random bits of an unseeded table's seed
SEED_BITS = 128
#: the public log entries a view carries (the latest)
LOG_ENTRIES = 80
#: seconds between two writes of a table's last use (reads are not written each time)
TOUCH_SECONDS = 30.0
#: the largest seed a creator may give
MAX_SEED = solver.game.MAX_SEED
#: facts of a seat's view that are its own even where several seats share them
PRIVATE_FACTS = frozenset({"hand", "card", "opponent_hand", "nest", "discards"})

CREATE_KEYS = ("game", "options", "seats", "bots", "seed")


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
        raise RequestError("bot {name} cannot sit at a table (one of: {bots}; or a level: "
                           "{levels})", path, name=short_repr(name), bots=", ".join(TABLE_BOTS),
                           levels=", ".join(bot_levels.LEVELS))
    try:
        bot = make_bot(spec, game, seat, seed=0)
    except DixtrixError as exc:
        raise RequestError("{why}", path, why=str(exc)) from None
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
                    raise DixtrixError(f"move {len(self.actions)} is stored as seat {seat}'s, "
                                       f"but seat {self.state.current_player()} is to move")
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
        persons = set(self.row.persons)
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
                bot = make_bot(self.row.bots[seat], self.game, seat,
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

    def seat_view(self, seat: int) -> SeatView:
        info = self.state.information_state(seat)
        return SeatView(self.game, seat, info.view, info)

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
            pos: dict = self.seat_view(mine).view
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
        """Every action a review names (played, advised) in the viewer's
        words: ``played_label``, ``best_label``."""
        def label(text):
            if text is None:
                return None
            return labels.action(self.game.name, text, self._is_card_text(text), tr)
        for entry in doc.get("decisions", []):
            entry["played_label"] = label(entry["played"])
            entry["best_label"] = label(entry["best"])
        for summary in doc.get("summary", []):
            for entry in summary.get("biggest", []):
                entry["played_label"] = label(entry["played"])
                entry["best_label"] = label(entry["best"])

    def check_seat(self, seat: int) -> None:
        """``RequestError`` unless ``seat`` is a person's seat."""
        if seat not in self.row.persons:
            raise RequestError("seat {seat} is played by a bot at this table", "seat",
                               seat=seat)

    def payload(self, seat: int | None, tr: Translator | None = None) -> dict:
        """The table as ``seat`` sees it (None: a spectator); see the module
        docstring and docs/server.md."""
        tr = tr or Translator("en")
        state, game = self.state, self.game
        n = game.num_players
        infos = [state.information_state(s) for s in range(n)]
        over = state.is_terminal()
        cur = None if over else state.current_player()
        if seat is not None:
            known = dict(infos[seat].known)
            names_en = advice.seat_names(n, seat, game.partnership)
            view_actions = infos[seat].view["actions"]
        else:
            known = public_known([i.known for i in infos])
            names_en = [f"seat {s}" for s in range(n)]
            view_actions = public_actions([i.view["actions"] for i in infos])
        names = [seat_name(names_en[s], s, tr) for s in range(n)]
        legal = []
        if seat is not None and cur == seat:
            for a in state.legal_actions():
                text = state.action_to_string(a)
                is_card = game.is_card(a)
                legal.append({"action": text, "card": is_card,
                              "label": labels.action(game.name, text, is_card, tr)})
        hand = known.get("hand") if seat is not None else None
        if hand is None and seat is not None and known.get("card"):
            hand = known["card"]
        hand = hand.split() if isinstance(hand, str) else []
        log = self._log(view_actions, names, tr)
        seats = []
        persons = set(self.row.persons)
        for s in range(n):
            k = infos[s].known
            own = k.get("hand")
            count = len(own.split()) if isinstance(own, str) else (
                1 if k.get("card") not in (None, "") else 0)
            entry = {"seat": s, "name": names[s], "you": s == seat, "cards": count,
                     "kind": "person" if s in persons else "bot", "to_move": s == cur}
            if s not in persons:
                spec = self.row.seats[s]
                entry["level"] = spec.get("level")
                entry["bot"] = spec["bot"]
            seats.append(entry)
        board = self._board(known, log, names, tr)
        ids = set(hand) | set(board.pop("_cards", ()))
        ids |= {e["action"] for e in log if e["card"]}
        if seat is not None and known.get("opponent_hand"):
            ids |= set(known["opponent_hand"].split())
        out = {
            "table": self.id, "game": game.name, "options": dict(game.options),
            "seeded": self.row.seeded, "version": self.version,
            "seat": seat, "spectator": seat is None, "seats": seats,
            "persons": sorted(persons),
            "bots": {str(s): spec for s, spec in sorted(self.row.bots.items())},
            "levels": {str(s): sp.get("level") for s, sp in enumerate(self.row.seats)
                       if "bot" in sp and sp.get("level")},
            "names": names, "players": n, "partnership": game.partnership,
            "to_move": cur, "your_turn": seat is not None and cur == seat,
            "over": over, "legal": legal, "hand": hand, "known": known, "board": board,
            "deal": state.round_index(), "deal_scores": self.deal_scores(),
            "summaries": self.summaries(names, tr),
            "unit": labels.unit(game.round_unit, tr), "totals": known.get("totals"),
            # each score row's unit in words (a deal's result, the match so far,
            # the match's result): no row of the score table is read in another's
            "units": words.units(game, tr),
            "returns": [float(v) for v in state.returns()] if over else None,
            "log": log[-LOG_ENTRIES:], "actions": len(view_actions),
            "cards": labels.cards_in(game.name, ids, tr),
            "lang": tr.lang, "dir": "rtl" if tr.rtl else "ltr",
        }
        if self.row.seeded:
            out["seed"] = self.row.seed
        if seat is not None:
            view = SeatView(game, seat, infos[seat].view, infos[seat])
            out["facts"] = words.facts(view, tr)
            out["view"] = view.view
        return out

    def _log(self, view_actions: list, names: list, tr: Translator) -> list[dict]:
        """The actions as this viewer sees them (hidden ones as ``?``), each
        with who played it and its label."""
        # a view lists the match's actions from the first (a view starting at
        # a later deal would list the last ones): align them with the actors
        offset = len(self.actors) - len(view_actions)
        out = []
        start = max(0, len(view_actions) - 4 * LOG_ENTRIES)
        for i in range(start, len(view_actions)):
            text = view_actions[i]
            seat = self.actors[offset + i]
            is_card = text != "?" and self._is_card_text(text)
            out.append({"index": offset + i, "seat": seat, "who": names[seat],
                        "action": text, "card": is_card, "deal": self.deals[offset + i],
                        "label": labels.action(self.game.name, text, is_card, tr)})
        return out

    def _is_card_text(self, text: str) -> bool:
        try:
            return self.game.is_card(self.state.string_to_action(text))
        except DixtrixError:
            return False

    def _board(self, known: dict, log: list, names: list, tr: Translator) -> dict:
        """What lies on the table, from the viewer's facts and the log."""
        game, n = self.game, self.game.num_players
        deal = self.state.round_index()
        board: dict = {}
        cards: set = set()
        trick, leader = known.get("trick"), known.get("leader")
        if isinstance(trick, list) and isinstance(leader, int) and leader >= 0:
            board["trick"] = [{"seat": (leader + i) % n, "card": c} for i, c in enumerate(trick)]
            board["leader"] = leader
            cards |= set(trick)
            if not trick:
                # the last trick stays on the table until the next lead
                last = [e for e in log if e["deal"] == deal and e["card"]][-n:]
                if len(last) == n and len({e["seat"] for e in last}) == n and \
                        not self.state.is_terminal():
                    board["last_trick"] = {"cards": [{"seat": e["seat"], "card": e["action"]}
                                                     for e in last], "winner": leader}
                    cards |= {e["action"] for e in last}
        if known.get("trump") not in (None, ""):
            trump = known["trump"]
            if labels.DECKS.get(game.name) == "french":
                board["trumps"] = {"suit": trump, "name": tr(labels.SUITS.get(trump, trump)),
                                   "sign": labels.SUIT_SIGNS.get(trump, "")}
            else:
                colour = labels.COLOUR_WORDS.get(trump)
                board["trumps"] = {"suit": trump,
                                   "name": tr(labels.COLOURS[colour]) if colour else trump}
        elif labels.DECKS.get(game.name) == "french" and "turn_up" in known and \
                known.get("turn_up") == "JK":
            board["trumps"] = {"suit": None, "name": tr("No trumps"), "sign": ""}
        if known.get("turn_up"):
            board["turn_up"] = known["turn_up"]
            cards.add(known["turn_up"])
        if known.get("stock_left") is not None:
            board["stock_left"] = known["stock_left"]
        names_of = getattr(game, "contract_names", None)
        if names_of and "used" in known:
            used = list(known.get("used") or [])
            contract = known.get("contract")
            board["contracts"] = {
                "chooser": known.get("chooser"),
                "round": known.get("round"),
                "contract": contract,
                "contract_label": labels.contract(contract, tr) if contract else None,
                "played": [{"name": c, "label": labels.contract(c, tr)} for c in used
                           if c != contract],
                "open": [{"name": c, "label": labels.contract(c, tr)} for c in names_of
                         if c not in used],
            }
        if known.get("layout"):
            # the rows as the game writes them (S:9S..AS: the fact the seat
            # reads, solver/games/contract_match/layout.py), each suit's cards
            # low to high
            board["layout"] = parse_layout(known["layout"])
            for row in board["layout"].values():
                cards |= set(row)
        if known.get("revealed"):
            board["doubled"] = [{"card": c, "seat": s} for c, s in known["revealed"].items()]
            cards |= set(known["revealed"])
        if "phase" in known and game.name == "dixie-rook":
            board["auction"] = {k: known.get(k) for k in ("phase", "high_bid", "high_bidder",
                                                          "passed", "bid_winner", "bid", "dealer")}
            if known.get("nest"):
                board["nest"] = known["nest"].split()
                cards |= set(board["nest"])
            if known.get("discards"):
                board["discards"] = known["discards"].split()
                cards |= set(board["discards"])
            for k in ("tricks_won", "count"):
                if known.get(k) is not None:
                    board[k] = known[k]
        if game.name == "dix-exchange":
            board["exchange"] = {k: known.get(k) for k in ("tokens", "active", "phase", "asker",
                                                           "target", "dealer", "winner")}
            # the exchanges of the round in play, as this viewer sees them
            board["chain"] = [{"seat": e["seat"], "action": e["action"], "label": e["label"]}
                              for e in log if e["deal"] == deal]
        elif known.get("tricks_won") is not None:
            board["tricks_won"] = known["tricks_won"]
        if known.get("tens") is not None:
            board["tens"] = known["tens"]
        board["_cards"] = cards
        return board

    def summaries(self, names: list, tr: Translator) -> list[dict]:
        """One summary a finished deal: its points per seat (the game's
        round result, ``round_returns``), the running totals, and what each
        seat (or team) took, from the game's own record of the deal."""
        out = []
        running = [0.0] * self.game.num_players
        details = _deal_details(self.game, self.state, tr)
        for i, points in enumerate(self.deal_scores()):
            running = [a + b for a, b in zip(running, points, strict=True)]
            entry = {"deal": i, "points": points, "running": list(running)}
            if i < len(details):
                entry.update(details[i])
            out.append(entry)
        return out

    def record(self) -> dict:
        """The full record (every hand): only once the match is over."""
        if not self.state.is_terminal():
            raise RequestError("the record shows every hand: it is given once the match is "
                               "over", status=409)
        out = solver.to_json(self.state)
        if self.row.seeded:
            out["seed"] = self.row.seed
        return out


def public_known(all_known: list[dict]) -> dict:
    """The facts every seat knows alike: what a spectator may see."""
    first = all_known[0]
    return {k: v for k, v in first.items()
            if k not in PRIVATE_FACTS and all(other.get(k) == v for other in all_known[1:])}


def public_actions(per_seat: list[list]) -> list:
    """The actions as a spectator sees them: an action any seat does not see
    (``?`` in its view) is hidden."""
    length = min(len(a) for a in per_seat)
    out = []
    for i in range(length):
        texts = {a[len(a) - length + i] for a in per_seat}
        out.append(texts.pop() if len(texts) == 1 else "?")
    return out


def parse_layout(text: str) -> dict:
    """The layout's rows as the game writes them, each suit's cards from
    low to high (``solver.games.contract_match.layout.parse_text``: a part
    of another form is refused, ValueError)."""
    return parse_text(text)


def _deal_details(game, state, tr: Translator) -> list[dict]:
    """Per finished deal, what the game's record of it says beyond the
    points (game by game: the front end names them in words)."""
    out = []
    if game.name in ("trix", "tricks"):
        logs = [log for log in getattr(state, "deal_logs", []) if log.scores is not None]
        for row, log in zip(getattr(state, "rows", []), logs, strict=True):
            entry = {"contract": game.contract_names[row["contract"]],
                     "contract_label": labels.contract(game.contract_names[row["contract"]], tr),
                     "chooser": row["chooser"], "totals": list(row["totals"])}
            play = log.play
            if getattr(play, "tricks_won", None) is not None:
                entry["tricks"] = list(play.tricks_won)
            if getattr(play, "finish", None):
                entry["out"] = list(play.finish)
            out.append(entry)
    elif game.name == "dix":
        running = [0, 0]
        for rnd in getattr(state, "rounds", []):
            running = [a + b for a, b in zip(running, rnd["scores"], strict=True)]
            out.append({"scores": list(rnd["scores"]), "tens": list(rnd["tens"]),
                        "totals": list(running)})
    elif game.name == "dixie-rook":
        for res in getattr(state, "results", []):
            word = labels_trump(res.get("trump"))
            colour = labels.COLOUR_WORDS.get(word) if word is not None else None
            out.append({"bid_winner": res["bid_winner"], "bid": res["bid"],
                        "trump": tr(labels.COLOURS[colour]) if colour else None,
                        "team_tricks": list(res["tricks"]), "team_count": list(res["count"]),
                        "made": bool(res["made"]), "team_score": list(res["score"]),
                        "team_totals": list(res["totals"])})
    elif game.name == "dix-exchange":
        tokens_now = None
        for delta in getattr(state, "round_deltas", []):
            out.append({"tokens_change": [int(x) for x in delta]})
        if out:
            tokens_now = list(getattr(state, "tokens", []))
            out[-1]["tokens"] = tokens_now
    return out


def labels_trump(trump) -> str | None:
    """A dixie-rook trump (a colour index or word) as its word."""
    if isinstance(trump, int):
        return ROOK_COLOURS.get(trump)
    return trump


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
           "token_hash", "public_known", "public_actions", "parse_layout"]
