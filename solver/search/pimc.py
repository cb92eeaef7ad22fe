"""Perfect-information Monte Carlo (PIMC) and the "cheating" double-dummy
player.

PIMC decides from a seat's view: it draws complete worlds consistent with
the view (the game's exact world sampler), values every legal action in
each world, and plays the action with the best mean value over the worlds.

How an action is valued in one world, in the seat's units of
``round_returns`` (the deal is the horizon):

* **double-dummy** where the world is a card-play position the exact
  solver handles (``solver.dd.solve``: dix from trick 14 or the
  ``seventeen`` variant, the trix/tricks trick contracts and partnership layout,
  dixie-rook card play): the exact value of every legal action at once,
  bounded by ``nodes`` search nodes a world;
* **rollouts** elsewhere (dix while the stock lasts, dix-exchange and the
  individual layout game: each game's ``GameSupport.root_solve``), bids, contract
  choices, reveals, nest discards, a world whose solve hits the node
  bound): the action is applied and the deal played out by the ``policy``
  bot (``rules`` where the game has one) at every seat, until the hands are
  down to the game's ``GameSupport.leaf_cards`` (dix 6, trix/tricks and dixie-rook 5): the
  rest of the deal is then solved exactly (bounded by a hundredth of the
  node bound; past it the play-out goes on).  Setting ``leaf=0`` plays every
  rollout to the end.  Where the game has them
  (``GameSupport.native_playouts``: dix, the trix / tricks trick
  contracts, with the ``rules`` policy) the same play-outs run in C
  (csrc/search/pimc.pyx), a whole world at a time, with the same values.

A world with more cards in play than the game's ``GameSupport.probe_cards``
is not given to the solver at the default node bound (it would almost
never finish: trix, tricks and dixie-rook before their fourth or fifth
trick).  Until a world of the decision is solved, a world's solve is a probe bounded
by ``nodes // PROBE_SHARE`` (times ``PROBE_GROWTH`` after a failed probe);
two failed probes hand the decision to the rollouts, and after a solved
world the next get the whole bound.

The solver's values are turned into the deal result the game scores:
dix's score difference with its tie-breaks (+-0.5 for the round's winner
on a tie, as ``DixState.round_returns``), dixie-rook's captured points
through the bid (a bidder team short of its bid scores minus the bid).  In
4-player individual contracts the solver's value is paranoid (the three
others play against the seat), so it is a guaranteed result, lower than a
rollout's typical one; a decision mixes the two only when some worlds hit
the node bound.

PIMC's known weakness (strategy fusion: it assumes it will know the hidden
cards later) is the price of its speed; ISMCTS (``solver.search.ismcts``) does not
have it.

The cheating player (bot ``cheat``) runs the same valuation on the TRUE
state, which it can see: the upper bound a search bot is measured against
(bench/strength.py), never a fair opponent; it is a bot (``bots.searchbots``).
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..dd import Solver, solve
from ..errors import LimitError, OptionError, SearchAborted, UnsupportedPositionError
from ..front import N_
from ..game import Game, State
from ..said import Quote, phrase
from .control import Control, half_width
from .heuristics import POLICIES, has_heuristic, make_policy
from .native import optional_extension
from .support import support_for

# the errors raised here (solver/errors.py: a code and its parameters)
PIMC_WORLDS = phrase("pimc_worlds", N_("pimc: worlds must be an integer 1..1e9, got {got}"))
PIMC_TIME = phrase("pimc_time", N_("pimc: time must be seconds in (0, 86400], got {got}"))
PIMC_NODES = phrase("pimc_nodes", N_("pimc: nodes must be an integer 1..1e12, got {got}"))
PIMC_NEEDS_LIMIT = phrase("pimc_needs_limit", N_("pimc: give worlds or time (or both)"))
PIMC_POLICY = phrase("pimc_policy", N_("pimc: unknown policy {policy}: play-outs are heuristic "
                                       "({policies}); a searching play-out would not keep the time limit"))

#: default bound on one world's double-dummy solve (then rollouts value it)
DEFAULT_NODES = 2_000_000
#: after this many worlds of a decision whose solves all hit the node bound,
#: the rest of the decision's worlds are valued by rollouts straight away
GIVE_UP_AFTER = 2
#: until a world of the decision has been solved, a world's solve is a probe
#: bounded by this share of the node bound: a decision whose worlds the
#: solver cannot take (trix from trick 1: 7% of the worlds solved under 2 M
#: nodes) then loses two probes, not two full bounds, before its play-outs
#: (issue #26: the two failed solves were 70% of a trix decision's time at
#: the first trick); once one world is solved the next get the full bound
PROBE_SHARE = 16
#: each failed probe multiplies the next one's bound by this (a decision
#: whose worlds need a few hundred thousand nodes, dix from trick 14, still
#: gets its first solved world on the second probe)
PROBE_GROWTH = 4


@dataclass
class PIMCStats:
    """``values``: mean value per action over the worlds; ``visits``: worlds
    that valued the action; ``wins``: worlds where it was (one of) the
    best; ``worlds``, ``solved`` (worlds valued by the solver), ``nodes``
    (solver nodes + rollout actions), ``seconds``."""

    values: dict[int, float] = field(default_factory=dict)
    visits: dict[int, int] = field(default_factory=dict)
    wins: dict[int, int] = field(default_factory=dict)
    worlds: int = 0
    solved: int = 0
    nodes: int = 0
    seconds: float = 0.0
    iterations: int = 0          # = worlds (the name ISMCTS reports use)
    tiebreak: dict = field(default_factory=dict)   # play-out means of tied best actions
    #: each valued world's {action: value}, in order (for intervals and
    #: paired comparisons between actions)
    samples: list = field(default_factory=list)
    ci95: dict = field(default_factory=dict)       # action -> 95% half-width over worlds
    stopped: bool = False

    def paired_half_width(self, a, b) -> float:
        """95% half-width of the mean of ``value(a) - value(b)`` over the
        same worlds (much tighter than the two intervals apart: the worlds'
        luck cancels)."""
        diffs = [w[a] - w[b] for w in self.samples]
        return half_width(len(diffs), sum(diffs), sum(d * d for d in diffs))


def native_module():
    """``solver.search._pimc`` (the play-outs in C, csrc/search/pimc.pyx),
    or None without the build or under DIXTRIX_PUREPYTHON."""
    return optional_extension("_pimc")


def check_limits(worlds, seconds, nodes) -> None:
    if worlds is not None and (isinstance(worlds, bool) or not isinstance(worlds, int)
                               or not 1 <= worlds <= 10**9):
        raise LimitError(PIMC_WORLDS(got=Quote(worlds)))
    if seconds is not None and (isinstance(seconds, bool)
                                or not isinstance(seconds, (int, float))
                                or not math.isfinite(seconds) or not 0 < seconds <= 86400):
        raise LimitError(PIMC_TIME(got=Quote(seconds)))
    if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int)
                              or not 1 <= nodes <= 10**12):
        raise LimitError(PIMC_NODES(got=Quote(nodes)))
    if worlds is None and seconds is None:
        raise LimitError(PIMC_NEEDS_LIMIT())


def check_policy(policy) -> None:
    """The play-out policy: a heuristic (``solver.search.heuristics``),
    never a search (a play-out that searches would multiply the time of
    every world and break the time limit)."""
    if policy not in POLICIES:
        raise OptionError(PIMC_POLICY(policy=repr(policy), policies=', '.join(POLICIES)))


# ---------------------------------------------------------------------------
# one world


def _dd_values(world: State, seat: int, nodes: int,
               solver: Solver | None = None) -> tuple[dict, int]:
    """Every legal action's exact value in ``world`` for ``seat``, in the
    units of ``round_returns`` (the game's ``GameSupport.exact_values``;
    ``UnsupportedPositionError`` / ``SearchAborted`` when the solver cannot
    answer).  ``solver``: the decision's session (its tables kept from
    world to world)."""
    sol = (solver.solve(world, seat=seat, max_nodes=nodes) if solver is not None
           else solve(world, seat=seat, max_nodes=nodes))
    return support_for(world.game).exact_values(world, seat, sol), sol.nodes


def _leaf_value(w: State, seat: int, nodes: int, solver: Solver | None = None) -> float | None:
    """The exact rest-of-deal value of ``w`` for ``seat`` (units of
    ``round_returns``), or None when the solver cannot answer in ``nodes``."""
    try:
        sol = (solver.solve(w, seat=seat, max_nodes=nodes) if solver is not None
               else solve(w, seat=seat, max_nodes=nodes))
    except (UnsupportedPositionError, SearchAborted):
        return None
    return support_for(w.game).exact_value(w, seat, sol)


def _too_big(world: State, nodes: int) -> bool:
    """Whether ``world`` holds more cards than the game's solver takes
    under PIMC's default node bound (``GameSupport.probe_cards``): its
    probes would fail and take most of a decision's time.  A larger
    ``nodes`` always tries."""
    support = support_for(world.game)
    most = support.probe_cards(world.game)
    if most is None or nodes > DEFAULT_NODES:
        return False
    cards = support.cards_in_play(world)
    return cards is not None and cards > most


def _rollout_values(world: State, seat: int, legal: list, bots: list,
                    leaf_nodes: int = 0, deadline: float = math.inf,
                    solver: Solver | None = None, native=None) -> dict | None:
    """Each action applied to a copy of ``world`` and the deal played out by
    ``bots`` (one per seat); with ``leaf_nodes``, once the hands are down to
    the game's ``leaf_cards`` the rest is solved exactly instead (bounded by that many
    nodes; a solve that hits the bound lets the play-out go on).  None when
    ``deadline`` (a ``perf_counter`` time) passes first.  ``native``: the
    decision's play-outs in C (``GameSupport.native_playouts``: the same
    play-outs and leaf values, a whole world at a time)."""
    if native is not None:
        return native.values(world, legal)
    horizon = world.round_index()
    support = support_for(world.game)
    leaf = support.leaf_cards if leaf_nodes else 0
    out = {}
    for a in legal:
        if _time.perf_counter() >= deadline:
            return None
        w = world.clone()
        w.apply_action(a)
        value = None
        while not w.is_terminal() and w.round_index() == horizon:
            if leaf:
                size = support.hand_left(w)
                if size is not None and size <= leaf:
                    value = _leaf_value(w, seat, leaf_nodes, solver)
                    if value is not None:
                        break
            w.apply_action(bots[w.current_player()].step(w))
        out[a] = value if value is not None else float(w.round_returns(horizon)[seat])
    return out


# ---------------------------------------------------------------------------
# the search


def pimc_search(sample: Callable[[random.Random], State], seat: int, legal: list,
                game: Game, worlds: int | None = None, seconds: float | None = None,
                nodes: int | None = None, policy: str = "rules", leaf: bool = True,
                rng: random.Random | None = None, break_ties: bool = True,
                progress: Callable[[PIMCStats], None] | None = None,
                stop=None) -> PIMCStats:
    """Value ``legal`` (the seat's actions) over worlds drawn by
    ``sample(rng)``; stop after ``worlds`` worlds or ``seconds`` (checked
    between worlds and between rollouts; at least one world is always
    valued).  ``nodes`` bounds one world's solve (default
    ``DEFAULT_NODES``); ``leaf``: play-outs end in an exact solve of the
    last ``leaf_cards`` tricks (bounded by ``nodes // 100``).
    ``progress(stats)`` about every 0.1 s; ``stop.is_set()`` ends the
    search after the world in hand (``stats.stopped``).  ``break_ties``:
    exactly tied best actions are told apart by more play-outs (``choose``
    reads ``stats.tiebreak``); the decision service breaks ties by its own
    rule (``solver.search.advice``) and turns it off."""
    check_limits(worlds, seconds, nodes)
    control = Control(stop, progress)
    nodes = DEFAULT_NODES if nodes is None else nodes
    rng = rng or random.Random(0)
    leaf_nodes = max(1, nodes // 100) if leaf else 0
    check_policy(policy)
    if policy == "rules" and not has_heuristic(game):
        policy = "random"
    bots = [make_policy(policy, game, s, seed=rng.randrange(1 << 30))
            for s in range(game.num_players)]
    stats = PIMCStats(values={a: 0.0 for a in legal}, visits={a: 0 for a in legal},
                      wins={a: 0 for a in legal})
    # one solver session for the decision: the worlds share its tables
    # (docs/solver.md, "A solver that lives across calls")
    dd_solver = Solver()
    # the play-outs in C where the game has them (the rules player at every
    # seat); built from the first world that needs a play-out
    native, native_tried = None, False
    totals = {a: 0.0 for a in legal}
    squares = {a: 0.0 for a in legal}
    start = _time.perf_counter()
    deadline = start + seconds if seconds is not None else math.inf
    use_dd, aborted_only = True, 0
    dd_nodes, dd_time, dd_rate = 0, 0.0, 2e6      # solver speed estimate (nodes/s)
    # solved worlds may leave tied best actions: keep 15% of a time limit
    # to tell them apart (_break_ties)
    reserve = 0.15 * seconds if seconds is not None and break_ties else 0.0
    while worlds is None or stats.worlds < worlds:
        if stats.worlds and _time.perf_counter() >= deadline - (reserve if stats.solved else 0):
            break
        if stats.worlds and control.stopped():
            stats.stopped = True
            break
        world = sample(rng)
        vals = None
        if not stats.worlds and use_dd:
            use_dd = support_for(game).root_solve(world) and not _too_big(world, nodes)
        if use_dd:
            budget = (nodes if stats.solved else
                      max(1000, min(nodes, nodes * PROBE_GROWTH ** aborted_only // PROBE_SHARE)))
            if seconds is not None:
                # a solve must not run far past the deadline: bound it by
                # the time left at the solver's measured speed
                left = deadline - _time.perf_counter()
                if not stats.worlds:
                    left /= 2           # the first world may still need its rollouts
                budget = max(1000, min(budget, int(left * dd_rate)))
            try:
                t0 = _time.perf_counter()
                vals, n = _dd_values(world, seat, budget, dd_solver)
                dd_nodes += n
                dd_time += _time.perf_counter() - t0
                if dd_nodes > 100_000:
                    dd_rate = dd_nodes / max(dd_time, 1e-6)
                stats.nodes += n
                stats.solved += 1
            except UnsupportedPositionError:
                use_dd = False          # the same for every world of this decision
            except SearchAborted as exc:
                stats.nodes += exc.nodes
                dd_nodes += exc.nodes
                dd_time += _time.perf_counter() - t0
                if not stats.solved:
                    aborted_only += 1
                    use_dd = aborted_only < GIVE_UP_AFTER
        if vals is None:
            if stats.worlds and _time.perf_counter() >= deadline:
                break
            if not native_tried:
                native_tried = True
                native = support_for(game).native_playouts(world, seat, policy, leaf_nodes,
                                                            dd_solver)
            vals = _rollout_values(world, seat, legal, bots, leaf_nodes,
                                   deadline if stats.worlds else math.inf, dd_solver, native)
            if vals is None:            # out of time inside this world: drop it
                break
            stats.nodes += len(legal)
        stats.worlds += 1
        stats.samples.append(vals)
        best = max(vals.values())
        for a in legal:
            totals[a] += vals[a]
            squares[a] += vals[a] * vals[a]
            stats.visits[a] += 1
            if vals[a] == best:
                stats.wins[a] += 1
        # control.due() is never true without a progress callback
        if progress is not None and (control.due() or stats.worlds == 1):
            stats.seconds = _time.perf_counter() - start
            stats.iterations = stats.worlds
            stats.values = {a: totals[a] / stats.worlds for a in legal}
            progress(stats)
    stats.iterations = stats.worlds
    stats.values = {a: totals[a] / stats.worlds for a in legal}
    stats.ci95 = {a: half_width(stats.worlds, totals[a], squares[a]) for a in legal}
    if break_ties and not stats.stopped:
        if not native_tried:
            native = support_for(game).native_playouts(world, seat, policy, leaf_nodes,
                                                            dd_solver)
        _break_ties(stats, sample, seat, legal, bots, leaf_nodes, rng, worlds,
                    start + seconds if seconds is not None else math.inf, control, dd_solver,
                    native)
    stats.seconds = _time.perf_counter() - start
    if progress is not None:
        progress(stats)
    return stats


def _break_ties(stats, sample, seat, legal, bots, leaf_nodes, rng, worlds, deadline,
                control=None, solver=None, native=None):
    """Exact values tie often (a paranoid solve values every card alike when
    the others can force the worst on the seat anyway; equal cards in a
    perfect-information ending): the tied best actions of solved worlds are
    then told apart by play-outs (the rules bots at every seat), in a few
    more worlds: ``worlds // 4`` (at least 1) or, under a time limit, what
    time is left (at least one world)."""
    if not stats.solved:
        return
    top = max(stats.values.values())
    tied = [a for a in legal if stats.values[a] == top]
    if len(tied) < 2:
        return
    sums, n = {a: 0.0 for a in tied}, 0
    budget = max(1, (worlds or 4) // 4)
    while n < budget or (worlds is None and _time.perf_counter() < deadline):
        if control is not None and control.stopped():
            break
        vals = _rollout_values(sample(rng), seat, tied, bots, leaf_nodes, deadline, solver,
                               native)
        if vals is None:
            break
        for a in tied:
            sums[a] += vals[a]
        n += 1
        stats.nodes += len(tied)
        if _time.perf_counter() >= deadline:
            break
    if n:
        stats.tiebreak = {a: sums[a] / n for a in tied}


def choose(stats: PIMCStats, legal: list) -> int:
    """The best mean; ties to the best play-out mean (``_break_ties``), then
    the action best in more worlds, then the lowest action."""
    return max(legal, key=lambda a: (stats.values[a], stats.tiebreak.get(a, -math.inf),
                                     stats.wins[a], -a))
