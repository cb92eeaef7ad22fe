"""The decision service: ``best_move`` and ``evaluate``, the one path from a
position and a limit to a decision and its evidence.

Every face calls it: the search bots (``ismcts``, ``pimc``, ``cheat`` are
settings over it), ``dixtrix hint``, the engine protocol, the HTTP API, the
web table's bots, the ladder and game review.  So the same position, limit,
settings and seed give the same action from every face.

The order of a decision:

1. one legal action: it is played (``bot="forced"``, no search);
2. the seat's view determines the deal (its world sampler has one world:
   dix after the stock, any position whose hidden cards are pinned down)
   and the exact solver takes it: the exact values, bounded by
   ``Limit.nodes`` (default: ``DEFAULT_EXACT_NODES`` when the limit counts
   iterations or worlds, ``EXACT_NODES_PER_SECOND`` a second of a time
   limit alone), with the search as the fallback past the bound
   (``bot="exact"``);
3. otherwise the search: ISMCTS (``bot="ismcts"``, the Cython kernels
   wherever the game provides one for the decision, else the Python search)
   or PIMC (``bot="pimc"``).  A contract choice of trix / tricks is judged
   over the whole kingdom or dealer's set (``solver.search.contract_choice``).

The result carries every legal action's value and interval, its visits
(ISMCTS iterations, PIMC worlds), the ``ranking`` the advice is made from
(the advised action first) and, for an action listed below the advice with
a higher mean, the reason in words (``solver.search.advice``).

Both take a *position* -- a seat view (what the player to advise knows), a
game record (turned into the view of the seat to move, so that the advice
never uses cards that seat cannot see) or a ``State`` -- and a ``Limit``.
A ``progress`` callback receives a dict (``iterations``, ``seconds``,
``nodes``, ``best``, ``value``) about every 0.1 s; ``stop`` (a
``threading.Event``) ends a search early with the best found so far
(``stopped=True``); Ctrl-C raises ``KeyboardInterrupt`` within a fraction
of a second (``solver/search/control.py``).

Determinism: the same position, limit, settings and ``seed`` give the same
answer when the limit is a number of iterations or worlds; a time limit
(the default, one second) makes the amount of work depend on the machine.
"""

from __future__ import annotations

import math
import os
import random
import time as _time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..beliefs import DEFAULT_POOL, Beliefs, BeliefWorlds, ModelParams, RowSampler, weigh
from ..dd import solve
from ..errors import (
    LimitError,
    OptionError,
    PositionError,
    SearchAborted,
    UnsupportedPositionError,
)
from ..front import N_
from ..game import Game, State, WorldSampler, check_seed
from ..position import Record, SeatView, from_json
from ..said import Quote, Said, phrase
from ..stats import half_width
from . import contract_choice
from .advice import Advice, Evidence, decide, decide_exact
from .control import Control, StopFlag, check_progress, check_stop
from .equivalence import card_classes, pool
from .heuristics import POLICIES, has_heuristic, make_policy
from .ismcts import SearchStats, ismcts_search, python_policies, run_native
from .learned import attach, check_model
from .limits import Limit, check_limit
from .native import ALL_CARDS, LEARNED_PLAYOUTS, root_keep
from .pimc import PIMCStats, check_policy, pimc_search
from .settings import (
    DEFAULT_TREES,
    MAX_POOL,
    SearchSettings,
    check_for_bot,
    check_inference,
    check_threads,
    check_trees,
    settings_of,
)
from .support import support_for
from .value import attach_value, check_leaf, leaf_value

# the errors raised here (solver/errors.py: a code and its parameters)
NOT_A_POSITION = phrase("not_a_position", N_("expected a position (seat view, record, JSON or State), got "
                                             "{got}"))
OMNISCIENT_NEEDS_CARDS = phrase("omniscient_needs_cards", N_("omniscient advice needs every card: a State "
                                                             "or a complete record, got {got}"))
BEST_MOVE_UNKNOWN_BOT = phrase("best_move_unknown_bot", N_("best_move: unknown bot {bot} (known: {bots})"))
NO_MOVE_TO_ADVISE = phrase("no_move_to_advise", N_("the game is over: there is no move to advise"))
NOT_TO_MOVE = phrase("not_to_move", N_("seat {seat} is not to move (seat {turn} is)"))
BELIEFS_COUNT_WORLDS = phrase("beliefs_count_worlds", N_("beliefs count worlds: give Limit(worlds=...)"))
BELIEFS_POOL = phrase("beliefs_pool", N_("beliefs weigh at most {most:,} worlds, got {got:,}"))
INFERENCE_BOOL = phrase("inference_bool", N_("inference must be true or false, got {got}"))
BELIEFS_VIEW = phrase("beliefs_view", N_("{name}: no beliefs for this view"))
EVALUATE_POLICY = phrase("evaluate_policy", N_("evaluate: unknown policy {policy} (known: {policies})"))
ISMCTS_COUNTS_ITERATIONS = phrase("ismcts_counts_iterations", N_("bot 'ismcts' counts iterations: give "
                                                                 "Limit(iterations=...) or a time"))
