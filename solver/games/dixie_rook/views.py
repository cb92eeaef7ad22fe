"""A dixie-rook seat view's world model: the unseen cards completed under
the view's constraints, and the uniform world sampler prepared once
(``RookWorldSampler``)."""

from __future__ import annotations

import os
import random
from array import array
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, cast

from ...beliefs import HandPlaces, RowSampler
from ...cards import ROOK, ROOK_COLOURS, SUIT_RANK_MASK, cards_of, mask_of, suit_of
from ...errors import HAND_SIZE, HANDS_COUNT, NOT_AN_OBJECT, VIEW_NEEDS_DEAL, PositionError
from ...game import State, WorldSampler, replayed
from ...games.common import NEST_SIZE, VIEW_SHOWS_HAND
from ...sampler import ColumnSampler, InconsistentConstraints, compiled_walker
from ..common import NO_WORLD, check_distinct, check_keys, match_cards, need, parse_card_list

if TYPE_CHECKING:
    from ..._sampler import ColumnWalker

from ...front import N_
from ...said import phrase
from .notation import AUCTION, DISCARD, DISCARD_BASE, PLAY, format_action
from .state import DixieRookState, _public_replay

# the errors raised here (solver/errors.py: a code and its parameters)
ACTIONS_REACH_HAND_WHOSE = phrase("actions_reach_hand_whose", N_("the actions reach hand {n_pub}, whose "
                                                                 "deal is missing"))
ACTION_REACHES_HAND = phrase("action_reaches_hand", N_("no action reaches hand {n_pub}"))
CUT_ONLY_FOLLOWS_HAND = phrase("cut_only_follows_hand", N_("a cut only follows a hand played out"))
UNSEEN_CARDS_PLACES = phrase("unseen_cards_places", N_("{n_pool} unseen cards for {n_slots} places"))
WORLD_ROOK = phrase("world_rook", N_("the plays and failures to follow colour"))
NEST_UNSEEN = phrase("nest_unseen", N_("seat {seat} does not see this nest: give its size ({key})"))
SEAT_SEES_DISCARD_NAME = phrase("seat_sees_discard_name", N_("seat {seat} sees this discard: name it"))
SEAT_CANNOT_SEE_DISCARD = phrase("seat_cannot_see_discard", N_("seat {seat} cannot see this discard: give "
                                                               "it as '?'"))
PLAYED_TWICE = phrase("played_twice", N_("{card} is played twice"))
PLAYED_CARD_KNOWN_ROOK = phrase("played_card_known_rook", N_("seat {seat} plays {card}, which seat "
                                                             "{other} holds or saw in the nest"))
PLAYS_AND_NEST = phrase("plays_and_nest", N_("seat {o}'s plays and the nest do not make a hand of {size}"))

#: this game (DixieRookGame, ``game.py``), for annotations: ``game.py`` imports
#: this module, so this module does not import it back
AnyGame = Any


def _complete_view(game: AnyGame, view: dict, rng: random.Random) -> dict:
    outcomes, fills = _completion(game, view, rng)
    tokens = list(view["actions"])
    for i, c in fills.items():
        tokens[i] = format_action(DISCARD_BASE + c)
    return {"deal": game.format_deal(outcomes), "actions": tokens}


def _completion(game: AnyGame, view: dict, rng: random.Random) -> tuple[list, dict]:
    """A completion of a seat view: its chance outcomes and the hidden
    discards chosen (action index -> card)."""
    seat = view["seat"]
    deal = view.get("deal")
    if not isinstance(deal, dict):
        raise PositionError(VIEW_NEEDS_DEAL(), "deal")
    if "match" in view:
        check_keys(deal, ("deals",), "deal")
        first = view["match"]["dealer"]
    else:
        check_keys(deal, ("first_dealer", "deals"), "deal")
        first = game._parse_first_dealer(deal)
    deals = need(deal, "deals", "deal", list)
    pub = _public_replay(game, first, list(view["actions"]))
    if len(deals) < len(pub) - 1 or (len(deals) == len(pub) - 1 and pub[-1]["n_actions"]):
        raise PositionError(ACTIONS_REACH_HAND_WHOSE(n_pub=len(pub)),
                            "deal.deals")
    if len(deals) > len(pub):
        raise PositionError(ACTION_REACHES_HAND(n_pub=len(pub) + 1), f"deal.deals[{len(pub)}]")
    outcomes = [("match", view["match"])] if "match" in view else [("first_dealer", first)]
    fills: dict[int, int] = {}
    for h, d in enumerate(deals):
        path = f"deal.deals[{h}]"
        hands, nest, chosen = _complete_hand(game, seat, d, path, pub[h], rng)
        outcomes.append(("deal", (hands, nest)))
        for cut in game._parse_cuts(d, path):
            outcomes.append(("cut", cut))
        fills.update(chosen)
    return outcomes, fills


