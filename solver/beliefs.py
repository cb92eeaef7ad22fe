"""Beliefs about the hidden cards: the worlds a seat view allows, weighed by
what the other seats chose to do (policy-based inference).

A game's world sampler draws the hidden cards uniformly among the deals the
*hard facts* allow (cards seen, voids shown, the stock, the nest:
``solver/sampler.py``).  Nothing a player chose moves those odds: a partner
who opened the auction at 100 looks like an average hand.  Here each world
is weighed by the probability, under an opponent model, of every action the
other seats took since the deal, as the strongest card programs do (Skat's
Kermit: Rebstock, Solinas, Buro and Sturtevant, "Policy Based Inference in
Trick-Taking Card Games", 2019).  One mechanism for every game:

* **rows**: a world's hidden cards as one 64-bit mask per *place*, the
  places the game's sampler lays out (an unseen hand, the nest, the
  discards, a stock slot of dix, a dix-exchange position's value as a bit).
  Every world the sampler draws is a row (``RowSampler``), and the sampler
  builds the world's ``State`` from a row, so the searches' worlds and the
  weights speak of the same cards.
* **observations** (``Observation``): each decision another seat took in
  the deal in play, as the game's opponent model describes it: whose; the
  actor's hand at the time as a function of a row (``hand_of``: the cards
  of some places, less those of others, plus and minus cards the view
  knows); the candidate actions (``Action``: when each is legal for a hand,
  and its features: some fixed by what is public, some counted on the
  hand, ``Term``); and the action taken.  The model's probability of the
  action is a softmax over the actions legal for that hand, of a linear
  score ``theta . features`` (``theta`` fitted per game and *kind* of
  decision, ``ModelParams``).
* **weights**: ``log w = alpha * sum_d log(max(p_d, floor))`` over the
  observations (``alpha`` tempers a model that is too sure of itself; the
  ``floor`` keeps every world the hard facts allow possible, whatever the
  model says).  ``Beliefs`` draws a pool of rows from the exact sampler,
  weighs them, reports the effective sample size ``(sum w)^2 / sum w^2``
  and each unseen card's probability of being with each holder, and draws
  worlds from the pool in proportion to the weights.  A seat's own cards
  are never in a row, so they are never sampled.

The scores are compiled once per view (``compile_observations``: each
action's fixed features times ``theta`` folded into one number, each
counted feature into one weighted term), so the per-world loop is popcounts
and a log-sum-exp: ``solver._beliefs`` runs it in C (``csrc/core/beliefs.pyx``)
and ``log_likelihoods`` here is its pure-Python twin (``DIXTRIX_PUREPYTHON=1``
forces it; tests/search/test_beliefs.py holds the two to the same figures).
"""

from __future__ import annotations

import json
import math
import os
import random
from abc import ABC, abstractmethod
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from typing import Any, NamedTuple

from .cardplay import (
    CARD_FEATURES,
    N_CARD_FEATURES,
    CardPlay,
    TrickRules,
    card_features,
    legal_cards,
)
from .game import WorldSampler

#: a world's weight floor per observation: the model's probability of an
#: action is never taken below this, so no world the hard facts allow
#: becomes impossible (an opponent may always have done something the model
#: finds unlikely)
DEFAULT_FLOOR = 1e-3
#: the pool of worlds drawn from the exact sampler and weighed
DEFAULT_POOL = 512


# --------------------------------------------------------------------------
# the model's description of one observed decision


@dataclass(frozen=True)
class Term:
    """One counted feature of an action: ``coef * g(popcount(hand & mask))``
    with ``g`` the count itself (``hi < 0``) or an indicator of ``lo <=
    count <= hi``; and, when ``cmask`` is not 0, only where ``clo <=
    popcount(hand & cmask) <= chi`` (else 0).  ``feature`` names the
    parameter it is multiplied by (an index into its kind's features)."""

    feature: int
    coef: float
    mask: int
    lo: int = 0
    hi: int = -1
    cmask: int = 0
    clo: int = 0
    chi: int = 0

    def value(self, hand: int) -> float:
        if self.cmask and not self.clo <= (hand & self.cmask).bit_count() <= self.chi:
            return 0.0
        n = (hand & self.mask).bit_count()
        if self.hi < 0:
            return self.coef * n
        return self.coef if self.lo <= n <= self.hi else 0.0