PIMC_COUNTS_WORLDS = phrase("pimc_counts_worlds", N_("bot 'pimc' counts worlds: give Limit(worlds=...) or "
                                                     "a time"))

#: what ``best_move`` searches when no limit is given
DEFAULT_LIMIT_SECONDS = 1.0
#: a result's ``note`` when every card was known but the exact solve passed
#: its bound (every face says it in its own words: bots/server/words.py)
NOTE_BOUND = phrase("search.note_bound",
                    N_("every card is known, but the exact solve passed its bound of "
                       "{nodes:,} nodes: searched instead"))
#: a result's note when ``strict_kind`` refused the solve's kind of value
NOTE_KIND = phrase("search.note_kind",
                   N_("every card is known, but no {kind} value was solved here: searched "
                      "instead"))

def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system
    has one), 1 to 64."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return max(1, min(64, n))


#: the searches ``best_move`` runs
BOTS = ("ismcts", "pimc")
#: the exact solve of a determined position may spend this many nodes for
#: each second of a time limit (the solvers run 1-3 M nodes a second): a
#: solve that would overrun the time hands over to the search
EXACT_NODES_PER_SECOND = 1_000_000
#: the exact solve's bound when the limit counts iterations or worlds
DEFAULT_EXACT_NODES = 5_000_000


@dataclass(frozen=True)
class PlayResult:
    """The advice for the seat to move.

    ``action``: the advised action (notation); ``ranking``: every legal
    action in the order the advice prefers them, ``action`` first (every
    face lists them in this order); ``values``: each legal action's
    estimated result of the deal for the seat, in ``unit``; ``ci95``: each
    value's 95% interval half-width (0 for exact values); ``equal``: the
    actions the advice cannot tell from ``action`` (``action`` first: the
    search cannot separate them at 95%, or the exact values are equal);
    ``reasons``: for each action listed below ``action`` with a higher
    value, why it is not the advice, in English (``reason_codes``: the same
    as codes with their parameters, ``solver.said.Said``); ``visits``: how much search
    each got (ISMCTS iterations, PIMC worlds); ``confidence``: the share of
    the search that chose ``action``; ``bot``: how the advice was found --
    ``"forced"`` (one legal action), ``"exact"`` (the view determines the
    deal: solved), ``"ismcts"`` or ``"pimc"``; ``iterations``, ``nodes``,
    ``time``: work done; ``stopped``: a stop request ended the search
    early; ``same``: the classes of equivalent cards among the legal
    actions (``solver.search.equivalence``), each class of two or more
    cards as a tuple, pooled; ``note``: why an exact solve was not used
    where one was tried, in English (``note_code``: the same as a code);
    ``winners``: dix, exact values: the seat that wins the round after
    each action; ``diff_ci95``: each action's 95% half-width
    of its value minus ``action``'s (the search's paired estimate: worlds
    shared, or trees shared; 0 for exact values), the interval of what
    playing it instead would lose; ``beliefs``: when the search weighed its
    worlds by what the other seats chose (``solver.beliefs``): the pool's
    ``worlds``, their effective sample size ``ess`` and the
    ``observations`` weighed (empty when the worlds were uniform);
    ``action_id``: the advised action's id (``State.apply_action``'s), and
    ``ids``: every legal action's id by its notation, so that a face that
    holds the names never parses them again; ``search``: what guided an ISMCTS
    search, its ``prior`` (``rules``, ``learned``, ``none``) and ``playout``
    (``rules``, ``learned``, ``random``) as it ran them: ``learned`` is
    named only where the game's learned policy was used, the rules
    otherwise (solver/search/learned.py); ``brackets`` and ``span``:
    where an exact solve was tried and passed its bound (``note``), what
    it proved (``solver.dd.Bounded``'s: each action's value of the
    solver's own, proved in ``[lo, hi]``, and the game's range), else
    None."""

    action: str
    values: dict[str, float]
    visits: dict[str, int]
    confidence: float
    seat: int
    nodes: int
    time: float
    bot: str
    ci95: dict[str, float] = field(default_factory=dict)
    equal: tuple[str, ...] = ()
    iterations: int = 0
    stopped: bool = False
    unit: str = "points this deal"
    same: tuple[tuple[str, ...], ...] = ()
    ranking: tuple[str, ...] = ()
    reasons: dict[str, str] = field(default_factory=dict)
    note: str = ""
    winners: dict[str, int] | None = None
    diff_ci95: dict[str, float] = field(default_factory=dict)
    beliefs: dict[str, float] = field(default_factory=dict)
    action_id: int = -1
    ids: dict[str, int] = field(default_factory=dict)
    search: dict[str, str] = field(default_factory=dict)
    brackets: Mapping[str, tuple[int, int]] | None = None
    span: tuple[int, int] | None = None
    reason_codes: dict[str, Said] = field(default_factory=dict)
    note_code: Said | None = None


