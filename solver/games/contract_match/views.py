"""A trix / tricks seat view's world model: the unseen cards of each deal
matched to the other seats under the public facts, and the uniform world
sampler of the deal in play (``ContractWorldSampler``)."""

from __future__ import annotations

import random
from array import array
from fractions import Fraction
from typing import Any, cast

from ...beliefs import HandPlaces, RowSampler
from ...cards import FRENCH, SUIT_NAMES, SUIT_RANK_MASK, cards_of, mask_of, suit_of
from ...errors import PositionError
from ...front import N_
from ...game import State, WorldSampler, replayed
from ...said import Word, phrase
from ...sampler import HolderSampler, InconsistentConstraints, compiled_walker
from ..common import NO_WORLD
from .state import BAD_HAND, ContractMatchState, DealLog, bad_hand_line, hand_line
from .trick_play import HAND_SIZE, NUM_SEATS, PENALTY_RULES, TrickDeal

# the errors raised here (solver/errors.py: a code and its parameters)
WORLD_CM = phrase("world_cm", N_("plays, failures to follow, passes, reveals and claims"))
CARD_HELD_BY_OTHER = phrase("card_held_by_other", N_("seat {seat} {what} {text}, which seat {seat2} holds"))
PLACED_TWICE = phrase("placed_twice", N_("{text} is placed with both seat {fixed} and seat {seat}"))
SEAT_PLAYS_SHOWS_MORE = phrase("seat_plays_shows_more", N_("seat {seat} plays or shows more than "
                                                           "{hand_size} cards"))
CARD_NOT_IN_HAND = phrase("card_not_in_hand", N_("seat {seat} {what} {text}, which is not in its hand"))

#: this game (ContractGame, ``game.py``), for annotations: ``game.py`` imports
#: this module, so this module does not import it back
AnyGame = Any


#: Bad hands (tricks, Jacks): all four 2s, or three 2s plus the 3s of two
#: of their suits.  Each pattern is the set of cards that makes a hand bad.
def _bad_patterns() -> list[int]:
    twos = [s * 16 + 2 for s in range(4)]
    pats = [mask_of(twos)]
    for missing in range(4):
        three = [s for s in range(4) if s != missing]
        for skip in three:
            pair = [s for s in three if s != skip]
            pats.append(mask_of([s * 16 + 2 for s in three] + [s * 16 + 3 for s in pair]))
    return pats


BAD_PATTERNS = _bad_patterns()


def _deal_constraints(seat: int, own: list, log: DealLog, forced: dict, path: str):
    """What a seat view says about one deal's hidden cards: ``fixed`` (card
    -> seat: played, revealed or forced), ``allow[s]`` (mask of the cards
    seat ``s`` may hold unseen: voids, layout passes and proofs of holding
    no penalty card remove cards), ``free`` (the unseen cards not fixed)."""
    own_set = set(own)
    fixed: dict[int, int] = {}

    def fix(card: int, s: int, what: str) -> None:
        text = FRENCH.to_string(card)
        if s == seat:
            if card not in own_set:
                raise PositionError(CARD_NOT_IN_HAND(seat=seat, what=Word(what), text=text),
                                    path)
            return
        if card in own_set:
            raise PositionError(CARD_HELD_BY_OTHER(seat=s, what=Word(what), text=text, seat2=seat),
                                path)
        if fixed.setdefault(card, s) != s:
            raise PositionError(PLACED_TWICE(text=text, fixed=fixed[card], seat=s),
                                path)

    for card, s in forced.items():
        fix(card, s, N_("must hold"))
    for s, card in log.reveals:
        fix(card, s, N_("reveals"))
    voids: list[set[int]] = [set() for _ in range(NUM_SEATS)]
    no_pen: set[int] = set()
    excluded = [0] * NUM_SEATS         # cards a seat cannot hold (layout passes)
    pen_mask = PENALTY_RULES[log.contract].mask if log.contract in PENALTY_RULES else 0
    play = log.play
    if play is not None:
        for s, card in play.plays:
            fix(card, s, N_("plays"))
        if isinstance(play, TrickDeal):
            for s, suit in play.voids:
                voids[s].add(suit)
            no_pen = set(play.no_penalty)
        else:
            for s, fitting in play.passes:
                excluded[s] |= fitting
    others = [s for s in range(NUM_SEATS) if s != seat]
    for s in others:
        if sum(1 for v in fixed.values() if v == s) > HAND_SIZE:
            raise PositionError(SEAT_PLAYS_SHOWS_MORE(seat=s, hand_size=HAND_SIZE), path)
    allow = [0] * NUM_SEATS            # cards each seat may hold unseen
    for s in others:
        m = FRENCH.mask & ~excluded[s]
        for suit in voids[s]:
            m &= ~SUIT_RANK_MASK[suit]
        if s in no_pen:
            m &= ~pen_mask
        allow[s] = m
    free = [c for c in FRENCH.cards if c not in own_set and c not in fixed]
    return fixed, allow, free