@dataclass(frozen=True)
class Action:
    """One candidate action of an observed decision.

    Legal for a hand when it holds ``card`` (if ``card >= 0``), holds all
    of one of the ``need`` masks (if any are given), and holds none of
    ``forbid`` (a card off the suit led is illegal while the hand can
    follow).  Its features: ``base`` (feature index, value) pairs fixed by
    what is public, and ``terms`` counted on the hand."""

    card: int = -1
    need: tuple[int, ...] = ()
    forbid: int = 0
    base: tuple[tuple[int, float], ...] = ()
    terms: tuple[Term, ...] = ()

    def legal(self, hand: int) -> bool:
        if self.card >= 0 and not hand >> self.card & 1:
            return False
        if self.need and not any(hand & m == m for m in self.need):
            return False
        return not hand & self.forbid

    def features(self, hand: int, size: int) -> list[float]:
        out = [0.0] * size
        for f, v in self.base:
            out[f] += v
        for t in self.terms:
            out[t.feature] += t.value(hand)
        return out


@dataclass(frozen=True)
class Observation:
    """A decision another seat took, as the opponent model sees it.

    ``hand_of(row)``: the actor's hand when it decided, from a world's row:
    the cards of the places ``places_in`` and ``added`` (cards the view
    places), less those of the places ``places_out`` and ``removed`` (cards
    the view rules out).  Two families: a card played in a trick (``card``: its public
    facts, ``solver.cardplay.CardPlay``; ``taken`` the card; the
    candidates are the hand's legal cards, with ``CARD_FEATURES``), or any
    other choice (``actions``: every candidate, legal or not depending on
    the hand; ``taken`` the index of the one taken).  ``kind`` names the
    parameter set (``ModelParams``); ``at`` is the action's index in the
    record."""

    seat: int
    kind: str
    taken: int
    actions: tuple[Action, ...] = ()
    card: CardPlay | None = None
    places_in: tuple[int, ...] = ()
    places_out: tuple[int, ...] = ()
    added: int = 0
    removed: int = 0
    at: int = -1

    def hand_of(self, row: Sequence[int]) -> int:
        hand = self.added
        for p in self.places_in:
            hand |= row[p]
        for p in self.places_out:
            hand &= ~row[p]
        return hand & ~self.removed


# --------------------------------------------------------------------------
# parameters


@dataclass
class ModelParams:
    """A game's fitted opponent model: per kind of decision its features'
    names and weights (``theta``), and the weighting's ``floor`` and
    ``alpha``.  ``meta`` keeps how it was made (the command and seed) and
    its held-out figures, as the data file has them.

    ``hidden`` (per kind, optional) is the learned policy's hidden layer
    over the same features: ``{"w": units rows of the kind's features,
    "b": units biases, "v": units outputs}``, adding ``v . relu(w x + b)``
    to an action's linear score where the model plays
    (``solver.search.learned``).  The beliefs weigh the worlds with the
    linear part alone: it is what the per-world loop computes, and the
    hidden layer is fitted on top of it (bots/learn.py) without moving it."""

    kinds: dict[str, dict[str, float]]
    floor: float = DEFAULT_FLOOR
    alpha: float = 1.0
    meta: dict[str, Any] = field(default_factory=dict)
    hidden: dict[str, dict[str, list]] = field(default_factory=dict)

    def theta(self, kind: str, names: Sequence[str]) -> list[float]:
        """The weights of ``kind`` in the order of ``names`` (0 for a kind
        or feature the model does not know: a flat model)."""
        got = self.kinds.get(kind, {})
        return [float(got.get(n, 0.0)) for n in names]

    @classmethod
    def flat(cls) -> ModelParams:
        """Every weight 0: each legal action equally likely."""
        return cls({})

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> ModelParams:
        return cls({k: dict(v) for k, v in doc.get("kinds", {}).items()},
                   float(doc.get("floor", DEFAULT_FLOOR)), float(doc.get("alpha", 1.0)),
                   dict(doc.get("meta", {})),
                   {k: dict(v) for k, v in doc.get("hidden", {}).items()})

    def to_json(self) -> dict[str, Any]:
        doc = {"meta": self.meta, "floor": self.floor, "alpha": self.alpha,
               "kinds": {k: dict(sorted(v.items())) for k, v in sorted(self.kinds.items())}}
        if self.hidden:
            doc["hidden"] = {k: {"w": [list(r) for r in v["w"]], "b": list(v["b"]),
                                 "v": list(v["v"])}
                             for k, v in sorted(self.hidden.items())}
        return doc