@dataclass(frozen=True)
class Evaluation:
    """Expected result of the current deal per seat (``unit``) with a 95%
    confidence interval half-width, from ``worlds`` sampled deals;
    ``beliefs`` as ``PlayResult``'s."""

    values: list[float]
    ci95: list[float]
    worlds: int
    time: float
    method: str
    stopped: bool = False
    unit: str = "points this deal"
    beliefs: dict[str, float] = field(default_factory=dict)


# --------------------------------------------------------------------------
# input




def default_threads(trees: int) -> int:
    """The worker threads that grow ``trees`` trees when none are given: one
    a tree, at most one a usable core (the answer does not depend on it)."""
    return max(1, min(trees, usable_cores()))


def belief_seed(seed: int) -> int:
    """The seed of a search's pool of worlds, from the search's seed (a
    stream of its own, the same on every machine)."""
    return random.Random(f"beliefs:{seed}").getrandbits(64)


def view_beliefs(sampler: WorldSampler, game: Game, inference: bool | None, pool: int,
                 seed: int, params: ModelParams | None = None) -> Beliefs | None:
    """The beliefs a search of this view weighs its worlds with (under
    ``params``, else the model the game ships), or None: inference off
    (None: the game's default), a view whose deal is determined, or a game
    without an opponent model."""
    support = support_for(game)
    if not (support.inference if inference is None else inference):
        return None
    if not isinstance(sampler, RowSampler) or sampler.worlds() == 1:
        return None
    model = support.opponent_model(game)
    if model is None:
        return None
    return weigh(sampler, model.observations(sampler), params or model.params(), pool,
                 belief_seed(seed))


def belief_summary(beliefs: Beliefs | None) -> dict[str, float]:
    """What a result says of its beliefs (empty: uniform worlds)."""
    if beliefs is None:
        return {}
    return {"worlds": beliefs.n, "ess": beliefs.ess, "observations": beliefs.observations}


def _as_view(position: Any) -> SeatView:
    if isinstance(position, State):
        seat = position.current_player()
        if position.is_terminal() or seat < 0:
            raise PositionError(NO_MOVE_TO_ADVISE())
        return SeatView.of(position, seat)
    if isinstance(position, (dict, str, bytes, bytearray)):
        position = from_json(position)
    if isinstance(position, Record):
        state = position.state()
        seat = state.current_player()
        if state.is_terminal() or seat < 0:
            raise PositionError(NO_MOVE_TO_ADVISE())
        return SeatView.of(state, seat)
    if isinstance(position, SeatView):
        return position
    raise PositionError(NOT_A_POSITION(got=type(position).__name__))


class _TrueWorld(WorldSampler):
    """The one world of a player who sees every card (``omniscient``)."""

    def __init__(self, state: State):
        self.state = state

    def worlds(self) -> int:
        return 1

    def sample(self, rng: random.Random) -> State:
        return self.state.clone()


def _true_state(position: Any) -> State:
    if isinstance(position, (dict, str, bytes, bytearray)):
        position = from_json(position)
    if isinstance(position, Record):
        return position.state()
    if isinstance(position, State):
        return position.clone()
    raise PositionError(OMNISCIENT_NEEDS_CARDS(got=type(position).__name__))


# --------------------------------------------------------------------------
# best_move


