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
"""

from __future__ import annotations

import random
from dataclasses import dataclass

INF = 1 << 30


@dataclass(frozen=True)
class SlotGroup:
    time: int
    size: int
    label: object = None


class InconsistentConstraints(ValueError):
    """No bijection respects the intervals (the caller turns it into a
    PositionError naming the view)."""


class IntervalSampler:
    """Count and uniformly sample card -> slot bijections.

    ``groups``: list of ``SlotGroup``; ``cards``: list of ``(card, lo, hi)``.
    ``sample(rng)`` returns a list, one entry per group, of the cards placed
    in that group's slots in slot order."""

    def __init__(self, groups, cards):
        self.groups = list(groups)
        total = sum(g.size for g in self.groups)
        if total != len(cards):
            raise InconsistentConstraints(
                f"{len(cards)} hidden cards for {total} hidden places")
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
        self.enter = [[] for _ in range(n_slots)]     # per slot: list of (class, card)
        for (card, lo, hi) in self.cards:
            e = cls_of[lo]
            idx = next((i for i, (t, _, _) in enumerate(self.slots) if t <= hi), None)
            if idx is None or lo > hi:
                raise InconsistentConstraints(f"card {card} has no possible place")
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
            raise InconsistentConstraints("no placement of the hidden cards is consistent")

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

    def _f(self, i, placed) -> int:
        if i == len(self.slots):
            return 1 if placed == self.entered[-1] else 0
        key = (i, placed)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        t = self.slots[i][0]
        ent = self.entered[i]
        total = 0
        for e, lo in enumerate(self.class_lo):
            free = ent[e] - placed[e]
            if free <= 0 or lo > t:
                continue
            nxt = placed[:e] + (placed[e] + 1,) + placed[e + 1:]
            if not self._alive(i + 1, nxt):
                continue
            total += free * self._f(i + 1, nxt)
        self._memo[key] = total
        return total

    def sample(self, rng: random.Random) -> list:
        out = [[None] * g.size for g in self.groups]
        pools = [[] for _ in self.class_lo]
        placed = (0,) * len(self.class_lo)
        for i, (t, k, j) in enumerate(self.slots):
            for (e, card) in self.enter[i]:
                pools[e].append(card)
            here = self._f(i, placed)
            r = rng.randrange(here)
            ent = self.entered[i]
            for e, lo in enumerate(self.class_lo):
                free = ent[e] - placed[e]
                if free <= 0 or lo > t:
                    continue
                nxt = placed[:e] + (placed[e] + 1,) + placed[e + 1:]
                if not self._alive(i + 1, nxt):
                    continue
                w = free * self._f(i + 1, nxt)
                if r < w:
                    pool = pools[e]
                    pick = rng.randrange(len(pool))
                    pool[pick], pool[-1] = pool[-1], pool[pick]
                    out[k][j] = pool.pop()
                    placed = nxt
                    break
                r -= w
        return out