def _complete_hand(game: AnyGame, seat: int, d, path: str, pub: dict,
                   rng: random.Random) -> tuple:
    """One hand of a seat view completed: ``(hands, nest, fills)`` with
    ``fills`` the hidden discards chosen (action index -> card).

    A hand played out is fully known (its nest is turned up): every hand is
    what its seat played, the bid winner's plus its discards less the nest.
    Otherwise the unseen cards go to slots by bipartite matching: each other
    seat's hand (for a bid winner hiding the nest from this seat: the cards
    it holds now plus those it discarded), and the nest while nobody has
    taken it.  A card a seat played sits in that seat's slots only; a card of
    a colour a seat failed to follow cannot have been in its hand then; a
    discarded or nest card was never played."""
    n, size, k = game.num_players, game.hand_size, game.nest_size
    if not isinstance(d, dict):
        raise PositionError(NOT_AN_OBJECT(), path)
    check_keys(d, ("hands", "nest", "cuts"), path)
    raw = need(d, "hands", path, list)
    if len(raw) != n:
        raise PositionError(HANDS_COUNT(want=n, got=len(raw)), f"{path}.hands")
    for o in range(n):
        if o != seat and (isinstance(raw[o], bool) or raw[o] != size):
            raise PositionError(VIEW_SHOWS_HAND(seat=seat, other=o, want=size), f"{path}.hands[{o}]")
    own = parse_card_list(ROOK, raw[seat], f"{path}.hands[{seat}]")
    if len(own) != size:
        raise PositionError(HAND_SIZE(seat=seat, want=size, got=len(own)),
                            f"{path}.hands[{seat}]")
    w, over = pub["w"], pub["played"]
    seen = w is not None and (over or w == seat)
    nest_raw = need(d, "nest", path)
    if seen:
        nest = parse_card_list(ROOK, nest_raw, f"{path}.nest")
        if len(nest) != k:
            raise PositionError(NEST_SIZE(want=k, got=len(nest)), f"{path}.nest")
    else:
        if isinstance(nest_raw, bool) or nest_raw != k:
            raise PositionError(NEST_UNSEEN(seat=seat, key=k),
                                f"{path}.nest")
        nest = []
    check_distinct(ROOK, [(f"{path}.hands[{seat}]", own), (f"{path}.nest", nest)], path)
    if "cuts" in d and not over:
        raise PositionError(CUT_ONLY_FOLLOWS_HAND(), f"{path}.cuts")
    discards = pub["discards"]
    for i, c in discards:
        if (w == seat or over) and c is None:
            raise PositionError(SEAT_SEES_DISCARD_NAME(seat=seat), f"actions[{i}]")
        if not (w == seat or over) and c is not None:
            raise PositionError(SEAT_CANNOT_SEE_DISCARD(seat=seat),
                                f"actions[{i}]")
    known = set(own) | set(nest)
    played_by: dict[int, tuple] = {}
    for t, s, c, i in pub["plays"]:
        if c in played_by:
            raise PositionError(PLAYED_TWICE(card=ROOK.to_string(c)), f"actions[{i}]")
        played_by[c] = (s, t)
        if s != seat and c in known and not (over and s == w and c in nest):
            raise PositionError(PLAYED_CARD_KNOWN_ROOK(seat=s, card=ROOK.to_string(c), other=seat),
                                f"actions[{i}]")
    fills: dict[int, int] = {}
    hands: list = [None] * n
    hands[seat] = sorted(own)
    if over:
        gone = [c for _, c in discards]
        for o in range(n):
            mine = [c for c, (s, _) in played_by.items() if s == o]
            if o == w:
                mine = sorted((set(mine) | set(gone)) - set(nest))
            if o != seat:
                hands[o] = sorted(mine)
    else:
        hands, nest, fills = _match_hand(game, seat, hands, own, nest, pub, played_by, rng,
                                         path)
    for o in range(n):
        if len(hands[o]) != size:
            raise PositionError(PLAYS_AND_NEST(o=o, size=size),
                                path)
    check_distinct(ROOK, [(f"{path}.hands[{o}]", hands[o]) for o in range(n)] +
                   [(f"{path}.nest", nest)], path)
    return tuple(tuple(sorted(h)) for h in hands), tuple(sorted(nest)), fills