def _holder_sampler(seat: int, fixed: dict, allow: list, free: list) -> HolderSampler | None:
    """An exact uniform sampler of ``free`` over the other seats, or None
    if no assignment exists."""
    others = [s for s in range(NUM_SEATS) if s != seat]
    caps = [HAND_SIZE - sum(1 for v in fixed.values() if v == s) for s in others]
    if any(c < 0 for c in caps):
        return None
    cards = [(c, sum(1 << i for i, s in enumerate(others) if allow[s] >> c & 1))
             for c in free]
    try:
        return HolderSampler(caps, cards)
    except InconsistentConstraints:
        return None


def _hands_from(seat: int, own: list, fixed: dict, placed: list) -> tuple:
    others = [s for s in range(NUM_SEATS) if s != seat]
    hands: list[list[int]] = [[] for _ in range(NUM_SEATS)]
    hands[seat] = list(own)
    for c, s in fixed.items():
        hands[s].append(c)
    for i, got in enumerate(placed):
        hands[others[i]].extend(got)
    return tuple(tuple(sorted(h)) for h in hands)


def _complete_hands(seat: int, own: list, log: DealLog, forced: dict,
                    rng: random.Random, path: str) -> tuple:
    """The four hands of one deal: ``seat``'s own, the rest drawn uniformly
    among the assignments consistent with the view (``HolderSampler``); a
    deal redealt on a bad-hand claim also gives the claimer a bad hand (one
    bad pattern chosen at random, then uniform given it)."""
    fixed, allow, free_all = _deal_constraints(seat, own, log, forced, path)
    own_set = set(own)
    patterns = [0]
    if log.claim >= 0 and log.claim != seat:
        claimer = log.claim
        patterns = [p for p in BAD_PATTERNS
                    if all(c not in own_set and fixed.get(c, claimer) == claimer
                           for c in cards_of(p))]
        rng.shuffle(patterns)
    for pat in patterns:
        fixed_here = dict(fixed)
        for c in cards_of(pat):
            fixed_here[c] = log.claim
        free = [c for c in free_all if c not in fixed_here]
        sampler = _holder_sampler(seat, fixed_here, allow, free)
        if sampler is None:
            continue
        return _hands_from(seat, own, fixed_here, sampler.sample(rng))
    raise PositionError(NO_WORLD(seat=seat, why=WORLD_CM()), path)


