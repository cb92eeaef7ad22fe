"""Exact uniform sampling of hidden cards under interval constraints.

The model (it fits any game where one hidden holder acquires cards over
time, as dix's opponent does from the deal and the stock):

* **slots** come in groups, each with a *time* and a size: the opponent's
  initial hand is ``(0, 13)``, the card it drew after trick ``k`` is
  ``(k, 1)``, the stock places nobody has drawn yet are ``(INF, m)``;
* each hidden **card** has an interval ``[lo, hi]`` of the slot times it may
  sit in.  A card the opponent played at trick ``p`` has ``hi = p - 1``
  (acquired before it was played); a card never played has ``hi = INF``.
  A failure to follow suit ``s`` at trick ``t`` means no card of ``s`` was
  in the hand at ``t``: ``lo >= t`` for every such card still in play then.

A *world* is a bijection from cards to slots respecting every interval.
``IntervalSampler`` counts the worlds exactly and draws them uniformly.

How: slots are visited from the latest time down to the earliest.  A card
*enters* when the visit reaches its ``hi`` and *expires* below its ``lo``.
Entered cards with the same ``lo`` are interchangeable from then on, so the
state of the count is the slot index and, per distinct ``lo`` ("class"),
how many of its entered cards are placed.  ``f(i, placed)`` = number of ways
to fill slots ``i..`` is memoized; a draw walks the slots choosing class
``e`` with probability ``unplaced_e * f(i+1, placed+e) / f(i, placed)`` and
then a uniform unplaced card of that class.  Exact, no rejection, and an
inconsistent set of constraints is reported (count 0), never a hang.

For speed the memoized count is *compiled* (``IntervalSampler.compiled``)
into a flat graph: one node per reachable ``(slot, placed)`` state, its
edges (class, cumulative probability, next node).  Walking it is a few
array reads per slot; ``csrc/core/sampler.pyx`` (``solver._sampler``) walks it
in C, ``CompiledSampler.sample_py`` is the pure-Python twin
(``DIXTRIX_PUREPYTHON=1`` forces it).  The compiled probabilities are
doubles: exact up to rounding in the 16th digit.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

from .front import N_
from .said import Said, phrase

INF = 1 << 30

# why no world fits (solver/errors.py: a code and its parameters), said
# inside the view's error
HIDDEN_PLACES = phrase("hidden_places", N_("{cards} hidden cards for {places} hidden places"))
CARD_NO_PLACE = phrase("card_no_place", N_("card {card} has no possible place"))
CARD_NOBODY = phrase("card_nobody", N_("card {card} can be with nobody"))
NO_PLACEMENT = phrase("no_placement", N_("no placement of the hidden cards is consistent"))


@dataclass(frozen=True)
class SlotGroup:
    time: int
    size: int
    label: object = None


class InconsistentConstraints(ValueError):
    """No bijection respects the intervals (the caller turns it into a
    PositionError naming the view, ``said`` inside it)."""

    def __init__(self, said: Said):
        super().__init__(said.english())
        self.said = said


class IntervalSampler:
    """Count and uniformly sample card -> slot bijections.

    ``groups``: list of ``SlotGroup``; ``cards``: list of ``(card, lo, hi)``.
    ``sample(rng)`` returns a list, one entry per group, of the cards placed
    in that group's slots in slot order."""

    def __init__(self, groups, cards):
        self.groups = list(groups)
        total = sum(g.size for g in self.groups)
        if total != len(cards):
            raise InconsistentConstraints(HIDDEN_PLACES(cards=len(cards), places=total))
        # slots, latest time first (stable within equal times)
        order = sorted(range(len(self.groups)), key=lambda k: -self.groups[k].time)
        self.slots = []                                # (time, group index, offset)
        for k in order:
            g = self.groups[k]
            for j in range(g.size):
                self.slots.append((g.time, k, j))
        los = sorted({lo for (_, lo, _) in cards})
        self.class_lo = los
        cls_of = {lo: i for i, lo in enumerate(los)}
        self.cards = list(cards)
        # cards entering at each slot index, per class
        n_slots = len(self.slots)
        self.enter: list[list[tuple[int, int]]] = [[] for _ in range(n_slots)]  # (class, card)
        for (card, lo, hi) in self.cards:
            e = cls_of[lo]
            idx = next((i for i, (t, _, _) in enumerate(self.slots) if t <= hi), None)
            if idx is None or lo > hi:
                raise InconsistentConstraints(CARD_NO_PLACE(card=card))
            self.enter[idx].append((e, card))
        # entered counts per class after processing entries of slot i
        n_cls = len(los)
        self.entered = []
        acc = [0] * n_cls
        for i in range(n_slots):
            for (e, _) in self.enter[i]:
                acc[e] += 1
            self.entered.append(tuple(acc))
        self._memo: dict = {}       # recursion depth <= number of slots (<= 53)
        self.count = self._f(0, (0,) * n_cls)
        if self.count == 0:
            raise InconsistentConstraints(NO_PLACEMENT())

    def _alive(self, i, placed) -> bool:
        """Every class that expires before slot ``i``'s time is fully placed."""
        if i >= len(self.slots):
            return True
        t = self.slots[i][0]
        ent = self.entered[i - 1] if i > 0 else (0,) * len(placed)
        for e, lo in enumerate(self.class_lo):
            if lo > t and placed[e] != ent[e]:
                return False
        return True

    def _moves(self, i, placed):
        """The classes slot ``i`` can take a card from, after ``placed``:
        ``(class, next placed, weight)``, weight = free cards of the class x
        the completions that follow."""
        t = self.slots[i][0]
        ent = self.entered[i]
        for e, lo in enumerate(self.class_lo):
            free = ent[e] - placed[e]
            if free <= 0 or lo > t:
                continue
            nxt = placed[:e] + (placed[e] + 1,) + placed[e + 1:]
            if not self._alive(i + 1, nxt):
                continue
            w = free * self._f(i + 1, nxt)
            if w:
                yield e, nxt, w

    def _f(self, i, placed) -> int:
        if i == len(self.slots):
            return 1 if placed == self.entered[-1] else 0
        key = (i, placed)
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = sum(w for _, _, w in self._moves(i, placed))
        return hit

    def sample(self, rng: random.Random) -> list:
        out = [[None] * g.size for g in self.groups]
        pools: list[list[int]] = [[] for _ in self.class_lo]
        placed = (0,) * len(self.class_lo)
        for i, (_t, k, j) in enumerate(self.slots):
            for (e, card) in self.enter[i]:
                pools[e].append(card)
            r = rng.randrange(self._f(i, placed))
            for e, nxt, w in self._moves(i, placed):
                if r < w:
                    pool = pools[e]
                    pick = rng.randrange(len(pool))
                    pool[pick], pool[-1] = pool[-1], pool[pick]
                    out[k][j] = pool.pop()
                    placed = nxt
                    break
                r -= w
        return out

    def late_share(self, time: int) -> dict[Any, Fraction]:
        """Each card's exact probability of sitting in a slot of ``time``
        or later (``INF``: a place nobody drew), every world alike: the
        worlds with its ``lo`` raised to ``time``, counted, over all of
        them.  Cards with the same interval share the answer (one count
        for each interval)."""
        by_interval: dict[tuple[int, int], Fraction] = {}
        out: dict[Any, Fraction] = {}
        for k, (card, lo, hi) in enumerate(self.cards):
            got = by_interval.get((lo, hi))
            if got is None:
                ways = 0
                if hi >= time:
                    moved = self.cards[:k] + [(card, max(lo, time), hi)] + self.cards[k + 1:]
                    try:
                        ways = IntervalSampler(self.groups, moved).count
                    except InconsistentConstraints:
                        ways = 0
                got = by_interval[(lo, hi)] = Fraction(ways, self.count)
            out[card] = got
        return out

    # ------------------------------------------------------------------
    @property
    def compiled(self) -> CompiledSampler:
        """The count compiled to a flat graph (built once)."""
        if getattr(self, "_compiled", None) is None:
            self._compiled = CompiledSampler(self)
        return self._compiled


