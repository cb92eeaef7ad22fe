"""A dix seat view's world model: the unseen cards completed under the
view's constraints (the opponent's plays and failures to follow, its draws
from the stock), and the uniform world sampler prepared once."""

from __future__ import annotations

import random
from array import array
from fractions import Fraction
from typing import Any, cast

from ...beliefs import HandPlaces, RowSampler
from ...cards import DIX, JOKER, SUIT_NAMES, suit_of
from ...errors import (
    HAND_SIZE,
    HANDS_COUNT,
    NOT_AN_OBJECT,
    SEAT_RANGE,
    VIEW_NEEDS_DEAL,
    NotationError,
    PositionError,
)
from ...front import N_
from ...game import State, WorldSampler, replayed
from ...games.common import VIEW_HAND_SIZE, VIEW_SHOWS_HAND
from ...said import phrase
from ...sampler import INF, InconsistentConstraints, IntervalSampler, SlotGroup, compiled_walker
from ..common import NO_WORLD, check_distinct, check_keys, need, parse_card_list
from .state import DixState, _public_replay, draws_line, hand_line

# the errors raised here (solver/errors.py: a code and its parameters)
ACTIONS_REACH_ROUND_WHOSE = phrase("actions_reach_round_whose", N_("the actions reach round {n_rounds}, "
                                                                   "whose deal is missing"))
STOCK_HAS_PLACES = phrase("stock_has_places", N_("the stock has {stock_size} places, got {n_stock}"))
SEAT_CANNOT_KNOW_STOCK = phrase("seat_cannot_know_stock", N_("seat {seat} cannot know this stock card (it "
                                                             "drew places {own_draw_pos})"))
SEAT_DREW_CARD_SO = phrase("seat_drew_card_so", N_("seat {seat} drew this card, so the view must name it"))
WORLD_DIX = phrase("world_dix", N_("the opponent's plays and failures to follow"))
PLAYED_TURN_UP = phrase("played_turn_up", N_("seat {other} plays {card}, which seat {seat} sees turned up"))
PLAYED_HELD = phrase("played_held", N_("seat {other} plays {card}, which seat {seat} holds or drew"))

#: this game (DixGame, ``game.py``), for annotations: ``game.py`` imports
#: this module, so this module does not import it back
AnyGame = Any


def _prepare_view(game: AnyGame, view: dict, rng: random.Random):
    """Parse a dix seat view and prepare each round's sampler.

    A complete deal consistent with a dix seat view, or ``PositionError``.

    The unseen cards are assigned to the opponent's hand, the opponent's
    draws and the undrawn stock by bipartite matching under the view's
    constraints: a card the opponent played was in their hand before, and no
    card of a suit the opponent failed to follow was in their hand then."""
    seat = view["seat"]
    other = 1 - seat
    deal = view.get("deal")
    if not isinstance(deal, dict):
        raise PositionError(VIEW_NEEDS_DEAL(), "deal")
    if "match" in view:
        check_keys(deal, ("rounds",), "deal")
        first = view["match"]["dealer"]
    else:
        check_keys(deal, ("first_dealer", "rounds"), "deal")
        first = need(deal, "first_dealer", "deal", int)
        if first not in (0, 1):
            raise PositionError(SEAT_RANGE(top=1, got=first), "deal.first_dealer")
    rounds = need(deal, "rounds", "deal", list)
    actions = []
    for i, a in enumerate(view["actions"]):
        try:
            actions.append(DIX.parse(a))
        except NotationError as exc:
            raise PositionError(exc.as_message(), f"actions[{i}]") from None
    per = 2 * game.tricks_per_round
    if len(actions) > per * len(rounds):
        raise PositionError(ACTIONS_REACH_ROUND_WHOSE(n_rounds=len(rounds) + 1), "deal.rounds")
    models = [_complete_round(game, rnd, f"deal.rounds[{r}]", seat, other, first, r,
                              actions[r * per:(r + 1) * per], r * per, rng)
              for r, rnd in enumerate(rounds)]
    return first, models


def _complete_view(game: AnyGame, view: dict, rng: random.Random) -> dict:
    first, models = _prepare_view(game, view, rng)
    head = [("match", view["match"])] if "match" in view else [("first_dealer", first)]
    outcomes = head + [("round", m.deal(rng)) for m in models]
    return game.format_deal(outcomes)