def _match_hand(game, seat, hands, own, nest, pub, played_by, rng, path):
    n, size, k = game.num_players, game.hand_size, game.nest_size
    w = pub["w"]
    known = set(own) | set(nest)
    pool = [c for c in ROOK.cards if c not in known]
    gone = len(pub["discards"])
    slots = []
    for o in range(n):
        if o == seat:
            continue
        if o == w:           # the nest is hidden from this seat: w's cards plus its discards
            slots += [("hold", o, j) for j in range(size + k - gone)]
            slots += [("gone", o, j) for j in range(gone)]
        else:
            slots += [("hold", o, j) for j in range(size)]
    if w is None:
        slots += [("nest", -1, j) for j in range(k)]
    if len(slots) != len(pool):
        raise PositionError(UNSEEN_CARDS_PLACES(n_pool=len(pool), n_slots=len(slots)), path)
    voids = {o: [(t, col) for t, s, col in pub["voids"] if s == o] for o in range(n)}

    def allowed(card, slot):
        kind, o, _ = slot
        pb = played_by.get(card)
        if kind != "hold":
            return pb is None
        if pb is None:
            end = size + 1
        elif pb[0] != o:
            return False
        else:
            end = pb[1]
        col = suit_of(card)
        return not any(t < end and c == col for t, c in voids[o])

    assign = match_cards(pool, slots, allowed, rng)
    if assign is None:
        raise PositionError(NO_WORLD(seat=seat, why=WORLD_ROOK()), path)
    fills = {}
    for o in range(n):
        if o != seat:
            hands[o] = [c for c, sl in assign.items() if sl[1] == o and sl[0] == "hold"]
    if w is None:
        nest = [c for c, sl in assign.items() if sl[0] == "nest"]
    elif w != seat:
        gone_cards = [c for c, sl in assign.items() if sl[0] == "gone"]
        rng.shuffle(gone_cards)
        for (i, _), c in zip(pub["discards"], gone_cards, strict=True):
            fills[i] = c
        allw = sorted(hands[w] + gone_cards)
        nest = rng.sample(allw, k)
        hands[w] = [c for c in allw if c not in nest]
    return hands, nest, fills


def cards_played(state: DixieRookState, seat: int) -> int:
    """The cards ``seat`` has played in the hand so far (the table's too)."""
    took = mask_of(state.initial_hands[seat])
    if seat == state.bid_winner:
        took = (took | mask_of(state.nest)) & ~mask_of(state.discards)
    return took & ~state.hands[seat]


