"""Game review: every decision of a record judged from its seat's view and
in hindsight (docs/review.md).

``review(position, ...)`` returns the whole review as a JSON-able dict;
the command line (``dixtrix review``), the engine protocol (``review``)
and the HTTP API (``POST /v1/review``) call it and only render or carry
its answer.  The rendering (``render_text``, ``plot``) is
``bots/review_render.py``'s, which reads only that answer; this module
hands its two names on.

For every decision with a choice (decisions with one legal action are
skipped) of every reviewed seat:

* **from the seat's view**: the decision service
  (``solver.search.best_move``, the one path every face uses) advises from
  what that seat knew then, at the given limit, with the decision's own
  seed (``decision_seed``).  The *expected loss* of the played action is
  the value of the advised action minus the value of the played one, in
  the game's points; it is 0 where the played action is as good as the
  advice (``PlayResult.equal``: equivalent cards, exact ties, or a
  difference the search cannot tell from zero).  Its interval combines the
  two actions' 95% half-widths as if independent (``sqrt(h_best^2 +
  h_played^2)``): the service's result carries no interval of the paired
  difference, and the estimates of one search move together, so this is
  wider than a paired interval, never narrower.
* **in hindsight**: where the double-dummy solver takes the true position
  (every card known: dix from trick 14 or the seventeen variant, trix /
  tricks card play and layout, dixie-rook card play, dix-exchange rounds
  against every other seat), the exact values of the played and the best
  action, in the same unit (``solver.search.support.GameSupport.exact_values``).
  The solves of one deal run from its end back to its start on one
  ``solver.dd.Solver`` (its tables kept from one position to the next, so
  an earlier position's search finds what the later ones proved), each
  bounded by ``nodes``; once a seat's solve passes the bound, that seat's
  earlier positions (more cards left) are not tried.

A summary per seat (the total expected loss, the number of mistakes by
size, the five biggest mistakes with the position, the move played and
the better one), and per deal the value of the deal for each seat at the
start of the play, after every trick (after every action in a deal
without tricks) and at its end: the exact value where the solver takes the
position, and the searched value (the value the seat's own last search
gave the action it played).

A record reviews every seat (or ``seat``); a seat view reviews that seat's
own decisions (its view at each of them follows from its view at the
end), without hindsight: the other cards are not known.
"""

from __future__ import annotations

import math
import multiprocessing
import threading
import time as _time
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field

from solver import position as positions
from solver.dd import Solver
from solver.dd.solve import check_kind
from solver.errors import (
    DixtrixError,
    OptionError,
    PositionError,
    SearchAborted,
    UnsupportedPositionError,
)
from solver.front import N_
from solver.said import Quote, Said, phrase
from solver.search import Limit, SearchSettings, best_move
from solver.search.service import BOTS, DEFAULT_TREES, check_seed

from . import exact as exacts
from .advice import describe, json_finite

# the review's renderings, beside the analysis for the faces that read them here
from .review_render import plot, render_text

# the errors raised here (solver/errors.py: a code and its parameters;
# seats counted from 0, deals from 1 as the review numbers them)
NOT_A_RECORD = phrase("review_not_a_position", N_("review expects a game record or a seat "
                                                  "view, got {got}"))
REVIEW_SEATS = phrase("review_seats", N_("{game} has seats 0..{last}, got {got}"))
REVIEW_OWN_SEAT = phrase("review_own_seat", N_("this is seat {seat}'s view: only its own "
                                               "decisions can be reviewed, not seat {got}'s"))
REVIEW_DEAL = phrase("review_deal", N_("a deal number 1, 2, ... (or 'last'), got {got}"))
REVIEW_DEALS_HELD = phrase("review_deals_held", N_("the record holds deals 1..{last} ({n} "
                                                   "actions), got {got}"))
REVIEW_NO_DEAL = phrase("review_no_deal", N_("the record holds no action, so no deal {got}"))
REVIEW_BOT = phrase("review_bot", N_("review: unknown bot {got} (known: {bots})"))
REVIEW_LIMIT = phrase("review_limit", N_("review: limit must be a solver.search.Limit, got "
                                         "{got}"))
REVIEW_SEED = phrase("review_seed", N_("review: seed must be >= 0, got {got}"))
REVIEW_JOBS = phrase("review_jobs", N_("review: jobs must be an integer 1..256, got {got}"))