class DixWorldSampler(WorldSampler, RowSampler):
    """Uniform worlds for one dix seat view, prepared once: one replay of a
    completion of the view (``complete_view``'s, from ``Random(0)``) makes
    a base state; each draw clones it and re-deals only the hidden cards of
    the current round (the opponent's hand and the undrawn stock, and the
    narrative lines that name them).  Given the state the view was taken
    from instead, the base is that state with every round's hidden cards
    replaced by the same completion, so the worlds are the same as
    without it and never hold the true hidden cards.

    Rows (``solver.beliefs``): one place a slot of the round's interval
    sampler, in its visit order (``CompiledSampler``), holding one card:
    the opponent's initial hand, each of its draws, the places of the stock
    nobody drew (seventeen: the cards nobody was dealt)."""

    def __init__(self, game: AnyGame, view: dict, base: State | None = None):
        self.game = game
        self.seat = view["seat"]
        rng = random.Random(0)
        _, self.models = _prepare_view(game, view, rng)
        completion = None
        if base is not None:
            # the state the view was taken from (or validated with): no
            # completion to replay, but its hidden cards may be the true
            # ones, so every round gets the deal the replay below would
            # have (``_complete_view``'s draws, after the same preparation)
            self.base = cast(DixState, replayed(base))
            completion = [m.deal(rng) for m in self.models]
        else:
            rec = game.complete_record(view, random.Random(0))
            # the replay builds the game's state_class
            self.base = cast(DixState, game.replay(rec["actions"], deal=rec["deal"],
                                                   match=rec.get("match")))
        log = self.base.chance.log
        at = [i for i, (kind, _) in enumerate(log) if kind == "round"]
        self.log_index = at[-1]
        # a view whose last round just ended holds no hidden card that matters
        self.live = len(self.models) == self.base.round_no + 1
        #: per round, the narrative's index of its first hand line and of
        #: each of its draws lines
        self.lines: list[tuple[int, list[int]]] = []
        for i, line in enumerate(self.base.events):
            if line.startswith("round ") and " deals; turn-up " in line:
                self.lines.append((i + 1, []))
            elif line.startswith("          draws: "):
                self.lines[-1][1].append(i)
        # each draw rewrites the round's lines that name the opponent's
        # cards: its hand, and each draws line with the card it drew filled
        # into a template (the other card, the seat's own, is the view's)
        r = len(self.models) - 1
        other = 1 - self.seat
        self.hand_at = self.lines[r][0] + other
        model = self.models[r]
        #: (index in the narrative, template, the opponent's stock place)
        self.draw_lines: list[tuple[int, str, int]] = []
        for k, i in enumerate(self.lines[r][1]):
            pair = model.draws[2 * k:2 * k + 2]
            names = [(s, "{}" if s == other else DIX.to_string(model.stock[p]))
                     for (_, s, p) in pair]
            place = next(p for (_, s, p) in pair if s == other)
            left = game.stock_size - pair[-1][2] - 1
            self.draw_lines.append((i, draws_line(names, left), place))
        if completion is not None:
            for r, (i, deal) in enumerate(zip(at, completion, strict=True)):
                self.base.chance.rewrite(i, deal)
                self._write_lines(self.base, r, deal)
            if self.live:
                self._world(self.base, completion[-1])
        model = self.models[-1]
        compiled = model.sampler.compiled
        self.n_places = compiled.n_slots
        #: each place's slot group time (0 the initial hand, k a draw after
        #: trick k, INF a place nobody drew)
        self.place_time = [model.groups[g].time for g in compiled.slot_group]
        self._walker: Any = None

    def worlds(self) -> int:
        base = self.base
        if not self.live or base.winner is not None:
            return 1
        if base.game.stock_size and base.stock_pos == len(base.stock):
            return 1                # the stock is gone: the opponent holds the rest
        # the round's deals consistent with the view: each is a world, and
        # two that differ only in cards already played count twice (a bound)
        return self.models[-1].sampler.count

    def any_world(self) -> DixState:
        # the prepared world: its hidden cards a completion of the view
        return self.base.clone()

    def sample(self, rng: random.Random) -> DixState:
        state = self.base.clone()
        if not self.live or state.winner is not None:
            return state
        return self._world(state, self.models[-1].deal(rng))

    # ---- rows (solver.beliefs.RowSampler) -----------------------------------
    def draw_rows(self, n: int, seed: int) -> array:
        compiled = self.models[-1].sampler.compiled
        if self._walker is None:
            self._walker = compiled_walker("Walker", compiled)
        if self._walker:
            return self._walker.walk_rows(n, seed)
        rng = random.Random(seed)
        out = array("Q")
        for _ in range(n):
            out.extend(1 << c for c in compiled.sample_py(rng))
        return out

    def world_from_row(self, row, rng: random.Random) -> DixState:
        state = self.base.clone()
        if not self.live or state.winner is not None:
            return state
        model = self.models[-1]
        compiled = model.sampler.compiled
        placed: list[list] = [[None] * n for n in compiled.group_sizes]
        for i, m in enumerate(row):
            placed[compiled.slot_group[i]][compiled.slot_offset[i]] = m.bit_length() - 1
        return self._world(state, model.deal_from(placed))

    def hand_places(self, state, seat: int) -> HandPlaces | None:
        """The opponent's hand when it played in trick ``t``: the slots it
        had acquired by then (its initial hand, its draws after the tricks
        before), less every card played so far in the round (each one of
        them has left its hand); nothing to place once the round is over."""
        if not self.live:
            return None
        done = state.tricks_done
        places = tuple(i for i, t in enumerate(self.place_time) if t <= done)
        return HandPlaces(places, (), 0, state.played)

    def place_holders(self) -> list[int | str | None]:
        """A slot drawn by now is the opponent's (its cards played since are
        no longer anyone's: the beliefs read unseen cards only); a place
        nobody drew is the stock's (seventeen: the cards nobody was dealt)."""
        rest = "stock" if self.game.stock_size else "undealt"
        return [1 - self.seat if t != INF else rest for t in self.place_time]

    def row_of(self, state) -> list[int]:
        model = self.models[-1]
        compiled = model.sampler.compiled
        other = 1 - self.seat
        hand = sorted(state.initial_hands[other])
        rest = [state.stock[i] for i in model.rest] if self.game.stock_size else sorted(
            c for c in DIX.cards if c != state.turn_up and c not in state.initial_hands[0]
            and c not in state.initial_hands[1])
        row = []
        for g, j in zip(compiled.slot_group, compiled.slot_offset, strict=True):
            label = model.groups[g].label
            card = hand[j] if label == "hand" else rest[j] if label == "rest" else \
                state.stock[label]
            row.append(1 << card)
        return row

    def item_name(self, index: int) -> str:
        return DIX.to_string(index)

    def item_group(self, index: int) -> str:
        return "joker" if index == JOKER else SUIT_NAMES[suit_of(index)]

    def exact_marginals(self) -> dict[int, dict[int | str, Fraction]]:
        """An unseen card is the opponent's now unless it sits in a place
        nobody drew (``place_holders``): its share of those, counted."""
        unseen = self.unseen()
        if not unseen:
            return {}
        rest = "stock" if self.game.stock_size else "undealt"
        late = self.models[-1].sampler.late_share(INF)
        return {card: {1 - self.seat: 1 - p, rest: p}
                for card, p in late.items() if unseen >> card & 1}

    def unseen(self) -> int:
        base = self.base
        if not self.live or base.winner is not None:
            return 0
        return DIX.mask & ~base.hands[self.seat] & ~base.played & ~(1 << base.turn_up)

    def _world(self, state: DixState, deal) -> DixState:
        hands, turn_up, stock = deal
        other = 1 - self.seat
        held = set(hands[other])
        held |= {stock[i] for (_, s, i) in state.draws if s == other}
        state.hands[other] = sum(1 << c for c in held) & ~state.played
        state.stock = stock
        state.initial_hands = hands
        state.chance.rewrite(self.log_index, (hands, turn_up, stock))
        events = state.events
        events[self.hand_at] = hand_line(other, hands[other])
        for i, template, place in self.draw_lines:
            events[i] = template.format(DIX.to_string(stock[place]))
        return state

    def _write_lines(self, state: DixState, r: int, deal) -> None:
        """Round ``r``'s narrative lines that name hidden cards (the hands
        dealt, the draws), as ``deal`` says."""
        hands, _, stock = deal
        first, draws_at = self.lines[r]
        state.events[first:first + 2] = [hand_line(s, hands[s]) for s in (0, 1)]
        drawn = self.models[r].draws
        for k, i in enumerate(draws_at):
            pair = drawn[2 * k:2 * k + 2]
            state.events[i] = draws_line([(s, DIX.to_string(stock[p])) for (_, s, p) in pair],
                                         self.game.stock_size - pair[-1][2] - 1)


