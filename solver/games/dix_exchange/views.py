"""A dix-exchange seat view's world model: the worlds a view allows,
counted and drawn uniformly (``DixExchangeWorldSampler``), by replaying
the view through the game's own state class (``_ViewReplay``)."""

from __future__ import annotations

import os
import random
from array import array
from bisect import bisect_right
from math import comb
from typing import Any

from ...beliefs import HandPlaces, RowSampler
from ...cards import EXCHANGE_VALUES
from ...errors import VIEW_NEEDS_DEAL, IllegalActionError, NotationError, PositionError
from ...front import N_
from ...game import ALREADY_OVER, Chance, WorldSampler
from ...said import Quote, phrase
from ..common import NO_WORLD
from .notation import BLOCK, RESPOND, VALUE_INDEX, _is_action, _multiset_text, _parse_deal, _parse_values
from .state import DixExchangeState

# the errors raised here (solver/errors.py: a code and its parameters)
ACTIONS_SHUFFLE_STOCKS_VIEW = phrase("actions_shuffle_stocks_view", N_("the actions shuffle {n_shuffles} "
                                                                       "stocks, the view lists {n_masked}"))
ACTIONS_NEED_STOCK_WHICH = phrase("actions_need_stock_which", N_("the actions need stock {key}, which the "
                                                                 "view does not list"))
SHUFFLE_OF_USED = phrase("shuffle_of_used", N_("a shuffle of the {size} cards used since the stock before"))
SHUFFLE_OF_ALL = phrase("shuffle_of_all", N_("a shuffle of all {size} cards"))
STOCK_VIEW_GIVES = phrase("stock_view_gives", N_("this stock is {what}; the view gives {n_known}"))
SEEN_CARD = phrase("seen_card", N_("seat {seat} has seen this card: name it"))
SEAT_CANNOT_SEE_CARD = phrase("seat_cannot_see_card", N_("seat {seat} cannot see this card: give it as '?'"))
# why no world fits a view: ``cards``, ``seen`` in the values' notation
NO_SHUFFLE_SHOWS = phrase("no_shuffle_shows", N_("no shuffle of the deck shows seat {seat} what "
                                                 "the view says ({cards})"))
SHUFFLE_SEEN_HIDDEN = phrase("shuffle_seen_hidden", N_(
    "this stock is a shuffle of the {size} cards used since the stock before (seen by seat "
    "{seat}: {seen}; {hidden} unseen); no values of the unseen cards make it show {cards}"))
SHUFFLE_SEEN_ALL = phrase("shuffle_seen_all", N_(
    "this stock is a shuffle of the {size} cards used since the stock before (seen by seat "
    "{seat}: {seen}); no values of the unseen cards make it show {cards}"))
SHUFFLE_SEEN_NONE = phrase("shuffle_seen_none", N_(
    "this stock is a shuffle of the {size} cards used since the stock before (seen by seat "
    "{seat}: none; {hidden} unseen); no values of the unseen cards make it show {cards}"))
WORLD_EXCHANGE = phrase("world_exchange", N_("the stocks and the shuffles it shows"))