#: seconds of search for each decision when no limit is given: one trix
#: deal (52 cards and its calls, about 45 decisions with a choice) in well
#: under a minute on one core (docs/review.md has the measured times)
DEFAULT_SECONDS = 0.5
#: the node bound of each hindsight solve (about 0.3 s of the solvers)
DEFAULT_NODES = 1_000_000
#: MiB of transposition table of each deal's hindsight solver
HINDSIGHT_TT_MB = 64
#: the kind of exact value of the hindsight in the games of four individual
#: seats (``solver.dd.solve``'s ``kind``): the one that made the stronger
#: ``cheat`` player (trix, 200 duplicate pairs against ismcts: the searching
#: cheat with max^n solves +4.7 +- 4.4 a deal, with paranoid ones -12.3 +- 5.2;
#: docs/search.md, "The all-seeing player"); where max^n does not finish, the paranoid
#: value, and each value says its kind
HINDSIGHT_KIND = "maxn"
#: mistake sizes, as shares of the game's round scale (``Game.round_scale``,
#: a bound on a deal's result): trix (350) 5 / 12.5 / 25 points, tricks
#: (200) 2.86 / 7.14 / 14.3, dixie-rook (240) 3.43 / 8.57 / 17.1, dix (30)
#: 0.429 / 1.07 / 2.14, dix-exchange (3 tokens) 0.0429 / 0.107 / 0.214
SIZES = (("blunder", 1 / 14), ("mistake", 1 / 28), ("inaccuracy", 1 / 70))
#: biggest mistakes listed per seat
TOP = 5
#: a decision's seed is ``seed * SEED_STRIDE + index`` (its action number)
SEED_STRIDE = 1_000_000


# --------------------------------------------------------------------------
# the plan: decisions and hindsight tasks, from one replay of the record


@dataclass
class _Decision:
    index: int            # action number in the record (0 = the first action)
    deal: int             # deal number in the record, 1 = the first it holds
    seat: int
    played: str
    kind: str             # "card", or the words its actions start with ("contract", "bid/pass")
    trick: int | None     # the trick being played (1 = the first of the deal), in card play
    view: dict            # the seat's view before the action
    seed: int


@dataclass
class _Deal:
    deal: int             # 1-based, in the record
    first: int            # index of its first action
    last: int = -1        # index of its last action (-1: none yet)
    complete: bool = False
    result: list | None = None
    #: graph points: ``(index before which the point is, label)``
    points: list = field(default_factory=list)
    #: the hindsight task: the record of the deal from its start, its actions,
    #: and what to solve ``{offset in the deal: [seats]}``
    record: dict | None = None
    actions: list = field(default_factory=list)
    wanted: dict = field(default_factory=dict)


def _kind(state, legal) -> str:
    if any(state.game.is_card(a) for a in legal):
        return "card"
    words = sorted({state.action_to_string(a).split()[0] for a in legal})
    return "/".join(words)


def _tricks(state) -> int | None:
    """Tricks finished in the deal in play, or None where the game counts none now."""
    won = state.information_state(0).known.get("tricks_won")
    return sum(won) if isinstance(won, list) else None


def _first_deal(state) -> bool:
    """Whether the deal in play is the first of the record (its views and
    records start where the record starts)."""
    try:
        return state.deal_start()[1] == 0
    except PositionError:               # a game without mid-match positions
        return True


def _view_at(state, seat: int) -> dict:
    """``seat``'s view of ``state``: from the record's start in its first
    deal, else from the start of the deal in play (a mid-match view,
    docs/positions.md, with every chance outcome drawn so far): the search
    reads only the deal in play, and a view from the start of a long match
    would be replayed at every decision."""
    if _first_deal(state):
        return state.information_state(seat).view
    mid = positions.Record.of(state, from_deal="current")
    return mid.state().information_state(seat).view


class _Plan:
    def __init__(self, game, decisions, deals, seats, hindsight, actions):
        self.game, self.decisions, self.deals = game, decisions, deals
        self.seats, self.hindsight, self.actions = seats, hindsight, actions