_PARAMS: dict[tuple[str, str], ModelParams] = {}


def load_params(package: str, name: str) -> ModelParams:
    """A game's fitted parameters, ``data/<name>`` of its ``package``, read
    once (flat when the file is missing: every legal action alike)."""
    key = (package, name)
    got = _PARAMS.get(key)
    if got is None:
        try:
            text = resources.files(package).joinpath("data").joinpath(name).read_text()
        except FileNotFoundError:
            got = ModelParams.flat()
        else:
            got = ModelParams.from_json(json.loads(text))
        _PARAMS[key] = got
    return got


class ObservationSet:
    """The observations of one seat view, with the features each kind
    names (``features[kind]``: the names in index order; a card kind's are
    ``CARD_FEATURES``), the trick rules its card observations refer to
    (``rules``), and the number of places of the sampler's rows."""

    def __init__(self, observations: Iterable[Observation],
                 features: Mapping[str, Sequence[str]], n_places: int,
                 rules: Sequence[TrickRules] = ()):
        self.observations = list(observations)
        self.features = {k: list(v) for k, v in features.items()}
        self.n_places = n_places
        self.rules = list(rules)
        for o in self.observations:
            if o.kind not in self.features:
                raise ValueError(f"observation of unknown kind {o.kind!r}")
            if o.card is not None:
                if not 0 <= o.card.rules < len(self.rules):
                    raise ValueError(f"observation at {o.at}: rules {o.card.rules} of "
                                     f"{len(self.rules)}")
                if tuple(self.features[o.kind]) != CARD_FEATURES:
                    raise ValueError(f"card observation at {o.at} of a kind whose features "
                                     f"are not the card features: {o.kind!r}")
            elif not 0 <= o.taken < len(o.actions):
                raise ValueError(f"observation at {o.at}: taken {o.taken} of "
                                 f"{len(o.actions)} actions")
            for p in (*o.places_in, *o.places_out):
                if not 0 <= p < n_places:
                    raise ValueError(f"observation at {o.at}: place {p} of {n_places}")

    def __len__(self) -> int:
        return len(self.observations)


# --------------------------------------------------------------------------
# compiled scores: the per-world loop's input


@dataclass
class Compiled:
    """``ObservationSet`` with ``theta`` folded in, as flat arrays (the C
    kernel's input; ``log_likelihoods_py`` reads the same arrays).

    Per observation ``d``: ``family[d]`` (0 a choice, 1 a card), its places
    ``places[place_start[d]:place_start[d + 1]]`` (``n_in[d]`` first taken
    in, the rest out), ``added[d]``, ``removed[d]``, ``taken[d]``.

    A choice: its actions ``action_start[d] .. action_start[d + 1]``
    (``taken[d]`` a global action index).  Per action ``a``: ``card[a]``,
    its needs ``needs[need_start[a]:need_start[a + 1]]``, ``forbid[a]``,
    ``base[a]`` (the fixed features' score) and its terms ``term_start[a]
    .. term_start[a + 1]``; per term ``t_weight`` (theta times coef),
    ``t_mask``, ``t_lo``, ``t_hi``, ``t_cmask``, ``t_clo``, ``t_chi``.

    A card (``taken[d]`` the card): its theta at ``theta[theta_start[d]:
    theta_start[d] + N_CARD_FEATURES]``, its rules ``c_rules[d]`` and facts
    ``c_flags[d]`` (bit 0 leading, 1 last, 2 mate, 3 follow), ``c_led``,
    ``c_winners``, ``c_out``, ``c_discard`` (masks), ``c_table`` (points on
    the table), ``c_pips``.  Per rules ``r``, 64 entries each from ``64 *
    r``: ``r_suit`` (the card's suit mask), ``r_above``, ``r_points``,
    ``r_strength``, ``r_pips``; ``MAX_PIPS`` entries from ``MAX_PIPS * r``:
    ``r_pipcards``; and ``r_trumps``, ``r_trick``, ``r_scale``,
    ``r_special``, ``r_special_value``."""

    n_obs: int
    n_places: int
    family: array
    place_start: array
    places: array
    n_in: array
    added: array
    removed: array
    taken: array
    action_start: array
    card: array
    need_start: array
    needs: array
    forbid: array
    base: array
    term_start: array
    t_weight: array
    t_mask: array
    t_lo: array
    t_hi: array
    t_cmask: array
    t_clo: array
    t_chi: array
    theta_start: array
    theta: array
    c_rules: array
    c_flags: array
    c_led: array
    c_winners: array
    c_out: array
    c_discard: array
    c_table: array
    c_pips: array
    r_suit: array
    r_above: array
    r_points: array
    r_strength: array
    r_pips: array
    r_pipcards: array
    r_trumps: array
    r_trick: array
    r_scale: array
    r_special: array
    r_special_value: array
    #: the rules themselves (what the Python twin reads; the C loop reads
    #: the arrays above, so the two agreeing checks the arrays too)
    rules: list[TrickRules] = field(default_factory=list)

    #: each array's type code (``array``): i int32, Q uint64, d double
    TYPES = ("family i place_start i places i n_in i added Q removed Q taken i "
             "action_start i card i need_start i needs Q forbid Q base d term_start i "
             "t_weight d t_mask Q t_lo i t_hi i t_cmask Q t_clo i t_chi i theta_start i "
             "theta d c_rules i c_flags i c_led Q c_winners Q c_out Q c_discard Q "
             "c_table d c_pips i r_suit Q r_above Q r_points d r_strength i r_pips i "
             "r_pipcards Q r_trumps Q r_trick d r_scale d r_special i r_special_value d")

    @classmethod
    def empty(cls, n_obs: int, n_places: int) -> Compiled:
        """Every array empty, of its type."""
        words = cls.TYPES.split()
        c = cls.__new__(cls)
        c.n_obs, c.n_places, c.rules = n_obs, n_places, []
        for name, code in zip(words[::2], words[1::2], strict=True):
            setattr(c, name, array(code))
        return c


