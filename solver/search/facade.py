"""Search facades: ``best_move`` and ``evaluate`` (STYLE 9).

Both take a *position* — a seat view (what the player to advise knows), or a
game record, which is turned into the view of the seat to move so that the
advice never uses cards that seat cannot see — and a :class:`Limit`.  They
return small dataclasses; nothing above this module knows how a search
works.

Every value comes with its 95% interval (``ci95``), and ``best_move`` names
the actions that its search cannot tell from the recommended one
(``equal``): advice a player can trust says when the choice does not
matter.  A ``progress`` callback receives a dict (``iterations``,
``seconds``, ``nodes``, ``best``, ``value``) about every 0.1 s; ``stop`` (a
``threading.Event``) ends a search early with the best found so far
(``stopped=True``); Ctrl-C raises ``KeyboardInterrupt`` within a fraction
of a second (solver/search/control.py).

Determinism: the same position, limit and ``seed`` give the same answer when
the limit is a number of iterations or worlds; a time limit (the default,
one second) makes the amount of work depend on the machine.
"""

from __future__ import annotations

import math
import random
import time as _time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import LimitError, OptionError, PositionError, short_repr
from ..game import State
from ..position import Record, SeatView, from_json
from . import contracts
from .equivalence import card_classes, pool
from .control import Z95, Control, check_progress, check_stop, half_width
from .heuristics import POLICIES, has_heuristic, make_policy
from .ismcts import ismcts_search, python_policies, run_native
from .native import native_search, root_keep
from .pimc import choose, pimc_search

MAX_SECONDS = 86400.0
MAX_COUNT = 10**9
#: what ``best_move`` searches when no limit is given
DEFAULT_LIMIT_SECONDS = 1.0
#: independent trees of a Cython ISMCTS search (root parallelism): their
#: disagreement is part of each value's interval (ismcts.between_trees)
DEFAULT_TREES = 8
#: the searches ``best_move`` runs
BOTS = ("ismcts", "pimc")


@dataclass(frozen=True)
class Limit:
    """How much to search: ``time`` in seconds, ``iterations`` (ISMCTS),
    ``worlds`` (sampled deals, for PIMC and ``evaluate``).  Any combination;
    the search stops at the first limit reached."""

    time: float | None = None
    iterations: int | None = None
    worlds: int | None = None

    def __post_init__(self):
        if self.time is not None:
            if isinstance(self.time, bool) or not isinstance(self.time, (int, float)) \
                    or not math.isfinite(self.time) or not 0 < self.time <= MAX_SECONDS:
                raise LimitError(f"Limit.time must be seconds in (0, {MAX_SECONDS:g}], "
                                 f"got {short_repr(self.time)}")
        for name in ("iterations", "worlds"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int)
                                  or not 1 <= v <= MAX_COUNT):
                raise LimitError(f"Limit.{name} must be an integer 1..{MAX_COUNT}, "
                                 f"got {short_repr(v)}")
        if self.time is None and self.iterations is None and self.worlds is None:
            raise LimitError("a Limit needs time, iterations or worlds")


@dataclass(frozen=True)
class PlayResult:
    """The advice for the seat to move.

    ``action``: the recommended action (notation); ``values``: each legal
    action's estimated result of the deal for the seat, in ``unit``;
    ``ci95``: each value's 95% interval half-width; ``equal``: the actions
    the search cannot tell from ``action`` (the recommended one first):
    for ISMCTS those whose interval overlaps the recommended one's, for
    PIMC those whose paired difference from it over the same worlds is not
    significantly negative; ``visits``: how much search each got (ISMCTS
    iterations, PIMC worlds); ``confidence``: the share of the search that
    chose ``action``; ``iterations``, ``nodes``, ``time``: work done;
    ``stopped``: a stop request ended the search early; ``same``: the
    classes of equivalent cards among the legal actions (cards worth
    exactly the same in every world: solver.search.equivalence), whose
    statistics are pooled, each class of two or more cards as a tuple, the
    recommended action always its first (lowest) card."""

    action: str
    values: dict
    visits: dict
    confidence: float
    seat: int
    nodes: int
    time: float
    bot: str
    ci95: dict = field(default_factory=dict)
    equal: tuple = ()
    iterations: int = 0
    stopped: bool = False
    unit: str = "points this deal"
    same: tuple = ()


@dataclass(frozen=True)
class Evaluation:
    """Expected result of the current deal per seat (``unit``) with a 95%
    confidence interval half-width, from ``worlds`` sampled deals."""

    values: list
    ci95: list
    worlds: int
    time: float
    method: str
    stopped: bool = False
    unit: str = "points this deal"


