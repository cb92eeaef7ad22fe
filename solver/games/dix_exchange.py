"""dix-exchange -- DIX by Dave De Vega, 4-12 players (seed 002, RULINGS
"dix-exchange").

Read top to bottom as the rules:

* Value cards, high to low: 10 Hibou, 9 Loup, 8 Putois, 7 Saute-lapin,
  6 Hotel, 5 .. 1, 0 Roc, 00 Ogre, 000 Masqueleon, 0000 Lion froussard; the
  Chat-Joker (CJ) ties with the Lion.  The deck is an option (default 55
  cards: four each of 10..1, three each of 0..0000, three Chat-Jokers).
* Every player starts with ``tokens`` (3).  First dealer random.  Each round
  the player after the dealer draws first, the dealer last; one hidden card
  each.
* Turns go from seat dealer+1 to the dealer (eliminated seats skipped).  A
  non-dealer keeps, or asks to exchange with the next seat R.  R holding 5
  or lower must accept; R holding 6-10 may accept, or block by showing the
  card: Hotel/Hibou cancel; Loup cancels and the asker loses a token;
  Putois cancels, the asker loses a token, the original drawer of the
  offered card loses a token (once only if that is the asker) and everyone
  takes back the card they drew; Saute-lapin passes the same request to the
  seat after R (wrapping past the dealer, lapsing if it would come back to
  the asker).  Turn order never changes.
* The dealer keeps, or swaps for the top stock card (and keeps that).
* Showdown: every holder of the lowest value loses a token; two or more
  Chat-Jokers: nobody loses and every player on zero re-enters with one
  token.  Tokens never go below zero; elimination is settled after the
  showdown; a round leaving nobody with a token is replayed from the
  tokens it started with.  The last player holding tokens wins.
* Stock: with 5+ active players (or ``carry_stock`` off) all cards are
  reshuffled every round; with fewer the stock carries over and the used
  cards are reshuffled into a new stock only when a card must be drawn from
  an empty stock.

Choices the rulings leave open, made here: the dealer who swaps takes the
top stock card first and then discards (so the discard is never reshuffled
into the stock it is drawn from), face down: only the dealer knows it.  The
offered card returned by a Putois is not shown.  A replayed round (nobody
left with a token) is dealt by the next active seat, like any round.
Returns: the winner +1, every other seat -1/(n-1) (zero-sum).

Physical cards: each card of the deck has an id (``0..size-1``, in deck
order); a stock is a shuffle of ids.  The record lists each shuffle by
values (the ids follow canonically: the lowest free id of that value), since
only values are ever seen.  Who holds which stock position is public at all
times (every request, acceptance and block is public); what a seat knows is
the value of some positions: its own draws, cards it received in a swap,
cards shown to block, the showdowns, and (the dealer) its stock draw and
discard.  A seat view is the record with every other position ``"?"``.
``DixExchangeGame.world_sampler`` counts the worlds a view allows exactly
and draws them uniformly (``DixExchangeWorldSampler``); ``complete_view``
draws through it.

Actions (canonical strings; aliases in parentheses, case-insensitive):
``keep`` (``stay``), ``ask`` (``exchange``, ``swap``), ``accept``
(``ok``), ``draw`` (``stock``: the dealer swaps with the stock), and
``block <card>`` for each value (``block 9``, ``block loup``; a bare
``block`` means the card of the seat answering the request).  Only
``block 6`` .. ``block 10`` can ever be legal.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import Counter
from math import comb
from typing import Any

from ..cards import EXCHANGE_NAMES, EXCHANGE_VALUES
from ..errors import IllegalActionError, NotationError, OptionError, PositionError, short_repr
from ..game import TERMINAL, Chance, Game, InfoState, Option, State, WorldSampler, register_game
from .common import check_keys, compact_unseen, match_number, need, parse_card_list

# ----------------------------------------------------------------------
# values

VALUE_INDEX = {v: i for i, v in enumerate(EXCHANGE_VALUES)}
#: comparison rank of each value index: 10 .. 1, 0, then 00 / 000 / 0000
#: below zero; the Chat-Joker ranks with the Lion.
RANK = (10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -3)
HIBOU, LOUP, PUTOIS, SAUTE_LAPIN, HOTEL = (VALUE_INDEX[v] for v in ("10", "9", "8", "7", "6"))
CHAT_JOKER = VALUE_INDEX["CJ"]
MIN_BLOCK_RANK = 6
_NAME_INDEX = {EXCHANGE_NAMES[v].lower(): i for i, v in enumerate(EXCHANGE_VALUES)}
_NAME_INDEX.update({"hôtel": HOTEL, "masquéléon": VALUE_INDEX["000"],
                    "lion": VALUE_INDEX["0000"], "chat": CHAT_JOKER, "joker": CHAT_JOKER,
                    "saute lapin": SAUTE_LAPIN})

STANDARD_COUNTS = {"10": 4, "9": 4, "8": 4, "7": 4, "6": 4, "5": 4, "4": 4, "3": 4, "2": 4,
                   "1": 4, "0": 3, "00": 3, "000": 3, "0000": 3, "CJ": 3}

MIN_PLAYERS, MAX_PLAYERS = 4, 12
FULL_SHUFFLE_PLAYERS = 5        # with this many active players: reshuffle every round

# actions
KEEP, ASK, ACCEPT, DRAW = 0, 1, 2, 3
BLOCK = 4                       # BLOCK + value index: "block <value>"
NUM_ACTIONS = BLOCK + len(EXCHANGE_VALUES)
_WORDS = {"keep": KEEP, "stay": KEEP, "ask": ASK, "exchange": ASK, "swap": ASK,
          "accept": ACCEPT, "ok": ACCEPT, "draw": DRAW, "stock": DRAW}
_ACTION_STRINGS = ("keep", "ask", "accept", "draw") + tuple(f"block {v}" for v in EXCHANGE_VALUES)

# phases
TURN, RESPOND, OVER = "turn", "respond", "over"


def _is_action(action) -> bool:
    return not isinstance(action, bool) and isinstance(action, int) and 0 <= action < NUM_ACTIONS


def value_text(v: int) -> str:
    """``"9 (Loup)"``."""
    name = EXCHANGE_VALUES[v]
    return f"{name} ({EXCHANGE_NAMES[name]})"


def parse_value(token, what: str = "card") -> int:
    """A value token (``"9"``, ``"cj"``, ``"loup"``) -> value index."""
    if not isinstance(token, str):
        raise NotationError(f"a {what} is a string, got {short_repr(token)}", str(token))
    key = token.strip()
    if key.upper() in VALUE_INDEX:
        return VALUE_INDEX[key.upper()]
    if key.lower() in _NAME_INDEX:
        return _NAME_INDEX[key.lower()]
    raise NotationError(f"unknown {what} {short_repr(token)} (values: {' '.join(EXCHANGE_VALUES)})",
                        token)


# ----------------------------------------------------------------------
# the deck option

def deck_counts(text: str) -> list[int]:
    """Counts per value index of a canonical deck string."""
    counts = [0] * len(EXCHANGE_VALUES)
    for item in text.split():
        v, _, c = item.partition(":")
        counts[VALUE_INDEX[v]] = int(c)
    return counts


def canonical_deck(counts: dict) -> str:
    return " ".join(f"{v}:{counts[v]}" for v in EXCHANGE_VALUES if counts.get(v, 0))


class DeckOption(Option):
    """The ``deck`` option: ``"standard"``, a string ``"10:4 9:4 ... CJ:3"``
    (separators: spaces or commas; ``10x4`` and ``10=4`` accepted), or a
    mapping ``{"10": 4, "CJ": 3}``.  Values left out have no cards.  The
    stored value is the canonical string (non-zero counts, high to low)."""

    def check(self, game: str, name: str, value):
        where = f"{game}: option {short_repr(name)}"
        if isinstance(value, str) and value.strip().lower() in ("standard", "default"):
            return canonical_deck(STANDARD_COUNTS)
        if isinstance(value, str):
            items: list[tuple[Any, Any]] = []
            for tok in value.replace(",", " ").split():
                for sep in (":", "x", "X", "="):
                    if sep in tok:
                        v, _, c = tok.partition(sep)
                        break
                else:
                    raise OptionError(f"{where}: {short_repr(tok)} is not value:count (e.g. '9:4')")
                items.append((v, c))
        elif isinstance(value, dict):
            items = list(value.items())
        else:
            raise OptionError(f"{where} must be 'standard', a string like '10:4 9:4 ... CJ:3' "
                              f"or a mapping value -> count, got {short_repr(value)}")
        counts: dict[str, int] = {}
        for v, n in items:
            key = str(v).strip().upper() if (isinstance(v, str) or isinstance(v, int) and
                                             not isinstance(v, bool) and abs(v) < 1000) \
                else None
            if key not in VALUE_INDEX:
                raise OptionError(f"{where}: unknown card value {short_repr(v)} "
                                  f"(values: {' '.join(EXCHANGE_VALUES)})")
            if isinstance(n, str) and n.strip().isdigit() and len(n.strip()) <= 3:
                n = int(n)
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 99:
                raise OptionError(f"{where}: the count of {short_repr(key)} must be an integer 0..99, "
                                  f"got {short_repr(n)}")
            if key in counts:
                raise OptionError(f"{where}: value {short_repr(key)} is given twice")
            counts[key] = n
        if not any(counts.values()):
            raise OptionError(f"{where}: the deck has no cards")
        return canonical_deck(counts)


# ----------------------------------------------------------------------
# the game

@register_game
class DixExchangeGame(Game):
    name = "dix-exchange"
    notation = ("Cards are values, high to low: 10 (Hibou), 9 (Loup), 8 (Putois), 7 "
                "(Saute-lapin), 6 (Hotel), 5, 4, 3, 2, 1, 0 (Roc), 00 (Ogre), 000 "
                "(Masqueleon), 0000 (Lion froussard); CJ (Chat-Joker) ranks with the Lion. "
                "Actions: keep (stay), ask (exchange, swap) the next seat for its card, "
                "accept (ok) a request, block 6 .. block 10 a request by showing that card, "
                "draw (stock): the dealer swaps with the stock.")
    zero_sum = True                 # winner +1, every other seat -1/(n-1)
    round_unit = "tokens won (+) or lost (-) this round"
    round_scale = 3.0          # a round costs a seat at most 3 tokens (Loup, Putois, showdown)
    description = ("DIX (Dave De Vega): 4-12 players, one hidden card each, exchange or "
                   "block, lowest card loses a token")
    conformance_configs = ({}, {"players": 7}, {"players": 12})
    options_spec = {
        "players": Option(4, "number of players", min=MIN_PLAYERS, max=MAX_PLAYERS),
        "deck": DeckOption(canonical_deck(STANDARD_COUNTS),
                           "the deck as value:count pairs ('standard' = the 55 cards of "
                           "the rulings; a mapping value -> count is accepted too)"),
        "carry_stock": Option(True, "with fewer than 5 active players the stock carries over "
                              "between rounds (used cards reshuffled when it runs out); "
                              "false: reshuffle every round"),
        "tokens": Option(3, "tokens each player starts with", min=1, max=20),
    }

    def is_card(self, action: int) -> bool:
        # a seat holds one card and never plays it: every decision (keep,
        # ask, accept, block...) is something else
        return False

    def check_options(self) -> None:
        counts = deck_counts(self.options["deck"])
        n = self.options["players"]
        if sum(counts) < n + 1:
            raise OptionError(f"{self.name}: option 'deck' has {sum(counts)} cards; "
                              f"{n} players need at least {n + 1}")
        self.counts = tuple(counts)
        #: value index of each physical card id, in deck order (high to low)
        self.id_value = tuple(v for v, c in enumerate(counts) for _ in range(c))
        self.size = len(self.id_value)

    @property
    def num_players(self) -> int:
        return self.options["players"]

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def max_deal_length(self) -> int:
        # a turn per seat, each turn answered by at most every other seat (a
        # Saute-lapin passes the request on): n + n (n - 1)
        return self.num_players ** 2

    # ------------------------------------------------------------------
    # the deal: the first dealer and every shuffle of a stock, by values

    def parse_deal(self, deal: dict, mid: bool = False) -> list:
        return _parse_deal(self, deal, unknown_ok=False, mid=mid)[0]

    def _format_deal(self, outcomes: list, mid: bool) -> dict:
        out: dict = {"shuffles": []} if mid else {"first_dealer": 0, "shuffles": []}
        for kind, value in outcomes:
            if kind == "first_dealer":
                out["first_dealer"] = value
            elif kind == "shuffle":
                out["shuffles"].append(" ".join(EXCHANGE_VALUES[v] for v in value))
        return out

    # ------------------------------------------------------------------
    # mid-match positions: {"round": r, "dealer": seat, "tokens": [per seat],
    # "stock": the carried stock, top first, when this round carries it}

    match_keys = ("round", "dealer", "tokens", "stock")

    def carries_stock(self, round_number: int, tokens) -> bool:
        """Whether round ``round_number`` (1-based) with these tokens at its
        start plays on with the stock left from the round before."""
        active = sum(1 for t in tokens if t > 0)
        return (round_number > 1 and self.options["carry_stock"]
                and active < FULL_SHUFFLE_PLAYERS)

    def parse_match(self, match: dict, seat: int | None = None) -> dict:
        check_keys(match, self.match_keys, "match")
        rnd = match_number(match, "round")
        n, start = self.num_players, self.options["tokens"]
        tokens = need(match, "tokens", "match", list)
        if len(tokens) != n:
            raise PositionError(f"one count per seat ({n}), got {len(tokens)}", "match.tokens")
        for s, t in enumerate(tokens):
            if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= start:
                raise PositionError(f"a seat holds 0..{start} tokens, got {short_repr(t)}",
                                    f"match.tokens[{s}]")
        alive = [s for s in range(n) if tokens[s] > 0]
        if len(alive) < 2:
            raise PositionError("fewer than two seats hold a token: the match is already "
                                "over", "match.tokens")
        if rnd == 1 and any(t != start for t in tokens):
            raise PositionError(f"round 1 starts with every seat holding {start} tokens",
                                "match.tokens")
        dealer = need(match, "dealer", "match", int)
        if not 0 <= dealer < n:
            raise PositionError(f"must be a seat 0..{n - 1}, got {dealer}", "match.dealer")
        if tokens[dealer] == 0:
            raise PositionError(f"seat {dealer} holds no token: it is out of the match and "
                                f"does not deal", "match.dealer")
        out = {"round": rnd, "dealer": dealer, "tokens": list(tokens)}
        if self.carries_stock(rnd, tokens):
            if "stock" not in match:
                raise PositionError(f"missing 'stock': with {len(alive)} seats holding tokens "
                                    f"the stock carries over from round {rnd - 1} (give its "
                                    f"cards top first, or their count in a seat view)", "match")
            vals = _parse_values(self, match["stock"], "match.stock", seat is not None)
            out["stock"] = (compact_unseen([EXCHANGE_VALUES[v] if v is not None else "?"
                                            for v in vals]) if seat is not None else
                            " ".join(EXCHANGE_VALUES[v] for v in vals))
        elif "stock" in match:
            why = ("round 1 shuffles every card" if rnd == 1 else
                   "the stock never carries over (carry_stock is off)"
                   if not self.options["carry_stock"] else
                   f"{len(alive)} seats hold tokens, so every card is shuffled this round")
            raise PositionError(f"no carried stock here: {why}", "match.stock")
        return out

    # ------------------------------------------------------------------
    # seat views

    def world_sampler(self, view: dict) -> DixExchangeWorldSampler:
        return DixExchangeWorldSampler(self, view)

    def complete_view(self, view: dict, rng: random.Random) -> dict:
        """A complete record consistent with a seat view, drawn uniformly
        (``PositionError`` naming the culprit when none exists); in the
        middle of a match with its ``match`` object completed (the cards of
        an unseen carried stock chosen)."""
        sampler = DixExchangeWorldSampler(self, view)
        outcomes = sampler.outcomes(rng)
        out = {"deal": self.format_deal(outcomes), "actions": list(view["actions"])}
        if outcomes[0][0] == "match":
            out["match"] = outcomes[0][1]
        return out


class _CardValues:
    """The token parser of a dix-exchange card list (``parse_card_list``):
    a value name -> its index; ``size``: the cards in the deck."""

    __slots__ = ("size",)

    def __init__(self, size: int):
        self.size = size

    def parse(self, token, index: int | None = None) -> int:
        key = token.strip().upper() if isinstance(token, str) else None
        if key not in VALUE_INDEX:
            raise NotationError(f"unknown card value {short_repr(token)} (values: "
                                f"{' '.join(EXCHANGE_VALUES)})", str(token), index)
        return VALUE_INDEX[key]


def _parse_values(game: DixExchangeGame, raw, path: str, unknown_ok: bool) -> list:
    """A list of card values (text or a JSON list, see ``parse_card_list``:
    with ``unknown_ok`` a ``"?"`` is an unseen position, ``None``, and a
    count stands for a run of them), no value more often than the deck
    holds it."""
    vals = parse_card_list(_CardValues(game.size), raw, path, unknown_ok,
                           what="a list of card values", unit="cards")
    if len(vals) > game.size:
        raise PositionError(f"more than {game.size} cards, the deck has {game.size}", path)
    got = Counter(v for v in vals if v is not None)
    for v, c in got.items():
        if c > game.counts[v]:
            raise PositionError(f"{c} cards {EXCHANGE_VALUES[v]}, the deck has "
                                f"{game.counts[v]}", path)
    return vals


def _parse_deal(game: DixExchangeGame, deal, unknown_ok: bool, mid: bool = False):
    """``deal`` -> (outcomes, masked shuffles); with ``unknown_ok`` a ``"?"``
    (or a count of them) is an unseen position (``None``).  ``mid``: the
    deal of a mid-match position (no first dealer: it is in the match)."""
    if not isinstance(deal, dict):
        raise PositionError("expected an object", "deal")
    n = game.num_players
    if mid:
        check_keys(deal, ("shuffles",), "deal")
        outcomes = []
    else:
        check_keys(deal, ("first_dealer", "shuffles"), "deal")
        first = need(deal, "first_dealer", "deal", int)
        if not 0 <= first < n:
            raise PositionError(f"must be a seat 0..{n - 1}, got {first}", "deal.first_dealer")
        outcomes = [("first_dealer", first)]
    raw = need(deal, "shuffles", "deal", list)
    masked = []
    for k, sh in enumerate(raw):
        path = f"deal.shuffles[{k}]"
        vals = _parse_values(game, sh, path, unknown_ok)
        if not vals:
            raise PositionError("a shuffle has at least one card", path)
        masked.append(vals)
        if not unknown_ok:
            outcomes.append(("shuffle", tuple(vals)))
    return outcomes, masked


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
    position each seat drew this round), ``round_no``, ``winner``, and
    ``events`` (the narrative)."""

    game: DixExchangeGame   # this game's own options and helpers

    def __init__(self, game: DixExchangeGame, chance):
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
        g: DixExchangeGame = self.game
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
        g: DixExchangeGame = self.game
        k = len(self.shuffles)
        pool_ids = self.used if from_used else range(g.size)
        pool = sorted(g.id_value[i] for i in pool_ids)
        values = self._chance.draw("shuffle", _ShuffleDraw(pool))
        if sorted(values) != pool:
            raise PositionError(f"this stock is a shuffle of {_multiset_text(pool)}; the "
                                f"record gives {_multiset_text(sorted(values))}",
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
        g: DixExchangeGame = self.game
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

    def why_illegal(self, action: int) -> str:
        if not _is_action(action):
            return f"not an action of {self.game.name}"
        seat = self.current_player()
        if self.phase == RESPOND:
            a, t = self.asker, self.target
            held = self.value(self.hand[t])
            if action >= BLOCK:
                v = action - BLOCK
                if RANK[v] < MIN_BLOCK_RANK:
                    return (f"{EXCHANGE_VALUES[v]} cannot block: only 6 to 10 block "
                            f"(seat {t} must accept seat {a}'s request)"
                            if RANK[held] < MIN_BLOCK_RANK else
                            f"{EXCHANGE_VALUES[v]} cannot block: only 6 to 10 block")
                return f"seat {t} does not hold {EXCHANGE_VALUES[v]}"
            if RANK[held] < MIN_BLOCK_RANK:
                return (f"seat {t} must accept seat {a}'s request: its card is 5 or lower, "
                        f"so {_ACTION_STRINGS[action]!r} is not an answer")
            return (f"seat {t} must answer seat {a}'s request first: accept or "
                    f"block {EXCHANGE_VALUES[held]}, not {_ACTION_STRINGS[action]!r}")
        if action == ACCEPT or action >= BLOCK:
            return f"no request is pending: seat {seat} is to " + (
                "keep or draw" if seat == self.dealer else "keep or ask")
        if action == DRAW:
            return (f"only the dealer (seat {self.dealer}) draws from the stock; seat {seat} "
                    f"keeps or asks")
        return f"the dealer (seat {seat}) does not ask: keep or draw"

    def _apply(self, action: int) -> None:
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
            raise NotationError(f"{short_repr(action)} is not an action of {self.game.name}", str(action))
        return _ACTION_STRINGS[action]

    def string_to_action(self, text: str) -> int:
        if not isinstance(text, str):
            raise NotationError(f"an action is a string, got {short_repr(text)}", str(text))
        words = text.strip().lower().split()
        if len(words) == 1 and words[0] in _WORDS:
            return _WORDS[words[0]]
        if words and words[0] == "block":
            if len(words) == 1:
                if self.phase != RESPOND:
                    raise NotationError(f"{short_repr(text)}: no request is pending, so a bare 'block' "
                                        f"names no card (write e.g. 'block 9')", text)
                return BLOCK + self.value(self.hand[self.target])
            try:
                return BLOCK + parse_value(" ".join(words[1:]))
            except NotationError:
                raise NotationError(f"{short_repr(text)}: unknown card {' '.join(words[1:])!r} to block "
                                    f"with (values: {' '.join(EXCHANGE_VALUES)})",
                                    text) from None
        raise NotationError(f"unknown action {short_repr(text)} (expected keep, ask, accept, "
                            f"block <card>, draw)", text)

    # ---- information -------------------------------------------------------
    def information_state(self, seat: int) -> InfoState:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            raise ValueError(f"seat must be 0..{self.n - 1}, got {short_repr(seat)}")
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


DixExchangeGame.state_class = DixExchangeState


def _multiset_text(values: list) -> str:
    c = Counter(values)
    return " ".join(f"{EXCHANGE_VALUES[v]}:{c[v]}" for v in sorted(c))


# ----------------------------------------------------------------------
# seat views: the worlds a view allows, counted and drawn uniformly
#
# Every action is public and every card whose value decides something (a
# block, a showdown) is shown to all, so the public course of the match --
# who holds which stock position, which positions are used and shuffled
# into which later stock -- does not depend on the unseen values.  A world
# is the view with a value at each "?" (the first dealer and the actions
# are the view's); it is consistent exactly when every stock is a shuffle
# of its pool: all the cards of the deck, or (a stock rebuilt when the
# carried-over stock ran out) the cards at the positions used since the
# previous stock, some of them unseen (the dealers' discards).
#
# The unseen positions fall into groups (stock k, destination u): the
# positions of stock k later shuffled into stock u (u None: not so far).
# The positions of a group are interchangeable, so a world is how many
# cards of each value each group receives, n[g][v], and an arrangement of
# each group: prod_g |g|! / prod_v n[g][v]! worlds.  Per stock k and value v
#     sum over the groups out of k of n[g][v]
#         = base[k][v] + sum over the groups into k of n[g][v]
# where base[k][v] is the deck's count of v (or the seen values of the
# pool) minus the seen values of stock k.
#
# The count goes through the values one at a time; its state is how many
# cards each *tracked* group holds so far.  One group out of each stock (its
# "free" group: the undestined one when there is one) is not tracked: its
# count follows from the balance above.  The state space stays small: a
# stock rebuilt from used cards replaces a stock only when it is empty, so
# every earlier stock is wholly drawn, its unseen positions are its
# discards (free) and the cards still held (undestined); the tracked groups
# are the unseen discards of the one or two stocks that still have cards
# in hand, a few cards each.  Counts are exact integers; a draw walks the
# values choosing each step with probability weight x count(next) / count,
# then shuffles each group: exactly uniform over the consistent worlds,
# no rejection.  No consistent world: count 0, a PositionError naming the
# first stock that cannot be filled.
#
# Uniform means every complete record equally likely (the worlds a seat
# view allows).  A physical shuffle of a rebuilt stock whose pool holds
# unseen discards would weight each record by prod_v (pool count of v)!;
# that weight is not applied.

#: the value a replay of a seat view gives the unseen positions; it never
#: decides anything (blocks and showdowns show their cards, so a view that
#: hides one is refused before it is read)
_UNSEEN = VALUE_INDEX["0"]


class _ViewReplay(DixExchangeState):
    """A replay of a seat view with the unseen values left open: it records
    the public course (``sources``: per stock, None for a shuffle of all the
    cards or the positions of the used cards shuffled into it) and refuses
    a view that hides a card its seat has seen as soon as the seat sees it.
    Here a card's "id" is its stock position, so ``used`` lists positions."""

    def __init__(self, game: DixExchangeGame, head, masked: list, seat: int):
        """``head``: the first dealer, or the match object of a mid-match
        view (whose carried stock, if any, is ``masked[0]``)."""
        self.masked = masked
        self.view_seat = seat
        self.sources: list = []
        self.carried_from = 0
        first = ("match", head) if isinstance(head, dict) else ("first_dealer", head)
        super().__init__(game, Chance(0, [first]))

    def _carry_in(self, match: dict) -> None:
        size = self.game.size
        known = self.masked[0]
        self.sources.append(None)
        self.shuffles.append(tuple(_UNSEEN if v is None else v for v in known))
        self.ids.append(tuple((0, i) for i in range(size)))
        self.seen.append([0] * size)
        self.cur = 0
        self.stock_pos = self.carried_from = size - len(match["stock"])
        self.used = list(self.ids[0][:self.stock_pos])
        self.stock_base = 1

    def _new_stock(self, from_used: bool, why: str) -> None:
        k = len(self.shuffles)
        if k >= len(self.masked):
            raise PositionError(f"the actions need stock {k - self.stock_base}, which the "
                                f"view does not list", "deal.shuffles")
        size = len(self.used) if from_used else self.game.size
        known = self.masked[k]
        if len(known) != size:
            what = (f"a shuffle of the {size} cards used since the stock before"
                    if from_used else f"a shuffle of all {size} cards")
            raise PositionError(f"this stock is {what}; the view gives {len(known)}",
                                _stock_path(self.stock_base, k))
        self.sources.append(list(self.used) if from_used else None)
        self.shuffles.append(tuple(_UNSEEN if v is None else v for v in known))
        self.ids.append(tuple((k, i) for i in range(size)))
        self.seen.append([0] * size)
        self.cur = k
        self.stock_pos = 0
        self.used = []

    def named(self, pos) -> None:
        """``PositionError`` unless the view names the card at ``pos``."""
        k, i = pos
        if self.masked[k][i] is None:
            raise PositionError(f"seat {self.view_seat} has seen this card: name it",
                                _position_path(self.stock_base, self.carried_from, k, i))

    def _see(self, pos, seat: int) -> None:
        if seat == self.view_seat:
            self.named(pos)
        super()._see(pos, seat)

    def _show(self, pos) -> None:
        self.named(pos)
        super()._show(pos)


def _replay_view(game: DixExchangeGame, view: dict):
    """Check a seat view's actions and masks; -> (first dealer, masked
    shuffles, action ints, the replay)."""
    seat = view["seat"]
    if "deal" not in view:
        raise PositionError("a seat view needs the deal as the seat sees it", "deal")
    match = view.get("match")
    outcomes, masked = _parse_deal(game, view["deal"], unknown_ok=True, mid=match is not None)
    if match is None:
        first = outcomes[0][1]
    else:
        first = match
        if "stock" in match:
            carried = _parse_values(game, match["stock"], "match.stock", True)
            masked = [[None] * (game.size - len(carried)) + carried] + masked
            first = dict(match, stock=carried)
    replay = _ViewReplay(game, first, masked, seat)
    actions = []
    for i, text in enumerate(view["actions"]):
        if replay.is_terminal():
            raise PositionError(f"{short_repr(text)}: the game is already over", f"actions[{i}]")
        try:
            action = replay.string_to_action(text)
            if replay.phase == RESPOND and _is_action(action) and action >= BLOCK:
                replay.named(replay.hand[replay.target])     # a block shows the card
            replay.apply_action(action)
        except (NotationError, IllegalActionError) as exc:
            raise PositionError(str(exc), f"actions[{i}]") from None
        actions.append(action)
    _check_masks(replay, seat, masked)
    return first, masked, actions, replay


class _WorldModel:
    """The unseen positions of some stocks of a view (``stocks``: every
    stock whose pool takes an unseen card of one of them is among them),
    the exact number of consistent fillings (``count``) and uniform draws
    of one (``draw``).  See the comment above for the method."""

    def __init__(self, counts, sources: list, masked: list, stocks):
        self.stocks = list(stocks)
        nstock = len(self.stocks)
        at = {k: x for x, k in enumerate(self.stocks)}
        self.masked = [masked[k] for k in self.stocks]
        dest = {}
        for k in self.stocks:
            for p in sources[k] or ():
                dest[p] = at[k]
        index: dict = {}
        groups: list = []                       # (stock, destination, [position...])
        for x, k in enumerate(self.stocks):
            for i, v in enumerate(masked[k]):
                if v is None:
                    key = (x, dest.get((k, i)))
                    if key not in index:
                        index[key] = len(groups)
                        groups.append((x, key[1], []))
                    groups[index[key]][2].append(i)
        self.groups = groups
        self.sizes = [len(g[2]) for g in groups]
        nv = len(counts)
        self.values = [v for v in range(nv) if counts[v]]
        base = []
        for k in self.stocks:
            b = list(counts) if sources[k] is None else [0] * nv
            for (kk, i) in sources[k] or ():
                if masked[kk][i] is not None:
                    b[masked[kk][i]] += 1
            for v in masked[k]:
                if v is not None:
                    b[v] -= 1
            base.append(b)
        self.base = base
        self.outs = [[g for g, grp in enumerate(groups) if grp[0] == k] for k in range(nstock)]
        self.ins = [[g for g, grp in enumerate(groups) if grp[1] == k] for k in range(nstock)]
        self.free = []
        for k in range(nstock):
            out = self.outs[k]
            open_ = [g for g in out if groups[g][1] is None]
            self.free.append(open_[0] if open_ else
                             max(out, key=lambda g: self.sizes[g]) if out else None)
        frees = set(self.free)
        self.tracked = [g for g in range(len(groups)) if g not in frees]
        # seen-before-value-j sums of base, for the free groups' running counts
        self.before = []
        for k in range(nstock):
            acc, row = 0, []
            for v in self.values:
                row.append(acc)
                acc += base[k][v]
            self.before.append(row)
        self.full = tuple(self.sizes[g] for g in self.tracked)
        self.table: dict = {}
        self._memo: dict = {}
        self.start = tuple(0 for _ in self.tracked)
        self.count = self._count(0, self.start)
        self._memo = {}

    # ---- the count ------------------------------------------------------
    def _count(self, j: int, state: tuple) -> int:
        key = (j, state)
        got = self._memo.get(key)
        if got is not None:
            return got
        if j == len(self.values):
            total = 1 if state == self.full else 0
        else:
            total = 0
            cums, moves = [], []
            for weight, n, nxt in self._moves(j, state):
                c = weight * self._count(j + 1, nxt)
                if c:
                    total += c
                    cums.append(total)
                    moves.append((n, nxt))
            if moves:
                self.table[key] = (cums, moves)
        self._memo[key] = total
        return total

    def _moves(self, j: int, state: tuple):
        """Every way to give value ``values[j]`` to the groups from
        ``state``: (number of arrangements, per-group counts, next state)."""
        v = self.values[j]
        ng = len(self.groups)
        cum = [0] * ng
        for t, g in enumerate(self.tracked):
            cum[g] = state[t]
        for k, f in enumerate(self.free):
            if f is not None:
                cum[f] = (self.before[k][j] + sum(cum[g] for g in self.ins[k])
                          - sum(cum[g] for g in self.outs[k] if g != f))
        n = [0] * ng
        found = []
        nstock = len(self.base)

        def stock(k: int) -> None:
            if k == nstock:
                weight = 1
                for g in range(ng):
                    if n[g]:
                        weight *= comb(cum[g] + n[g], n[g])
                found.append((weight, tuple(n),
                              tuple(cum[g] + n[g] for g in self.tracked)))
                return
            r = self.base[k][v] + sum(n[g] for g in self.ins[k])
            f = self.free[k]
            if f is None:
                if r == 0:
                    stock(k + 1)
                return
            if r < 0:
                return
            split([g for g in self.outs[k] if g != f], 0, r, f, k)

        def split(tr: list, idx: int, left: int, f: int, k: int) -> None:
            if idx == len(tr):
                if left <= self.sizes[f] - cum[f]:
                    n[f] = left
                    stock(k + 1)
                    n[f] = 0
                return
            g = tr[idx]
            for x in range(min(left, self.sizes[g] - cum[g]) + 1):
                n[g] = x
                split(tr, idx + 1, left - x, f, k)
            n[g] = 0

        stock(0)
        return found

    # ---- a draw ---------------------------------------------------------
    def draw(self, rng: random.Random) -> list:
        """One consistent filling, uniformly: the values of each stock
        (in the order of ``stocks``)."""
        state = self.start
        bags: list[list] = [[] for _ in self.groups]
        for j, v in enumerate(self.values):
            cums, moves = self.table[(j, state)]
            if len(moves) == 1:
                n, state = moves[0]
            else:
                n, state = moves[bisect_right(cums, rng.randrange(cums[-1]))]
            for g, c in enumerate(n):
                if c:
                    bags[g].extend([v] * c)
        out = [list(m) for m in self.masked]
        for (k, _, slots), bag in zip(self.groups, bags, strict=True):
            rng.shuffle(bag)
            row = out[k]
            for i, v in zip(slots, bag, strict=True):
                row[i] = v
        return out


def _stock_path(base: int, k: int) -> str:
    """The JSON path of internal stock ``k`` (stock 0 is the match's carried
    stock when ``base`` is 1)."""
    return "match.stock" if k < base else f"deal.shuffles[{k - base}]"


def _position_path(base: int, head: int, k: int, i: int) -> str:
    """The JSON path of place ``i`` of internal stock ``k`` (``head``: the
    used places before the carried stock in stock 0)."""
    if k < base:
        return f"match.stock[{i - head}]"
    return f"deal.shuffles[{k - base}][{i}]"


def _why_no_world(game: DixExchangeGame, seat: int, sources: list,
                  masked: list, base: int = 0) -> PositionError:
    """The error for a view no world fits: the first stock that cannot be
    filled once the stocks before it are."""
    for last in range(len(masked)):
        if _WorldModel(game.counts, sources, masked, range(last + 1)).count:
            continue
        seen = [v for v in masked[last] if v is not None]
        src = sources[last]
        if src is None:
            return PositionError(f"no shuffle of the deck shows seat {seat} what the view "
                                 f"says ({_multiset_text(seen)})", _stock_path(base, last))
        pool = [masked[k][i] for (k, i) in src if masked[k][i] is not None]
        hidden = len(src) - len(pool)
        return PositionError(
            f"this stock is a shuffle of the {len(src)} cards used since the stock before "
            f"(seen by seat {seat}: {_multiset_text(pool) or 'none'}"
            + (f"; {hidden} unseen" if hidden else "")
            + f"); no values of the unseen cards make it show {_multiset_text(seen)}",
            _stock_path(base, last))
    return PositionError(f"no deal of the unseen cards is consistent with seat {seat}'s view",
                         "deal.shuffles")


def _live_stocks(replay: _ViewReplay) -> list:
    """The stocks whose unseen cards the rest of the match can read: the
    stock in use, those holding a card in a hand or among the used cards
    (the pool of the next rebuilt stock), and every stock tied to one of
    these through an unseen card shuffled from one into the other."""
    nstock = len(replay.shuffles)
    parent = list(range(nstock))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for k, src in enumerate(replay.sources):
        for (kk, i) in src or ():
            if replay.masked[kk][i] is None:
                parent[root(kk)] = root(k)
    touched = {replay.cur}
    for pos in [*replay.hand, *replay.drawn, *replay.used]:
        if pos is not None:
            touched.add(pos[0])
    live = {root(k) for k in touched}
    return [k for k in range(nstock) if root(k) in live]


class DixExchangeWorldSampler(WorldSampler):
    """Uniform worlds for one dix-exchange seat view, prepared once: a
    replay of the view (its public course), the exact count of its worlds
    (``count``) and one of them replayed in full (``base``).

    ``outcomes(rng)`` (what ``complete_view`` gives) fills every unseen
    stock position: uniform over the complete worlds.  ``sample(rng)`` (the
    search's worlds) refills only the ``live`` stocks -- the stock in use,
    those with a card in a hand or among the used cards, and any stock tied
    to these by an unseen card shuffled from one into another -- and keeps
    ``base``'s values elsewhere: the other stocks are never read again and
    independent of the live ones, so the live cards are exactly uniform
    among the consistent worlds (like dix's sampler, which keeps earlier
    rounds).  A draw copies ``base`` with the stocks, the cards' ids and the
    used cards replaced -- the public course is the same in every world, so
    the copy is the state a full replay gives (``replay``).  Chance after
    the view (a stock shuffled later) comes from a seed taken from the
    draw's ``rng``."""

    def __init__(self, game: DixExchangeGame, view: dict):
        self.game = game
        self.seat = view["seat"]
        self.first, masked, self.actions, replay = _replay_view(game, view)
        self.match = view.get("match")
        self.stock_base, self.carried_from = replay.stock_base, replay.carried_from
        self.sources = replay.sources
        self.used_positions = list(replay.used)
        self.model = _WorldModel(game.counts, replay.sources, masked, range(len(masked)))
        if not self.model.count:
            raise _why_no_world(game, self.seat, replay.sources, masked, self.stock_base)
        self.count = self.model.count
        self.live = _live_stocks(replay)
        self.live_model = (self.model if len(self.live) == len(masked) else
                           _WorldModel(game.counts, replay.sources, masked, self.live))
        #: per value, the ids of the deck's cards of that value, ascending
        self.deck_ids = [[i for i, v in enumerate(game.id_value) if v == w]
                         for w in range(len(game.counts))]
        self.base = self.replay(self.outcomes(random.Random(0)))

    def outcomes(self, rng: random.Random) -> list:
        """The chance outcomes of one complete world, drawn uniformly: the
        first dealer (or the match object), each stock."""
        return self._outcomes(self.model.draw(rng))

    def _outcomes(self, stocks: list) -> list:
        if self.match is None:
            head = [("first_dealer", self.first)]
        else:
            match = {k: v for k, v in self.match.items() if k != "stock"}
            if self.stock_base:
                match["stock"] = " ".join(EXCHANGE_VALUES[v]
                                          for v in stocks[0][self.carried_from:])
            head = [("match", match)]
        return head + [("shuffle", tuple(vals)) for vals in stocks[self.stock_base:]]

    def replay(self, outcomes: list, seed: int = 0) -> DixExchangeState:
        """The world with these outcomes (chance after them seeded with
        ``seed``), by replaying every action."""
        state = DixExchangeState(self.game, Chance(seed, outcomes))
        for a in self.actions:              # legal: the view replayed with these cards
            state._apply_and_log(a)
        return state

    def sample(self, rng: random.Random) -> DixExchangeState:
        seed = rng.getrandbits(62)
        base = self.base
        stocks = list(base.shuffles)
        for k, vals in zip(self.live, self.live_model.draw(rng), strict=True):
            stocks[k] = tuple(vals)
        id_value = self.game.id_value
        first_live = self.live[0] if self.live else len(stocks)
        ids = base.ids[:first_live]
        for vals, src in zip(stocks[first_live:], self.sources[first_live:], strict=True):
            # a card's id: the lowest id of its value not yet placed in this stock
            if src is None:
                free = [iter(x) for x in self.deck_ids]
            else:
                pool: list[list[int]] = [[] for _ in self.deck_ids]
                for i in sorted(ids[k][j] for (k, j) in src):
                    pool[id_value[i]].append(i)
                free = [iter(x) for x in pool]
            ids.append(tuple(next(free[v]) for v in vals))
        outcomes = self._outcomes(stocks)
        chance = Chance(seed, outcomes)
        chance.pos = len(outcomes)
        chance.log = list(outcomes)
        state = base.clone()
        state.use_chance(chance)
        state.shuffles = stocks
        state.ids = ids
        state.used = [ids[k][j] for (k, j) in self.used_positions]
        return state


def _check_masks(state: _ViewReplay, seat: int, masked: list) -> None:
    """The view shows exactly the stock positions the seat has seen."""
    base = state.stock_base
    if len(masked) != len(state.shuffles):
        raise PositionError(f"the actions shuffle {len(state.shuffles) - base} stocks, the "
                            f"view lists {len(masked) - base}", "deal.shuffles")
    bit = 1 << seat
    for k, (given, seen) in enumerate(zip(masked, state.seen, strict=True)):
        for i, (v, m) in enumerate(zip(given, seen, strict=True)):
            if m & bit and v is None:
                raise PositionError(f"seat {seat} has seen this card: name it",
                                    _position_path(base, state.carried_from, k, i))
            if v is not None and not m & bit:
                raise PositionError(f"seat {seat} cannot see this card: give it as '?'",
                                    _position_path(base, state.carried_from, k, i))