class CompiledSampler:
    """Flat arrays of an ``IntervalSampler``'s reachable states.

    ``slot_group[i], slot_offset[i]``: where slot ``i`` (in visit order) is;
    ``enter_start/enter_class/enter_card``: cards entering at each slot;
    ``edge_start[node] .. edge_start[node+1]``: a node's edges, each
    ``edge_class``, ``edge_cum`` (cumulative probability) and ``edge_next``.
    The node of slot ``i`` is reached after ``i`` placements; node 0 is the
    root."""

    def __init__(self, sampler: IntervalSampler):
        self.n_slots = len(sampler.slots)
        self.n_classes = len(sampler.class_lo)
        self.group_sizes = [g.size for g in sampler.groups]
        self.slot_group = [k for (_, k, _) in sampler.slots]
        self.slot_offset = [j for (_, _, j) in sampler.slots]
        self.enter_start, self.enter_class, self.enter_card = [0], [], []
        for i in range(self.n_slots):
            for (e, card) in sampler.enter[i]:
                self.enter_class.append(e)
                self.enter_card.append(card)
            self.enter_start.append(len(self.enter_class))
        ids = {(0, (0,) * self.n_classes): 0}
        frontier = [(0, (0,) * self.n_classes)]
        edge_start: list[int] = []
        edge_class: list[int] = []
        edge_cum: list[float] = []
        edge_next: list[int] = []
        k = 0
        while k < len(frontier):
            i, placed = frontier[k]
            k += 1
            edge_start.append(len(edge_class))
            if i == self.n_slots:
                continue
            here = sampler._f(i, placed)
            acc = 0
            for e, nxt, w in sampler._moves(i, placed):
                acc += w
                key = (i + 1, nxt)
                if key not in ids:
                    ids[key] = len(frontier)
                    frontier.append(key)
                edge_class.append(e)
                edge_cum.append(acc / here)
                edge_next.append(ids[key])
            edge_cum[-1] = 1.0             # guard against rounding
        edge_start.append(len(edge_class))
        self.edge_start, self.edge_class = edge_start, edge_class
        self.edge_cum, self.edge_next = edge_cum, edge_next
        self.n_nodes = len(frontier)
        self._native = None
        if not _PURE:
            try:
                from . import _sampler  # the compiled walker: absent without the build
                self._native = _sampler.Walker(self)
            except ImportError:   # pragma: no cover - without a build
                self._native = None

    @property
    def implementation(self) -> str:
        return "cython" if self._native is not None else "python"

    def sample_slots(self, rng: random.Random) -> list:
        """The card of every slot, in visit order (one uniform world)."""
        if self._native is not None:
            return self._native.walk(rng.getrandbits(64))
        return self.sample_py(rng)

    def sample_py(self, rng: random.Random) -> list:
        out = []
        pools: list[list[int]] = [[] for _ in range(self.n_classes)]
        node = 0
        for i in range(self.n_slots):
            for x in range(self.enter_start[i], self.enter_start[i + 1]):
                pools[self.enter_class[x]].append(self.enter_card[x])
            u = rng.random()
            x = self.edge_start[node]
            while self.edge_cum[x] <= u and x + 1 < self.edge_start[node + 1]:
                x += 1
            pool = pools[self.edge_class[x]]
            pick = rng.randrange(len(pool))
            pool[pick], pool[-1] = pool[-1], pool[pick]
            out.append(pool.pop())
            node = self.edge_next[x]
        return out

    def sample(self, rng: random.Random) -> list:
        """Like ``IntervalSampler.sample``: cards per group, in slot order."""
        flat = self.sample_slots(rng)
        out = [[None] * n for n in self.group_sizes]
        for i, card in enumerate(flat):
            out[self.slot_group[i]][self.slot_offset[i]] = card
        return out


