"""Information-set MCTS over the game protocol (pure Python).

Single-observer ISMCTS (SO-ISMCTS, Cowling, Powley & Whitehouse 2012): one
tree for the searching seat.  Every iteration

1. draws a world uniformly among those consistent with the seat's view
   (``Game.world_sampler``), a *determinization*;
2. descends the tree, at each node considering only the children whose
   action is legal in this world, choosing by UCB1 with *availability*
   counts (how often a child was legal when its parent was visited):
   ``mean + c * sqrt(ln(avail) / visits)``; an action never tried is
   expanded first.  With a heuristic ``prior`` (the rules bot, the default
   of the bot's Python searches) it chooses by PUCT instead (AlphaZero's
   rule): ``mean + c * P * sqrt(avail) / (1 + visits)``, ``P`` one half on
   the heuristic's action in this world and the rest split evenly, an
   untried action valued at its tried siblings' mean.  Without it, the
   few hundred iterations a bid gets leave every seat's later bids near
   random in the tree, and the search overbids (dixie-rook: ISMCTS bidding
   with UCB1 lost 80 points a deal to the rules bot, with PUCT it is level);
3. plays the rest of the current deal with the rollout policy (the rules
   bot by default where the game has one);
4. backs up the deal's result (``round_returns()``, divided by
   ``game.round_scale`` so rewards lie in [-1, 1]) from the point of view
   of the seat that moved into each node.

The tree is keyed by actions, so it stays exact for games whose actions are
all public (dix, trix, tricks, dixie-rook card play); where one seat's action
is hidden from the searcher (a dixie-rook discard, an exchange), the
determinization's own action is used, which lets the search see a hidden
move it should not ("strategy fusion" and leakage, the known weakness of
SO-ISMCTS; MO-ISMCTS avoids it at the cost of one tree per seat).

The horizon is the end of the current deal: ISMCTS optimizes the deal's
result, not the match's.  Deterministic for a seed and an iteration limit;
a time limit makes the number of iterations (and so the answer) depend on
the machine.

Exploration constant: ``c = 0.7`` by default, for rewards in [-1, 1]
(about sqrt(2)/2: the usual UCT value for rewards in [0, 1] is sqrt(2)
scaled by the range).
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..beliefs import ModelParams
from ..errors import LimitError, OptionError
from ..front import N_
from ..game import Game, State
from ..said import Quote, phrase
from ..stats import Batches, difference_half_width, half_width, search_half_width, t95
from .control import PROGRESS_SECONDS, Control
from .heuristics import has_heuristic, make_policy
from .learned import PRIORS, learned_prior, learned_rollout
from .native import check_ismcts_policy

# the errors raised here (solver/errors.py: a code and its parameters)
ISMCTS_NEEDS_LIMIT = phrase("ismcts_needs_limit", N_("ISMCTS needs an iteration or a time limit"))
ISMCTS_PRIOR = phrase("ismcts_prior", N_("ismcts: prior must be one of {choices}, got {got}"))


@dataclass
class _Node:
    visits: int = 0
    total: float = 0.0          # reward sum for the seat that moved into this node
    avail: int = 0
    children: dict = field(default_factory=dict)
    squares: float = 0.0        # sum of squared rewards (kept for the root's children)


@dataclass
class SearchStats:
    """What a search found at its root.  ``values[a]``: the mean result of
    the deal (game points) over the iterations that tried ``a``;
    ``ci95[a]``: its 95% interval half-width; ``stopped``: ended by a stop
    request before its limit.

    The iterations of a tree search are not independent draws (the tree's
    choices feed on the results before them), so the intervals come from
    ``batches``: per tree, each root action's results in consecutive
    batches (``solver.stats.Batches``), pooled across the trees (a cluster
    estimate), widened by twice the value's drift between the whole search
    and its later half (``solver.stats.search_half_width``: a value still
    moving as the tree grows is less certain than its sampling error says;
    tests/search/test_intervals.py holds the coverage).  A search without batches
    (an old kernel) falls back to the iterations' own spread and the spread
    between trees."""

    values: dict[int, float]    # action -> mean result of the deal, in game points
    visits: dict[int, int]      # action -> visits
    iterations: int
    nodes: int
    seconds: float
    ci95: dict[int, float] = field(default_factory=dict)
    stopped: bool = False
    #: each tree's ``{action: (visits, mean)}`` (root parallelism)
    per_tree: list[dict[int, tuple[int, float]]] = field(default_factory=list)
    #: the half-widths from the iterations alone, as if independent
    iid95: dict[int, float] = field(default_factory=dict)
    scale: float = 1.0
    #: each tree's ``{action: [(count, sum in game points), ...]}``
    batches: list[dict[int, list[tuple[int, float]]]] = field(default_factory=list)

    def action_batches(self, a) -> list:
        """Every tree's batches of ``a`` together."""
        return [b for tree in self.batches for b in tree.get(a, ())]

    def tree_batches(self, a) -> list:
        """Each tree's batches of ``a``, in the order they arrived."""
        return [tree.get(a, []) for tree in self.batches]

    def tree_totals(self, a) -> list:
        """Each tree's ``(count, sum)`` of ``a``'s results (0, 0 where unsearched)."""
        return [(sum(n for n, _ in tree.get(a, ())), sum(s for _, s in tree.get(a, ())))
                for tree in self.batches]

    def difference_half_width(self, a, b) -> float:
        """The 95% half-width of ``values[a] - values[b]``: the two batch
        variances less their covariance through the trees they share (an
        early choice deep in a tree shifts every action's level at once,
        which cancels in the difference)."""
        if a not in self.values or b not in self.values:
            return math.inf
        if self.batches:
            return difference_half_width(self.action_batches(a), self.action_batches(b),
                                         self.tree_totals(a), self.tree_totals(b))
        diffs = [t[a][1] - t[b][1] for t in self.per_tree if a in t and b in t]
        if len(diffs) < 2:
            return math.hypot(self.ci95.get(a, math.inf), self.ci95.get(b, math.inf))
        iid = math.hypot(self.iid95.get(a, math.inf), self.iid95.get(b, math.inf))
        return max(iid, _t_half_width(diffs) * self.scale)


