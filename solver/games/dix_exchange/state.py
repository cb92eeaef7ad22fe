"""The rules of a dix-exchange match as a state machine
(``DixExchangeState``); the rules in words are in
``solver/games/dix_exchange/game.py``."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ...cards import EXCHANGE_VALUES
from ...errors import NAMED_SEAT, NotationError, PositionError
from ...front import N_
from ...game import ACTION_NOT_STRING, NOT_AN_ACTION, NOT_HELD, TERMINAL, InfoState, State
from ...said import Quote, Said, phrase
from ..common import compact_unseen
from .notation import (
    _ACTION_STRINGS,
    _WORDS,
    ACCEPT,
    ASK,
    BLOCK,
    CHAT_JOKER,
    DRAW,
    KEEP,
    LOUP,
    MIN_BLOCK_RANK,
    OVER,
    PUTOIS,
    RANK,
    RESPOND,
    SAUTE_LAPIN,
    TURN,
    VALUE_INDEX,
    _is_action,
    _multiset_text,
    parse_value,
    value_text,
)

# the errors raised here (solver/errors.py: a code and its parameters)
STOCK_SHUFFLE_RECORD_GIVES = phrase("stock_shuffle_record_gives", N_("this stock is a shuffle of {pool}; "
                                                                     "the record gives {values}"))

# the notation's errors (solver/errors.py: a code and its parameters)
BARE_BLOCK = phrase("bare_block", N_("{text}: no request is pending, so a bare 'block' names no card "
                                     "(write e.g. 'block 9')"))
BLOCK_WITH = phrase("block_with", N_("{text}: unknown card {card} to block with (values: {values})"))
UNKNOWN_ACTION = phrase("exchange_unknown_action", N_("unknown action {action} (expected keep, ask, "
                                                      "accept, block <card>, draw)"))
# the rules' reasons
NOT_ACTION_OF = phrase("exchange_not_an_action", N_("not an action of {game}"))
NO_BLOCK_ACCEPT = phrase("no_block_accept", N_("{card} cannot block: only 6 to 10 block (seat {seat} must "
                                               "accept seat {asker}'s request)"))
NO_BLOCK = phrase("no_block", N_("{card} cannot block: only 6 to 10 block"))
MUST_ACCEPT = phrase("must_accept", N_("seat {seat} must accept seat {asker}'s request: its card is 5 or "
                                       "lower, so {action} is not an answer"))
ANSWER_FIRST = phrase("answer_first", N_("seat {seat} must answer seat {asker}'s request first: accept or "
                                         "block {card}, not {action}"))
NO_REQUEST = phrase("no_request", N_("no request is pending: seat {seat} is to keep or ask"))
NO_REQUEST_DEALER = phrase("no_request_dealer", N_("no request is pending: seat {seat} is to keep or draw"))
DEALER_DRAWS = phrase("dealer_draws", N_("only the dealer (seat {dealer}) draws from the stock; seat "
                                         "{seat} keeps or asks"))
DEALER_NO_ASK = phrase("dealer_no_ask", N_("the dealer (seat {seat}) does not ask: keep or draw"))

#: this game (DixExchangeGame, ``game.py``), for annotations: ``game.py`` imports
#: this module, so this module does not import it back
AnyGame = Any


class _ShuffleDraw:
    """The generator of one stock shuffle: ``pool`` (value indices of the
    cards shuffled)."""

    __slots__ = ("pool",)

    def __init__(self, pool: list):
        self.pool = pool

    def __call__(self, rng: random.Random) -> tuple:
        vals = list(self.pool)
        rng.shuffle(vals)
        return tuple(vals)


class DixExchangeState(State):
    """A DIX match in progress.  Public attributes (read-only for bots and
    front ends): ``tokens``, ``dealer``, ``active`` (the seats in this
    round), ``order`` (turn order), ``phase`` (``turn`` / ``respond`` /
    ``over``), ``asker`` and ``target`` of a pending request, ``hand``
    (per seat the stock position ``(k, i)`` held, or None), ``drawn`` (the
    position each seat drew this round), ``round_no``, ``winner``,
    ``events`` (the narrative), and ``moves``: the round's decisions so far
    as public facts, ``(seat, action, the position it held, its place in
    the turn order, its tokens, the seats in the round)`` (the opponent
    model reads them: ``solver/games/dix_exchange/model.py``)."""

    game: AnyGame   # this game's own options and helpers

    def __init__(self, game: AnyGame, chance):
        super().__init__(game, chance)
        n = game.num_players
        self.n = n
        self.all_seen = (1 << n) - 1
        self.tokens = [game.options["tokens"]] * n
        self.round_no = -1
        self.round_deltas: list[list[int]] = []   # token change of each finished round
        self.winner: int | None = None
        self._events: list = []             # lines: str, or parts (str or position)
        self.shuffles: list[tuple] = []     # value index per stock position
        self.ids: list[tuple] = []          # physical card id per stock position
        self.seen: list[list[int]] = []     # per position: bitmask of seats that know it
        self.cur = -1                       # index of the current stock
        self.stock_pos = 0
        self.used: list[int] = []           # physical ids set aside since the last shuffle
        self.hand: list = [None] * n
        self.drawn: list = [None] * n
        self.phase = TURN
        self.asker = self.target = -1
        self.round_base = 0                 # rounds played before this record starts
        self.stock_base = 0                 # stocks not in the deal (a carried stock)
        match, self.dealer = self._draw_match_or_dealer()
        if match is not None:
            self.round_base = match["round"] - 1
            self.tokens = list(match["tokens"])
            self._events.append(f"from round {match['round']}")
            if "stock" in match:
                self._carry_in(match)
        else:
            self._events.append(f"seat {self.dealer} is the first dealer")
        self._start_round()

    def deal_start(self) -> tuple:
        at, first, match = super().deal_start()
        if self._mark_stock is not None:
            k, i = self._mark_stock
            match = dict(match, stock=" ".join(EXCHANGE_VALUES[v] for v in self.shuffles[k][i:]))
        return at, first, match

    def _carry_in(self, match: dict) -> None:
        """Stock 0 (not in the deal) of a mid-match position whose round
        carries the stock: a shuffle of every card whose last places are the
        carried stock and whose first ones the used cards (every card not in
        it), already drawn."""
        g: AnyGame = self.game
        carried = [VALUE_INDEX[t] for t in match["stock"].split()]
        left = Counter({v: c for v, c in enumerate(g.counts)})
        left.subtract(carried)
        head = [v for v in sorted(left) for _ in range(left[v])]
        values = tuple(head + carried)
        free: dict[int, list[int]] = {}
        for i in range(g.size - 1, -1, -1):
            free.setdefault(g.id_value[i], []).append(i)
        self.ids.append(tuple(free[v].pop() for v in values))
        self.shuffles.append(values)
        self.seen.append([0] * len(values))
        self.cur, self.stock_pos = 0, len(head)
        self.used = list(self.ids[0][:len(head)])
        self.stock_base = 1

    @property
    def events(self) -> list[str]:
        """The narrative, one line per event.  A line that names an unseen
        card keeps its stock position and reads the value when shown, so a
        world sampled with other values for the unseen cards (a copy of
        another world with the stocks replaced) tells its own story."""
        return [e if isinstance(e, str) else
                "".join(p if isinstance(p, str) else value_text(self.value(p)) for p in e)
                for e in self._events]

    # ---- cards -----------------------------------------------------------
    def value(self, pos) -> int:
        """Value index of the card at stock position ``pos = (k, i)``."""
        return self.shuffles[pos[0]][pos[1]]

    def card_of(self, seat: int) -> str:
        """The value (notation) of the card ``seat`` holds now."""
        return EXCHANGE_VALUES[self.value(self.hand[seat])]

    def _see(self, pos, seat: int) -> None:
        self.seen[pos[0]][pos[1]] |= 1 << seat

    def _show(self, pos) -> None:
        self.seen[pos[0]][pos[1]] = self.all_seen

    def _new_stock(self, from_used: bool, why: str) -> None:
        """Shuffle a new stock: the used cards (``from_used``) or all cards."""
        g: AnyGame = self.game
        k = len(self.shuffles)
        pool_ids = self.used if from_used else range(g.size)
        pool = sorted(g.id_value[i] for i in pool_ids)
        values = self._chance.draw("shuffle", _ShuffleDraw(pool))
        if sorted(values) != pool:
            raise PositionError(STOCK_SHUFFLE_RECORD_GIVES(pool=_multiset_text(pool),
                                                           values=_multiset_text(sorted(values))),
                                f"deal.shuffles[{k}]")
        free: dict[int, list[int]] = {}
        for i in sorted(pool_ids, reverse=True):
            free.setdefault(g.id_value[i], []).append(i)
        self.ids.append(tuple(free[v].pop() for v in values))
        self.shuffles.append(tuple(values))
        self.seen.append([0] * len(values))
        self.cur = k
        self.stock_pos = 0
        self.used = []
        self._events.append(f"  {why} into a new stock")

    def _draw_card(self):
        """The top stock position; an empty stock is first rebuilt from the
        used cards (the cards in players' hands stay out)."""
        if self.stock_pos >= len(self.shuffles[self.cur]):
            self._new_stock(True, f"the stock is empty: {len(self.used)} used cards are "
                                  f"shuffled")
        pos = (self.cur, self.stock_pos)
        self.stock_pos += 1
        return pos

    # ---- round set-up ----------------------------------------------------
    def _start_round(self) -> None:
        g: AnyGame = self.game
        n = self.n
        self.round_no += 1
        self.active = tuple(s for s in range(n) if self.tokens[s] > 0)
        self.start_tokens = list(self.tokens)
        d = self.dealer
        self.order = tuple(s for s in ((d + 1 + j) % n for j in range(n)) if s in self.active)
        number = self.round_base + self.round_no + 1
        self._events.append(f"round {number}: seat {d} deals; tokens "
                           + " ".join(f"{s}:{self.tokens[s]}" for s in self.active))
        self.hand = [None] * n
        self.drawn = [None] * n
        self.moves: list[tuple] = []
        fresh = (self.round_no == 0 and not self.stock_base) or not g.carries_stock(
            number, self.tokens)
        match = {"round": number, "dealer": d, "tokens": list(self.tokens)}
        # the carried stock is read when asked (a sampled world has other cards)
        self._mark_deal(match)
        self._mark_stock = None if fresh else (self.cur, self.stock_pos)
        if fresh:
            self._new_stock(False, f"all {g.size} cards are shuffled")
        for s in self.order:
            pos = self._draw_card()
            self.hand[s] = self.drawn[s] = pos
            self._see(pos, s)
            self._events.append((f"  seat {s} draws ", pos))
        self.turn = 0
        self.phase = TURN
        self.asker = self.target = -1

    def _next_active(self, seat: int) -> int:
        i = self.order.index(seat)
        return self.order[(i + 1) % len(self.order)]

    # ---- protocol ----------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase == RESPOND:
            return self.target
        return self.order[self.turn]

    def legal_actions(self) -> list[int]:
        if self.phase == OVER:
            return []
        if self.phase == RESPOND:
            v = self.value(self.hand[self.target])
            return [ACCEPT, BLOCK + v] if RANK[v] >= MIN_BLOCK_RANK else [ACCEPT]
        if self.order[self.turn] == self.dealer:
            return [KEEP, DRAW]
        return [KEEP, ASK]

    def why_illegal(self, action: int) -> Said:
        if not _is_action(action):
            return NOT_ACTION_OF(game=self.game.name)
        seat = self.current_player()
        if self.phase == RESPOND:
            a, t = self.asker, self.target
            held = self.value(self.hand[t])
            if action >= BLOCK:
                v = action - BLOCK
                if RANK[v] < MIN_BLOCK_RANK:
                    return (NO_BLOCK_ACCEPT(card=EXCHANGE_VALUES[v], seat=t, asker=a)
                            if RANK[held] < MIN_BLOCK_RANK else
                            NO_BLOCK(card=EXCHANGE_VALUES[v]))
                return NOT_HELD(seat=t, card=EXCHANGE_VALUES[v])
            if RANK[held] < MIN_BLOCK_RANK:
                return MUST_ACCEPT(seat=t, asker=a, action=repr(_ACTION_STRINGS[action]))
            return ANSWER_FIRST(seat=t, asker=a, card=EXCHANGE_VALUES[held],
                                action=repr(_ACTION_STRINGS[action]))
        if action == ACCEPT or action >= BLOCK:
            return (NO_REQUEST_DEALER if seat == self.dealer else NO_REQUEST)(seat=seat)
        if action == DRAW:
            return DEALER_DRAWS(dealer=self.dealer, seat=seat)
        return DEALER_NO_ASK(seat=seat)

    def _apply(self, action: int) -> None:
        seat = self.current_player()
        # a new list (not an append): clones share the old one
        self.moves = self.moves + [(seat, action, self.hand[seat], self.turn,
                                    self.tokens[seat], len(self.order))]
        if self.phase == RESPOND:
            self._apply_response(action)
        elif self.order[self.turn] == self.dealer:
            self._apply_dealer(action)
        else:
            self._apply_turn(action)

    # ---- a non-dealer's turn ----------------------------------------------------
    def _apply_turn(self, action: int) -> None:
        seat = self.order[self.turn]
        if action == KEEP:
            self._events.append(f"seat {seat} keeps")
            self._next_turn()
            return
        self.asker = seat
        self.target = self._next_active(seat)
        self.phase = RESPOND
        self._events.append(f"seat {seat} asks seat {self.target} to exchange")

    def _apply_response(self, action: int) -> None:
        a, t = self.asker, self.target
        if action == ACCEPT:
            self.hand[a], self.hand[t] = self.hand[t], self.hand[a]
            self._see(self.hand[a], a)
            self._see(self.hand[t], t)
            self._events.append((f"seat {t} accepts: seat {a} now holds ", self.hand[a],
                                 f", seat {t} ", self.hand[t]))
            self._next_turn()
            return
        v = action - BLOCK
        self._show(self.hand[t])
        head = f"seat {t} blocks with {value_text(v)}"
        if v == SAUTE_LAPIN:
            nxt = self._next_active(t)
            if nxt == a:
                self._events.append(f"{head}: the request would come back to seat {a} and "
                                   f"lapses")
                self._next_turn()
            else:
                self._events.append(f"{head}: the request passes to seat {nxt}")
                self.target = nxt
            return
        if v == LOUP:
            self._events.append(f"{head}: seat {a} loses a token" + self._lose(a))
        elif v == PUTOIS:
            offered = self.hand[a]
            drawer = self.drawn.index(offered)
            line = f"{head}: seat {a} loses a token" + self._lose(a)
            if drawer != a:
                line += (f"; seat {drawer}, who drew the offered card, loses a token"
                         + self._lose(drawer))
            self._events.append(line + "; everyone takes back the card they drew")
            for s in self.active:
                self.hand[s] = self.drawn[s]
        else:
            self._events.append(f"{head}: the exchange is cancelled")
        self._next_turn()

    def _lose(self, seat: int) -> str:
        if self.tokens[seat] > 0:
            self.tokens[seat] -= 1
        return f" ({self.tokens[seat]} left)"

    def _next_turn(self) -> None:
        self.phase = TURN
        self.asker = self.target = -1
        self.turn += 1

    # ---- the dealer ----------------------------------------------------------
    def _apply_dealer(self, action: int) -> None:
        d = self.dealer
        if action == DRAW:
            old = self.hand[d]
            pos = self._draw_card()
            self.hand[d] = pos
            self._see(pos, d)
            self.used.append(self.ids[old[0]][old[1]])
            self._events.append((f"seat {d} (dealer) discards ", old, " and draws ", pos))
        else:
            self._events.append(f"seat {d} (dealer) keeps")
        self._showdown()

    # ---- the showdown ------------------------------------------------------
    def _showdown(self) -> None:
        n = self.n
        for s in self.active:
            self._show(self.hand[s])
        vals = {s: self.value(self.hand[s]) for s in self.active}
        self._events.append("showdown: " + ", ".join(f"seat {s} {EXCHANGE_VALUES[v]}"
                                                    for s, v in vals.items()))
        if sum(1 for v in vals.values() if v == CHAT_JOKER) >= 2:
            back = [s for s in range(n) if self.tokens[s] == 0]
            for s in back:
                self.tokens[s] = 1
            self._events.append("  two or more Chat-Jokers: nobody loses" + (
                "; " + ", ".join(f"seat {s}" for s in back) + " re-enter with one token"
                if back else ""))
        else:
            low = min(RANK[v] for v in vals.values())
            losers = [s for s, v in vals.items() if RANK[v] == low]
            for s in losers:
                self._lose(s)
            self._events.append("  lowest card: " + ", ".join(f"seat {s}" for s in losers)
                               + " lose a token" if len(losers) > 1 else
                               f"  lowest card: seat {losers[0]} loses a token")
        for s in self.active:
            self.used.append(self.ids[self.hand[s][0]][self.hand[s][1]])
        if not any(self.tokens):
            self.tokens = list(self.start_tokens)
            self._events.append("  nobody would hold a token: tokens restored to the start "
                               "of the round, another round is played")
        self.round_deltas.append([self.tokens[s] - self.start_tokens[s] for s in range(n)])
        out = [s for s in self.active if self.tokens[s] == 0]
        for s in out:
            self._events.append(f"  seat {s} is eliminated")
        self._events.append("  tokens " + " ".join(f"{s}:{self.tokens[s]}" for s in range(n)))
        alive = [s for s in range(n) if self.tokens[s] > 0]
        if len(alive) == 1:
            self.winner = alive[0]
            self.phase = OVER
            self.hand = [None] * n
            self._events.append(f"seat {self.winner} wins")
            return
        d = self.dealer
        self.dealer = next(s for s in ((d + 1 + j) % n for j in range(n)) if self.tokens[s])
        self._start_round()

    def round_index(self) -> int:
        return self.round_no

    def round_returns(self, index: int | None = None) -> list[float]:
        """Tokens won (revival) or lost in round ``index`` (default: the
        round in play, so far), per seat."""
        if index is not None and index < len(self.round_deltas):
            return [float(x) for x in self.round_deltas[index]]
        return [float(self.tokens[s] - self.start_tokens[s]) for s in range(self.n)]

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0] * self.n
        lose = -1.0 / (self.n - 1)
        return [1.0 if s == self.winner else lose for s in range(self.n)]

    # ---- notation --------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        if not _is_action(action):
            raise NotationError(NOT_AN_ACTION(action=Quote(action), game=self.game.name),
                                str(action))
        return _ACTION_STRINGS[action]

    def string_to_action(self, text: str) -> int:
        if not isinstance(text, str):
            raise NotationError(ACTION_NOT_STRING(got=Quote(text)), str(text))
        words = text.strip().lower().split()
        if len(words) == 1 and words[0] in _WORDS:
            return _WORDS[words[0]]
        if words and words[0] == "block":
            if len(words) == 1:
                if self.phase != RESPOND:
                    raise NotationError(BARE_BLOCK(text=Quote(text)), text)
                return BLOCK + self.value(self.hand[self.target])
            try:
                return BLOCK + parse_value(" ".join(words[1:]))
            except NotationError:
                raise NotationError(BLOCK_WITH(text=Quote(text), card=repr(" ".join(words[1:])),
                                               values=" ".join(EXCHANGE_VALUES)), text) from None
        raise NotationError(UNKNOWN_ACTION(action=Quote(text)), text)

    # ---- information -------------------------------------------------------
    def information_state(self, seat: int) -> InfoState:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            raise PositionError(NAMED_SEAT(name="seat", top=self.n - 1, got=Quote(seat)))
        g = self.game
        bit = 1 << seat
        shuffles = []
        for vals, seen in zip(self.shuffles, self.seen, strict=True):
            shuffles.append(compact_unseen([EXCHANGE_VALUES[v] if m & bit else "?"
                                            for v, m in zip(vals, seen, strict=True)]))
        match = None
        if self.stock_base:           # the carried stock: the seat sees what it saw
            first = self._chance.log[0][1]
            head = g.size - len(first["stock"].split())
            match = {k: first[k] for k in ("round", "dealer")}
            match["tokens"] = list(first["tokens"])
            match["stock"] = compact_unseen([
                EXCHANGE_VALUES[v] if m & bit else "?"
                for v, m in zip(self.shuffles[0][head:], self.seen[0][head:], strict=True)])
        view = self._view_head(seat, {"shuffles": shuffles[self.stock_base:]}, match)
        view["actions"] = [_ACTION_STRINGS[a] for a in self._history]
        return InfoState(seat, view, self._known(seat))

    def _known(self, seat: int) -> dict:
        pos = self.hand[seat]
        return {"card": None if pos is None else EXCHANGE_VALUES[self.value(pos)],
                "tokens": list(self.tokens), "dealer": self.dealer,
                "round": self.round_base + self.round_no,
                "active": list(self.active), "phase": self.phase,
                "asker": None if self.asker < 0 else self.asker,
                "target": None if self.target < 0 else self.target,
                "stock_left": len(self.shuffles[self.cur]) - self.stock_pos,
                "winner": self.winner}

    # ---- display / misc ------------------------------------------------------
    def to_text(self) -> str:
        number = self.round_base + self.round_no + 1
        lines = [f"dix-exchange round {number}, dealer seat {self.dealer}, "
                 f"phase {self.phase}"]
        for s in range(self.n):
            card = "-" if self.hand[s] is None else self.card_of(s)
            lines.append(f"seat {s}: {card:>4}  tokens {self.tokens[s]}")
        return "\n".join(lines)

    def clone(self) -> DixExchangeState:
        new = DixExchangeState.__new__(DixExchangeState)
        new.__dict__.update(self.__dict__)
        new._chance = self._chance.clone()
        new._history = list(self._history)
        new.tokens = list(self.tokens)
        new.start_tokens = list(self.start_tokens)
        new.round_deltas = [list(d) for d in self.round_deltas]
        new._events = list(self._events)
        new.shuffles = list(self.shuffles)
        new.ids = list(self.ids)
        new.seen = [list(m) for m in self.seen]
        new.used = list(self.used)
        new.hand = list(self.hand)
        new.drawn = list(self.drawn)
        return new