def best_move(position: Any, limit: Limit | None = None, bot: str = "ismcts",
              seed: int = 0, progress: Callable[[dict[str, Any]], None] | None = None,
              stop: StopFlag | None = None, *, settings: SearchSettings | None = None,
              **legacy: Any) -> PlayResult:
    """The best action for the seat to move in ``position``, with every
    legal action's value, interval and visits and the ranking the advice is
    made from (see the module docstring for the order of a decision).

    ``limit``: how much to search, default one second.  ``bot``:
    ``"ismcts"`` (information-set MCTS; ``Limit.iterations`` / ``time``) or
    ``"pimc"`` (sampled worlds each solved double-dummy where the solver
    applies, else played out; ``Limit.worlds`` / ``time``).  ``seed``,
    ``progress`` and ``stop``: see the module docstring.  ``settings``: how
    to search (``SearchSettings``, solver/search/settings.py: the trees and
    threads, ``c``, ``policy``, ``prior``, ``equivalence``, ``leaf``,
    ``py_iterations``, ``exact``, ``omniscient``, ``inference``, ``pool``,
    ``kind``, ``strict_kind``, ``model``; None: the defaults).

    The settings' names are taken as keywords too (``trees=3``,
    ``exact=False``), each folded into ``settings`` (a keyword given beside
    ``settings`` replaces its field), so ``best_move(view, limit,
    trees=3)`` and ``best_move(view, limit, settings=SearchSettings(
    trees=3))`` give the same answer; and ``nodes``, the same as
    ``Limit.nodes`` (the bound of an exact solve).  A name that is neither
    is a ``TypeError``.

    What depends on ``bot`` or the game is checked here, once: PIMC's
    play-outs (never ``learned``), the leaf for the search and the game
    (``value.check_leaf``) and the model (``learned.check_model``)."""
    if not isinstance(bot, str) or bot not in BOTS:
        raise OptionError(BEST_MOVE_UNKNOWN_BOT(bot=Quote(bot), bots=', '.join(BOTS)))
    limit = check_limit(limit, Limit(time=DEFAULT_LIMIT_SECONDS))
    nodes = legacy.pop("nodes", None)
    if nodes is not None:
        limit = Limit(limit.time, limit.iterations, limit.worlds, nodes)
    check_seed(seed)
    check_progress(progress)
    check_stop(stop)
    settings = settings_of(settings, legacy)
    check_for_bot(settings, bot)
    sampler: WorldSampler
    if settings.omniscient:
        state = _true_state(position)
        if state.is_terminal():
            raise PositionError(NO_MOVE_TO_ADVISE())
        sampler, seat, game = _TrueWorld(state), state.current_player(), state.game
    else:
        view = _as_view(position)
        sampler, seat, game = view.sampler(), view.seat, view.game
    # the settings as this search runs them: each default that depends on
    # the game, the search or the machine made explicit, so that ``_Job``
    # reads one object and never a default
    settings = settings.replace(
        threads=default_threads(settings.trees) if settings.threads is None
        else settings.threads,
        model=None if settings.model is None
        else check_model(game, settings.model, "best_move: model"),
        prior=settings.prior if settings.prior is not None
        else support_for(game).default_prior(game),
        leaf=check_leaf(settings.leaf, bot, game),
        strict_kind=settings.strict_kind and settings.kind is not None)
    world = sampler.sample(random.Random(seed))
    if world.is_terminal():
        raise PositionError(NO_MOVE_TO_ADVISE())
    if world.current_player() != seat:
        raise PositionError(NOT_TO_MOVE(seat=seat, turn=world.current_player()))
    legal = world.legal_actions()
    job = _Job(game, sampler, world, seat, legal, limit, seed, progress, stop, settings)
    if len(legal) == 1:
        return job.forced()
    if not settings.omniscient:
        job.beliefs = view_beliefs(sampler, game, settings.inference, settings.pool, seed,
                                   settings.model)
    note: Said | None = None
    if settings.exact:
        t0 = _time.perf_counter()
        res = job.exact()
        if isinstance(res, PlayResult):
            return res
        note = res
        if note is not None and limit.time is not None:
            # a solve that passed its bound spent part of the time: the
            # search has the rest (at least a tenth), so a move keeps its time
            spent = _time.perf_counter() - t0
            job.limit = Limit(max(0.1 * limit.time, limit.time - spent), limit.iterations,
                              limit.worlds, limit.nodes)
    if bot == "ismcts":
        res = job.ismcts()
    else:
        res = job.pimc()
    if note is not None:
        res = _with(res, note=note.english(), note_code=note, brackets=job.proved[0],
                    span=job.proved[1])
    return res


def _with(res: PlayResult, **changes: Any) -> PlayResult:
    return replace(res, **changes)