def ismcts_search(sampler, seat: int, root_legal: list[int], game: Game, *,
                  iterations: int | None = None, seconds: float | None = None,
                  c: float = 0.7, rng: random.Random, rollout=None,
                  prior=None, progress=None, stop=None) -> SearchStats:
    """Run SO-ISMCTS from a world sampler; see the module docstring.

    ``rollout(state, rng) -> action`` is the playout policy (default
    uniform random).  ``prior(state) -> action``: a heuristic's choice in
    the world at hand; with it the tree selects by PUCT (``_select_puct``,
    ``c`` is then the PUCT constant) instead of UCB1.
    ``progress(stats)`` is called about every 0.1 s (``control``);
    ``stop.is_set()`` ends the search early with what it has."""
    if iterations is None and seconds is None:
        raise LimitError(ISMCTS_NEEDS_LIMIT())
    control = Control(stop, progress)
    root = _Node()
    batches: dict = {}                              # root action -> Batches
    scale = float(game.round_scale)
    start = _time.perf_counter()
    deadline = start + seconds if seconds is not None else None
    nodes = 1
    it = 0
    while True:
        if iterations is not None and it >= iterations:
            break
        if deadline is not None and it > 0 and _time.perf_counter() >= deadline:
            break
        if control.stopped():
            break
        world = sampler.sample(rng)
        horizon = world.round_index()
        node = root
        path = []                                   # (node, mover)
        # selection / expansion
        while not world.is_terminal() and world.round_index() == horizon:
            legal = world.legal_actions()
            mover = world.current_player()
            if prior is not None:
                a, child = _select_puct(node, legal, prior(world), c)
                if child.visits == 0:               # expansion
                    nodes += 1
                    world.apply_action(a)
                    path.append((child, mover))
                    break
                node = child
                world.apply_action(a)
                path.append((node, mover))
                continue
            untried = [a for a in legal if a not in node.children]
            for a in legal:
                child = node.children.get(a)
                if child is not None:
                    child.avail += 1
            if untried:
                a = untried[rng.randrange(len(untried))]
                child = _Node(avail=1)
                node.children[a] = child
                nodes += 1
                world.apply_action(a)
                path.append((child, mover))
                break
            best, best_score = None, -math.inf
            for a in legal:
                ch = node.children[a]
                score = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if score > best_score:
                    best, best_score = a, score
            node = node.children[best]
            world.apply_action(best)
            path.append((node, mover))
        # rollout to the end of the deal
        while not world.is_terminal() and world.round_index() == horizon:
            legal = world.legal_actions()
            a = rollout(world, rng) if rollout else legal[rng.randrange(len(legal))]
            world.apply_action(a)
        result = world.round_returns(horizon)
        rewards = [max(-1.0, min(1.0, r / scale)) for r in result]
        root.visits += 1
        for n, mover in path:
            n.visits += 1
            n.total += rewards[mover]
        if path:
            path[0][0].squares += rewards[path[0][1]] ** 2
            first = next(a for a, ch in root.children.items() if ch is path[0][0])
            batches.setdefault(first, Batches()).add(rewards[path[0][1]])
        it += 1
        if progress is not None and (it == 1 or control.due()):
            progress(_stats(root, it, nodes, start, scale))
    stats = _stats(root, it, nodes, start, scale, batches)
    stats.stopped = control.stopped()
    if progress is not None:
        progress(stats)                      # and once at the end
    return stats


