"""Double-dummy solving: rule tables as data, positions, the kernel facade.

Three layers (docs/solver.md):

* :class:`Contract` -- the card-play and scoring rules of one deal as PURE
  DATA: seats and teams, trumps (and the dix joker), per-card points to the
  taker, per-trick points, dix's ten-trick rule, a last-trick bonus (+ extra
  tricks), a most-tricks bonus, a must-discard set, doubled (revealed) cards.
  Each game declares its rules once, as a ``solver.trickrules.Rulebook``
  in its own package, and its ``exact.py`` derives the contract from it
  (:func:`contract_of`; a game the kernel serves needs no line here:
  docs/architecture.md, "Adding a game"); :func:`bridge_contract` is
  here, for bridge deals checked against DDS (bench/compare_dds.py).  What a new game's rules need and
  the data cannot say -- a new kind of scoring -- is new code in the
  kernel and its rule table, not only a builder.
* :class:`TrickPosition` -- hands (64-bit masks), leader, the trick on the
  table, and what each team has already won.  Validated once, here.
* :func:`solve_position` -- builds the kernel's rule table for one MAX TEAM
  and objective (:func:`kernel_table`), runs the Cython kernel
  (``solver.dd._dd``) and returns the value of every legal card.

Objectives (``objective=``):

* ``"own"``: the max team's total points (team minimax when the teams are
  partnerships; with one seat per team the paranoid value: the best that seat
  can guarantee against all others).  Bridge: tricks.
* ``"difference"``: max team's points minus the other team's (two teams).
* ``"dix"``: lexicographic (score difference, fewer ten-tricks, last trick),
  encoded as one integer ``DIX_SCALE * diff + 4 * (opp tens - own tens) +
  (+1 if the max side wins the last trick else -1)``; never 0, its sign is
  the round's winner with the rules' tie-breaks (:func:`decode_dix`).

Values are exact integers.  Every user-facing error is typed (solver.errors).
"""

from __future__ import annotations

import hashlib
import math
import os
import threading
from collections.abc import Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

from ..cards import DIX, FRENCH, JOKER, ROOK, cards_of, make_card, mask_of, rank_of, suit_of
from ..errors import HANDS_COUNT, NAMED_SEAT, LimitError, PositionError
from ..front import N_
from ..said import Quote, phrase
from ..trickrules import Rulebook
from . import defaults

if TYPE_CHECKING:
    from . import _dd

#: one score point of dix's difference in the lexicographic encoding
DIX_SCALE = 256
#: the lexicographic dix objective's name (``Contract.objective``)
DIX_OBJECTIVE = "dix"
OBJECTIVES = ("own", "difference", DIX_OBJECTIVE)
#: objectives valued as one team's points minus the other's
DIFFERENCE_OBJECTIVES = ("difference", DIX_OBJECTIVE)
#: ``Contract.deck`` (a deck's name) -> the deck
DECKS = {deck.name: deck for deck in (FRENCH, DIX, ROOK)}
DEFAULT_TT_MB = 64
MAX_TT_MB = 16384
#: largest |value| the 16-bit table entries hold
VALUE_LIMIT = 32000


from ..reference.cardset import dix_pips  # noqa: E402  (A=1, 2-10 face, courts/joker 0)

# the errors raised here (solver/errors.py: a code and its parameters)
CONTRACT_SEATS = phrase("contract_seats", N_("a contract has 2, 4 or 6 seats, got {got}"))
CONTRACT_TEAMS = phrase("contract_teams", N_("teams must name a team per seat ({want}), got {got}"))
BONUS_TEAMS = phrase("bonus_teams", N_("a most-tricks bonus needs exactly two teams"))
BONUS_EVEN = phrase("bonus_even", N_("the most-tricks bonus must be even (a tie splits it)"))
UNKNOWN_OBJECTIVE = phrase("unknown_objective", N_("unknown objective {objective} (known: {known})"))
TEAM_COUNTS = phrase("team_counts", N_("{name} must list {want} teams, got {got}"))
TRICK_TOO_LONG = phrase("trick_too_long",
                        N_("a trick in progress has fewer than {seats} cards, got {got}"))
HAND_MASK = phrase("hand_mask", N_("hand {seat} must be a 64-bit card mask"))
INDEX_NOT_IN_DECK = phrase("index_not_in_deck", N_("card index {index} is not in the {deck} deck"))
HELD_TWICE = phrase("held_twice", N_("{cards} held twice"))
TABLE_CARD_TAKEN = phrase("table_card_taken",
                          N_("card {index} on the table is not a free card of the deck"))
JOKER_TURNED_UP = phrase("joker_turned_up",
                         N_("the joker is turned up (no trumps): it is not in play"))
TURNED_UP_CARD = phrase("turned_up_card", N_("{card} is the turned-up card (the joker takes "
                                             "its place): it is not in play"))
HAND_SIZES_TRICK = phrase("hand_sizes_trick", N_("hand sizes {sizes} do not fit a trick of {n} "
                                                 "card(s) led by seat {seat}"))
DEAL_OVER = phrase("deal_over", N_("the deal is over: no card left to play"))
TWO_TEAMS_OBJECTIVE = phrase("two_teams_objective", N_("the {contract} contract has {n} teams: "
                                                       "this objective needs exactly two"))