def compile_observations(obs: ObservationSet, params: ModelParams) -> Compiled:
    """Fold ``params`` into ``obs``: the arrays the per-world loop reads."""
    c = Compiled.empty(len(obs), obs.n_places)
    c.place_start.append(0)
    c.action_start.append(0)
    c.need_start.append(0)
    c.term_start.append(0)
    thetas = {k: params.theta(k, names) for k, names in obs.features.items()}
    c.rules = list(obs.rules)
    for r in obs.rules:
        c.r_suit.extend(r.suit_masks)
        c.r_above.extend(r.above)
        c.r_points.extend(float(x) for x in r.points)
        c.r_strength.extend(r.strength)
        c.r_pips.extend(r.pips)
        c.r_pipcards.extend(r.pip_cards)
        c.r_trumps.append(r.trumps)
        c.r_trick.append(float(r.trick_value))
        c.r_scale.append(float(r.scale or 1.0))
        c.r_special.append(r.special_sum)
        c.r_special_value.append(float(r.special_value))
    for o in obs.observations:
        theta = thetas[o.kind]
        c.places.extend(o.places_in)
        c.places.extend(o.places_out)
        c.place_start.append(len(c.places))
        c.n_in.append(len(o.places_in))
        c.added.append(o.added)
        c.removed.append(o.removed)
        play = o.card
        c.family.append(0 if play is None else 1)
        c.theta_start.append(len(c.theta))
        if play is not None:
            c.theta.extend(theta)
            c.taken.append(o.taken)
            c.c_rules.append(play.rules)
            c.c_flags.append(int(play.leading) | int(play.last) << 1 | int(play.mate) << 2 |
                             int(play.follow) << 3)
            c.c_led.append(play.led)
            c.c_winners.append(play.winners)
            c.c_out.append(play.out)
            c.c_discard.append(play.must_discard)
            c.c_table.append(float(play.on_table))
            c.c_pips.append(play.pip_sum)
            c.action_start.append(len(c.card))
            continue
        for arr, v in ((c.c_rules, 0), (c.c_flags, 0), (c.c_led, 0), (c.c_winners, 0),
                       (c.c_out, 0), (c.c_discard, 0), (c.c_table, 0.0), (c.c_pips, 0)):
            arr.append(v)
        c.taken.append(len(c.card) + o.taken)
        for a in o.actions:
            c.card.append(a.card)
            c.needs.extend(a.need)
            c.need_start.append(len(c.needs))
            c.forbid.append(a.forbid)
            c.base.append(math.fsum(theta[f] * v for f, v in a.base))
            for t in a.terms:
                w = theta[t.feature] * t.coef
                if w == 0.0:
                    continue
                c.t_weight.append(w)
                c.t_mask.append(t.mask)
                c.t_lo.append(t.lo)
                c.t_hi.append(t.hi)
                c.t_cmask.append(t.cmask)
                c.t_clo.append(t.clo)
                c.t_chi.append(t.chi)
            c.term_start.append(len(c.t_weight))
        c.action_start.append(len(c.card))
    return c