def _complete_round(game, rnd, path, seat, other, first, r, acts, offset, rng):
    n = game.hand_size
    if not isinstance(rnd, dict):
        raise PositionError(NOT_AN_OBJECT(), path)
    keys = ("hands", "turn_up") + (("stock",) if game.stock_size else ())
    check_keys(rnd, keys, path)
    hands = need(rnd, "hands", path, list)
    if len(hands) != 2:
        raise PositionError(HANDS_COUNT(want=2, got=len(hands)), f"{path}.hands")
    if isinstance(hands[other], int) and not isinstance(hands[other], bool):
        if hands[other] != n:
            raise PositionError(VIEW_HAND_SIZE(seat=other, want=n, got=hands[other]),
                                f"{path}.hands[{other}]")
    else:
        raise PositionError(VIEW_SHOWS_HAND(seat=seat, other=other, want=n), f"{path}.hands[{other}]")
    own = parse_card_list(DIX, hands[seat], f"{path}.hands[{seat}]")
    if len(own) != n:
        raise PositionError(HAND_SIZE(seat=seat, want=n, got=len(own)),
                            f"{path}.hands[{seat}]")
    turn_up = parse_card_list(DIX, [need(rnd, "turn_up", path, str)], f"{path}.turn_up")[0]
    stock = []
    if game.stock_size:
        stock = parse_card_list(DIX, need(rnd, "stock", path), f"{path}.stock", unknown_ok=True)
        if len(stock) != game.stock_size:
            raise PositionError(STOCK_HAS_PLACES(stock_size=game.stock_size, n_stock=len(stock)),
                                f"{path}.stock")
    check_distinct(DIX, [(f"{path}.hands[{seat}]", own), (f"{path}.turn_up", [turn_up]),
                         (f"{path}.stock", stock)], path)
    pub = _public_replay(game, first, acts, turn_up, r)
    own_set = set(own) | {c for c in stock if c is not None}
    # a seat knows exactly the stock places it drew
    own_draw_pos = {i for (_, s, i) in pub["draws"] if s == seat}
    for i, c in enumerate(stock):
        if c is not None and i not in own_draw_pos:
            raise PositionError(SEAT_CANNOT_KNOW_STOCK(seat=seat, own_draw_pos=sorted(own_draw_pos)),
                                f"{path}.stock[{i}]")
    for i in own_draw_pos:
        if stock[i] is None:
            raise PositionError(SEAT_DREW_CARD_SO(seat=seat),
                                f"{path}.stock[{i}]")
    hidden = [c for c in DIX.cards if c not in own_set and c != turn_up]
    opp_play = {}
    for k, (t, s, c) in enumerate(pub["plays"]):
        if s == other:
            if c in own_set or c == turn_up:
                said = PLAYED_TURN_UP if c == turn_up else PLAYED_HELD
                raise PositionError(said(other=other, card=DIX.to_string(c), seat=seat),
                                    f"actions[{offset + k}]")
            opp_play[c] = t
    voids = [(t, suit) for (t, s, suit) in pub["voids"] if s == other]
    table = pub["table"]
    # slot groups: the opponent's initial cards (time 0), each opponent draw
    # after trick k (time k), the stock places nobody drew (never in a hand)
    groups = [SlotGroup(0, n, "hand")]
    groups += [SlotGroup(t, 1, i) for (t, s, i) in pub["draws"] if s == other]
    drawn = {i for (_, _, i) in pub["draws"]}
    rest = [i for i in range(game.stock_size) if i not in drawn]
    if not game.stock_size:                 # seventeen: the 18 cards nobody sees
        rest = list(range(DIX.size - 2 * n - 1))
    groups.append(SlotGroup(INF, len(rest), "rest"))
    cards = []
    for c in hidden:
        p = opp_play.get(c)
        hi = INF if p is None else p - 1
        lo = max([t for (t, suit) in voids if table[c] == suit and (p is None or t < p)],
                 default=0)
        cards.append((c, lo, hi))
    try:
        sampler = IntervalSampler(groups, cards)
    except InconsistentConstraints:
        raise PositionError(NO_WORLD(seat=seat, why=WORLD_DIX()),
                            path) from None
    return _RoundModel(game, seat, own, turn_up, stock, groups, rest, sampler,
                       set(opp_play), pub["draws"])