NO_TEAM = phrase("no_team", N_("no team {team} in the {contract} contract"))
SCORING_BY_OPPONENT = phrase("scoring_by_opponent", N_(
    "the {contract} contract's scoring depends on which opponent takes a card: not "
    "expressible for one max team"))
MAXN_SEATS = phrase("maxn_seats", N_("the max^n value needs four seats playing each for "
                                     "itself; the {contract} contract has teams {teams}"))
MAXN_RANGE = phrase("maxn_range",
                    N_("max^n values up to {worst} units exceed the table's range ({top})"))
TT_MB_TYPE = phrase("tt_mb_type", N_("tt_mb must be a number of MiB, got {got}"))
TT_MB_RANGE = phrase("tt_mb_range", N_("tt_mb must be between 1 and {top} MiB, got {got}"))
TT_MB_FREE = phrase("tt_mb_free", N_("tt_mb={mb}: this machine has only {free} MiB of memory "
                                     "available for the transposition table"))
TT_ALLOCATE = phrase("tt_allocate", N_("cannot allocate a {mb} MiB transposition table"))
MAX_NODES_RANGE = phrase("max_nodes_range",
                         N_("max_nodes must be an integer 1..{top} or None, got {got}"))
NOT_TRICK_POSITION = phrase("not_trick_position", N_("expected a TrickPosition, got {got}"))

# ---------------------------------------------------------------------------
# contracts: the rules as data

@dataclass(frozen=True)
class Contract:
    """Card play and scoring of one deal.

    ``teams[s]`` is seat ``s``'s team (individual games: the seat itself).
    ``trump`` -1 means no trumps.  ``joker_rank``: the dix joker (card 0)
    is in play as a trump of that rank.  ``card_points[c]`` goes to the
    team that takes card ``c``; ``trick_points`` to the taker of each trick,
    except a trick whose dix pips total ``ten_total``, which scores
    ``ten_points`` instead.  The last trick's taker gets ``last_points``
    and counts ``last_extra_tricks`` more tricks.  ``most_tricks_bonus``
    goes to the team with more tricks; a tie gives each of the two teams
    half (the expected value of dixie-rook's fair cut).  ``discard_cards``:
    a follower void in the led suit who holds one must play one (trix's
    option to discard a penalty card).  ``doubled[c] = r``: card ``c`` was revealed
    by seat ``r`` (trix doubling): another team's taker scores twice its
    points and ``r``'s team gains minus its points; ``r``'s own team taking
    it scores its points once."""

    name: str
    nseats: int
    teams: tuple
    deck: str = "french"
    trump: int = -1
    joker_rank: int | None = None
    must_follow: bool = True
    card_points: Mapping[int, int] = field(default_factory=dict)
    trick_points: int = 0
    ten_total: int | None = None
    ten_points: int = 0
    last_points: int = 0
    last_extra_tricks: int = 0
    most_tricks_bonus: int = 0
    discard_cards: frozenset = frozenset()
    doubled: Mapping[int, int] = field(default_factory=dict)
    objective: str = "own"

    def __post_init__(self):
        object.__setattr__(self, "card_points", MappingProxyType(dict(self.card_points)))
        object.__setattr__(self, "doubled", MappingProxyType(dict(self.doubled)))
        object.__setattr__(self, "discard_cards", frozenset(self.discard_cards))
        object.__setattr__(self, "teams", tuple(self.teams))
        if self.nseats not in (2, 4, 6):
            raise PositionError(CONTRACT_SEATS(got=Quote(self.nseats)))
        if len(self.teams) != self.nseats:
            raise PositionError(CONTRACT_TEAMS(want=self.nseats, got=len(self.teams)))
        if self.most_tricks_bonus and len(set(self.teams)) != 2:
            raise PositionError(BONUS_TEAMS())
        if self.most_tricks_bonus % 2:
            raise PositionError(BONUS_EVEN())
        if self.objective not in OBJECTIVES:
            raise PositionError(UNKNOWN_OBJECTIVE(objective=Quote(self.objective),
                                                  known=list(OBJECTIVES)))

    @property
    def team_ids(self) -> tuple:
        return tuple(sorted(set(self.teams)))

    def effective(self, card: int) -> tuple[int, int]:
        """(suit, strength) the card counts as."""
        if card == JOKER and self.joker_rank is not None:
            return self.trump, self.joker_rank
        return suit_of(card), rank_of(card)

    def gains(self, card: int, taker_team) -> dict:
        """Points per team when ``taker_team`` takes ``card`` (doubling included)."""
        p = self.card_points.get(card, 0)
        if not p:
            return {}
        if card in self.doubled:
            rteam = self.teams[self.doubled[card]]
            if rteam == taker_team:
                return {taker_team: p}
            return {taker_team: 2 * p, rteam: -p}
        return {taker_team: p}


def contract_of(rules: Rulebook) -> Contract:
    """The double-dummy contract of a game's rulebook
    (``solver.trickrules``: each game declares its rules there once)."""
    return Contract(rules.name, rules.nseats, rules.teams, deck=rules.deck, trump=rules.trump,
                    joker_rank=rules.joker_rank, must_follow=rules.must_follow,
                    card_points=dict(rules.card_points), trick_points=rules.trick_points,
                    ten_total=rules.ten_total, ten_points=rules.ten_points,
                    last_points=rules.last_points, last_extra_tricks=rules.last_extra_tricks,
                    most_tricks_bonus=rules.most_tricks_bonus,
                    discard_cards=frozenset(cards_of(rules.discard)),
                    doubled=dict(rules.doubled), objective=rules.objective)