def _complete(position):
    """``(record, seat of a view or None)``; a view is reviewed through one
    world it allows (its seat's views at its decisions are the same in all)."""
    if isinstance(position, (dict, str, bytes, bytearray)):
        position = positions.from_json(position)
    if isinstance(position, positions.SeatView):
        world = position.world(seed=0)
        return positions.Record.of(world), position.seat
    if isinstance(position, positions.Record):
        return position, None
    raise PositionError(NOT_A_RECORD(got=type(position).__name__))


def plan(position, deal=None, seat: int | None = None, seed: int = 0) -> _Plan:
    """Replay the record once: the decisions to review, with each seat's
    view, and per deal its graph points and hindsight task."""
    rec, view_seat = _complete(position)
    game = rec.game
    n = game.num_players
    if seat is not None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise _refused(REVIEW_SEATS(game=game.name, last=n - 1, got=Quote(seat)), "seat")
        if view_seat is not None and seat != view_seat:
            raise _refused(REVIEW_OWN_SEAT(seat=view_seat, got=seat), "seat")
    seats = [view_seat] if view_seat is not None else ([seat] if seat is not None
                                                        else list(range(n)))
    if deal == "last":
        deal = _deals_held(rec) or None
    elif deal is not None and (isinstance(deal, bool) or not isinstance(deal, int) or deal < 1):
        raise _refused(REVIEW_DEAL(got=Quote(deal)), "deal")
    state = game.new_initial_state(seed=rec.seed, deal=rec.deal, match=rec.match)
    base = state.round_index()
    deals: list[_Deal] = []
    decisions: list[_Decision] = []
    cur: _Deal | None = None
    tricks_before = None

    def chosen(d: _Deal) -> bool:
        return deal is None or d.deal == deal

    def open_deal(i: int) -> _Deal:
        nonlocal tricks_before
        d = _Deal(state.round_index() - base + 1, i)
        deals.append(d)
        tricks_before = None
        if chosen(d) and view_seat is None:
            # the hindsight worker replays the record up to the deal, then
            # its actions: every chance outcome is the record's
            d.record = rec.to_json()
            d.record["actions"] = list(rec.actions[:i])
        return d

    def add_point(d: _Deal, i: int, label: str) -> None:
        if not chosen(d):
            return
        d.points.append((i, label))
        if view_seat is None and not state.is_terminal() and \
                state.round_index() - base + 1 == d.deal:
            d.wanted.setdefault(i - d.first, set()).update(seats)

    started = False
    for i, text in enumerate(rec.actions):
        if cur is None or state.round_index() - base + 1 != cur.deal:
            if cur is not None:
                _close(cur, state, base, add_point)
            cur = open_deal(i)
            started = False
        legal = state.legal_actions()
        mover = state.current_player()
        if chosen(cur):
            now = _tricks(state)
            started = started or len(legal) > 1
            # the graph's points: the start of the play (where the game counts
            # tricks), after every trick; where it counts none (a layout, an
            # exchange round, a contract call), before every action
            label = None
            if started:
                if now is None:
                    label = f"action {i}"
                elif tricks_before is None:
                    label = "start"
                elif now > tricks_before:
                    label = f"trick {now}"
            if label:
                add_point(cur, i, label)
            tricks_before = now
            if len(legal) > 1 and mover in seats:
                kind = _kind(state, legal)
                decisions.append(_Decision(
                    i, cur.deal, mover, text, kind,
                    now + 1 if now is not None and kind == "card" else None,
                    _view_at(state, mover), decision_seed(seed, i)))
                if view_seat is None:
                    cur.wanted.setdefault(i - cur.first, set()).add(mover)
            cur.actions.append(text)
        cur.last = i
        state.apply_action(state.string_to_action(text))
    if cur is not None:
        _close(cur, state, base, add_point)
    if deal is not None:
        held = [d.deal for d in deals]
        if deal not in held:
            raise _refused(REVIEW_DEALS_HELD(last=len(held), n=len(rec.actions), got=deal)
                           if held else REVIEW_NO_DEAL(got=deal), "deal")
    return _Plan(game, decisions, [d for d in deals if deal is None or d.deal == deal], seats,
                 view_seat is None, list(rec.actions))


def _refused(message: Said, path: str) -> OptionError:
    """An ``OptionError`` naming the argument (``path``: deal, seat) it refuses."""
    err = OptionError(message, where=path)
    err.path = path
    return err


