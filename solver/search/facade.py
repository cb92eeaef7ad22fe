"""Search facades: ``best_move`` and ``evaluate`` (STYLE 9).

Both take a *position* — a seat view (what the player to advise knows), or a
game record, which is turned into the view of the seat to move so that the
advice never uses cards that seat cannot see — and a :class:`Limit`.  They
return small dataclasses; nothing above this module knows how a search
works.  A ``progress`` callback receives a dict (iterations, seconds, best
action so far) about every 100 iterations.

Determinism: the same position, limit and ``seed`` give the same answer when
the limit is a number of iterations or worlds; a time limit makes the amount
of work depend on the machine.
"""

from __future__ import annotations

import math
import random
import time as _time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import LimitError, OptionError, PositionError
from ..game import State
from ..position import Record, SeatView, from_json
from .heuristics import has_heuristic, make_policy
from .ismcts import ismcts_search, python_policies, run_native
from .native import native_search
from .pimc import choose, pimc_search

MAX_SECONDS = 86400.0
MAX_COUNT = 10**9


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
                                 f"got {self.time!r}")
        for name in ("iterations", "worlds"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int)
                                  or not 1 <= v <= MAX_COUNT):
                raise LimitError(f"Limit.{name} must be an integer 1..{MAX_COUNT}, got {v!r}")
        if self.time is None and self.iterations is None and self.worlds is None:
            raise LimitError("a Limit needs time, iterations or worlds")


@dataclass(frozen=True)
class PlayResult:
    """``action``: the recommended action (notation); ``values``: each legal
    action's estimated result of the deal for the seat, in game points;
    ``visits``: how much search each got; ``confidence``: the share of the
    search that chose ``action``; ``nodes``/``time``: work done."""

    action: str
    values: dict
    visits: dict
    confidence: float
    seat: int
    nodes: int
    time: float
    bot: str


@dataclass(frozen=True)
class Evaluation:
    """Expected result of the current deal per seat (game points) with a
    95% confidence interval half-width, from ``worlds`` sampled deals."""

    values: list
    ci95: list
    worlds: int
    time: float
    method: str


def _as_view(position: Any) -> SeatView:
    if isinstance(position, State):
        seat = position.current_player()
        if seat < 0:
            raise PositionError("the game is over: there is no move to advise")
        return from_json(position.information_state(seat).view)
    if isinstance(position, (dict, str, bytes)):
        position = from_json(position)
    if isinstance(position, Record):
        state = position.state()
        seat = state.current_player()
        if seat < 0:
            raise PositionError("the game is over: there is no move to advise")
        return from_json(state.information_state(seat).view)
    if isinstance(position, SeatView):
        return position
    raise PositionError(f"expected a position (seat view, record, JSON or State), got "
                        f"{type(position).__name__}")