_PURE = os.environ.get("DIXTRIX_PUREPYTHON", "") not in ("", "0")


def compiled_walker(name: str, compiled: Any) -> Any:
    """The C walker ``solver._sampler.<name>`` (``Walker``, ``HolderWalker``,
    ``ColumnWalker``) of a compiled graph, or False without the build or
    under DIXTRIX_PUREPYTHON (the graph's ``sample_py`` then draws)."""
    if _PURE:
        return False
    try:
        from . import _sampler  # the compiled walker: absent without the build
    except ImportError:   # pragma: no cover - without a build
        return False
    return getattr(_sampler, name)(compiled)


# ----------------------------------------------------------------------
# several holders with fixed hands (trix, tricks, dixie-rook)

def _card_types(capacities, cards) -> tuple:
    """``(capacities, holders, types, cards_of)``: the hidden cards grouped
    by the set of holders allowed to take them (a bit mask, the "type"),
    types ascending; ``InconsistentConstraints`` when the counts disagree or
    a card can be with nobody.  Shared by the holder and column samplers."""
    capacities = tuple(capacities)
    n = len(capacities)
    if sum(capacities) != len(cards):
        raise InconsistentConstraints(HIDDEN_PLACES(cards=len(cards), places=sum(capacities)))
    by_type: dict[int, list] = {}
    for card, allowed in cards:
        allowed &= (1 << n) - 1
        if allowed == 0:
            raise InconsistentConstraints(CARD_NOBODY(card=card))
        by_type.setdefault(allowed, []).append(card)
    types = sorted(by_type)
    return capacities, n, types, [by_type[t] for t in types]