def _deals_held(rec) -> int:
    """The number of deals in which the record plays an action."""
    state = rec.game.new_initial_state(seed=rec.seed, deal=rec.deal, match=rec.match)
    base, last = state.round_index(), 0
    for text in rec.actions:
        last = state.round_index() - base + 1
        state.apply_action(state.string_to_action(text))
    return last


def _close(d: _Deal, state, base: int, add_point) -> None:
    """The end of a deal's replay: complete (the next deal began, or the
    game is over) with its result, or cut short by the end of the record."""
    done = state.is_terminal() or state.round_index() - base + 1 != d.deal
    d.complete = done
    if done:
        d.result = [float(v) for v in state.round_returns(d.deal - 1)]
    if any(label == "start" or label.startswith("trick ") for _, label in d.points):
        # a deal that counts tricks is drawn trick by trick: the calls
        # before its play (a contract, doubling, an auction) are not points
        d.points = [(i, label) for i, label in d.points if not label.startswith("action ")]
    if d.last >= d.first:
        add_point(d, d.last + 1, "end" if done else "now")


# --------------------------------------------------------------------------
# the work: one decision searched, one deal solved in hindsight


def _decide(task: dict, stop=None) -> dict:
    """One decision through the decision service (a process worker runs it
    from plain data)."""
    res = best_move(task["view"], Limit(**task["limit"]), bot=task["bot"], seed=task["seed"],
                    stop=stop, settings=task["settings"])
    return {"action": res.action, "values": dict(res.values), "ci95": dict(res.ci95),
            "diff_ci95": dict(res.diff_ci95), "equal": list(res.equal),
            "ranking": list(res.ranking), "bot": res.bot,
            "unit": res.unit, "note": res.note, "stopped": res.stopped,
            "iterations": res.iterations, "time": res.time}


#: private double-dummy solvers for the hindsight tasks, free to borrow (one
#: a task running at the same time, kept for the next: a table is allocated
#: once, and started afresh in O(1) for each deal)
_SOLVERS: list = []
_SOLVERS_LOCK = threading.Lock()


@contextmanager
def _deal_solver():
    """A ``solver.dd.Solver`` of its own for one deal's hindsight, its
    tables empty: the deal's positions share what their solves proved
    (every entry is keyed by the deal's rules and the cards it holds, so
    any later lookup is sound: solver/dd/session.py), and no other search
    touches the tables in between, so the node counts (and so which solves
    pass the bound) depend on the deal alone, however many reviews run."""
    with _SOLVERS_LOCK:
        dd_solver = _SOLVERS.pop() if _SOLVERS else None
    if dd_solver is None:
        dd_solver = Solver(HINDSIGHT_TT_MB, private=True)
    dd_solver.clear()
    try:
        yield dd_solver
    finally:
        with _SOLVERS_LOCK:
            _SOLVERS.append(dd_solver)


def _hindsight(task: dict, stop=None) -> dict:
    """The exact values of one deal's positions (``task["wanted"]``:
    offsets in the deal and the seats to solve for), from its end back to
    its start, on one solver whose tables outlive each solve (an earlier
    position's search finds the later positions' entries: docs/solver.md);
    a seat whose solve passes the node bound is not tried at its earlier
    positions."""
    with _deal_solver() as dd_solver:
        return _hindsight_on(dd_solver, task, stop)


def _hindsight_on(dd_solver, task: dict, stop=None) -> dict:
    rec = positions.record_from_json(task["record"])
    state = rec.state()
    wanted = {int(k): v for k, v in task["wanted"].items()}
    deal_index = state.round_index()
    states = {}
    for off, text in enumerate(task["actions"]):
        if off in wanted:
            states[off] = state.clone()
        state.apply_action(state.string_to_action(text))
    if len(task["actions"]) in wanted:
        states[len(task["actions"])] = state
    out: list = []
    gave_up: set = set()
    for off in sorted(states, reverse=True):
        st = states[off]
        if st.is_terminal() or st.round_index() != deal_index:
            continue
        for seat in sorted(wanted[off]):
            if seat in gave_up or (stop is not None and stop.is_set()):
                continue
            try:
                ex = exacts.exact(st, seat, task["nodes"], solver=dd_solver,
                                  kind=task.get("kind", HINDSIGHT_KIND))
            except UnsupportedPositionError:
                continue
            except SearchAborted:
                gave_up.add(seat)
                continue
            out.append({"offset": off, "seat": seat, "value": ex.value, "values": ex.values,
                        "best": list(ex.best), "nodes": ex.nodes, "kind": ex.solution.kind})
    return {"solved": out, "gave_up": sorted(gave_up)}