#: this game (DixExchangeGame, ``game.py``), for annotations: ``game.py`` imports
#: this module, so this module does not import it back
AnyGame = Any

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

    def __init__(self, game: AnyGame, head, masked: list, seat: int):
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
            raise PositionError(ACTIONS_NEED_STOCK_WHICH(key=k - self.stock_base), "deal.shuffles")
        size = len(self.used) if from_used else self.game.size
        known = self.masked[k]
        if len(known) != size:
            what = (SHUFFLE_OF_USED if from_used else SHUFFLE_OF_ALL)(size=size)
            raise PositionError(STOCK_VIEW_GIVES(what=what, n_known=len(known)),
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
            raise PositionError(SEEN_CARD(seat=self.view_seat),
                                _position_path(self.stock_base, self.carried_from, k, i))

    def _see(self, pos, seat: int) -> None:
        if seat == self.view_seat:
            self.named(pos)
        super()._see(pos, seat)

    def _show(self, pos) -> None:
        self.named(pos)
        super()._show(pos)


def _replay_view(game: AnyGame, view: dict):
    """Check a seat view's actions and masks; -> (first dealer, masked
    shuffles, action ints, the replay)."""
    seat = view["seat"]
    if "deal" not in view:
        raise PositionError(VIEW_NEEDS_DEAL(), "deal")
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
            raise PositionError(ALREADY_OVER(action=Quote(text)), f"actions[{i}]")
        try:
            action = replay.string_to_action(text)
            if replay.phase == RESPOND and _is_action(action) and action >= BLOCK:
                replay.named(replay.hand[replay.target])     # a block shows the card
            replay.apply_action(action)
        except (NotationError, IllegalActionError) as exc:
            raise PositionError(exc.as_message(), f"actions[{i}]") from None
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
        self._compiled: dict | None = None

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

    def compiled(self) -> dict:
        """The count compiled to flat arrays for the C walks (``ExGraph`` in
        csrc/include/bags.pxd: the search's determinization and the beliefs'
        rows): one node per reachable ``(value step, tracked counts)``, its
        edges the cards of that value each group gets, with their cumulative
        probabilities (the exact counts, as ``draw`` picks them).  Built once."""
        if self._compiled is not None:
            return self._compiled
        model = self
        ids = {(0, model.start): 0}
        frontier = [(0, model.start)]
        edge_start: list[int] = []
        edge_counts: list[int] = []
        edge_next: list[int] = []
        edge_cum: list[float] = []
        nv = len(model.values)
        k = 0
        while k < len(frontier):
            j, state = frontier[k]
            k += 1
            edge_start.append(len(edge_next))
            if j == nv:
                continue
            cums, moves = model.table[(j, state)]
            total = cums[-1]
            for cum, (counts, nxt) in zip(cums, moves, strict=True):
                key = (j + 1, nxt)
                if key not in ids:
                    ids[key] = len(frontier)
                    frontier.append(key)
                edge_counts.extend(counts)
                edge_next.append(ids[key])
                edge_cum.append(cum / total)
            edge_cum[-1] = 1.0
        edge_start.append(len(edge_next))
        self._compiled = {"value_of": list(model.values), "n_groups": len(model.groups),
                          "edge_start": edge_start, "edge_counts": edge_counts,
                          "edge_next": edge_next, "edge_cum": edge_cum,
                          "bag_cap": max(model.sizes, default=1)}
        return self._compiled

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


def _why_no_world(game: AnyGame, seat: int, sources: list,
                  masked: list, base: int = 0) -> PositionError:
    """The error for a view no world fits: the first stock that cannot be
    filled once the stocks before it are."""
    for last in range(len(masked)):
        if _WorldModel(game.counts, sources, masked, range(last + 1)).count:
            continue
        seen = [v for v in masked[last] if v is not None]
        src = sources[last]
        if src is None:
            return PositionError(NO_SHUFFLE_SHOWS(seat=seat, cards=_multiset_text(seen)),
                                 _stock_path(base, last))
        pool = [masked[k][i] for (k, i) in src if masked[k][i] is not None]
        hidden = len(src) - len(pool)
        args = dict(size=len(src), seat=seat, cards=_multiset_text(seen))
        if not pool:
            said = SHUFFLE_SEEN_NONE(hidden=hidden, **args)
        elif hidden:
            said = SHUFFLE_SEEN_HIDDEN(seen=_multiset_text(pool), hidden=hidden, **args)
        else:
            said = SHUFFLE_SEEN_ALL(seen=_multiset_text(pool), **args)
        return PositionError(said, _stock_path(base, last))
    return PositionError(NO_WORLD(seat=seat, why=WORLD_EXCHANGE()), "deal.shuffles")


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


class DixExchangeWorldSampler(WorldSampler, RowSampler):
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
    draw's ``rng``.

    Rows (``solver.beliefs``): one place an unseen position of the live
    stocks (``places``, group by group of the live model), holding its
    value as one bit (``EXCHANGE_VALUES`` index)."""

    item_kind = "value"

    def __init__(self, game: AnyGame, view: dict):
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
        model = self.live_model
        self.group_places: list[list[int]] = []
        self.places: list[tuple[int, int]] = []
        for x, _, slots in model.groups:
            self.group_places.append(list(range(len(self.places),
                                                len(self.places) + len(slots))))
            self.places += [(model.stocks[x], i) for i in slots]
        self.place_of = {pos: p for p, pos in enumerate(self.places)}
        self.n_places = len(self.places)
        self._walker: Any = None

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

    def any_world(self) -> DixExchangeState:
        # the prepared world: its hidden cards a completion of the view
        return self.base.clone()

    def sample(self, rng: random.Random) -> DixExchangeState:
        seed = rng.getrandbits(62)
        return self._world(self.live_model.draw(rng), seed)

    # ---- rows (solver.beliefs.RowSampler) -----------------------------------
    def draw_rows(self, n: int, seed: int) -> array:
        if not self.n_places:
            return array("Q")
        if self._walker is None:
            self._walker = False
            if not _pure():
                try:
                    from ... import _sampler  # the compiled walker: absent without the build
                    self._walker = _sampler.BagWalker(self.live_model.compiled(),
                                                      self.group_places, self.n_places)
                except ImportError:   # pragma: no cover - without a build
                    self._walker = False
        if self._walker:
            return self._walker.walk_rows(n, seed)
        rng = random.Random(seed)
        out = array("Q")
        for _ in range(n):
            vals = self.live_model.draw(rng)
            at = {k: x for x, k in enumerate(self.live_model.stocks)}
            out.extend(1 << vals[at[k]][i] for k, i in self.places)
        return out

    def world_from_row(self, row, rng: random.Random) -> DixExchangeState:
        model = self.live_model
        vals = [list(m) for m in model.masked]
        at = {k: x for x, k in enumerate(model.stocks)}
        for (k, i), m in zip(self.places, row, strict=False):
            vals[at[k]][i] = m.bit_length() - 1
        return self._world(vals, rng.getrandbits(62))

    def hand_places(self, state, seat: int) -> HandPlaces | None:
        """The place of the stock position the seat held at the decision
        (public: every exchange is); None for a position the viewer has
        seen (its value is no row's: the decision tells nothing).  The
        position is read from ``base``'s record of the round
        (``DixExchangeState.moves``), at the decision's index in it (the
        moves ``state`` has made): a replay of the round alone
        (``base.deal_steps()``) numbers the stocks from its own start."""
        k = len(state.moves)
        moves = self.base.moves
        if k >= len(moves) or moves[k][0] != seat:
            return None
        place = self.place_of.get(moves[k][2])
        return None if place is None else HandPlaces((place,))

    def place_holders(self) -> list[int | str | None]:
        holder = {pos: s for s, pos in enumerate(self.base.hand) if pos is not None}
        return [holder.get(pos) for pos in self.places]

    def row_of(self, state) -> list[int]:
        return [1 << state.shuffles[k][i] for k, i in self.places]

    def item_name(self, index: int) -> str:
        return EXCHANGE_VALUES[index]

    def unseen(self) -> int:
        return (1 << len(EXCHANGE_VALUES)) - 1

    def _world(self, live_values: list, seed: int) -> DixExchangeState:
        """The world with the live stocks' values ``live_values`` (in the
        order of ``live``), chance after the view seeded with ``seed``."""
        base = self.base
        stocks = list(base.shuffles)
        for k, vals in zip(self.live, live_values, strict=True):
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


def _pure() -> bool:
    return os.environ.get("DIXTRIX_PUREPYTHON", "") not in ("", "0")


def _check_masks(state: _ViewReplay, seat: int, masked: list) -> None:
    """The view shows exactly the stock positions the seat has seen."""
    base = state.stock_base
    if len(masked) != len(state.shuffles):
        raise PositionError(ACTIONS_SHUFFLE_STOCKS_VIEW(n_shuffles=len(state.shuffles) - base,
                                                        n_masked=len(masked) - base), "deal.shuffles")
    bit = 1 << seat
    for k, (given, seen) in enumerate(zip(masked, state.seen, strict=True)):
        for i, (v, m) in enumerate(zip(given, seen, strict=True)):
            if m & bit and v is None:
                raise PositionError(SEEN_CARD(seat=seat),
                                    _position_path(base, state.carried_from, k, i))
            if v is not None and not m & bit:
                raise PositionError(SEAT_CANNOT_SEE_CARD(seat=seat),
                                    _position_path(base, state.carried_from, k, i))