def _type_marginals(counter: Any, capacities: tuple, types: list, cards_of: list,
                    count: int) -> dict[Any, tuple[Fraction, ...]]:
    """Each card's exact probability of being with each holder, every
    assignment alike: the assignments with one card of a type given to a
    holder are those of the others with that holder's capacity one less
    (``counter``: the sampler class that counts them), over ``count``.
    Cards of one type share the answer."""
    out: dict[Any, tuple[Fraction, ...]] = {}
    every = [(c, types[k]) for k, cards in enumerate(cards_of) for c in cards]
    for k, mask in enumerate(types):
        probs = []
        for h in range(len(capacities)):
            ways = 0
            if mask >> h & 1 and capacities[h] > 0:
                caps = capacities[:h] + (capacities[h] - 1,) + capacities[h + 1:]
                rest = list(every)
                rest.remove((cards_of[k][0], mask))
                try:
                    ways = counter(caps, rest).count
                except InconsistentConstraints:
                    ways = 0
            probs.append(Fraction(ways, count))
        for card in cards_of[k]:
            out[card] = tuple(probs)
    return out


class HolderSampler:
    """Uniform assignments of hidden cards to holders with fixed sizes.

    ``capacities[h]``: how many hidden cards holder ``h`` has (a seat's
    unseen hand, a nest); ``cards``: ``(card, allowed)`` with ``allowed`` a
    bitmask of the holders the card may be with (a void or a layout pass
    removes a seat).  Every assignment respecting both is equally likely.

    Cards with the same ``allowed`` set are interchangeable, so the count is
    a sum over how many of each type each holder gets: ``f(type, caps)``,
    memoized over the remaining capacities; a draw walks the types choosing
    the split of each with probability proportional to its multinomial times
    the count of the rest, then a uniform subset of the type's cards per
    holder.  Exact big-integer arithmetic; no rejection."""

    def __init__(self, capacities, cards):
        self.capacities, self.n, self.types, self.cards_of = _card_types(capacities, cards)
        self._memo: dict = {}
        self.count = self._f(0, self.capacities)
        if self.count == 0:
            raise InconsistentConstraints(NO_PLACEMENT())

    def _splits(self, k: int, caps):
        """Every way to split ``k`` cards of type ``self.types[k]`` among its
        holders within ``caps``: (counts per holder, multinomial)."""
        allowed = [h for h in range(self.n) if self.types[k] >> h & 1]
        total = len(self.cards_of[k])
        out = []

        def rec(i, left, counts, ways):
            if i == len(allowed) - 1:
                h = allowed[i]
                if left <= caps[h]:
                    c = list(counts)
                    c[h] = left
                    out.append((tuple(c), ways))
                return
            h = allowed[i]
            for x in range(min(left, caps[h]) + 1):
                c = list(counts)
                c[h] = x
                rec(i + 1, left - x, c, ways * comb(left, x))

        rec(0, total, [0] * self.n, 1)
        return out

    def _f(self, k: int, caps) -> int:
        if k == len(self.types):
            return 1 if not any(caps) else 0
        key = (k, caps)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        total = 0
        for counts, ways in self._splits(k, caps):
            rest = tuple(c - x for c, x in zip(caps, counts, strict=True))
            total += ways * self._f(k + 1, rest)
        self._memo[key] = total
        return total

    def sample(self, rng: random.Random) -> list:
        """A list per holder of the cards it gets."""
        out: list[list[int]] = [[] for _ in range(self.n)]
        caps = self.capacities
        for k in range(len(self.types)):
            r = rng.randrange(self._f(k, caps))
            for counts, ways in self._splits(k, caps):
                rest = tuple(c - x for c, x in zip(caps, counts, strict=True))
                w = ways * self._f(k + 1, rest)
                if r < w:
                    cards = list(self.cards_of[k])
                    rng.shuffle(cards)
                    pos = 0
                    for h, x in enumerate(counts):
                        out[h].extend(cards[pos:pos + x])
                        pos += x
                    caps = rest
                    break
                r -= w
        return out


    def marginals(self) -> dict[Any, tuple[Fraction, ...]]:
        """Each card's exact probability of being with each holder (a
        tuple in holder order), every assignment alike."""
        return _type_marginals(HolderSampler, self.capacities, self.types, self.cards_of,
                               self.count)

    @property
    def compiled(self) -> CompiledHolders:
        if getattr(self, "_compiled", None) is None:
            self._compiled = CompiledHolders(self)
        return self._compiled