def _as_view(position: Any) -> SeatView:
    if isinstance(position, State):
        seat = position.current_player()
        if position.is_terminal() or seat < 0:
            raise PositionError("the game is over: there is no move to advise")
        return from_json(position.information_state(seat).view)
    if isinstance(position, (dict, str, bytes, bytearray)):
        position = from_json(position)
    if isinstance(position, Record):
        state = position.state()
        seat = state.current_player()
        if state.is_terminal() or seat < 0:
            raise PositionError("the game is over: there is no move to advise")
        return from_json(state.information_state(seat).view)
    if isinstance(position, SeatView):
        return position
    raise PositionError(f"expected a position (seat view, record, JSON or State), got "
                        f"{type(position).__name__}")


def check_seed(seed: Any, name: str = "seed") -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionError(f"{name} must be an integer, got {short_repr(seed)}")
    return seed


def _check_limit(limit: Any, default: Limit) -> Limit:
    if limit is None:
        return default
    if not isinstance(limit, Limit):
        raise LimitError(f"limit must be a solver.search.Limit, got {type(limit).__name__}")
    return limit


def best_move(position: Any, limit: Limit | None = None, bot: str = "ismcts",
              seed: int = 0, progress: Callable[[dict], None] | None = None,
              nodes: int | None = None, stop=None, threads: int = DEFAULT_TREES) -> PlayResult:
    """The best action for the seat to move in ``position``, with every
    legal action's value and its interval (see the module docstring).

    ``limit``: default one second.  ``bot``: ``"ismcts"`` (information-set
    MCTS; ``Limit.iterations`` / ``time``; ``threads`` independent trees
    searched in parallel by the Cython searches, default 8: where they
    disagree, the intervals widen and the advice says so) or ``"pimc"`` (sampled worlds each solved
    double-dummy where the solver applies, else played out;
    ``Limit.worlds`` / ``time``; ``nodes`` bounds one world's solve, see
    ``solver.search.pimc``).  For pimc, ``confidence`` is the share of
    worlds in which the chosen action was best and ``visits`` the worlds
    that valued each action."""
    if not isinstance(bot, str) or bot not in BOTS:
        raise OptionError(f"best_move: unknown bot {short_repr(bot)} (known: {', '.join(BOTS)})")
    limit = _check_limit(limit, Limit(time=DEFAULT_LIMIT_SECONDS))
    check_seed(seed)
    check_progress(progress)
    check_stop(stop)
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 64:
        raise LimitError(f"threads must be an integer 1..64, got {short_repr(threads)}")
    if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int)
                              or not 1 <= nodes <= 10**12):
        raise LimitError(f"nodes must be an integer 1..1e12 or None, got {short_repr(nodes)}")
    view = _as_view(position)
    world = view.world(seed=seed)
    seat = view.seat
    if world.is_terminal():
        raise PositionError("the game is over: there is no move to advise")
    if world.current_player() != seat:
        raise PositionError(f"seat {seat} is not to move (seat {world.current_player()} is)")
    legal = world.legal_actions()
    name = world.action_to_string
    unit = view.game.round_unit

    def report(stats, pick):
        if progress is not None and stats.visits:
            best = pick(stats)
            progress({"iterations": stats.iterations, "seconds": stats.seconds,
                      "nodes": stats.nodes, "best": name(best),
                      "value": stats.values.get(best)})

    contract = contracts.applies(world)
    if contract:
        # a contract choice: every contract's play-outs from the same worlds
        # (equal work, paired comparisons), judged for the whole kingdom
        bot = "pimc"
        if limit.worlds is None and limit.time is None:
            # a play-out a contract a world: the work of that many iterations
            limit = Limit(worlds=max(1, limit.iterations // len(legal)))
    if bot == "ismcts":
        if limit.iterations is None and limit.time is None:
            raise LimitError("bot 'ismcts' counts iterations: give Limit(iterations=...) "
                             "or a time")

        def pick(stats):
            return max(stats.visits, key=lambda a: (stats.visits[a],
                                                    stats.values.get(a, -math.inf)))

        native = native_search(view.game, view.sampler(), "rules",
                               root_keep(card_classes(world, legal)))
        if native is not None:
            stats = run_native(native, view.game, limit.iterations, limit.time, 0.7, threads,
                               random.Random(seed).getrandbits(64),
                               progress=(lambda st: report(st, pick)) if progress else None,
                               stop=stop)
        else:
            rng = random.Random(seed)
            rollout, prior = python_policies(view.game, "rules", "rules", rng)
            stats = ismcts_search(view.sampler(), seat, legal, view.game,
                                  iterations=limit.iterations, seconds=limit.time, rng=rng,
                                  rollout=rollout, prior=prior,
                                  progress=lambda st: report(st, pick), stop=stop)
        return _ismcts_result(world, legal, stats, seat, unit)
    if limit.worlds is None and limit.time is None:
        raise LimitError("bot 'pimc' counts worlds: give Limit(worlds=...) or a time")
    stats = pimc_search(view.sampler().sample, seat, legal, view.game,
                        worlds=limit.worlds, seconds=limit.time, nodes=nodes,
                        rng=random.Random(seed),
                        progress=lambda st: report(st, lambda s: choose(s, legal)), stop=stop)
    classes = card_classes(world, legal)
    _, values, ci95 = pool(classes, stats.visits, stats.values, stats.ci95)
    if contract:
        # judged for the whole kingdom (solver.search.contracts): what this
        # hand gains over each contract's value on an average deal
        base = {a: contracts.baseline(view.game, name(a)) for a in legal}
        values = {a: v - base[a] for a, v in values.items()}
        chosen = max(legal, key=lambda a: (values[a], -a))
        unit = contracts.UNIT
    else:
        # the best pooled mean (ties as ``choose``), then its class's first card
        best = max(legal, key=lambda a: (values[a], stats.tiebreak.get(a, -math.inf),
                                         stats.wins[a], -a))
        chosen = min(next(m for m in classes if best in m))
        first = chosen

        def se_apart(a):
            if _close(values[a], values[first], view.game):
                return 0.0
            half = stats.paired_half_width(a, first)
            if not math.isfinite(half):
                return math.inf
            return abs(values[a] - values[first]) * Z95 / max(half, 1e-300)

        chosen = _tie_break(first, se_apart, classes, legal)
    cls = next(m for m in classes if chosen in m)
    equal = [chosen] + [a for a in legal if a != chosen and (
        a in cls or values[a] + stats.paired_half_width(a, chosen) >= values[chosen] or
        (not contract and _close(values[a], values[chosen], view.game, EQUAL_POINTS)))]
    return PlayResult(name(chosen), {name(a): v for a, v in values.items()},
                      {name(a): n for a, n in stats.visits.items()},
                      max(stats.wins[a] for a in cls) / max(1, stats.worlds), seat, stats.nodes,
                      stats.seconds, "pimc", {name(a): h for a, h in ci95.items()},
                      tuple(name(a) for a in equal), stats.worlds, stats.stopped, unit,
                      _same(classes, name))


#: the advice breaks a near tie by a fixed rule: among the actions whose
#: value is within this many standard errors of the difference from the
#: search's choice (ISMCTS: and searched at least ``TIE_VISITS`` as much),
#: or within ``TIE_POINTS``, the lowest.  bench/tie_rule.py chose both:
#: wider ties make the advice steadier but advise cards that a longer
#: search ranks lower (docs/search.md, "Equivalent cards and stable advice").
TIE_SE = 1.0
#: values closer than this share of the game's round scale (``round_scale``:
#: 0.015 points of a dix round, 0.175 of a trix deal, 0.1 of a tricks deal,
#: 0.12 of a Rook hand at 1/2000) are a tie whatever their standard errors:
#: a second's search resolves differences of a hundredth of a point, which
#: no player could use
TIE_POINTS = 1 / 2000
#: the advice marks as equally good the actions it cannot separate at 95%
#: (their intervals overlap, or the difference is within its own paired
#: interval) and those within this share of the round scale: twice the tie
#: rule's, so that searches on either side of a tie still name each other
EQUAL_POINTS = 2 * TIE_POINTS


def _close(x: float, y: float, game, share: float | None = None) -> bool:
    """``x`` and ``y`` (values in game points) are within ``share`` (default
    ``TIE_POINTS``) of the game's round scale."""
    return abs(x - y) <= (TIE_POINTS if share is None else share) * game.round_scale
#: an action searched less than this share of the search's choice is never
#: advised in its place (its interval is wide because it was tried little)
TIE_VISITS = 0.25


def _tie_break(chosen, se_apart, classes, candidates, visits=None):
    """The action to advise in a near tie: the lowest of ``chosen`` and the
    ``candidates`` at most ``TIE_SE`` standard errors apart from it
    (``se_apart(a)``), so that the advice is a fixed rule where the search
    cannot separate the cards, rather than whichever one this search seed
    happened to favour.  Returns the first card of that class."""
    def first(a):
        return next(m for m in classes if a in m)[0]

    floor = 0.0
    if visits is not None:
        floor = TIE_VISITS * max(visits.get(a, 0) for a in next(m for m in classes
                                                                if chosen in m))
    ties = [a for a in candidates if a != chosen and se_apart(a) <= TIE_SE and
            (visits is None or visits.get(a, 0) >= floor)]
    return min([chosen] + [first(a) for a in ties])


def _ismcts_result(world, legal, stats, seat, unit) -> PlayResult:
    name = world.action_to_string
    classes = card_classes(world, legal)
    visits, values, ci95 = pool(classes, stats.visits, stats.values, stats.ci95)
    # the class whose card the search tried most (a class's pooled visits
    # would favour a class for its size: each of its cards was explored),
    # then its first card: the same advice whichever equivalent card a tree
    # happened to prefer
    most = {}
    for m in classes:
        for a in m:
            most[a] = max(stats.visits.get(b, 0) for b in m)
    chosen = max(legal, key=lambda a: (most[a], values.get(a, -math.inf), -a))
    chosen = min(next(m for m in classes if chosen in m))

    def overlaps(a, b):
        return a in values and b in values and \
            values[a] + ci95.get(a, math.inf) >= values[b] - ci95.get(b, math.inf) and \
            values[b] + ci95.get(b, math.inf) >= values[a] - ci95.get(a, math.inf)

    def searched(a):
        """The one member of ``a``'s class the search tried, else None."""
        tried = [m for m in next(m for m in classes if a in m) if stats.visits.get(m, 0) > 0]
        return tried[0] if len(tried) == 1 else None

    def se_apart(a, b=chosen):
        if a not in values or b not in values:
            return math.inf
        if _close(values[a], values[b], world.game):
            return 0.0
        if searched(a) is not None and searched(b) is not None:
            # paired tree by tree where the search grew several trees
            se = stats.difference_half_width(searched(a), searched(b)) / Z95
        else:
            se = math.hypot(ci95.get(a, math.inf), ci95.get(b, math.inf)) / Z95
        return abs(values[a] - values[b]) / se if se > 0 else (
            0.0 if values[a] == values[b] else math.inf)

    chosen = _tie_break(chosen, se_apart, classes, legal, stats.visits)
    total = max(1, sum(stats.visits.values()))
    equal = [chosen] + [a for a in legal if a != chosen and (
        overlaps(a, chosen) or se_apart(a, chosen) <= Z95 or
        _close(values.get(a, math.inf), values[chosen], world.game, EQUAL_POINTS))]
    return PlayResult(name(chosen), {name(a): values[a] for a in values},
                      {name(a): n for a, n in stats.visits.items()},
                      visits.get(chosen, 0) / total, seat, stats.nodes,
                      stats.seconds, "ismcts", {name(a): h for a, h in ci95.items()},
                      tuple(name(a) for a in equal), stats.iterations, stats.stopped, unit,
                      _same(classes, name))


def _same(classes, name) -> tuple:
    return tuple(tuple(name(a) for a in m) for m in classes if len(m) > 1)


def evaluate(position: Any, limit: Limit | None = None, policy: str = "rules",
             seed: int = 0, progress: Callable[[dict], None] | None = None,
             stop=None) -> Evaluation:
    """Expected result of the current deal for every seat: sample worlds
    consistent with the view and play each to the end of the deal with the
    ``policy`` heuristic at every seat (``rules`` where the game has one,
    else ``random``); mean and 95% interval over the worlds.  ``progress``
    and ``stop`` as for ``best_move``."""
    if not isinstance(policy, str) or policy not in POLICIES:
        raise OptionError(f"evaluate: unknown policy {short_repr(policy)} "
                          f"(known: {', '.join(POLICIES)})")
    limit = _check_limit(limit, Limit(worlds=200))
    check_seed(seed)
    control = Control(stop, progress)
    view = _as_view(position)
    game = view.game
    if policy == "rules" and not has_heuristic(game.name):
        policy = "random"
    sampler = view.sampler()
    rng = random.Random(seed)
    n_max = limit.worlds if limit.worlds is not None else (
        None if limit.time is not None else 200)
    start = _time.perf_counter()
    results: list[list[float]] = []
    while n_max is None or len(results) < n_max:
        if results and limit.time is not None and _time.perf_counter() - start >= limit.time:
            break
        if results and control.stopped():
            break
        world = sampler.sample(rng)
        horizon = world.round_index()
        bots = [make_policy(policy, game, s, seed=rng.randrange(1 << 30))
                for s in range(game.num_players)]
        while not world.is_terminal() and world.round_index() == horizon:
            world.apply_action(bots[world.current_player()].step(world))
        results.append(world.round_returns(horizon))
        if control.due():
            n = len(results)
            means = [sum(r[s] for r in results) / n for s in range(game.num_players)]
            control.report({"iterations": n, "seconds": _time.perf_counter() - start,
                            "nodes": n, "best": None, "value": means[view.seat]})
    n = len(results)
    means, cis = [], []
    for s in range(game.num_players):
        xs = [r[s] for r in results]
        means.append(sum(xs) / n)
        cis.append(half_width(n, sum(xs), sum(x * x for x in xs)))
    return Evaluation(means, cis, n, _time.perf_counter() - start, f"rollout:{policy}",
                      control.stopped(), game.round_unit)


__all__ = ["Limit", "PlayResult", "Evaluation", "best_move", "evaluate", "check_seed",
           "DEFAULT_LIMIT_SECONDS"]