#: PUCT prior: the heuristic's action gets this share of the prior, the
#: other legal actions split the rest evenly
PRIOR_SHARE = 0.5


def _select_puct(node: _Node, legal: list, favoured, c: float):
    """PUCT selection among ``legal`` (AlphaZero's rule with a heuristic
    prior, availability counts for ISMCTS):
    ``Q(a) + c * P(a) * sqrt(avail(a)) / (1 + visits(a))``, ``P`` = ``PRIOR_SHARE``
    on the heuristic's action ``favoured`` and the rest split evenly; an
    action never tried is valued at the mean of its tried siblings (first
    play urgency; 0 when none was tried).  Children are created here and
    their ``avail`` counted; returns ``(action, child)``."""
    children = node.children
    tot, vis = 0.0, 0
    for a in legal:
        ch = children.get(a)
        if ch is None:
            ch = children[a] = _Node()
        ch.avail += 1
        if ch.visits:
            tot += ch.total
            vis += ch.visits
    fpu = tot / vis if vis else 0.0
    k = len(legal)
    other = (1.0 - PRIOR_SHARE) / (k - 1) if k > 1 else 0.0
    best, best_score = None, -math.inf
    for a in legal:
        ch = children[a]
        p = PRIOR_SHARE if a == favoured else other
        if k == 1:
            p = 1.0
        q = ch.total / ch.visits if ch.visits else fpu
        score = q + c * p * math.sqrt(ch.avail) / (1 + ch.visits)
        if score > best_score:
            best, best_score = a, score
    return best, children[best]


#: searches at least this long (seconds, iterations) run with the kernel's
#: monitor (progress, stop, Ctrl-C); shorter ones end before it would matter
MONITOR_ABOVE_SECONDS = 0.05
MONITOR_ABOVE_ITERATIONS = 50_000


def run_native(native, game: Game, iterations, seconds, c, trees, seed, progress=None,
               stop=None, threads: int | None = None) -> SearchStats:
    """Run a prepared Cython search of ``trees`` trees on ``threads`` threads
    (None: one a tree); the result in the same form as
    ``ismcts_search``'s.  ``progress(stats)`` about every 0.1 s (from the
    kernel's monitor, with approximate statistics) and ``stop`` as in
    ``ismcts_search``; Ctrl-C in the main thread raises
    ``KeyboardInterrupt`` within a fraction of a second."""
    start = _time.perf_counter()
    its = iterations if iterations is not None else 10**12
    scale = float(game.round_scale)
    control = Control(stop, progress)
    last = [0.0]

    def poll(done, visits, means):
        if control.stopped():
            return True
        now = _time.perf_counter()
        if progress is not None and now - last[0] >= PROGRESS_SECONDS:
            last[0] = now
            progress(SearchStats({a: m * scale for a, m in means.items()}, visits, done,
                                 sum(visits.values()) + 1, now - start))
        return False

    # the monitor costs a thread and a millisecond: worth it only for a
    # search that can run long enough to want progress, a stop or Ctrl-C
    long = progress is not None or stop is not None or (seconds or 0) >= MONITOR_ABOVE_SECONDS \
        or its >= MONITOR_ABOVE_ITERATIONS
    out = native.run(its, seconds or 0.0, seed, trees, c, poll if long else None, threads or 0)
    visits, means, done, squares, per_tree = out[:5]
    values = {a: m * scale for a, m in means.items()}
    iid = {a: half_width(visits[a], means[a] * visits[a], squares.get(a, 0.0), scale)
           for a in means}
    stats = SearchStats(values, visits, done, sum(visits.values()) + 1,
                        _time.perf_counter() - start, {}, control.stopped(), per_tree, iid,
                        scale)
    if len(out) > 5:
        # the kernel's batch means (solver.stats.Batches), in game points
        stats.batches = [{a: [(n, s * scale) for n, s in bs] for a, bs in tree.items()}
                         for tree in out[5]]
        stats.ci95 = {a: search_half_width(stats.tree_batches(a)) for a in means}
    else:
        stats.ci95 = {a: max(iid[a], between_trees(per_tree, a, scale)) for a in means}
    if progress is not None:
        progress(stats)
    return stats