class CompiledHolders:
    """A ``HolderSampler``'s count as flat arrays (as ``CompiledSampler``):
    one node per reachable ``(type, capacities)``; its edges carry the split
    (cards per holder), the cumulative probability and the next node.  A
    draw walks the types, picks a split, shuffles the type's cards and deals
    them out in holder order.  ``sample_py`` is the pure-Python twin of the
    C walk in ``csrc/include/typegraph.pxd`` (``holders_walk``)."""

    def __init__(self, sampler: HolderSampler):
        self.n_holders = sampler.n
        self.n_types = len(sampler.types)
        self.type_start, self.type_card = [0], []
        for cards in sampler.cards_of:
            self.type_card.extend(cards)
            self.type_start.append(len(self.type_card))
        ids = {(0, sampler.capacities): 0}
        frontier = [(0, sampler.capacities)]
        self.edge_start: list[int] = []
        self.edge_counts: list[int] = []
        self.edge_cum: list[float] = []
        self.edge_next: list[int] = []
        k = 0
        while k < len(frontier):
            t, caps = frontier[k]
            k += 1
            self.edge_start.append(len(self.edge_next))
            if t == self.n_types:
                continue
            here = sampler._f(t, caps)
            acc = 0
            for counts, ways in sampler._splits(t, caps):
                rest = tuple(c - x for c, x in zip(caps, counts, strict=True))
                w = ways * sampler._f(t + 1, rest)
                if not w:
                    continue
                acc += w
                key = (t + 1, rest)
                if key not in ids:
                    ids[key] = len(frontier)
                    frontier.append(key)
                self.edge_counts.extend(counts)
                self.edge_cum.append(acc / here)
                self.edge_next.append(ids[key])
            self.edge_cum[-1] = 1.0
        self.edge_start.append(len(self.edge_next))
        self.n_nodes = len(frontier)

    def sample_py(self, rng: random.Random) -> list:
        out: list[list[int]] = [[] for _ in range(self.n_holders)]
        node = 0
        for t in range(self.n_types):
            u = rng.random()
            x = self.edge_start[node]
            while self.edge_cum[x] <= u and x + 1 < self.edge_start[node + 1]:
                x += 1
            cards = self.type_card[self.type_start[t]:self.type_start[t + 1]]
            rng.shuffle(cards)
            pos = 0
            for h in range(self.n_holders):
                n = self.edge_counts[x * self.n_holders + h]
                out[h].extend(cards[pos:pos + n])
                pos += n
            node = self.edge_next[x]
        return out