# --------------------------------------------------------------------------
# the review


def decision_seed(seed: int, index: int) -> int:
    """The search seed of the decision at action ``index``."""
    return seed * SEED_STRIDE + index


def thresholds(game) -> dict:
    """The mistake sizes of ``game`` in its points (see ``SIZES``)."""
    return {name: game.round_scale * share for name, share in SIZES}


def size_of(loss, limits: dict) -> str | None:
    if loss is None:
        return None
    for name, _ in SIZES:
        if loss >= limits[name] - 1e-9:
            return name
    return None


def review(position, *, deal=None, seat: int | None = None,
           limit: Limit | None = None, bot: str = "ismcts", seed: int = 0,
           trees: int = DEFAULT_TREES, threads: int | None = None,
           nodes: int = DEFAULT_NODES,
           hindsight: bool = True, jobs: int = 1, py_iterations: int | None = None,
           progress=None, stop=None, kind: str | None = None,
           describe=describe) -> dict:
    """The review of ``position`` (a game record or a seat view: a
    ``Record`` / ``SeatView``, its JSON dict or text) as a JSON-able dict
    (docs/review.md lists its fields).

    ``deal``: review that deal only (1 = the first deal of the record;
    ``"last"``: the last deal in which the record plays an action);
    ``seat``: that seat only; ``limit``: each decision's search (default
    ``DEFAULT_SECONDS``); ``bot``, ``trees``, ``threads``: the decision
    service's;
    ``seed``: decision ``i`` is searched with ``decision_seed(seed, i)``,
    so a limit of iterations or worlds gives the same review every time;
    ``nodes``: the bound of each hindsight solve; ``hindsight``: False
    skips the exact solves of the true deal; ``kind``: the hindsight's kind
    of exact value in the games of individual seats (``solver.dd.solve``'s;
    default ``HINDSIGHT_KIND``; each exact value says which it is);
    ``jobs``: worker processes
    (1: all in this thread); ``py_iterations``: the iterations of a
    decision the service searches in Python, if different (its setting);
    ``progress(info)`` after each piece of work
    (``done``, ``total``, ``what``); ``stop`` (an event): end early with
    the decisions reviewed so far (``stopped`` is then true); ``describe``:
    a position's facts, from its seat view (default ``advice.describe``,
    in English; the server gives the reader's words)."""
    if not isinstance(bot, str) or bot not in BOTS:
        raise OptionError(REVIEW_BOT(got=Quote(bot), bots=list(BOTS)))
    limit = limit if limit is not None else Limit(time=DEFAULT_SECONDS)
    if not isinstance(limit, Limit):
        raise OptionError(REVIEW_LIMIT(got=type(limit).__name__))
    check_seed(seed)
    if seed < 0:
        raise OptionError(REVIEW_SEED(got=seed))
    # the review judges every action, not only the one to play: the rules
    # prior (UCB1 at the card nodes) visits each card, where the learned
    # prior, stronger at choosing, starves the cards its policy dislikes and
    # leaves their values too few visits to judge them by (measured: the
    # test of tests/test_review.py that the random seat loses most failed
    # in dix under the learned prior, over one round and over two)
    settings = SearchSettings(trees=trees, threads=threads, py_iterations=py_iterations,
                              prior="rules")
    Limit(iterations=1, nodes=nodes)              # the same check as any node bound
    kind = check_kind(HINDSIGHT_KIND if kind is None else kind)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= 256:
        raise OptionError(REVIEW_JOBS(got=Quote(jobs)))
    start = _time.perf_counter()
    p = plan(position, deal, seat, seed)
    use_hindsight = hindsight and p.hindsight
    tasks: list = []
    for d in p.decisions:
        tasks.append(("decide", d.index, {"view": d.view, "limit": limit.to_dict(), "bot": bot,
                                          "seed": d.seed, "settings": settings}))
    if use_hindsight:
        for d in p.deals:
            if d.wanted and d.record is not None:
                tasks.append(("hindsight", d.deal, {
                    "record": d.record, "actions": d.actions, "nodes": nodes, "kind": kind,
                    "wanted": {str(k): sorted(v) for k, v in d.wanted.items()}}))
    results, stopped = _run(tasks, jobs, progress, stop)
    doc = _assemble(p, results, limit, bot, seed, nodes if use_hindsight else None, trees)
    doc["hindsight_kind"] = kind if use_hindsight else None
    doc["stopped"] = stopped
    doc["time"] = _time.perf_counter() - start
    return json_finite(doc)