def best_move(position: Any, limit: Limit | None = None, bot: str = "ismcts",
              seed: int = 0, progress: Callable[[dict], None] | None = None,
              nodes: int | None = None) -> PlayResult:
    """The best action for the seat to move in ``position``, with every
    legal action's value (see the module docstring).

    ``bot``: ``"ismcts"`` (information-set MCTS; ``Limit.iterations`` /
    ``time``) or ``"pimc"`` (sampled worlds each solved double-dummy where
    the solver applies, else played out; ``Limit.worlds`` / ``time``;
    ``nodes`` bounds one world's solve, see ``solver.search.pimc``).  For pimc,
    ``confidence`` is the share of worlds in which the chosen action was
    best and ``visits`` the worlds that valued each action."""
    limit = limit or Limit(iterations=1000)
    if not isinstance(limit, Limit):
        raise LimitError(f"limit must be a solver.search.Limit, got {type(limit).__name__}")
    view = _as_view(position)
    world = view.world(seed=seed)
    seat = view.seat
    if world.is_terminal():
        raise PositionError("the game is over: there is no move to advise")
    if world.current_player() != seat:
        raise PositionError(f"seat {seat} is not to move (seat {world.current_player()} is)")
    legal = world.legal_actions()
    if bot == "ismcts":
        native = native_search(view.game, view.sampler())
        if native is not None:
            its = limit.iterations if limit.iterations is not None else (
                None if limit.time is not None else 1000)
            stats = run_native(native, view.game, its, limit.time, 0.7, 1,
                               random.Random(seed).getrandbits(64))
            if progress:
                best = max(stats.visits, key=stats.visits.get)
                progress({"iterations": stats.iterations, "seconds": stats.seconds,
                          "best": world.action_to_string(best)})
            return _play_result(world, legal, stats, seat, "ismcts")
        iterations = limit.iterations if limit.iterations is not None else (
            None if limit.time is not None else 1000)

        def report(stats):
            if progress:
                best = max(stats.visits, key=stats.visits.get) if stats.visits else None
                progress({"iterations": stats.iterations, "seconds": stats.seconds,
                          "best": world.action_to_string(best) if best is not None else None})

        rng = random.Random(seed)
        rollout, prior = python_policies(view.game, "rules", "rules", rng)
        stats = ismcts_search(view.sampler(), seat, legal, view.game, iterations=iterations,
                              seconds=limit.time, rng=rng, rollout=rollout, prior=prior,
                              progress=report)
        return _play_result(world, legal, stats, seat, "ismcts")
    if bot == "pimc":
        if limit.worlds is None and limit.time is None:
            raise LimitError("bot 'pimc' counts worlds: give Limit(worlds=...) or a time")

        def report_pimc(stats):
            if progress:
                progress({"iterations": stats.worlds, "seconds": stats.seconds,
                          "best": world.action_to_string(choose(stats, legal))})

        stats = pimc_search(view.sampler().sample, seat, legal, view.game,
                            worlds=limit.worlds, seconds=limit.time, nodes=nodes,
                            rng=random.Random(seed), progress=report_pimc)
        chosen = choose(stats, legal)
        return PlayResult(world.action_to_string(chosen),
                          {world.action_to_string(a): v for a, v in stats.values.items()},
                          {world.action_to_string(a): n for a, n in stats.visits.items()},
                          stats.wins[chosen] / max(1, stats.worlds), seat, stats.nodes,
                          stats.seconds, "pimc")
    raise OptionError(f"best_move: unknown bot {bot!r} (known: ismcts, pimc)")


def _play_result(world, legal, stats, seat, name) -> PlayResult:
    chosen = max(legal, key=lambda a: (stats.visits.get(a, 0), stats.values.get(a, -math.inf)))
    total = max(1, sum(stats.visits.values()))
    return PlayResult(world.action_to_string(chosen),
                      {world.action_to_string(a): stats.values[a] for a in stats.values},
                      {world.action_to_string(a): n for a, n in stats.visits.items()},
                      stats.visits.get(chosen, 0) / total, seat, stats.nodes,
                      stats.seconds, name)


def evaluate(position: Any, limit: Limit | None = None, policy: str = "rules",
             seed: int = 0) -> Evaluation:
    """Expected result of the current deal for every seat: sample worlds
    consistent with the view and play each to the end of the deal with the
    ``policy`` bot at every seat (``rules`` where the game has one, else
    ``random``); mean and 95% interval over the worlds."""
    limit = limit or Limit(worlds=200)
    if not isinstance(limit, Limit):
        raise LimitError(f"limit must be a solver.search.Limit, got {type(limit).__name__}")
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
        if limit.time is not None and results and _time.perf_counter() - start >= limit.time:
            break
        world = sampler.sample(rng)
        horizon = world.round_index()
        bots = [make_policy(policy, game, s, seed=rng.randrange(1 << 30))
                for s in range(game.num_players)]
        while not world.is_terminal() and world.round_index() == horizon:
            world.apply_action(bots[world.current_player()].step(world))
        results.append(world.round_returns(horizon))
    n = len(results)
    means, cis = [], []
    for s in range(game.num_players):
        xs = [r[s] for r in results]
        mean = sum(xs) / n
        var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
        means.append(mean)
        cis.append(1.96 * math.sqrt(var / n) if n > 1 else math.inf)
    return Evaluation(means, cis, n, _time.perf_counter() - start, f"rollout:{policy}")


__all__ = ["Limit", "PlayResult", "Evaluation", "best_move", "evaluate"]