def between_trees(per_tree: list, action, scale: float = 1.0) -> float:
    """The 95% half-width of ``action``'s value from the spread of its mean
    between independent trees (root parallelism), for a kernel that keeps
    no batches: 0 with fewer than two trees that tried the action."""
    return _t_half_width([t[action][1] for t in per_tree if action in t]) * scale


def _t_half_width(xs: list) -> float:
    """The 95% half-width of the mean of ``xs`` by Student's t (0 with
    fewer than two)."""
    k = len(xs)
    if k < 2:
        return 0.0
    mean = sum(xs) / k
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (k - 1))
    return t95(k - 1) * sd / math.sqrt(k)


def _stats(root, it, nodes, start, scale, batches=None) -> SearchStats:
    kids = root.children.items()
    values = {a: ch.total / ch.visits * scale for a, ch in kids if ch.visits}
    visits = {a: ch.visits for a, ch in kids}
    stats = SearchStats(values, visits, it, nodes, _time.perf_counter() - start)
    if batches:
        stats.batches = [{a: b.pairs(scale) for a, b in batches.items()}]
        stats.ci95 = {a: search_half_width(stats.tree_batches(a)) for a in values}
    else:
        stats.ci95 = {a: half_width(ch.visits, ch.total, ch.squares, scale)
                      for a, ch in kids if ch.visits}
    return stats


def python_policies(game: Game, policy: str, prior: str, rng: random.Random,
                    params: ModelParams | None = None):
    """``(rollout, prior)`` callables for ``ismcts_search``: the game's rules
    bot (one per seat, seeded from ``rng``) where ``policy`` / ``prior`` is
    ``"rules"`` and the game has one; the learned policy
    (``solver.search.learned``) where it is ``"learned"`` (``"leads"``: the
    play-outs' leads only), the rules bot filling in for a decision the
    model does not describe; ``None`` (uniform random play-outs, UCB1)
    otherwise."""
    check_ismcts_policy(policy)
    check_prior(prior)
    if policy == "random" and prior == "none":
        return None, None
    heuristic: Callable[..., int] | None = None
    if has_heuristic(game):
        players = [make_policy("rules", game, s, seed=rng.randrange(1 << 30))
                   for s in range(game.num_players)]

        def rules_move(world: State, rng: random.Random | None = None) -> int:
            return players[world.current_player()].step(world)
        heuristic = rules_move

    rollout = heuristic if policy == "rules" else None
    if policy in ("learned", "leads"):
        rollout = learned_rollout(game, random.Random(rng.randrange(1 << 30)),
                                  heuristic if heuristic is not None else _random_move(rng),
                                  params, leads=policy == "leads")
    tree = heuristic if prior == "rules" else None
    if prior == "learned":
        tree = learned_prior(game, heuristic, params)
    return rollout, tree


def _random_move(rng: random.Random) -> Callable[..., int]:
    def move(world: State, _rng: random.Random | None = None) -> int:
        return rng.choice(world.legal_actions())
    return move


def check_prior(prior) -> None:
    """``prior`` is one of ``learned.PRIORS`` (else ``OptionError``)."""
    if prior not in PRIORS:
        raise OptionError(ISMCTS_PRIOR(choices=', '.join(PRIORS), got=Quote(prior)))