class RookWorldSampler(WorldSampler, RowSampler):
    """Worlds drawn exactly uniformly among those consistent with one seat
    view (the protocol's world sampler: ``sample(rng)``).

    Only the hand in play has unseen cards that matter: a hand played out
    is known entirely (its nest is turned up), and the unseen hands of a
    passed-out one change nothing later; those keep the completion made
    once (``complete_view``, which also validates the view), replayed once
    into ``base``.  In the hand in play the unseen cards are those neither
    the seat holds nor saw (the nest and discards when it won the bid) nor
    anyone played; their **holders** (``holders``: a seat, or ``NEST`` /
    ``DISCARDS``) are

    * every other seat's hand as it is now (the bid winner's, when this
      seat did not win the bid: its cards left after the discards made so
      far), ``capacity`` = its cards not yet played;
    * the nest while the auction is on (nobody has taken it);
    * the discards made so far, when another seat won the bid: discarded
      before the play, they can be any unseen card (no failure to follow
      says anything about them).

    A seat that failed to follow a colour holds none of it now (a hand only
    loses cards during the play), and the cards of that colour it held then
    and played later are public: so a void removes that seat from the
    allowed holders of every unseen card of the colour, and nothing else.
    (Trumps do not change the colour a card follows: dixie-rook has no Rook
    bird card.)  ``ColumnSampler`` draws every assignment of the unseen
    cards to the holders with equal probability (exact big-integer counts;
    each draw is a walk of its compiled graph, in C when built); then, when another seat
    won the bid, its original hand and the nest are a uniform split of the
    cards it took up (held now, played, discarded) and the discards'
    order is a uniform permutation: each assignment stands for the same
    number of complete records, so the records are uniform too.  An
    inconsistent view is a ``PositionError``, never a hang.

    Each draw clones ``base`` and rewrites the hand in play's hidden cards
    in place (the deal in the chance log, the hands, the discards and their
    actions, the narrative lines that show them), and gives the world a
    fresh tie-cut stream from ``rng`` (otherwise every world cloned from
    ``base`` would settle a tie for most tricks the same way).

    Rows (``solver.beliefs``): one place a holder, in ``holders`` order;
    when another seat won the bid, one more place (``split``): the nest
    within the cards it took up, a uniform choice, so that the hand it
    bid with is a function of the row as well."""

    NEST, DISCARDS = -1, -2

    def __init__(self, game: AnyGame, view: dict, rng: random.Random | None = None,
                 base: State | None = None):
        self.game = game
        self.seat = seat = view["seat"]
        completion = None
        if base is not None:
            # the state the view was taken from (or validated with): no
            # completion to replay, but its hidden cards may be the true
            # ones, so every hand gets the deal the replay below would have
            # (``complete_view``'s, from the same generator)
            self.base = cast(DixieRookState, replayed(base))
            outcomes, fills = _completion(game, view, rng or random.Random(0))
            completion = [value for kind, value in outcomes if kind == "deal"]
            self._hands_dealt(completion)
        else:
            rec = game.complete_record(view, rng or random.Random(0))
            # the replay builds the game's state_class
            self.base = cast(DixieRookState, game.replay(rec["actions"], deal=rec["deal"],
                                                         match=rec.get("match")))
        self.sampler: ColumnSampler | None = None
        # the compiled walk: None until first asked for, False without a build
        self._walker: ColumnWalker | Literal[False] | None = None
        deals = view["deal"]["deals"]
        pub = _public_replay(game, self.base.first_dealer(), list(view["actions"]))
        self.n_places = 0
        self.split = -1
        self.hidden_mask = 0
        if len(deals) != len(pub) or self.base.is_terminal():
            return                        # the game is over: everything is known
        h = len(deals) - 1
        p = pub[h]
        n, size, k = game.num_players, game.hand_size, game.nest_size
        self.w = w = p["w"]
        self.discard_actions = [i for i, _ in p["discards"]]
        own = set(self.base.initial_hands[seat])
        known = set(own)
        if w == seat:
            known |= set(self.base.nest)
        self.played: list[list[int]] = [[] for _ in range(n)]
        void = [0] * n
        for _, s, c, _ in p["plays"]:
            self.played[s].append(c)
        for _, s, col in p["voids"]:
            void[s] |= SUIT_RANK_MASK[col]
        gone = len(p["discards"])
        self.holders, caps = [], []
        for o in range(n):
            if o != seat:
                self.holders.append(o)
                caps.append(size - len(self.played[o]) + (k - gone if o == w else 0))
        if w is None:
            self.holders.append(self.NEST)
            caps.append(k)
        elif w != seat:
            self.holders.append(self.DISCARDS)
            caps.append(gone)
        played_all = {c for cards in self.played for c in cards}
        hidden = [c for c in ROOK.cards if c not in known and c not in played_all]
        self.hidden_mask = mask_of(hidden)
        cards = [(c, sum(1 << i for i, o in enumerate(self.holders)
                         if o < 0 or not void[o] >> c & 1)) for c in hidden]
        try:
            self.sampler = ColumnSampler(caps, cards)
        except InconsistentConstraints as exc:
            raise PositionError(NO_WORLD(seat=seat, why=exc.said), f"deal.deals[{h}]") from None
        self.log_index = max(i for i, (kind, _) in enumerate(self.base.chance.log)
                             if kind == "deal")
        self.n_places = len(self.holders)
        self.played_mask = [mask_of(cards) for cards in self.played]
        if w is not None and w != seat:
            self.split = self.n_places          # the bid winner's nest, within what it took
            self.n_places += 1
        if completion is not None:
            self._hand_in_play(completion[-1], fills)

    def _hands_dealt(self, completion: list) -> None:
        """``base`` with every hand dealt as ``completion`` says (the
        chance log and the narrative's deal lines; the hand in play's other
        hidden cards: ``_hand_in_play``)."""
        world = self.base
        n = self.game.num_players
        at = [i for i, (kind, _) in enumerate(world.chance.log) if kind == "deal"]
        heads = [i for i, line in enumerate(world.events)
                 if line.startswith("hand ") and " deals; totals " in line]
        for i, head, (hands, nest) in zip(at, heads, completion, strict=True):
            world.chance.rewrite(i, (hands, nest))
            world.events[head + 1:head + n + 2] = world._deal_events(hands, nest)

    def _hand_in_play(self, deal: tuple, fills: dict) -> None:
        """``base``'s hand in play as the completion deals it (``deal``, and
        the hidden discards ``fills``): what ``world_from`` writes in a
        drawn world."""
        world, w, seat = self.base, self.w, self.seat
        initial, nest = deal
        pile = [fills[i] for i in self.discard_actions] if w is not None and w != seat else []
        for o in self.holders:
            if o >= 0:
                held = mask_of(initial[o]) | (mask_of(nest) if o == w else 0)
                world.hands[o] = held & ~self.played_mask[o] & ~mask_of(pile)
        self._write(world, initial, nest, pile)

    def assignment(self, rng: random.Random) -> list[list[int]]:
        """One uniform assignment: the unseen cards of each holder (in
        ``holders`` order); the compiled walk in C when built.  A view of a
        finished game has no unseen card to place: none."""
        sampler = self.sampler
        if sampler is None:
            return []
        if self._walker is None:
            self._walker = False
            if not _sampler_pure():
                try:
                    from ... import _sampler  # the compiled walker: absent without the build
                    self._walker = _sampler.ColumnWalker(sampler.compiled)
                except ImportError:   # pragma: no cover - without a build
                    self._walker = False
        if self._walker:
            return [cards_of(m) for m in self._walker.walk(rng.getrandbits(64))]
        return sampler.sample(rng)

    def worlds(self) -> int:
        return 1 if self.sampler is None else self.sampler.count

    def any_world(self) -> DixieRookState:
        # the prepared world: its hidden cards a completion of the view
        return self.base.clone()

    def sample(self, rng: random.Random) -> DixieRookState:
        world = self.base.clone()
        if self.sampler is None:
            return world
        return self.world_from(world, self.assignment(rng), rng)

    # ---- rows (solver.beliefs.RowSampler) -----------------------------------
    def draw_rows(self, n: int, seed: int) -> array:
        sampler = self.sampler
        if sampler is None:
            return array("Q")
        if self._walker is None:
            self._walker = compiled_walker("ColumnWalker", sampler.compiled) or False
        width = len(self.holders)
        if self._walker:
            got = self._walker.walk_rows(n, seed)
        else:
            rng = random.Random(seed)
            got = array("Q")
            for _ in range(n):
                got.extend(mask_of(cards) for cards in sampler.compiled.sample_py(rng))
        if self.split < 0:
            return got
        # the nest within the bid winner's cards: a uniform choice of its size
        rng = random.Random(seed ^ 0x5EED)
        k, w = self.game.nest_size, self.w
        at_w, at_pile = self.holders.index(w), self.holders.index(self.DISCARDS)
        out = array("Q")
        for i in range(n):
            row = got[i * width:(i + 1) * width]
            took = cards_of(row[at_w] | row[at_pile] | self.played_mask[w])
            out.extend(row)
            out.append(mask_of(rng.sample(took, k)))
        return out

    def world_from_row(self, row, rng: random.Random) -> DixieRookState:
        world = self.base.clone()
        if self.sampler is None:
            return world
        got = [cards_of(m) for m in row[:len(self.holders)]]
        return self.world_from(world, got, rng, row[self.split] if self.split >= 0 else None)

    def hand_places(self, state, seat: int) -> HandPlaces | None:
        """The seat's holder place with the cards it played from the
        decision on (they were in its hand then); the bid winner's hand at
        the auction, before it took up the nest: the cards it took up (its
        place and the discards') less the nest within them (``split``).
        None with nothing to draw, and for a discard (nobody sees it)."""
        if self.sampler is None or state.phase == DISCARD:
            return None
        at = self.holders.index(seat)
        played_now = self.played_mask[seat]
        if seat == self.w and state.phase == AUCTION:
            pile = self.holders.index(self.DISCARDS)
            return HandPlaces((at, pile), (self.split,), played_now, 0)
        played_then = cards_played(state, seat) if state.phase == PLAY else 0
        return HandPlaces((at,), (), played_now & ~played_then, 0)

    def place_holders(self) -> list[int | str | None]:
        names: list[int | str | None] = [
            "nest" if o == self.NEST else "discards" if o == self.DISCARDS else o
            for o in self.holders]
        if self.split >= 0:
            names.append(None)
        return names

    def row_of(self, state) -> list[int]:
        row = [mask_of(state.nest) if o == self.NEST else mask_of(state.discards)
               if o == self.DISCARDS else state.hands[o] for o in self.holders]
        if self.split >= 0:
            row.append(mask_of(state.nest))
        return row

    def item_name(self, index: int) -> str:
        return ROOK.to_string(index)

    def item_group(self, index: int) -> str:
        return ROOK_COLOURS[suit_of(index)]

    def exact_marginals(self) -> dict[int, dict[int | str, Fraction]]:
        if self.sampler is None:
            return {}
        names = self.place_holders()[:len(self.holders)]
        return {card: {name: p for name, p in zip(names, probs, strict=True) if name is not None}
                for card, probs in self.sampler.marginals().items()}

    def unseen(self) -> int:
        return self.hidden_mask

    def world_from(self, world: DixieRookState, got: list, rng: random.Random,
                   nest_mask: int | None = None) -> DixieRookState:
        """``world`` (a clone of ``base``) with the hand in play's unseen
        cards placed as ``got`` says (one list per holder), the bid
        winner's nest split (``nest_mask``, else drawn from ``rng``) and the
        discard order drawn from ``rng``."""
        g = self.game
        n, k, seat, w = g.num_players, g.nest_size, self.seat, self.w
        # every other seat is a holder: its hand is filled below
        initial: list[list[int]] = [list(self.base.initial_hands[seat]) if o == seat else []
                                    for o in range(n)]
        nest = list(self.base.nest)
        pile: list[int] = []
        for o, cards in zip(self.holders, got, strict=True):
            if o == self.NEST:
                nest = list(cards)
            elif o == self.DISCARDS:
                pile = list(cards)
                rng.shuffle(pile)
            else:
                world.hands[o] = mask_of(cards)
                initial[o] = list(cards) + self.played[o]
        if w is not None and w != seat:
            took = sorted(initial[w] + pile)
            nest = cards_of(nest_mask) if nest_mask is not None else rng.sample(took, k)
            initial[w] = [c for c in took if c not in nest]
        self._write(world, initial, nest, pile)
        world.chance.restart_stream("cut", random.Random(rng.getrandbits(64)))
        return world

    def _write(self, world: DixieRookState, initial, nest, pile: list) -> None:
        """The hand in play's deal (``initial`` hands, ``nest``) and hidden
        discards (``pile``, in order) written into ``world``: the chance
        log, the discards and their actions, the narrative lines."""
        w = self.w
        if w is not None and w != self.seat:
            world.discards = list(pile)
            for i, c in zip(self.discard_actions, pile, strict=True):
                world._history[i] = DISCARD_BASE + c
        world.initial_hands = tuple(tuple(sorted(hd)) for hd in initial)
        world.nest = tuple(sorted(nest))
        world.chance.rewrite(self.log_index, (world.initial_hands, world.nest))
        world.events[world.ev_deal:world.ev_deal + self.game.num_players + 1] = \
            world._deal_events(world.initial_hands, world.nest)
        if world.ev_nest >= 0:
            world.events[world.ev_nest] = world._nest_event()
        if world.ev_discards >= 0:
            world.events[world.ev_discards] = world._discards_event()


def _sampler_pure() -> bool:
    return os.environ.get("DIXTRIX_PUREPYTHON", "") not in ("", "0")