def _native():
    """``solver._beliefs`` (the C loop), or None without the build or under
    DIXTRIX_PUREPYTHON."""
    if os.environ.get("DIXTRIX_PUREPYTHON", "") not in ("", "0"):
        return None
    try:
        from . import _beliefs  # the compiled loop: absent without the build
    except ImportError:  # pragma: no cover - without a build
        return None
    return _beliefs


def _compiled_play(c: Compiled, d: int) -> CardPlay:
    f = c.c_flags[d]
    return CardPlay(c.c_rules[d], bool(f & 1), bool(f & 2), c.c_led[d], c.c_winners[d],
                    bool(f & 4), c.c_table[d], c.c_pips[d], c.c_out[d], bool(f & 8),
                    c.c_discard[d])


def action_probability(c: Compiled, d: int, hand: int) -> float:
    """The model's probability that observation ``d``'s actor, holding
    ``hand``, took the action it took (0 when that action is not legal for
    ``hand``)."""
    scores = []
    taken_score = None
    if c.family[d] == 1:
        play = _compiled_play(c, d)
        rules = c.rules[play.rules]
        theta = c.theta[c.theta_start[d]:c.theta_start[d] + N_CARD_FEATURES]
        m = legal_cards(play, hand)
        while m:
            low = m & -m
            card = low.bit_length() - 1
            m ^= low
            f = card_features(rules, play, hand, card)
            s = 0.0
            for k in range(N_CARD_FEATURES):
                s += theta[k] * f[k]
            scores.append(s)
            if card == c.taken[d]:
                taken_score = s
    else:
        for a in range(c.action_start[d], c.action_start[d + 1]):
            card = c.card[a]
            if card >= 0 and not hand >> card & 1:
                continue
            n0, n1 = c.need_start[a], c.need_start[a + 1]
            if n1 > n0 and not any(hand & m == m for m in c.needs[n0:n1]):
                continue
            if hand & c.forbid[a]:
                continue
            s = c.base[a]
            for t in range(c.term_start[a], c.term_start[a + 1]):
                cm = c.t_cmask[t]
                if cm and not c.t_clo[t] <= (hand & cm).bit_count() <= c.t_chi[t]:
                    continue
                n = (hand & c.t_mask[t]).bit_count()
                if c.t_hi[t] < 0:
                    s += c.t_weight[t] * n
                elif c.t_lo[t] <= n <= c.t_hi[t]:
                    s += c.t_weight[t]
            scores.append(s)
            if a == c.taken[d]:
                taken_score = s
    if taken_score is None:
        return 0.0
    top = max(scores)
    z = 0.0
    for s in scores:
        z += math.exp(s - top)
    return math.exp(taken_score - top) / z


def compiled_hand(c: Compiled, d: int, row: Sequence[int]) -> int:
    """Observation ``d``'s actor's hand in the world ``row``."""
    p0, p1 = c.place_start[d], c.place_start[d + 1]
    hand = c.added[d]
    for p in c.places[p0:p0 + c.n_in[d]]:
        hand |= row[p]
    for p in c.places[p0 + c.n_in[d]:p1]:
        hand &= ~row[p]
    return hand & ~c.removed[d]


def log_likelihoods(c: Compiled, rows: Sequence[int], floor: float, alpha: float) -> list[float]:
    """Each world's log-weight, ``alpha * sum_d log(max(p_d, floor))``;
    ``rows``: the worlds' rows one after the other (``c.n_places`` masks a
    world).  In C (``solver._beliefs``) when built."""
    native = _native()
    if native is not None:
        return native.log_likelihoods(c, rows, floor, alpha)
    return log_likelihoods_py(c, rows, floor, alpha)


def log_likelihoods_py(c: Compiled, rows: Sequence[int], floor: float,
                       alpha: float) -> list[float]:
    """``log_likelihoods`` in Python (the reference the C loop is held to)."""
    P = c.n_places
    n = len(rows) // P if P else 0
    out = []
    lf = math.log(floor)
    for i in range(n):
        row = rows[i * P:(i + 1) * P]
        total = 0.0
        for d in range(c.n_obs):
            p = action_probability(c, d, compiled_hand(c, d, row))
            total += math.log(p) if p > floor else lf
        out.append(alpha * total)
    return out