class _Job:
    """One decision's inputs, and the ways to decide it."""

    def __init__(self, game: Game, sampler: WorldSampler, world: State, seat: int,
                 legal: list[int], limit: Limit, seed: int,
                 progress: Callable[[dict[str, Any]], None] | None, stop: StopFlag | None,
                 settings: SearchSettings):
        self.game, self.sampler, self.world, self.seat = game, sampler, world, seat
        self.legal, self.limit, self.seed = legal, limit, seed
        self.progress, self.stop = progress, stop
        #: how to search, every default made explicit by ``best_move``
        #: (``threads``, ``prior``, ``leaf``; ``model`` as ``ModelParams``)
        self.settings = settings
        self.support = support_for(game)
        self.name = world.action_to_string
        self.unit = game.round_unit
        #: the view's beliefs when the searches weigh their worlds (set by
        #: ``best_move`` before a search; an exact solve never reads them)
        self.beliefs: Beliefs | None = None
        #: what guided the ISMCTS search (``PlayResult.search``)
        self.used: dict[str, str] = {}
        #: an exact solve that passed its bound: what it proved (brackets, span)
        self.proved: tuple[Any, Any] = (None, None)

    def worlds(self) -> WorldSampler:
        """The worlds the Python searches draw: the beliefs' weighed pool,
        or the view's uniform sampler."""
        return BeliefWorlds(self.beliefs) if self.beliefs is not None else self.sampler

    def belief_summary(self) -> dict[str, float]:
        return belief_summary(self.beliefs)

    # ---- 1. one legal action --------------------------------------------

    def forced(self) -> PlayResult:
        a = self.name(self.legal[0])
        return PlayResult(a, {}, {}, 1.0, self.seat, 0, 0.0, "forced", ranking=(a,),
                          equal=(a,), unit=self.unit, action_id=self.legal[0],
                          ids={a: self.legal[0]})

    # ---- 2. the view determines the deal: solve it ----------------------

    def exact_budget(self) -> int:
        """``Limit.nodes``; else, for a limit that counts work (iterations
        or worlds), ``DEFAULT_EXACT_NODES``, so the same count gives the same
        answer on any machine; for a time alone, what the solvers do in it."""
        limit = self.limit
        if limit.nodes is not None:
            return limit.nodes
        if limit.time is not None and limit.iterations is None and limit.worlds is None:
            return max(1000, int(limit.time * EXACT_NODES_PER_SECOND))
        return DEFAULT_EXACT_NODES

    def exact(self) -> PlayResult | Said | None:
        """The exact result, or why there is none (None where no solve was
        tried: the view leaves several worlds, or the game's support says
        the solver's objective is not the seat's)."""
        if self.sampler.worlds() != 1 or not self.support.root_solve(self.world):
            return None
        kind, strict = self.settings.kind, self.settings.strict_kind
        if strict and kind and not self.support.kind_tried(self.world, kind):
            return NOTE_KIND(kind=kind)
        start = _time.perf_counter()
        try:
            sol = solve(self.world, seat=self.seat, max_nodes=self.exact_budget(), kind=kind)
        except UnsupportedPositionError:
            return None
        except SearchAborted as exc:
            self.proved = (exc.brackets, exc.span)
            return NOTE_BOUND(nodes=exc.nodes)
        if strict and sol.kind not in (kind, "minimax"):
            return NOTE_KIND(kind=kind)
        values = self.support.exact_values(self.world, self.seat, sol)
        advice = decide_exact(self.legal, values, self.world.tie_key)
        name = self.name
        winners = None
        if sol.action_winners:
            winners = {a: sol.action_winners[a] for a in sol.action_winners}
        res = PlayResult(name(advice.action), {name(a): v for a, v in values.items()},
                         {}, 1.0, self.seat, sol.nodes, _time.perf_counter() - start,
                         "exact", {name(a): 0.0 for a in values},
                         tuple(name(a) for a in advice.equal), 0, False, self.unit, (),
                         tuple(name(a) for a in advice.ranking), {}, "", winners,
                         {name(a): 0.0 for a in values}, action_id=advice.action,
                         ids=self.ids())
        if self.progress is not None:
            self.progress({"iterations": 0, "seconds": res.time, "nodes": sol.nodes,
                           "best": res.action, "value": values[advice.action]})
        return res

    # ---- 3. the search --------------------------------------------------

    def report(self, stats: SearchStats | PIMCStats, pick: Callable[[Any], int]) -> None:
        if self.progress is not None and stats.visits:
            best = pick(stats)
            self.progress({"iterations": stats.iterations, "seconds": stats.seconds,
                           "nodes": stats.nodes, "best": self.name(best),
                           "value": stats.values.get(best)})

    def ismcts(self) -> PlayResult:
        limit, s = self.limit, self.settings
        # names here: best_move resolved the game's defaults (None, True, False)
        prior, leaf = str(s.prior), str(s.leaf)
        contract = contract_choice.applies(self.world)
        classes = card_classes(self.world, self.legal)
        keep = root_keep(classes) if s.equivalence else ALL_CARDS
        # the kernels' encodings read a seat view's sampler; a player who
        # sees every card has the game's search of the one true world, else
        # the Python search
        kernel_policy = "rules" if s.policy in LEARNED_PLAYOUTS else s.policy
        if isinstance(self.sampler, _TrueWorld):
            native = self.support.native_seen(self.world, kernel_policy, keep, s.equivalence)
        else:
            native = self.support.native(self.sampler, kernel_policy, keep, s.equivalence)
        if native is not None and self.beliefs is not None:
            b = self.beliefs
            native.set_pool(b.rows, b.n_places, b.cum)
        # what the search is guided by: the learned policy where asked and
        # the kernel has it for this decision, else the rules
        used = {"prior": prior, "playout": s.policy, "leaf": leaf}
        if native is not None and (prior == "learned" or s.policy in LEARNED_PLAYOUTS):
            if not attach(native, self.game, self.world, prior=prior == "learned",
                          playout=s.policy, params=s.model):
                used = {k: "rules" if v in ("learned", "leads") and k != "leaf" else v
                        for k, v in used.items()}
        if leaf == "value" and not attach_value(native, leaf_value(self.game, native)):
            used["leaf"] = "playout"
        self.used = used
        if native is None and contract:
            # no native search of the contract choice: every contract played
            # out in the same worlds (equal work, paired comparisons), a
            # world a contract for each iteration asked
            worlds = limit.worlds
            if worlds is None and limit.iterations is not None:
                worlds = max(1, (s.py_iterations or limit.iterations) // len(self.legal))
            return self.pimc(Limit(time=limit.time, worlds=worlds, nodes=limit.nodes))
        if native is not None and contract and limit.iterations is None and \
                limit.time is None and limit.worlds is not None:
            # the native contract choice plays every contract in each world:
            # a world is an iteration a contract
            limit = Limit(iterations=limit.worlds * len(self.legal), nodes=limit.nodes)
        if limit.iterations is None and limit.time is None:
            raise LimitError(ISMCTS_COUNTS_ITERATIONS())

        def pick(stats: SearchStats) -> int:
            return max(stats.visits, key=lambda a: (stats.visits[a],
                                                    stats.values.get(a, -math.inf)))

        progress = (lambda st: self.report(st, pick)) if self.progress else None
        if native is not None:
            stats = run_native(native, self.game, limit.iterations, limit.time, float(s.c),
                               s.trees, random.Random(self.seed).getrandbits(64),
                               progress=progress, stop=self.stop, threads=s.threads)
        else:
            rng = random.Random(self.seed)
            rollout, tree_prior = python_policies(self.game, s.policy, prior, rng, s.model)
            its = s.py_iterations if s.py_iterations is not None else limit.iterations
            stats = ismcts_search(self.worlds(), self.seat, self.legal, self.game,
                                  iterations=its, seconds=limit.time, c=float(s.c), rng=rng,
                                  rollout=rollout, prior=tree_prior, progress=progress,
                                  stop=self.stop)
        visits, values, ci95 = pool(classes, stats.visits, stats.values, stats.ci95)
        if contract:
            values = {a: v - contract_choice.baseline(self.game, self.name(a))
                      for a, v in values.items()}

        def diff_half(a: int, b: int) -> float:
            return stats.difference_half_width(_searched(classes, stats, a),
                                               _searched(classes, stats, b))

        advice = decide(Evidence(self.legal, classes, values, ci95, stats.visits, diff_half,
                                 float(self.game.round_scale), visit_floor=True,
                                 key=self.world.tie_key))
        total = max(1, sum(stats.visits.values()))
        return self.result(advice, values, ci95, stats.visits, visits.get(advice.action, 0)
                           / total, stats.nodes, stats.seconds, "ismcts", stats.iterations,
                           stats.stopped, contract_choice.UNIT if contract else self.unit, classes,
                           diff_half)

    def pimc(self, limit: Limit | None = None) -> PlayResult:
        limit = limit or self.limit
        if limit.worlds is None and limit.time is None:
            raise LimitError(PIMC_COUNTS_WORLDS())
        check_policy(self.settings.policy)
        contract = contract_choice.applies(self.world)
        stats = pimc_search(self.worlds().sample, self.seat, self.legal, self.game,
                            worlds=limit.worlds, seconds=limit.time, nodes=limit.nodes,
                            policy=self.settings.policy, leaf=self.settings.leaf == "exact",
                            rng=random.Random(self.seed),
                            break_ties=False,
                            progress=(lambda st: self.report(st, _pimc_leader(self.legal)))
                            if self.progress else None, stop=self.stop)
        classes = card_classes(self.world, self.legal)
        _, values, ci95 = pool(classes, stats.visits, stats.values, stats.ci95)
        if contract:
            values = {a: v - contract_choice.baseline(self.game, self.name(a))
                      for a, v in values.items()}
        advice = decide(Evidence(self.legal, classes, values, ci95, stats.visits,
                                 stats.paired_half_width, float(self.game.round_scale),
                                 visit_floor=False, key=self.world.tie_key))
        cls = next(m for m in classes if advice.action in m)
        return self.result(advice, values, ci95, stats.visits,
                           max(stats.wins[a] for a in cls) / max(1, stats.worlds),
                           stats.nodes, stats.seconds, "pimc", stats.worlds, stats.stopped,
                           contract_choice.UNIT if contract else self.unit, classes,
                           stats.paired_half_width)

    def result(self, advice: Advice, values: dict[int, float], ci95: dict[int, float],
               visits: dict[int, int], confidence: float, nodes: int, seconds: float,
               bot: str, iterations: int, stopped: bool, unit: str,
               classes: list[tuple[int, ...]],
               diff_half: Callable[[int, int], float]) -> PlayResult:
        name = self.name
        same = next(m for m in classes if advice.action in m)
        diffs = {name(a): (0.0 if a in same else diff_half(a, advice.action))
                 for a in values}
        return PlayResult(name(advice.action), {name(a): v for a, v in values.items()},
                          {name(a): visits.get(a, 0) for a in self.legal}, confidence,
                          self.seat, nodes, seconds, bot,
                          {name(a): h for a, h in ci95.items()},
                          tuple(name(a) for a in advice.equal), iterations, stopped, unit,
                          tuple(tuple(name(a) for a in m) for m in classes if len(m) > 1),
                          tuple(name(a) for a in advice.ranking),
                          {name(a): why.english() for a, why in advice.reasons.items()}, "",
                          None, diffs, self.belief_summary(), advice.action, self.ids(),
                          dict(self.used) if bot == "ismcts" else {},
                          reason_codes={name(a): why for a, why in advice.reasons.items()})

    def ids(self) -> dict[str, int]:
        """Every legal action's id by its notation (``PlayResult.ids``)."""
        return {self.name(a): a for a in self.legal}


def _searched(classes: list[tuple[int, ...]], stats: SearchStats, a: int) -> int:
    """The member of ``a``'s class the search tried (a Cython search tries
    the first card of each class), else ``a``."""
    tried = [m for m in next(m for m in classes if a in m) if stats.visits.get(m, 0) > 0]
    return tried[0] if len(tried) == 1 else a


def _pimc_leader(legal: list[int]) -> Callable[[PIMCStats], int]:
    def pick(stats: PIMCStats) -> int:
        return max(legal, key=lambda a: (stats.values.get(a, -math.inf), -a))
    return pick


# --------------------------------------------------------------------------
# beliefs


@dataclass(frozen=True)
class BeliefReport:
    """Where the cards the seat cannot see are, as it may believe from the
    view: ``cards`` maps each unseen card (its notation; dix-exchange: each
    card value) to the probability that each of ``holders`` has it, in the
    order of ``holders`` (a seat number, or a place: ``"stock"``,
    ``"undealt"``, ``"nest"``, ``"discards"``); ``inference``: weighed by
    what the other seats chose (``solver.beliefs``), else uniform among
    the deals the hard facts allow; ``worlds`` the pool weighed, ``ess``
    its effective sample size, ``observations`` the decisions weighed;
    ``kind``: what ``cards`` names (``"card"``, or dix-exchange's
    ``"value"``: the probability that each seat's card has that value).

    ``exact``: the probabilities are counted over every deal the view
    allows (``RowSampler.exact_marginals``: where no decision weighs the
    worlds, the hard facts alone decide them, and a sample would only add
    noise); else they are the pool's shares, each within ``error`` of the
    truth (the largest 95% half-width over the cards, from ``ess``).
    ``groups``: the cards by suit (``(name, cards)``, spades first, high
    to low; one group named None where items have no suit); ``unseen``:
    how many of the cards each holder has (the same in every world)."""

    seat: int
    holders: tuple[int | str, ...]
    cards: dict[str, tuple[float, ...]]
    inference: bool
    worlds: int
    ess: float
    observations: int
    kind: str = "card"
    exact: bool = False
    error: float = 0.0
    groups: tuple[tuple[str | None, tuple[str, ...]], ...] = ()
    unseen: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "holders": list(self.holders),
                "cards": {c: list(p) for c, p in self.cards.items()},
                "inference": self.inference, "worlds": self.worlds, "ess": self.ess,
                "observations": self.observations, "exact": self.exact,
                "error": self.error,
                "groups": [{"suit": g, "cards": list(cs)} for g, cs in self.groups],
                "unseen": list(self.unseen)}