# ----------------------------------------------------------------------
# the same model counted holder by holder (many holders, few card types)

class ColumnSampler:
    """Uniform assignments of hidden cards to holders with fixed sizes: the
    contract of ``HolderSampler`` (``capacities``, ``cards`` as ``(card,
    allowed holders mask)``, ``sample(rng)`` a list of cards per holder),
    counted the other way round.

    ``HolderSampler`` walks the card types and splits each among the
    holders: its state is the holders' remaining capacities, and a split is
    a composition over every allowed holder, which grows fast with the
    number of holders (dixie-rook with six seats: five hands and the
    discards).  Here the walk goes holder by holder and the state is how
    many cards of each type are still unplaced: ``f(h, left)`` = the number
    of ways to fill holders ``h..`` from ``left``; holder ``h`` takes
    ``x[t]`` cards of each type it may hold (``sum x = capacity[h]``) in
    ``prod C(left[t], x[t])`` ways.  Cards with the same ``allowed`` set
    are one type, so voids by colour give at most a few types and the
    state space stays small.  A draw walks the holders choosing ``x`` with
    probability ``prod C * f(h + 1, left - x) / f(h, left)``, then a
    uniform subset of each type's unplaced cards: every assignment is
    equally likely.  Exact big-integer arithmetic; no rejection;
    ``InconsistentConstraints`` when none exists."""

    def __init__(self, capacities, cards):
        self.capacities, self.n, self.types, self.cards_of = _card_types(capacities, cards)
        # the types each holder may take
        self.takes = [[t for t, m in enumerate(self.types) if m >> h & 1]
                      for h in range(self.n)]
        self._memo: dict = {}
        self._moves_memo: dict = {}
        self.count = self._f(0, tuple(len(c) for c in self.cards_of))
        if self.count == 0:
            raise InconsistentConstraints(NO_PLACEMENT())

    def _moves(self, h: int, left: tuple) -> list:
        """Holder ``h``'s takes from ``left``: ``(x per type, ways)``."""
        key = (h, left)
        hit = self._moves_memo.get(key)
        if hit is not None:
            return hit
        takes = self.takes[h]
        out = []
        x = [0] * len(left)

        def rec(i, need, ways):
            if i == len(takes):
                if need == 0:
                    out.append((tuple(x), ways))
                return
            t = takes[i]
            room = sum(left[u] for u in takes[i + 1:])
            for k in range(max(0, need - room), min(need, left[t]) + 1):
                x[t] = k
                rec(i + 1, need - k, ways * comb(left[t], k))
            x[t] = 0

        rec(0, self.capacities[h], 1)
        self._moves_memo[key] = out
        return out

    def _f(self, h: int, left: tuple) -> int:
        if h == self.n:
            return 1 if not any(left) else 0
        key = (h, left)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        total = sum(w for _, _, w in self._edges(h, left))
        self._memo[key] = total
        return total

    def _finishable(self, h: int, left: tuple) -> bool:
        """Every unplaced type has a holder ``>= h`` that may take it."""
        for t, k in enumerate(left):
            if k and not self.types[t] >> h:
                return False
        return True

    def _edges(self, h: int, left: tuple):
        """``(x, next left, weight)`` for every take of holder ``h`` that
        leads to a completion."""
        for x, ways in self._moves(h, left):
            rest = tuple(a - b for a, b in zip(left, x, strict=True))
            if self._finishable(h + 1, rest):
                w = ways * self._f(h + 1, rest)
                if w:
                    yield x, rest, w

    def sample(self, rng: random.Random) -> list:
        """A list per holder of the cards it gets."""
        pools = [list(c) for c in self.cards_of]
        left = tuple(len(c) for c in self.cards_of)
        out = []
        for h in range(self.n):
            r = rng.randrange(self._f(h, left))
            for x, rest, w in self._edges(h, left):
                if r < w:
                    got = []
                    for t, k in enumerate(x):
                        pool = pools[t]
                        for _ in range(k):
                            j = rng.randrange(len(pool))
                            pool[j], pool[-1] = pool[-1], pool[j]
                            got.append(pool.pop())
                    out.append(got)
                    left = rest
                    break
                r -= w
        return out

    def marginals(self) -> dict[Any, tuple[Fraction, ...]]:
        """Each card's exact probability of being with each holder (a
        tuple in holder order), every assignment alike."""
        return _type_marginals(ColumnSampler, self.capacities, self.types, self.cards_of,
                               self.count)

    @property
    def compiled(self) -> CompiledColumns:
        if getattr(self, "_compiled", None) is None:
            self._compiled = CompiledColumns(self)
        return self._compiled