def observation_features(obs: ObservationSet, o: Observation,
                         hand: int) -> tuple[list[int], list[list[float]], int]:
    """What the fit reads: the actions legal for ``hand`` (cards, or
    indices into ``o.actions``), each one's features in the order of its
    kind's names, and the position of the action taken among them (-1 when
    it is not legal for ``hand``)."""
    size = len(obs.features[o.kind])
    if o.card is not None:
        rules = obs.rules[o.card.rules]
        legal = []
        m = legal_cards(o.card, hand)
        while m:
            low = m & -m
            legal.append(low.bit_length() - 1)
            m ^= low
        rows = [card_features(rules, o.card, hand, c) for c in legal]
    else:
        legal = [i for i, a in enumerate(o.actions) if a.legal(hand)]
        rows = [o.actions[i].features(hand, size) for i in legal]
    taken = legal.index(o.taken) if o.taken in legal else -1
    return legal, rows, taken


# --------------------------------------------------------------------------
# a game's opponent model


class RulesTable:
    """The trick rules an observation set's card decisions refer to, each
    once (``index`` gives a rule's position, adding it when new)."""

    def __init__(self) -> None:
        self.rules: list[TrickRules] = []
        self._at: dict[TrickRules, int] = {}

    def index(self, rules: TrickRules) -> int:
        at = self._at.get(rules)
        if at is None:
            at = self._at[rules] = len(self.rules)
            self.rules.append(rules)
        return at


class OpponentModel:
    """What a game provides the beliefs: how each decision of the game looks
    to the model, and how a seat's hand at a decision reads from a row of
    the game's sampler.  Each game's ``model.py`` subclasses it; the
    generic parts (``observations``, ``example``) are here.

    * ``features``: per kind of decision, its features' names;
    * ``decision(state, action, table)``: the public description of the
      decision ``action`` of the seat to move in ``state`` (an
      ``Observation`` without places: kind, candidates or card facts, the
      action taken), or None for a decision that tells nothing (one
      possible action whatever the hand, or a kind the model leaves out);
    * ``hand(state, seat)``: the seat's cards in a complete ``state`` (what
      the decision was made with; the fit reads it);
    * ``places(sampler, state, seat)``: that hand as a function of a row of
      ``sampler`` (a ``HandPlaces``), or None when the decision was made
      with cards the sampler does not draw (an earlier deal, a hand
      redealt since): the sampler's answer (``RowSampler.hand_places``),
      since only the sampler knows what its places hold; a model reads
      nothing else of a sampler but its public ``RowSampler`` contract.
    """

    features: dict[str, tuple[str, ...]] = {}
    #: the name of the data file of its fitted parameters, in the ``data``
    #: folder of the model's package
    data: str = ""

    def params(self) -> ModelParams:
        """The fitted parameters (``load_params``: flat without a file)."""
        return load_params(type(self).__module__.rpartition(".")[0], self.data)

    def decision(self, state: Any, action: int, table: RulesTable) -> Observation | None:
        raise NotImplementedError  # pragma: no cover - abstract

    def hand(self, state: Any, seat: int) -> int:
        raise NotImplementedError  # pragma: no cover - abstract

    def places(self, sampler: RowSampler, state: Any, seat: int) -> HandPlaces | None:
        return sampler.hand_places(state, seat)

    def card_kinds(self, state: Any) -> tuple[TrickRules, tuple[tuple[str, str], ...]] | None:
        """For the searches' learned card policy (``solver.search.learned``):
        the trick rules of the card play in progress in ``state`` and, for
        each phase the game's search kernel tells apart (dix: with a stock
        to draw, then without), the kinds of a lead and of a follow; None
        where ``state`` is not in card play or the model has none."""
        return None

    def observations(self, sampler: RowSampler) -> ObservationSet:
        """Every decision the other seats took in the deal in play, as seen
        from ``sampler``'s view (its ``base`` is a world consistent with the
        view: only its public facts are read)."""
        table = RulesTable()
        out = []
        seat = sampler.seat
        for k, (state, action) in enumerate(sampler.base.deal_steps()):
            actor = state.current_player()
            if actor == seat or actor < 0:
                continue
            where = self.places(sampler, state, actor)
            if where is None:
                continue
            o = self.decision(state, action, table)
            if o is None:
                continue
            out.append(Observation(actor, o.kind, o.taken, o.actions, o.card, where[0],
                                   where[1], where[2], where[3], k))
        return ObservationSet(out, self.features, sampler.n_places, table.rules)

    def example(self, state: Any, action: int,
                table: RulesTable) -> tuple[Observation, int] | None:
        """For the fit: the decision of the seat to move in a complete
        ``state`` with the hand it was made with."""
        o = self.decision(state, action, table)
        if o is None:
            return None
        return o, self.hand(state, state.current_player())


