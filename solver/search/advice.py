"""From a search's evidence to the advice: which action, in which order the
others follow, which are as good, and why an action with a higher mean is
not the advice.

Every face (``dixtrix hint``, the engine protocol, the HTTP API, the web
table, the bots) shows the actions in ``ranking`` order, so the advice is
always the first row, and an action listed below it with a higher mean
carries its reason (``reasons``: a code and its parameters, ``solver.said``).

The rule, for a search (ISMCTS or PIMC, actions valued by sampled results):

1. the *candidates* are the actions searched at least ``TIE_VISITS`` as
   much as the most searched one (an action the tree tried a few times has
   a mean too loose to act on; PIMC values every action in every world, so
   every action is a candidate);
2. the *leader* is the candidate with the highest mean;
3. the candidates tied with the leader -- the difference within ``TIE_SE``
   standard errors of itself, or within ``TIE_POINTS`` of the game's round
   scale -- are one choice as far as the search can tell, and the advice is
   the first of them by the game's one rule among equal actions
   (``State.tie_key``: by default the game's order, the lowest action; dix
   and dixie-rook part with the card least worth keeping, the trick
   contracts with the highest card), so that it does not change from one
   search seed to the next (docs/search.md, "How wide the ties are",
   measured this rule against a longer search: the steadier advice costs a
   few hundredths of a point);
4. the actions ``equal`` to the advice are those whose difference from it
   is within its own 95% interval, or within ``EQUAL_POINTS`` (twice the
   tie margin, so that searches either side of a tie name each other's
   card), or that are equivalent cards (``solver.search.equivalence``).

Exact values need no more: the best value first, ties by the same rule
among equal actions, every action of the best value ``equal``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from ..front import N_
from ..said import Said, phrase
from ..stats import Z95

#: a tie is within this many standard errors of the difference
TIE_SE = 1.0
#: values closer than this share of the game's round scale (``round_scale``:
#: 0.015 points of a dix round, 0.175 of a trix deal, 0.1 of a tricks deal,
#: 0.12 of a Rook hand at 1/2000) are a tie whatever their standard errors:
#: a second's search resolves differences of a hundredth of a point, which
#: no player could use
TIE_POINTS = 1 / 2000
#: the advice marks as equally good the actions within this share of the
#: round scale: twice the tie margin
EQUAL_POINTS = 2 * TIE_POINTS
#: an action searched less than this share of the most searched one is
#: never advised in its place (its interval is wide because it was tried little)
TIE_VISITS = 0.25

#: the as-good test (``{points}``: the margin in the game's points); every
#: face says it in its own words (bots/server/words.py)
EQUAL_TEST = phrase("search.equal_test",
                    N_("each one's difference from the advice is within its 95% interval, "
                       "or under {points:.3g}"))


def equal_points(scale: float) -> str:
    """The as-good margin of a game of round scale ``scale``, as it is written."""
    return f"{EQUAL_POINTS * scale:.3g}"


def equal_test_said(scale: float) -> Said:
    """The one test that makes an action "as good" as the advice, which
    every face shows beside the actions it names (``scale``: the game's
    ``round_scale``): what ``decide`` applies, nothing else."""
    return EQUAL_TEST(points=EQUAL_POINTS * scale)


def equal_test(scale: float) -> str:
    """``equal_test_said`` in English."""
    return equal_test_said(scale).english()


#: the tie rule, which every face shows
TIE_RULE = phrase("search.tie_rule",
                  N_("the search cannot tell these apart, and ties go by the game's rule "
                     "among equal actions (the card least worth keeping), so the advice does "
                     "not change with the search's seed"))
#: why an action with a higher mean is not the advice (``decide``'s reasons):
#: as good (``{rule}``: the tie rule), or searched too little (``{visits}``)
REASON_AS_GOOD = phrase("search.as_good", N_("as good as the advice: {rule}"))
REASON_FEW = phrase("search.few",
                    N_("searched too little ({visits:,}) to be advised: its mean rests on a "
                       "few results"))


@dataclass
class Evidence:
    """What a search found, for ``decide``: the legal actions, their classes
    of equivalent cards, each action's mean (``values``, missing for one
    never searched), its 95% half-width and its visits (iterations or
    worlds), ``diff_half(a, b)``: the 95% half-width of ``values[a] -
    values[b]``, ``scale``: the game's round scale; ``visit_floor``: only
    the well-searched actions may be advised (ISMCTS)."""

    legal: list
    classes: list
    values: dict
    ci95: dict
    visits: dict
    diff_half: Callable
    scale: float
    visit_floor: bool = True
    #: the game's rule among equal actions (``State.tie_key``): the smallest
    #: key is played; default the game's order
    key: Callable = lambda a: (a,)


@dataclass
class Advice:
    """The advised action, every legal action in the order the advice
    prefers them (the advised first), those as good as it, and the reason
    each action listed below the advice with a higher mean is not it (a
    ``solver.said.Said``: ``REASON_AS_GOOD`` or ``REASON_FEW``)."""

    action: int
    ranking: list
    equal: list
    reasons: dict[int, Said] = field(default_factory=dict)


def _class_of(classes, a):
    return next(m for m in classes if a in m)


def _close(x: float, y: float, scale: float, share: float) -> bool:
    return abs(x - y) <= share * scale


def _apart(ev: Evidence, a, b) -> float:
    """How many standard errors of their difference ``a`` and ``b`` are
    apart (0 within ``TIE_POINTS``; infinite when unknown)."""
    if a not in ev.values or b not in ev.values:
        return math.inf
    if _close(ev.values[a], ev.values[b], ev.scale, TIE_POINTS):
        return 0.0
    half = ev.diff_half(a, b)
    if not math.isfinite(half):
        return math.inf
    se = half / Z95
    diff = abs(ev.values[a] - ev.values[b])
    return diff / se if se > 0 else (0.0 if diff == 0 else math.inf)


def decide(ev: Evidence) -> Advice:
    """The advice from a search's evidence (the module docstring's rule)."""
    valued = [a for a in ev.legal if a in ev.values]
    if not valued:                      # nothing searched: the first action
        return Advice(ev.legal[0], list(ev.legal), [ev.legal[0]])
    if ev.visit_floor:
        # a class's most searched member stands for it (the kernels try one
        # card a class; a class's members pool their statistics)
        most = {a: max(ev.visits.get(b, 0) for b in _class_of(ev.classes, a)) for a in valued}
        floor = TIE_VISITS * max(most.values())
        candidates = [a for a in valued if most[a] >= floor]
    else:
        candidates = valued
    leader = max(candidates, key=lambda a: (ev.values[a], -a))
    ties = [a for a in candidates if a != leader and _apart(ev, a, leader) <= TIE_SE]
    action = min((b for a in [leader] + ties for b in _class_of(ev.classes, a)), key=ev.key)
    same = _class_of(ev.classes, action)
    mine = ev.values[action]

    def as_good(a) -> bool:
        if a in same:
            return True
        if a not in ev.values:
            return False
        if _close(ev.values[a], mine, ev.scale, EQUAL_POINTS):
            return True
        return abs(ev.values[a] - mine) <= ev.diff_half(a, action)

    equal = [action] + [a for a in ev.legal if a != action and as_good(a)]
    rest = sorted((a for a in ev.legal if a != action),
                  key=lambda a: (a not in same, -ev.values.get(a, -math.inf), a))
    reasons = {}
    for a in rest:
        if ev.values.get(a, -math.inf) <= mine:
            continue
        if a in ties or a in equal:
            reasons[a] = REASON_AS_GOOD(rule=TIE_RULE())
        else:
            reasons[a] = REASON_FEW(visits=ev.visits.get(a, 0))
    return Advice(action, [action] + rest, equal, reasons)


def decide_exact(legal: list, values: dict, key: Callable = lambda a: (a,)) -> Advice:
    """The advice from exact values: the best value, ties by the game's rule
    among equal actions (``key``: ``State.tie_key``); every action of the
    best value is equal."""
    ranking = sorted(legal, key=lambda a: (-values[a], key(a)))
    best = values[ranking[0]]
    return Advice(ranking[0], ranking, [a for a in ranking if values[a] == best])


__all__ = ["Evidence", "Advice", "decide", "decide_exact", "equal_test", "equal_test_said",
           "equal_points",
           "TIE_SE", "TIE_POINTS", "EQUAL_POINTS", "TIE_VISITS", "TIE_RULE", "EQUAL_TEST",
           "REASON_AS_GOOD", "REASON_FEW"]