class ContractWorldSampler(WorldSampler, RowSampler):
    """Uniform worlds for a trix / tricks seat view, prepared once: one
    replay of a completion of the view (``complete_view``'s, from
    ``Random(0)``) makes a base state; each draw clones it and deals the
    current hand's unseen cards anew (exactly uniform, ``HolderSampler``),
    with the narrative lines that show them.  Earlier deals keep the
    base's consistent completion: they cannot change what happens next.
    Given the state the view was taken from instead, the base is that
    state with every deal's hidden cards (and the lines that show them)
    replaced by the same completion, drawn from its deal logs' public
    facts, so the worlds are the same as without it and never hold the
    true hidden cards.

    Rows (``solver.beliefs``): one place a seat other than the view's, in
    seat order (``others``), holding the cards it has unseen now (the
    cards it played or revealed are the view's, ``fixed``)."""

    def __init__(self, game: AnyGame, view: dict, base: State | None = None):
        self.seat = seat = view["seat"]
        if base is None:
            rec = game.complete_record(view, random.Random(0))
            # the replay builds the game's state_class
            self.base = cast(ContractMatchState,
                             game.replay(rec["actions"], deal=rec["deal"],
                                         match=rec.get("match")))
            _, facts, own, logs = game._public_facts(view)
            d = len(logs) - 1
            own_d, log = own[d], logs[d]
        else:
            # the state the view was taken from: its deal logs hold the public
            # facts (plays, voids, reveals, passes, claims) that a replay of
            # the view's notation over stand-in hands would find, and the
            # seat's own hand; only the hidden hands differ from a completion
            self.base = cast(ContractMatchState, replayed(base))
            facts = game._view_facts(view)
            d = len(self.base.deal_logs) - 1
            log = self.base.deal_logs[d]
            own_d = list(log.hands[seat])
            # the deals the replay above would have had: ``complete_view``'s
            # draws, in its order, from the same public facts
            rng = random.Random(0)
            completion = [_complete_hands(seat, list(lg.hands[seat]), lg, game._forced(i, facts),
                                          rng, f"deal.deals[{i}]")
                          for i, lg in enumerate(self.base.deal_logs)]
        self.own = own_d
        self.fixed, allow, free = _deal_constraints(seat, own_d, log,
                                                    game._forced(d, facts), "deal")
        self.free_mask = mask_of(free)
        self.sampler = None
        if log.claim < 0 and not self.base.is_terminal():
            self.sampler = _holder_sampler(seat, self.fixed, allow, free)
        at = [i for i, (kind, _) in enumerate(self.base.chance.log) if kind == "deal"]
        self.log_index = at[-1]
        #: per deal, the narrative's index of its first hand line and of
        #: its bad-hand claim (-1: none)
        self.lines: list[list[int]] = []
        for i, line in enumerate(self.base.events):
            if line.endswith(f" is the {game.chooser_word}") and ", deal " in line:
                self.lines.append([i + 1, -1])
            elif line.startswith("  seat ") and BAD_HAND in line:
                self.lines[-1][1] = i
        if base is not None:
            # the earlier deals' logs are shared with the state given: copies
            self.base.deal_logs = [lg.copy() for lg in self.base.deal_logs]
            for i, (k, hands) in enumerate(zip(at, completion, strict=True)):
                self._deal(self.base, i, hands)
                self.base.chance.rewrite(k, hands)
        self.others = [s for s in range(NUM_SEATS) if s != seat]
        self.n_places = len(self.others)
        #: per seat, the cards of this deal the view places with it
        self.fixed_mask = [0] * NUM_SEATS
        for card, s in self.fixed.items():
            self.fixed_mask[s] |= 1 << card
        self._walker: Any = None

    def worlds(self) -> int:
        return 1 if self.sampler is None else self.sampler.count

    def any_world(self) -> ContractMatchState:
        # the prepared world: its hidden cards a completion of the view
        return self.base.clone()

    def sample(self, rng: random.Random) -> ContractMatchState:
        if self.sampler is None:
            return self.base.clone()
        return self._world(self.sampler.sample(rng))

    # ---- rows (solver.beliefs.RowSampler) -----------------------------------
    def _rows(self, n: int, seed: int, rng: random.Random | None = None) -> array:
        """``n`` uniform worlds as rows: the compiled holder graph walked in
        C (``solver._sampler.HolderWalker``), or its Python twin."""
        assert self.sampler is not None
        if self._walker is None:
            self._walker = compiled_walker("HolderWalker", self.sampler.compiled)
        if self._walker:
            return self._walker.walk_rows(n, seed)
        rng = rng or random.Random(seed)
        out = array("Q")
        for _ in range(n):
            out.extend(mask_of(cards) for cards in self.sampler.compiled.sample_py(rng))
        return out

    def draw_rows(self, n: int, seed: int) -> array:
        if self.sampler is None:
            return array("Q")
        return self._rows(n, seed)

    def world_from_row(self, row, rng: random.Random) -> ContractMatchState:
        if self.sampler is None:
            return self.base.clone()
        return self._world([cards_of(m) for m in row])

    def hand_places(self, state, seat: int) -> HandPlaces | None:
        """The seat's place (its unseen cards now) with the cards the view
        places with it that it had not played yet; None for a decision of
        an earlier hand of the deal (before a redeal) or with nothing to
        draw."""
        if self.sampler is None or state.log.hands != self.base.log.hands:
            return None
        play = state.log.play
        gone = 0
        if play is not None:
            gone = mask_of(c for s, c in play.plays if s == seat)
        return HandPlaces((self.others.index(seat),), (), self.fixed_mask[seat] & ~gone, 0)

    def place_holders(self) -> list[int | str | None]:
        return list(self.others)

    def row_of(self, state) -> list[int]:
        log = state.deal_logs[-1]
        hands = log.play.hands if log.play is not None else [mask_of(h) for h in log.hands]
        return [hands[s] & self.free_mask for s in self.others]

    def item_name(self, index: int) -> str:
        return FRENCH.to_string(index)

    def item_group(self, index: int) -> str:
        return SUIT_NAMES[suit_of(index)]

    def exact_marginals(self) -> dict[int, dict[int | str, Fraction]]:
        if self.sampler is None:
            return {}
        return {card: dict(zip(self.others, probs, strict=True))
                for card, probs in self.sampler.marginals().items()}

    def unseen(self) -> int:
        return self.free_mask if self.sampler is not None else 0

    def _world(self, placed: list) -> ContractMatchState:
        state = self.base.clone()
        hands = _hands_from(self.seat, self.own, self.fixed, placed)
        self._deal(state, len(state.deal_logs) - 1, hands)
        state.chance.rewrite(self.log_index, hands)
        return state

    def _deal(self, state: ContractMatchState, d: int, hands: tuple) -> None:
        """Deal ``d`` of ``state`` (its log, the cards left in play, the
        narrative lines that show them) dealt as ``hands``."""
        log = state.deal_logs[d]
        log.hands = hands
        play = log.play
        if play is not None:
            gone = [0] * NUM_SEATS
            for s, card in play.plays:
                gone[s] |= 1 << card
            play.hands = [mask_of(hands[s]) & ~gone[s] for s in range(NUM_SEATS)]
        first, claim = self.lines[d]
        # the view's own hand is never drawn: its lines already hold it
        for s in range(NUM_SEATS):
            if s != self.seat:
                state.events[first + s] = hand_line(s, hands[s])
        if claim >= 0 and log.claim != self.seat:
            state.events[claim] = bad_hand_line(log.claim, hands[log.claim])


class SeenDeal:
    """The deal in play of ``state`` as a player who sees every card knows
    it, in the shape the Cython searches read from a
    ``ContractWorldSampler`` (``kernel.native_contract_search``): every
    other seat's hand of the deal is ``fixed`` with it and nothing is left
    to draw, so each of the search's worlds is ``state`` itself (the
    ``cheat`` player's search where the exact solve does not finish)."""

    def __init__(self, state: ContractMatchState):
        self.base = state
        self.seat = seat = state.current_player()
        log = state.deal_logs[-1]
        self.fixed = {card: s for s in range(NUM_SEATS) if s != seat for card in log.hands[s]}
        # no card left to place: the holder graph's one assignment is empty
        self.sampler = HolderSampler([0] * (NUM_SEATS - 1), [])