# --------------------------------------------------------------------------
# samplers that draw rows


class HandPlaces(NamedTuple):
    """A seat's hand at one of its decisions as a function of a row
    (``RowSampler.hand_places``; ``Observation.hand_of`` reads it): the
    cards of the places ``places_in`` and ``added`` (cards the view knows
    it held then), less those of the places ``places_out`` and ``removed``
    (cards the view knows it did not hold)."""

    places_in: tuple[int, ...]
    places_out: tuple[int, ...] = ()
    added: int = 0
    removed: int = 0


class RowSampler(ABC):
    """What a world sampler offers the beliefs (mixed into the games'
    samplers): ``seat`` and ``base`` (the view's seat, and a world of the
    view: its public facts are the view's); ``n_places``;
    ``draw_rows(n, seed)`` (``n`` uniform worlds' rows, flat, as
    ``array('Q')``); ``world_from_row(row, rng)`` (the world a row stands
    for); ``hand_places(state, seat)`` (a seat's hand at one of its
    decisions as places of a row: what the opponent models read);
    ``place_holders()`` (for display: each place's holder) and ``unseen()``
    (the cards whose holder the view does not know now).  This and
    ``WorldSampler`` are all of a sampler that the opponent models, the
    beliefs and the searches read (tests/test_layers.py holds every module
    outside the sampler's game package, and the game's own model, to it).
    A sampler that is not a ``RowSampler`` is searched without beliefs."""

    #: the seat whose view the sampler completes
    seat: int
    #: a world of the view (its hidden cards a completion, never the true
    #: ones): only its public facts are read (``OpponentModel.observations``
    #: replays its deal in play, ``base.deal_steps()``)
    base: Any
    n_places: int = 0
    #: what a row's bit stands for: a ``"card"``, or a card ``"value"``
    #: (dix-exchange: the other seats' cards are known by their values)
    item_kind = "card"

    @abstractmethod
    def draw_rows(self, n: int, seed: int) -> array:
        """``n`` worlds drawn uniformly among those the view allows, as rows
        (the same seed gives the same rows)."""

    @abstractmethod
    def world_from_row(self, row: Sequence[int], rng: random.Random) -> Any:
        """The complete state of the world ``row`` describes; ``rng`` for
        what a row leaves open (a tie cut's stream, the order of hidden
        discards)."""

    @abstractmethod
    def hand_places(self, state: Any, seat: int) -> HandPlaces | None:
        """The hand ``seat`` decided with in ``state`` (a state of the deal
        in play at that decision, as ``base.deal_steps()`` gives it, or
        the same step of any world of the view) as places of a row; None
        when no place holds it (a decision of an earlier hand, a hand
        redealt since, a card nobody sees again, a deal with nothing left
        to draw)."""

    @abstractmethod
    def place_holders(self) -> list[int | str | None]:
        """Each place's holder now: a seat, or a name (``"stock"``,
        ``"nest"``, ``"discards"``), or None for a place that is nobody's
        (a nest already split off): the beliefs add up the places of one
        holder."""

    @abstractmethod
    def unseen(self) -> int:
        """The cards whose holder the view does not know now (the cards
        the beliefs report on; a card played is seen)."""

    @abstractmethod
    def row_of(self, state: Any) -> list[int]:
        """The row of ``state``, a complete world consistent with the view
        (the true deal: measurements and tests)."""

    @abstractmethod
    def item_name(self, index: int) -> str:
        """The notation of the card (dix-exchange: the value) a row's bit
        ``index`` stands for."""

    def item_group(self, index: int) -> str | None:
        """The group a report lists the item of bit ``index`` under: its
        suit's name (``"spades"``, a Rook colour, ``"joker"``); None where
        the items have no suits (dix-exchange's values)."""
        return None

    def exact_marginals(self) -> dict[int, dict[int | str, Fraction]] | None:
        """Every unseen card's exact probability of being with each holder
        (``place_holders``' names), every world the view allows alike: the
        count the draws are uniform over, not a sample of it; None where
        the game does not count them (its report then gives the pool's
        shares and their sampling error)."""
        return None