def beliefs(position: Any, limit: Limit | None = None, seed: int | None = None,
            inference: bool = True) -> BeliefReport:
    """For every card the seat to move (a seat view: that seat) cannot see,
    the probability that each holder has it: the pool of worlds the
    searches draw (``limit``'s ``worlds``, default ``DEFAULT_POOL``; a
    search of this view with the same ``seed`` weighs the same pool),
    weighed by the game's opponent model when ``inference`` (the default),
    else uniform among the deals the view allows."""
    limit = check_limit(limit, Limit(worlds=DEFAULT_POOL))
    if limit.worlds is None:
        raise LimitError(BELIEFS_COUNT_WORLDS())
    if limit.worlds > MAX_POOL:
        raise LimitError(BELIEFS_POOL(most=MAX_POOL, got=limit.worlds))
    seed = 0 if seed is None else check_seed(seed)
    if not isinstance(inference, bool):
        raise OptionError(INFERENCE_BOOL(got=Quote(inference)))
    view = _as_view(position)
    sampler = view.sampler()
    if not isinstance(sampler, RowSampler):
        raise UnsupportedPositionError(BELIEFS_VIEW(name=view.game.name))
    b = view_beliefs(sampler, view.game, True, limit.worlds, seed) if inference else None
    weighed = b is not None
    if b is None:
        b = weigh(sampler, None, None, limit.worlds, belief_seed(seed))
    exact = None if b.observations else sampler.exact_marginals()
    marg: Mapping[int, Mapping[int | str, Any]] = exact if exact is not None else b.marginals()
    order: list[int | str] = []
    for name in sampler.place_holders():
        if name is not None and name not in order:
            order.append(name)
    order.sort(key=lambda h: (isinstance(h, str), (h - view.seat) % view.game.num_players
                              if isinstance(h, int) else 0, str(h)))
    # cards: spades first, high to low (their bits rise with suit and
    # rank); dix-exchange's values are numbered high to low already
    ranked = sorted(marg, reverse=sampler.item_kind == "card")
    groups: dict[str | None, list[str]] = {}
    for c in ranked:
        groups.setdefault(sampler.item_group(c), []).append(sampler.item_name(c))
    cards = {sampler.item_name(c): tuple(float(marg[c].get(h, 0)) for h in order)
             for c in ranked}
    # each holder holds as many unseen cards in every world: the sum of its
    # column, exact (a sampled column sums to it too, up to rounding)
    unseen = tuple(round(math.fsum(p[i] for p in cards.values())) for i in range(len(order)))
    error = 0.0
    if exact is None and b.ess > 0:
        error = max((1.96 * math.sqrt(p * (1 - p) / b.ess) for ps in cards.values()
                     for p in ps), default=0.0)
    return BeliefReport(view.seat, tuple(order), cards, weighed, b.n, b.ess, b.observations,
                        sampler.item_kind, exact is not None, error,
                        tuple((g, tuple(cs)) for g, cs in groups.items()), unseen)