def _run(tasks, jobs, progress, stop):
    """Every task, in this thread or over ``jobs`` processes: ``{(kind,
    key): result}`` and whether a stop ended it early."""
    results: dict = {}
    total = len(tasks)

    def report(kind, key):
        if progress is not None:
            what = f"decision {key}" if kind == "decide" else f"deal {key} in hindsight"
            progress({"done": len(results), "total": total, "what": what})

    work = {"decide": _decide, "hindsight": _hindsight}
    if jobs == 1 or total <= 1:
        for kind, key, task in tasks:
            if stop is not None and stop.is_set():
                return results, True
            out = work[kind](task, stop=stop)
            if stop is not None and stop.is_set() and kind == "decide" and out["stopped"]:
                return results, True             # a search cut short is not a judgement
            results[(kind, key)] = out
            report(kind, key)
        return results, False
    # spawn: a forked child of a process whose OpenMP runtime has started
    # (the kernels' parallel trees) can hang in it
    ctx = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=min(jobs, total), mp_context=ctx)
    try:
        futures = {pool.submit(work[kind], task): (kind, key) for kind, key, task in tasks}
        for fut in as_completed(futures):
            kind, key = futures[fut]
            results[(kind, key)] = fut.result()
            report(kind, key)
            if stop is not None and stop.is_set():
                return results, True
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return results, False


def _loss_of(res: dict, played: str):
    """``(loss, half-width, value played, value advised)`` in the result's unit."""
    best = res["action"]
    vb, vp = res["values"].get(best), res["values"].get(played)
    if vb is None or vp is None:
        return None, None, vp, vb
    # the search's own interval of the difference (worlds or trees shared);
    # a result without one: the two intervals combined, never narrower
    half = res.get("diff_ci95", {}).get(played)
    if half is None:
        hb, hp = res["ci95"].get(best, math.inf), res["ci95"].get(played, math.inf)
        half = math.sqrt(hb * hb + hp * hp) if math.isfinite(hb) and math.isfinite(hp) \
            else math.inf
    if played in res["equal"]:
        return 0.0, half, vp, vb
    return max(0.0, vb - vp), half, vp, vb


def _assemble(p: _Plan, results: dict, limit, bot, seed, nodes, trees) -> dict:
    game = p.game
    limits = thresholds(game)
    solved: dict = {}
    for d in p.deals:
        got = results.get(("hindsight", d.deal))
        for item in (got or {}).get("solved", []):
            solved[(d.first + item["offset"], item["seat"])] = item
    decisions = []
    for d in p.decisions:
        res = results.get(("decide", d.index))
        if res is None:
            continue
        loss, half, vp, vb = _loss_of(res, d.played)
        ex = solved.get((d.index, d.seat))
        entry = {"index": d.index, "deal": d.deal, "seat": d.seat, "kind": d.kind,
                 "trick": d.trick, "played": d.played, "best": res["action"],
                 "loss": loss, "loss_ci95": half, "equal": res["equal"],
                 "value_played": vp, "value_best": vb, "unit": res["unit"],
                 "method": res["bot"], "seed": d.seed, "size": size_of(loss, limits),
                 "exact_loss": None, "exact_played": None, "exact_best": None,
                 "exact_best_actions": None, "exact_kind": None}
        if res["note"]:
            entry["note"] = res["note"]
        if ex is None and res["bot"] == "exact" and (game.num_players == 2 or
                                                     game.partnership):
            # the seat's own view determined the deal and the decision
            # service solved it (with its larger bound than the hindsight's):
            # where two sides play, that is the hindsight's minimax value
            ex = {"values": res["values"], "best": [a for a, v in res["values"].items()
                                                    if v == max(res["values"].values())],
                  "kind": "minimax"}
        if ex is not None and d.played in ex["values"]:
            top = max(ex["values"].values())
            entry.update(exact_loss=top - ex["values"][d.played],
                         exact_played=ex["values"][d.played], exact_best=top,
                         exact_best_actions=ex["best"], exact_kind=ex.get("kind"))
        decisions.append(entry)
    views = {d.index: d.view for d in p.decisions}
    summary = [_seat_summary(s, [e for e in decisions if e["seat"] == s], views, describe)
               for s in p.seats]
    deals = []
    for d in p.deals:
        deals.append(_deal_graph(d, p, decisions, solved))
    return {"game": game.name, "options": game.non_default_options(),
            "players": game.num_players, "unit": game.round_unit,
            "scale": game.round_scale, "thresholds": limits, "seats": p.seats,
            "limit": limit.to_dict(), "bot": bot, "seed": seed, "trees": trees,
            "hindsight": nodes is not None, "nodes": nodes, "actions": len(p.actions),
            "deals": deals, "decisions": decisions, "summary": summary}