# --------------------------------------------------------------------------
# the beliefs of one view


class Beliefs:
    """A pool of worlds drawn uniformly from a view's exact sampler,
    weighed by the opponent model.

    ``rows`` (flat, ``n_places`` masks a world), ``logw`` (each world's
    log-weight), ``weights`` (normalised), ``ess`` (the effective sample
    size, ``(sum w)^2 / sum w^2``: the pool size when nothing was
    observed), ``observations`` (how many decisions were weighed).
    ``draw(rng)`` picks a world's index in proportion to its weight;
    ``marginals()`` gives each card's probability of being with each
    holder."""

    def __init__(self, sampler: RowSampler, rows: array, logw: Sequence[float],
                 observations: int):
        self.sampler = sampler
        self.n_places = sampler.n_places
        self.rows = rows
        self.n = len(rows) // self.n_places if self.n_places else 0
        self.logw = list(logw)
        self.observations = observations
        top = max(self.logw) if self.logw else 0.0
        w = [math.exp(x - top) for x in self.logw]
        total = math.fsum(w)
        self.weights = [x / total for x in w] if total > 0 else [1.0 / self.n] * self.n
        self.ess = 1.0 / math.fsum(x * x for x in self.weights) if self.n else 0.0
        self.cum = array("d")
        acc = 0.0
        for x in self.weights:
            acc += x
            self.cum.append(acc)
        if self.n:
            self.cum[-1] = 1.0

    def row(self, i: int) -> Sequence[int]:
        return self.rows[i * self.n_places:(i + 1) * self.n_places]

    def draw(self, rng: random.Random) -> int:
        """A world's index, in proportion to the weights."""
        u = rng.random()
        lo, hi = 0, self.n - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if self.cum[mid] > u:
                hi = mid
            else:
                lo = mid + 1
        return lo

    def marginals(self) -> dict[int, dict[int | str, float]]:
        """``{card: {holder: probability}}`` over the pool's weighed worlds,
        for every unseen card (``RowSampler.unseen``; holders as
        ``place_holders`` names them)."""
        names = self.sampler.place_holders()
        unseen = self.sampler.unseen()
        out: dict[int, dict[int | str, float]] = {}
        for i in range(self.n):
            w = self.weights[i]
            base = i * self.n_places
            for p, name in enumerate(names):
                if name is None:
                    continue
                m = self.rows[base + p] & unseen
                while m:
                    low = m & -m
                    card = low.bit_length() - 1
                    m ^= low
                    cell = out.setdefault(card, {})
                    cell[name] = cell.get(name, 0.0) + w
        return out


def weigh(sampler: RowSampler, obs: ObservationSet | None, params: ModelParams | None,
          n: int = DEFAULT_POOL, seed: int = 0) -> Beliefs:
    """The beliefs of a view: ``n`` worlds drawn by ``sampler`` (seeded by
    ``seed``) weighed by ``obs`` under ``params`` (no observations or no
    params: every world alike, the uniform beliefs of the sampler)."""
    rows = sampler.draw_rows(n, seed)
    if obs is None or params is None or not len(obs):
        return Beliefs(sampler, rows, [0.0] * (len(rows) // max(1, sampler.n_places)), 0)
    compiled = compile_observations(obs, params)
    logw = log_likelihoods(compiled, rows, params.floor, params.alpha)
    return Beliefs(sampler, rows, logw, len(obs))


class BeliefWorlds(WorldSampler):
    """A ``WorldSampler`` over a ``Beliefs`` pool: each ``sample(rng)`` is a
    world drawn in proportion to its weight (the searches that take a
    sampler: PIMC, ``evaluate``, the Python ISMCTS)."""

    def __init__(self, beliefs: Beliefs):
        self.beliefs = beliefs

    def sample(self, rng: random.Random) -> Any:
        b = self.beliefs
        return b.sampler.world_from_row(b.row(b.draw(rng)), rng)

    def worlds(self) -> int | None:
        return None


__all__ = ["Action", "Beliefs", "BeliefWorlds", "CardPlay", "Compiled", "DEFAULT_FLOOR",
           "DEFAULT_POOL", "ModelParams", "Observation", "ObservationSet", "OpponentModel",
           "HandPlaces", "RowSampler", "RulesTable", "Term", "load_params",
           "TrickRules", "action_probability", "compile_observations", "log_likelihoods",
           "observation_features", "weigh"]