def bridge_contract(strain: int) -> Contract:
    """Bridge card play: four seats N E S W = 0 1 2 3, partnerships N-S (team
    0) and E-W (team 1), ``strain`` a suit C D H S = 0..3 or -1 for no
    trumps; one point a trick."""
    return Contract("bridge", 4, (0, 1, 0, 1), trump=strain, trick_points=1)


# ---------------------------------------------------------------------------
# positions

@dataclass(frozen=True)
class TrickPosition:
    """A perfect-information card-play position.

    ``hands[s]`` a 64-bit mask, ``leader`` the seat that led the trick on
    the table (``trick``, lead first; the seat to play is leader +
    len(trick)), ``points``/``tricks``/``tens`` what each team (index into
    ``contract.team_ids``) has already won this deal, ``last_winner`` the
    seat that took the previous trick (-1 none)."""

    contract: Contract
    hands: tuple
    leader: int
    trick: tuple = ()
    # None: zeros; __post_init__ makes each a tuple of one number a team
    points: tuple[int, ...] = None  # type: ignore[assignment]
    tricks: tuple[int, ...] = None  # type: ignore[assignment]
    tens: tuple[int, ...] = None  # type: ignore[assignment]

    def __post_init__(self):
        k = self.contract
        nteams = len(k.team_ids)
        for name in ("points", "tricks", "tens"):
            v = getattr(self, name)
            object.__setattr__(self, name, tuple(v) if v is not None else (0,) * nteams)
            if len(getattr(self, name)) != nteams:
                raise PositionError(TEAM_COUNTS(name=name, want=nteams, got=Quote(v)))
        object.__setattr__(self, "hands", tuple(self.hands))
        object.__setattr__(self, "trick", tuple(self.trick))
        self._check()

    def _check(self) -> None:
        k = self.contract
        deck = DECKS[k.deck]
        if len(self.hands) != k.nseats:
            raise PositionError(HANDS_COUNT(want=k.nseats, got=len(self.hands)), "hands")
        if not (isinstance(self.leader, int) and 0 <= self.leader < k.nseats):
            raise PositionError(NAMED_SEAT(name="leader", top=k.nseats - 1, got=Quote(self.leader)))
        if len(self.trick) >= k.nseats:
            raise PositionError(TRICK_TOO_LONG(seats=k.nseats, got=len(self.trick)), "trick")
        seen = 0
        for s, h in enumerate(self.hands):
            if not isinstance(h, int) or h < 0 or h >> 64:
                raise PositionError(HAND_MASK(seat=s), f"hands[{s}]")
            bad = [c for c in cards_of(h) if c not in deck]
            if bad:
                raise PositionError(INDEX_NOT_IN_DECK(index=bad[0], deck=deck.name), f"hands[{s}]")
            if seen & h:
                raise PositionError(HELD_TWICE(cards=deck.format_cards(cards_of(seen & h))),
                                    f"hands[{s}]")
            seen |= h
        for i, c in enumerate(self.trick):
            if c not in deck or (seen >> c) & 1:
                raise PositionError(TABLE_CARD_TAKEN(index=Quote(c)), f"trick[{i}]")
            seen |= 1 << c
        if k.joker_rank is None and (seen & 1) and deck.joker:
            raise PositionError(JOKER_TURNED_UP())
        if _joker_in_play(k) and k.joker_rank is not None and \
                (seen >> make_card(k.trump, k.joker_rank)) & 1:
            raise PositionError(TURNED_UP_CARD(
                card=deck.to_string(make_card(k.trump, k.joker_rank))))
        sizes = [bin(h).count("1") for h in self.hands]
        n = len(self.trick)
        want = [sizes[(self.leader + n) % k.nseats]] * k.nseats
        for j in range(n):
            want[(self.leader + j) % k.nseats] -= 1
        if sizes != want:
            raise PositionError(HAND_SIZES_TRICK(sizes=sizes, n=n, seat=self.leader), "hands")
        if sizes[(self.leader + n) % k.nseats] == 0:
            raise PositionError(DEAL_OVER())

    @property
    def seat_to_play(self) -> int:
        return (self.leader + len(self.trick)) % self.contract.nseats

    @property
    def tricks_left(self) -> int:
        """Tricks not finished, the one in progress included."""
        return bin(self.hands[self.seat_to_play]).count("1")

    def legal(self) -> list[int]:
        k = self.contract
        hand = self.hands[self.seat_to_play]
        if not self.trick:
            return cards_of(hand)
        led = k.effective(self.trick[0])[0]
        follow = [c for c in cards_of(hand) if k.effective(c)[0] == led]
        if follow:
            return follow if k.must_follow else cards_of(hand)
        discard = [c for c in cards_of(hand) if c in k.discard_cards]
        return discard or cards_of(hand)


# ---------------------------------------------------------------------------
# the kernel's rule table for one max team and objective

def _other_team(contract: Contract, team) -> object:
    others = [t for t in contract.team_ids if t != team]
    if len(others) != 1:
        raise PositionError(TWO_TEAMS_OBJECTIVE(contract=contract.name, n=len(contract.team_ids)))
    return others[0]