# --------------------------------------------------------------------------
# evaluate


def evaluate(position: Any, limit: Limit | None = None, policy: str = "rules",
             seed: int = 0, progress: Callable[[dict[str, Any]], None] | None = None,
             stop: StopFlag | None = None, inference: bool | None = None,
             pool: int = DEFAULT_POOL) -> Evaluation:
    """Expected result of the current deal for every seat: sample worlds
    consistent with the view and play each to the end of the deal with the
    ``policy`` heuristic at every seat (``rules`` where the game has one,
    else ``random``); mean and 95% interval over the worlds.  ``progress``,
    ``stop``, ``inference`` and ``pool`` as for ``best_move`` (the worlds
    weighed by the beliefs, by default where the game's are on)."""
    if not isinstance(policy, str) or policy not in POLICIES:
        raise OptionError(EVALUATE_POLICY(policy=Quote(policy), policies=', '.join(POLICIES)))
    limit = check_limit(limit, Limit(worlds=200))
    check_seed(seed)
    check_inference(inference, pool)
    control = Control(stop, progress)
    view = _as_view(position)
    game = view.game
    if policy == "rules" and not has_heuristic(game):
        policy = "random"
    sampler: WorldSampler = view.sampler()
    beliefs = view_beliefs(sampler, game, inference, pool, seed)
    if beliefs is not None:
        sampler = BeliefWorlds(beliefs)
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
                      control.stopped(), game.round_unit, belief_summary(beliefs))


__all__ = ["Limit", "PlayResult", "Evaluation", "BeliefReport", "beliefs", "best_move",
           "evaluate", "check_seed",
           "check_threads", "check_trees", "default_threads", "DEFAULT_LIMIT_SECONDS",
           "DEFAULT_TREES", "BOTS", "SearchSettings"]