def _seat_summary(seat: int, mine: list, views: dict, describe=describe) -> dict:
    judged = [e for e in mine if e["loss"] is not None]
    losses = [e for e in judged if e["loss"] > 0]
    total = sum(e["loss"] for e in judged)
    halves = [e["loss_ci95"] for e in losses]
    half = math.sqrt(sum(h * h for h in halves)) if all(math.isfinite(h) for h in halves) \
        else math.inf
    exact = [e for e in mine if e["exact_loss"] is not None]
    counts = {name: sum(1 for e in judged if e["size"] == name) for name, _ in SIZES}
    kinds: dict = {}
    for e in mine:
        k = kinds.setdefault(e["kind"], {"decisions": 0, "loss": 0.0, "mistakes": 0})
        k["decisions"] += 1
        k["loss"] += e["loss"] or 0.0
        k["mistakes"] += e["size"] is not None
    order = sorted(losses, key=lambda e: (-e["loss"], -(e["exact_loss"] or 0.0), e["index"]))
    biggest = []
    for e in order[:TOP]:
        item = {k: e[k] for k in ("index", "deal", "trick", "kind", "played", "best", "loss",
                                  "loss_ci95", "size", "exact_loss", "exact_played",
                                  "exact_best", "exact_best_actions", "exact_kind", "unit")}
        try:
            item["position"] = describe(positions.from_json(views[e["index"]]))
        except DixtrixError:                    # a view always loads; say so if not
            item["position"] = []
        biggest.append(item)
    return {"seat": seat, "decisions": len(mine), "judged": len(judged), "loss": total,
            "loss_ci95": half, "mistakes": counts, "exact_decisions": len(exact),
            "exact_loss": sum(e["exact_loss"] for e in exact), "by_kind": kinds,
            "biggest": biggest}


def _deal_graph(d: _Deal, p: _Plan, decisions: list, solved: dict) -> dict:
    """The deal's value for each seat at its graph points: exact (the
    solver, or the result at the end) and searched (the seat's last search
    before the point: the value of the action it played)."""
    game = p.game
    n = game.num_players
    mine = sorted((e for e in decisions if e["deal"] == d.deal and e["unit"] == game.round_unit
                   and e["value_played"] is not None), key=lambda e: e["index"])
    points = []
    for i, label in d.points:
        exact = [None] * n
        searched = [None] * n
        end = label == "end"
        for s in p.seats:
            if end and d.result is not None:
                exact[s] = d.result[s]
            else:
                hit = solved.get((i, s))
                exact[s] = hit["value"] if hit else None
            last = [e for e in mine if e["seat"] == s and e["index"] < i]
            searched[s] = last[-1]["value_played"] if last else None
        points.append({"before": i, "label": label, "exact": exact, "searched": searched})
    return {"deal": d.deal, "first": d.first, "last": d.last, "complete": d.complete,
            "result": d.result, "decisions": sum(1 for e in decisions if e["deal"] == d.deal),
            "points": points}


__all__ = ["review", "plan", "render_text", "plot", "thresholds", "decision_seed",
           "DEFAULT_SECONDS", "DEFAULT_NODES", "SIZES", "TOP"]