class CompiledColumns:
    """A ``ColumnSampler``'s count as flat arrays: one node per reachable
    ``(holder, cards left per type)``; its edges carry the take (cards per
    type), the cumulative probability and the next node.  A draw walks the
    holders, picks a take, and moves that many uniform cards of each type
    from the type's pool of unplaced cards to the holder.  ``sample_py`` is
    the pure-Python twin of the C walk in ``csrc/include/typegraph.pxd``
    (``columns_walk``)."""

    def __init__(self, sampler: ColumnSampler):
        self.n_holders = sampler.n
        self.n_types = len(sampler.types)
        self.type_start, self.type_card = [0], []
        for cards in sampler.cards_of:
            self.type_card.extend(cards)
            self.type_start.append(len(self.type_card))
        root = (0, tuple(len(c) for c in sampler.cards_of))
        ids = {root: 0}
        frontier = [root]
        self.edge_start: list[int] = []
        self.edge_counts: list[int] = []
        self.edge_cum: list[float] = []
        self.edge_next: list[int] = []
        k = 0
        while k < len(frontier):
            h, left = frontier[k]
            k += 1
            self.edge_start.append(len(self.edge_next))
            if h == self.n_holders:
                continue
            here = sampler._f(h, left)
            acc = 0
            for x, rest, w in sampler._edges(h, left):
                acc += w
                key = (h + 1, rest)
                if key not in ids:
                    ids[key] = len(frontier)
                    frontier.append(key)
                self.edge_counts.extend(x)
                self.edge_cum.append(acc / here)
                self.edge_next.append(ids[key])
            self.edge_cum[-1] = 1.0
        self.edge_start.append(len(self.edge_next))
        self.n_nodes = len(frontier)

    def sample_py(self, rng: random.Random) -> list:
        pools = [self.type_card[self.type_start[t]:self.type_start[t + 1]]
                 for t in range(self.n_types)]
        out = []
        node = 0
        for _ in range(self.n_holders):
            u = rng.random()
            x = self.edge_start[node]
            while self.edge_cum[x] <= u and x + 1 < self.edge_start[node + 1]:
                x += 1
            got = []
            for t in range(self.n_types):
                pool = pools[t]
                for _ in range(self.edge_counts[x * self.n_types + t]):
                    j = rng.randrange(len(pool))
                    pool[j], pool[-1] = pool[-1], pool[j]
                    got.append(pool.pop())
            out.append(got)
            node = self.edge_next[x]
        return out