class _RoundModel:
    """One round of a seat view, prepared: draws the round's deal uniformly
    among those consistent with the view."""

    def __init__(self, game, seat, own, turn_up, stock, groups, rest, sampler, opp_played,
                 draws):
        self.game, self.seat, self.own, self.turn_up = game, seat, own, turn_up
        self.stock, self.groups, self.rest, self.sampler = stock, groups, rest, sampler
        self.opp_played = opp_played
        #: (trick, seat, stock place) of each draw of the round, in order
        self.draws = draws

    def deal(self, rng):
        """``(hands, turn_up, stock)`` of one uniformly drawn world."""
        return self.deal_from(self.sampler.compiled.sample(rng))

    def deal_from(self, placed):
        """``(hands, turn_up, stock)`` with the cards ``placed`` in each slot
        group (as ``IntervalSampler.sample`` gives them)."""
        full_stock = list(self.stock)
        for g, cards_here in zip(self.groups[1:], placed[1:], strict=True):
            if g.label == "rest":
                if self.game.stock_size:
                    for i, c in zip(self.rest, cards_here, strict=True):
                        full_stock[i] = c
            else:
                full_stock[g.label] = cards_here[0]
        hands_full = [None, None]
        hands_full[self.seat] = tuple(sorted(self.own))
        hands_full[1 - self.seat] = tuple(sorted(placed[0]))
        return (tuple(hands_full), self.turn_up, tuple(full_stock))