def deck_cards(contract: Contract) -> int:
    """The mask of every card the contract's deal can hold: its deck, less
    the dix joker when it is turned up (not in play) and, when the joker is
    in play, the turned-up card (set aside; the joker takes its place in
    the trump suit).  Rule tables cover all of them, so one deal's table is
    the same from its first card to its last and in every world of a PIMC
    decision."""
    deck = DECKS[contract.deck]
    cards = deck.mask
    if deck.joker:
        if contract.joker_rank is None:
            cards &= ~(1 << JOKER)
        else:
            cards &= ~(1 << make_card(contract.trump, contract.joker_rank))
    return cards


def _joker_in_play(contract: Contract) -> bool:
    return DECKS[contract.deck].joker and contract.joker_rank is not None


def total_tricks(pos: TrickPosition) -> int:
    """Tricks of the whole deal, the last trick's extra tricks included."""
    return sum(pos.tricks) + pos.tricks_left + pos.contract.last_extra_tricks


def rule_table(contract: Contract, max_team, objective: str, tricks_total: int) -> dict:
    """The kernel rule table (a dict of plain ints and lists) of a contract
    for ``max_team`` and ``objective``, over every card of the deal
    (``deck_cards``): it depends on no position, only on the deal's number
    of tricks (``tricks_total``, for the most-tricks bonus).

    Every rule becomes "what the max side gets when it wins / when the
    other side wins"; with several other teams (paranoid) those must agree,
    which they do for every contract above (checked)."""
    k = contract
    if objective not in OBJECTIVES:
        raise PositionError(UNKNOWN_OBJECTIVE(objective=Quote(objective), known=list(OBJECTIVES)))
    if max_team not in k.team_ids:
        raise PositionError(NO_TEAM(team=Quote(max_team), contract=k.name))
    teams = k.team_ids
    others = [t for t in teams if t != max_team]
    if objective in DIFFERENCE_OBJECTIVES:
        opp = _other_team(k, max_team)

    def value_of(gain: dict) -> int:
        """A per-team gain -> the objective's change."""
        mine = gain.get(max_team, 0)
        if objective == "own":
            return mine
        d = mine - gain.get(opp, 0)
        return d * (DIX_SCALE if objective == DIX_OBJECTIVE else 1)

    def win_lose(gain_for) -> tuple[int, int]:
        w = value_of(gain_for(max_team))
        losers = {value_of(gain_for(t)) for t in others}
        if len(losers) != 1:
            raise PositionError(SCORING_BY_OPPONENT(contract=k.name))
        return w, losers.pop()

    cards = deck_cards(k)
    joker = _joker_in_play(k)
    suit_of_t = [255] * 64
    strength = [0] * 64
    pips = [0] * 64
    win_pts = [0] * 64
    lose_pts = [0] * 64
    cls_key: list[tuple[int, int, int, bool] | None] = [None] * 64
    pip_partners = k.ten_total is not None and k.nseats == 2
    for c in cards_of(cards):
        s, r = k.effective(c)
        suit_of_t[c] = s
        strength[c] = r
        pips[c] = dix_pips(c) if k.ten_total is not None else 0
        win_pts[c], lose_pts[c] = win_lose(lambda t, c=c: k.gains(c, t))
        # two seats: the kernel compares pips against the cards that can still
        # share a trick (pip_partners); otherwise pips are part of the class
        cls_key[c] = (win_pts[c], lose_pts[c], 0 if pip_partners else pips[c],
                      c in k.discard_cards)
    classes = {key: i for i, key in enumerate(sorted({x for x in cls_key if x is not None}))}
    cls = [classes[x] if x is not None else 255 for x in cls_key]
    trick_win, trick_lose = win_lose(lambda t: {t: k.trick_points})
    ten_win, ten_lose = win_lose(lambda t: {t: k.ten_points})
    last_win, last_lose = win_lose(lambda t: {t: k.last_points})
    most_win, most_lose = win_lose(lambda t: {t: k.most_tricks_bonus})
    most_tie = value_of({t: k.most_tricks_bonus // 2 for t in teams})
    if objective == DIX_OBJECTIVE:
        # tie-breaks: fewer ten-tricks (4 per ten), then the last trick (+-1)
        ten_win -= 4
        ten_lose += 4
        last_win += 1
        last_lose -= 1
    return {
        "nseats": k.nseats,
        "trump": k.trump,
        "must_follow": int(k.must_follow),
        "ten_total": -1 if k.ten_total is None else k.ten_total,
        "trick_win": trick_win, "trick_lose": trick_lose,
        "ten_win": ten_win, "ten_lose": ten_lose,
        "last_win": last_win, "last_lose": last_lose,
        "last_extra": k.last_extra_tricks,
        "use_most": int(bool(k.most_tricks_bonus)),
        "most_win": most_win, "most_lose": most_lose, "most_tie": most_tie,
        # only the most-tricks bonus reads it: a table without one does not
        # depend on it
        "total_tricks": tricks_total if k.most_tricks_bonus else 0,
        "relative_ok": int(len(classes) <= 1 and k.ten_total is None and not joker),
        "pip_partners": int(pip_partners),
        "quick_ok": int(not any(win_pts) and not any(lose_pts) and k.ten_total is None
                        and not (last_win or last_lose or k.last_extra_tricks
                                 or k.most_tricks_bonus)
                        and not joker),
        "side": [int(k.teams[s] == max_team) for s in range(k.nseats)],
        "suit_of": suit_of_t, "strength": strength, "cls": cls, "pips": pips,
        "win_pts": win_pts, "lose_pts": lose_pts,
        "discard_mask": mask_of(k.discard_cards) & cards,
    }


def position_offset(pos: TrickPosition, max_team, objective: str) -> int:
    """What is already won, in the objective's value for ``max_team``."""
    ti = {t: i for i, t in enumerate(pos.contract.team_ids)}
    mine = ti[max_team]
    if objective == "own":
        return pos.points[mine]
    o = ti[_other_team(pos.contract, max_team)]
    offset = pos.points[mine] - pos.points[o]
    if objective == DIX_OBJECTIVE:
        offset = DIX_SCALE * offset + 4 * (pos.tens[o] - pos.tens[mine])
    return offset


def kernel_table(pos: TrickPosition, max_team, objective: str) -> tuple[dict, int]:
    """The kernel rule table of ``pos``'s contract (``rule_table``) and the
    value OFFSET of what is already won, for ``max_team`` and
    ``objective``."""
    if objective not in OBJECTIVES:
        raise PositionError(UNKNOWN_OBJECTIVE(objective=Quote(objective), known=list(OBJECTIVES)))
    if max_team not in pos.contract.team_ids:
        raise PositionError(NO_TEAM(team=Quote(max_team), contract=pos.contract.name))
    table = rule_table(pos.contract, max_team, objective, total_tricks(pos))
    return table, position_offset(pos, max_team, objective)


#: the kernel table's fields that hold values (every one is divided by the unit)
_VALUE_FIELDS = ("trick_win", "trick_lose", "ten_win", "ten_lose", "last_win", "last_lose",
                 "most_win", "most_lose", "most_tie")


def in_units(table: dict) -> tuple[dict, int]:
    """The table with every value divided by their greatest common divisor,
    and that divisor (the UNIT; 1 when there is nothing to divide).

    Every future value is a sum of the table's values, so it is a multiple
    of the unit: searching in units is exact (multiply back), and each
    null-window probe of the driver then decides a whole unit (King of
    Hearts: 75 points, a two-valued question: at most two probes; Queens
    in queens, dixie-rook in 5s).  The scaled table carries its
    ``fingerprint`` (``"key"``), which the kernels mix into every key."""
    unit = 0
    for name in _VALUE_FIELDS:
        unit = math.gcd(unit, table[name])
    for name in ("win_pts", "lose_pts"):
        for v in table[name]:
            unit = math.gcd(unit, v)
    unit = max(unit, 1)
    out = dict(table)
    out["unit"] = unit
    if unit > 1:
        for name in _VALUE_FIELDS:
            out[name] = table[name] // unit
        for name in ("win_pts", "lose_pts"):
            out[name] = [v // unit for v in table[name]]
    out["key"] = fingerprint(out)
    return out, unit


def _contract_key(k: Contract) -> tuple:
    """A hashable key of everything a contract says (its mappings sorted)."""
    return (k.name, k.nseats, k.teams, k.deck, k.trump, k.joker_rank, k.must_follow,
            tuple(sorted(k.card_points.items())), k.trick_points, k.ten_total, k.ten_points,
            k.last_points, k.last_extra_tricks, k.most_tricks_bonus, k.discard_cards,
            tuple(sorted(k.doubled.items())), k.objective)


def fingerprint(table: dict) -> int:
    """A 64-bit fingerprint of a rule table's contents (not of any
    position): the kernels mix it into every table key, so an entry is
    only ever found under the rules it was proved with.  Deterministic
    (blake2b of the sorted items; no salted hash)."""
    text = repr(sorted((name, value) for name, value in table.items() if name != "key"))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


#: rule tables built (``unit_table``), least recently used first, by the
#: rules they describe; and the (table, offset, unit) answers by position
#: score; guarded by one lock (the server's worker threads build tables
#: concurrently)
_TABLES: dict = {}
_ANSWERS: dict = {}
_TABLES_MAX = 64
_TABLES_LOCK = threading.Lock()


def _remember(memo: dict, key, value) -> None:
    while len(memo) >= _TABLES_MAX:
        memo.pop(next(iter(memo)), None)
    memo[key] = value


def unit_table(pos: TrickPosition, max_team, objective: str) -> tuple[dict, int, int]:
    """``kernel_table`` in units (``in_units``): (table, offset, unit).
    The table depends only on the contract, the max team, the objective and
    the deal's number of tricks (every card of the deal is in it), so the
    whole deal, a re-solve and the worlds of a PIMC decision share one
    table object, with one fingerprint (``table["key"]``: the kernels' table
    keeps entries across all of them, docs/solver.md) and no Python rebuild
    (about 0.2 ms, a third of a repeated bridge solve).  Remembered for the
    last ``_TABLES_MAX`` rule sets; never modified."""
    rules = (_contract_key(pos.contract), max_team, objective,
             total_tricks(pos) if pos.contract.most_tricks_bonus else 0)
    key = (rules, pos.points, pos.tricks, pos.tens)
    with _TABLES_LOCK:
        hit = _ANSWERS.pop(key, None)
        if hit is not None:
            _ANSWERS[key] = hit                 # most recently used last
            return hit
        built = _TABLES.pop(rules, None)
        if built is not None:
            _TABLES[rules] = built
    if built is None:
        table, _ = kernel_table(pos, max_team, objective)
        built = in_units(table)
    hit = (built[0], position_offset(pos, max_team, objective), built[1])
    with _TABLES_LOCK:
        _remember(_TABLES, rules, built)
        _remember(_ANSWERS, key, hit)
    return hit


#: the largest |points| a seat's max^n value may reach, in units (the table
#: keeps each seat's points in a byte)
MAXN_LIMIT = 127


def maxn_contract_ok(contract: Contract) -> bool:
    """Whether the max^n value applies: four seats, each its own team (trix
    and tricks without partners), no ten rule and no most-tricks bonus
    (whose halves need two teams)."""
    return (contract.nseats == 4 and contract.teams == tuple(range(4))
            and contract.ten_total is None and not contract.most_tricks_bonus)


def maxn_tables(pos: TrickPosition) -> tuple[dict, dict, int]:
    """What the kernel is loaded with for the max^n value of ``pos``: the
    mechanics' rule table (``rule_table`` for seat 0, its scoring classes
    replaced by classes over every seat's points, so that cards called
    equivalent are so for every seat), the seats' own points a card, a
    trick and the last trick (``maxn``: card -> points to its taker, to
    its revealer when that is the taker, the revealer's share when another
    takes it, the revealer), all divided by their greatest common divisor,
    and that unit.  Every table is the deal's: it depends on no position.
    ``PositionError`` for a contract it does not apply to
    (``maxn_contract_ok``); ``LimitError`` when a seat's points could pass
    ``MAXN_LIMIT`` units."""
    k = pos.contract
    if not maxn_contract_ok(k):
        raise PositionError(MAXN_SEATS(contract=k.name, teams=[Quote(t) for t in k.teams]))
    cards = deck_cards(k)
    taker, own, rev_pts, rev = [0] * 64, [0] * 64, [0] * 64, [-1] * 64
    for c in cards_of(cards):
        p = k.card_points.get(c, 0)
        if not p:
            continue
        if c in k.doubled:
            rev[c] = k.doubled[c]
            taker[c], own[c], rev_pts[c] = 2 * p, p, -p
        else:
            taker[c] = own[c] = p
    unit = 0
    for v in (*taker, *own, *rev_pts, k.trick_points, k.last_points):
        unit = math.gcd(unit, v)
    unit = max(unit, 1)
    worst = (sum(max(abs(taker[c]), abs(own[c])) + abs(rev_pts[c]) for c in range(64))
             + 13 * abs(k.trick_points) + abs(k.last_points)) // unit
    if worst > MAXN_LIMIT:
        raise LimitError(MAXN_RANGE(worst=worst, top=MAXN_LIMIT))
    mx = {"taker": [v // unit for v in taker], "self": [v // unit for v in own],
          "rev_pts": [v // unit for v in rev_pts], "rev": rev,
          "trick": k.trick_points // unit, "last": k.last_points // unit}
    table = dict(rule_table(k, k.team_ids[0], "own", total_tricks(pos)))
    keys = [(taker[c], own[c], rev_pts[c], rev[c], c in k.discard_cards) if (cards >> c) & 1
            else None for c in range(64)]
    classes = {key: i for i, key in enumerate(sorted({x for x in keys if x is not None}))}
    table["cls"] = [classes[x] if x is not None else 255 for x in keys]
    table["relative_ok"] = int(len(classes) <= 1 and table["relative_ok"])
    table["key"] = fingerprint(table)
    mx["key"] = fingerprint(mx) ^ table["key"]
    return table, mx, unit


def constant_sum(contract: Contract, objective: str) -> bool:
    """Whether the two teams' values of ``objective`` add up to what the
    cards and tricks still to be played carry whoever takes them: then one
    rule table (the canonical team's, ``contract.teams[0]``) answers for
    both teams (``other_value``), and every solve of a deal, whichever side
    asks, shares one table (DDS stores its bounds for North-South the same
    way).  Two teams; every card's points in all and the per-trick points
    the same whichever team takes them; a ten-trick worth a normal trick;
    the last-trick and most-tricks points go to one team (a tie splits the
    bonus in halves).  The difference objectives always are."""
    teams = contract.team_ids
    if len(teams) != 2:
        return False
    if objective in DIFFERENCE_OBJECTIVES:
        return True
    if contract.ten_total is not None and contract.ten_points != contract.trick_points:
        return False
    for c in contract.card_points:
        if len({sum(contract.gains(c, t).values()) for t in teams}) != 1:
            return False
    return True


def remaining_total(pos: TrickPosition) -> int:
    """The points still to be won by either team under the "own" objective
    of a ``constant_sum`` contract: every trick left, every card in play
    (hands and the table), the last trick's points and the most-tricks
    bonus."""
    k = pos.contract
    team = k.team_ids[0]
    cards = mask_of(pos.trick)
    for h in pos.hands:
        cards |= h
    total = pos.tricks_left * k.trick_points + k.last_points + k.most_tricks_bonus
    for c in cards_of(cards):
        total += sum(k.gains(c, team).values())
    return total


def other_value(pos: TrickPosition, objective: str, value: int) -> int:
    """A ``constant_sum`` contract: the value for the other team
    (``contract.team_ids[1]``) of an answer ``value`` (what is already won
    included) for the canonical team (``team_ids[0]``), and the other way
    round."""
    if objective in DIFFERENCE_OBJECTIVES:
        return -value
    # final_a + final_b = won_a + won_b + what is still to be won
    return pos.points[0] + pos.points[1] + remaining_total(pos) - value


def value_bound(table: dict, pos: TrickPosition) -> int:
    """A bound on |future value| (for the driver's window and the 16-bit
    table entries), from the cards still in play."""
    per = max(abs(table[k]) for k in ("trick_win", "trick_lose", "ten_win", "ten_lose"))
    in_play = mask_of(pos.trick)
    for h in pos.hands:
        in_play |= h
    cards = sum(max(abs(table["win_pts"][c]), abs(table["lose_pts"][c]))
                for c in cards_of(in_play))
    end = max(abs(table["last_win"]), abs(table["last_lose"]))
    end += max(abs(table["most_win"]), abs(table["most_lose"]), abs(table["most_tie"]))
    return pos.tricks_left * per + cards + end + 1


def value_range(pos: TrickPosition, max_team, objective: str) -> tuple[int, int]:
    """The game's own range of ``max_team``'s value of ``pos`` under
    ``objective`` (what is already won included): every trick left, card
    in play and end-of-deal point counted both ways it can go, so no play
    of the rest of the deal ends outside it.  An unfinished solve's
    brackets are clipped to it.  The dix objective: every lexicographic
    value whose score difference is in the round's range."""
    table, offset = kernel_table(pos, max_team, objective)
    per = [table["trick_win"], table["trick_lose"]]
    if table["ten_total"] >= 0:
        per += [table["ten_win"], table["ten_lose"]]
    lo = hi = offset
    lo += pos.tricks_left * min(per)
    hi += pos.tricks_left * max(per)
    in_play = mask_of(pos.trick)
    for h in pos.hands:
        in_play |= h
    for c in cards_of(in_play):
        lo += min(table["win_pts"][c], table["lose_pts"][c])
        hi += max(table["win_pts"][c], table["lose_pts"][c])
    lo += min(table["last_win"], table["last_lose"])
    hi += max(table["last_win"], table["last_lose"])
    if table["use_most"]:
        lo += min(table["most_win"], table["most_lose"], table["most_tie"])
        hi += max(table["most_win"], table["most_lose"], table["most_tie"])
    if objective == DIX_OBJECTIVE:
        # every tie-break part of a difference's values (at most 26 tens a
        # side, the last trick) lies within half a DIX_SCALE of it
        lo = DIX_SCALE * decode_dix(lo)[0] - DIX_SCALE // 2
        hi = DIX_SCALE * decode_dix(hi)[0] + DIX_SCALE // 2 - 1
    return lo, hi


def clip_bracket(lo: int, hi: int, span: tuple[int, int]) -> tuple[int, int]:
    """A proved bracket within the game's range ``span`` (both are true,
    so is their intersection)."""
    return max(lo, span[0]), min(hi, span[1])


# ---------------------------------------------------------------------------
# the facade

@dataclass(frozen=True)
class DDResult:
    """Values of a position for the max team: ``value`` (the best card's),
    ``card_values`` card -> value for EVERY legal card, ``nodes`` searched,
    ``time`` in seconds, ``engine`` "cython" or "python"."""

    value: int
    card_values: Mapping[int, int]
    nodes: int
    time: float
    engine: str
    maximizing: bool


@dataclass(frozen=True)
class MaxnResult:
    """The max^n value of a position of individual seats (every seat plays
    for its own score; ``solver.dd.Solver.solve_maxn``): ``vectors`` card ->
    every seat's final score (what is already won included) for EVERY legal
    card of the seat to play; ``card_values`` the asked ``seat``'s score of
    each; ``value`` the asked seat's score after the card the seat to play
    chooses (its own score first, ties against ``seat``: ``choice``);
    ``nodes``, ``time``."""

    seat: int
    value: int
    choice: int
    card_values: Mapping[int, int]
    vectors: Mapping[int, tuple]
    nodes: int
    time: float
    kind: str = "maxn"


#: the process's kernels (one table each), by build: (MiB, kernel); each is
#: used by one solve at a time (solver.dd.session holds their locks), the
#: search itself runs without the GIL
_KERNELS: dict = {}


def available_mib() -> int | None:
    """The memory this machine can still give (MiB), or None if unknown."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") >> 20
    except (ValueError, OSError, AttributeError):
        return None


def check_tt_mb(tt_mb) -> int:
    """Validate a table size in MiB: ``LimitError`` for an absurd one, or
    one larger than the memory the machine has available now."""
    if isinstance(tt_mb, bool) or not isinstance(tt_mb, (int, float)):
        raise LimitError(TT_MB_TYPE(got=Quote(tt_mb)))
    if not (1 <= tt_mb <= MAX_TT_MB):
        raise LimitError(TT_MB_RANGE(top=MAX_TT_MB, got=Quote(tt_mb)))
    free = available_mib()
    if free is not None and tt_mb > free:
        raise LimitError(TT_MB_FREE(mb=int(tt_mb), free=free))
    return int(tt_mb)


def allocate(factory, nbytes_per_bucket: int, mb: int):
    """A kernel with a table of at most ``mb`` MiB (a power-of-two number of
    buckets); ``LimitError`` when the memory cannot be had."""
    buckets = (mb << 20) // nbytes_per_bucket
    try:
        return factory(1 << (buckets.bit_length() - 1))
    except MemoryError:
        raise LimitError(TT_ALLOCATE(mb=mb)) from None


#: > 0 inside ``probing()``: the measuring builds of the kernels are used
_PROBING = [0]


def probing_now() -> bool:
    """Whether ``probing()`` is in effect (solver.dd.dix asks too)."""
    return _PROBING[0] > 0


@contextmanager
def probing():
    """Within the block the solver runs the measuring builds of the
    kernels: ``solver.dd._ddprobe.ProbeKernel`` for the generic kernel and
    ``solver.dd._dixprobe.ProbeDixSolver`` for dix (the same source
    compiled with ``DD_STATS`` 1, csrc/dd/ddstats.pxd: the switches that
    turn a bound off and the counters, which the shipped kernels do not
    carry).  With every switch at its default a probe build visits
    exactly the nodes of the shipped one.  Yields the generic probe kernel
    (64 MiB table).  For tests and benches; not thread-safe."""
    _PROBING[0] += 1
    try:
        yield kernel_for()
    finally:
        _PROBING[0] -= 1


def kernel_for(tt_mb=DEFAULT_TT_MB, probe: bool | None = None):
    """The (cached) Cython kernel with a table of at most ``tt_mb`` MiB:
    the shipped build, or the measuring one (``probe``; default: inside
    ``probing()``)."""
    probe = probing_now() if probe is None else probe
    kind = "probe" if probe else "shipped"
    held = _KERNELS.get(kind)
    if held is not None and type(tt_mb) is int and held[0] == tt_mb:
        # the table is there: no memory to ask the machine for (reading
        # /proc/meminfo on every solve was 5% of a PIMC world's leaf solves)
        return held[1]
    mb = check_tt_mb(tt_mb)
    if held is None or held[0] != mb:
        _KERNELS.pop(kind, None)        # keep one table alive per build, not one per size
        factory: type[_dd.Kernel]
        if probe:
            # each build is loaded when first asked for: a checkout without the
            # build (DIXTRIX_PUREPYTHON) imports this module too
            from . import _ddprobe
            factory, nbytes = _ddprobe.ProbeKernel, _ddprobe.BUCKET_BYTES
        else:
            # the kernel's build, loaded when first asked for (as above)
            from . import _dd
            factory, nbytes = _dd.Kernel, _dd.BUCKET_BYTES
        _KERNELS[kind] = (mb, allocate(factory, nbytes, mb))
    return _KERNELS[kind][1]


def pure_python() -> bool:
    return os.environ.get("DIXTRIX_PUREPYTHON", "") not in ("", "0")


#: the pure-Python oracle handles positions with at most this many cards left
ORACLE_MAX_CARDS = 16


def check_max_nodes(max_nodes) -> int:
    """0 for no limit, else the validated node limit."""
    if max_nodes is None:
        return 0
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or \
            not 1 <= max_nodes <= MAX_NODES:
        raise LimitError(MAX_NODES_RANGE(top=MAX_NODES, got=Quote(max_nodes)))
    return max_nodes


#: the largest node limit accepted (a few hours of search)
MAX_NODES = 10**13


def solve_position(pos: TrickPosition, max_team=None, objective: str = "own",
                   tt_mb=DEFAULT_TT_MB, engine: str | None = None,
                   max_nodes: int | None = None) -> DDResult:
    """Value of every legal card for ``max_team`` (default: the team of
    the seat to play) under ``objective``.  ``engine`` "cython" (the
    default) or "python" (the oracle; ``DIXTRIX_PUREPYTHON=1`` makes it the
    default, for positions of at most ``ORACLE_MAX_CARDS`` cards).
    ``max_nodes``: stop past that many kernel nodes and raise
    ``SearchAborted`` (the oracle is not limited: it only takes tiny
    positions).  Runs on the default session (``solver.dd.session``): the
    table is kept while the same deal goes on; a ``Solver`` keeps it
    across anything."""
    if not isinstance(pos, TrickPosition):
        raise PositionError(NOT_TRICK_POSITION(got=Quote(pos)))
    check_tt_mb(tt_mb)
    return defaults.default_solver(tt_mb).solve_position(pos, max_team, objective, max_nodes, engine)


def decode_dix(value: int) -> tuple[int, int, int]:
    """A dix objective value -> (score difference, opponent tens - own
    tens, +1/-1 last trick)."""
    diff = (value + DIX_SCALE // 2) // DIX_SCALE
    rest = value - DIX_SCALE * diff
    last = 1 if rest % 4 == 1 else -1
    return diff, (rest - last) // 4, last


__all__ = ["Contract", "TrickPosition", "DDResult", "MaxnResult", "maxn_tables", "value_range",
           "clip_bracket",
           "bridge_contract", "contract_of", "kernel_table", "in_units", "unit_table",
           "solve_position", "decode_dix", "DIX_OBJECTIVE", "DIX_SCALE", "check_tt_mb",
           "kernel_for", "probing"]
