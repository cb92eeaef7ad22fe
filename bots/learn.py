"""Expert iteration: ``dixtrix learn GAME``, the game's learned policy
improved by its own search.

Each generation:

1. **Self-play**: the current search (ISMCTS with the current model as its
   prior, ``prior=learned``) plays ``--games`` deals against itself; every
   decision the model describes is kept with the seat's features of each
   legal action (what the seat knows: its cards and what is public), the
   search's share of visits of each action (its improved policy; one-hot
   where an exact solve decided), the action taken and the seat's result
   of the deal.  Deal ``i`` of generation ``g`` is dealt and searched from
   seeds fixed by ``--seed``, ``g`` and ``i``, so the data are the same on
   any executor.
2. **Fit**: per kind of decision, the conditional logit of the model of
   play fitted to the visit shares (cross-entropy, a ridge penalty toward
   the current weights, Newton's method in numpy: ``bots.modelfit.fit_kind``),
   starting from the current weights; every fifth deal is held out, and its policy loss (the mean
   cross-entropy to the search's shares, nats) and the action taken's
   log-likelihood are reported against the current model's.
   With ``--hidden UNITS`` the linear weights stay as they are (the
   beliefs weigh the worlds with them) and each kind with enough decisions
   (``HIDDEN_MIN``) gets a hidden layer of that many units on top of them,
   fitted to the same visit shares by Adam (``bots.modelfit.fit_hidden``;
   the training deals' every tenth picks the pass kept).
3. **Gate**: the new model's search plays the current one's, duplicate-dealt
   (``--gate`` deal pairs, seats swapped), at equal iterations; the new
   model is kept only where its mean is above zero.
4. **Checkpoint**: ``OUT`` holds the best model so far (the format of the
   shipped models: ``--out`` can replace a game's data file), its ``meta``
   the command, seed, generation, data sizes, held-out figures and every
   gate; ``OUT.checkpoint.json`` what a run killed between generations
   resumes from (the same command goes on where it stopped).

The games run on the ladder's executors (bots/ladder/executors.py): in this
process (``--jobs 1``), on a Dask ``LocalCluster`` of ``--jobs`` worker
processes, or on an existing cluster (``--dask ADDRESS``).
"""

from __future__ import annotations

import json
import math
import os
import sys
import time as _time
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import solver
from solver.beliefs import ModelParams, ObservationSet, RulesTable, observation_features
from solver.errors import DixtrixError, OptionError
from solver.front import N_
from solver.said import Quote, phrase
from solver.search.learned import HIDDEN_MAX, check_model, hidden_scores, model_key, model_of

from .ladder.executors import DaskExecutor, LocalExecutor
from .match import play_deals
from .modelfit import HOLDOUT, RIDGE, fit_hidden, fit_kind
from .searchbots import ISMCTSBot

# the errors raised here (solver/errors.py: a code and its parameters)
AT_LEAST = phrase("learn_at_least", N_("{flag} must be an integer of at least {low}, got {got}"))
HIDDEN_MOST = phrase("learn_hidden", N_("--hidden must be at most {most} units, got {got}"))
NOTHING_TO_LEARN = phrase("learn_no_model", N_("{game} has no model of play to learn"))
UNREADABLE_CHECKPOINT = phrase("learn_checkpoint_unreadable", N_("learn: cannot read the "
                                                                 "checkpoint {file} ({reason})"))
DEAL_FAILED = phrase("learn_deal_failed", N_("learn: generation {generation}, deal {deal} failed: "
                                           "{kind}: {reason}"))
OTHER_RUN = phrase("learn_other_run", N_("learn: {file} is the checkpoint of another run "
                                         "({was}); remove it to start this one"))

#: the search's iterations a decision in self-play and in the gate
DEFAULT_ITERATIONS = 2000
#: deal pairs of the gate
DEFAULT_GATE = 50
#: the fewest training decisions of a kind a hidden layer is fitted to (a
#: kind with fewer keeps its linear weights alone)
HIDDEN_MIN = 200


class LearnError(DixtrixError):
    """A self-play or gate game failed, or a checkpoint does not fit."""


@dataclass(frozen=True)
class LearnArgs:
    """What a run is (a checkpoint resumes only the same run)."""

    game: str
    options: tuple
    generations: int
    games: int
    seed: int
    iterations: int
    gate: int
    hidden: int = 0


def _game(name: str, options: tuple) -> solver.Game:
    return solver.load_game(name, **dict(options))


def _search(game, seat: int, seed: int, iterations: int, params: ModelParams) -> ISMCTSBot:
    # one tree on one thread: the same answer on any worker, and a worker a core
    return ISMCTSBot(game, seat, seed=seed, iterations=iterations, prior="learned",
                     model=params, trees=1, threads=1)


def _seeds(args: LearnArgs, generation: int, index: int, stage: int) -> int:
    """The deal seed of a self-play (stage 0) or gate (stage 1) deal."""
    return (args.seed * 1_000_003 + generation * 10_007 + index) * 2 + stage


# ---- 1. self-play ---------------------------------------------------------------

def selfplay_deal(task: tuple) -> list[tuple]:
    """One self-play deal (``task``: ``(args, generation, index, model
    document)``): per decision the model describes, ``(kind, feature rows,
    visit shares, taken index, deal index, seat, seat's result)``."""
    args, generation, index, doc = task
    game = _game(args.game, args.options)
    params = ModelParams.from_json(doc)
    got = model_of(game, params)
    assert got is not None                      # checked before the run
    model = got[0]
    seed = _seeds(args, generation, index, 0)
    bots = [_search(game, s, seed * 10 + s, args.iterations, params)
            for s in range(game.num_players)]
    pending: list[tuple] = []

    def on_decision(state, seat: int, action: int) -> None:
        res = bots[seat].last
        table = RulesTable()
        ex = model.example(state, action, table)
        if ex is None or res is None:
            return
        o, hand = ex
        obs = ObservationSet([o], model.features, 0, table.rules)
        legal, rows, taken = observation_features(obs, o, hand)
        if len(legal) < 2 or taken < 0:
            return
        shares = _visit_shares(model, state, o, legal, res, action)
        pending.append((o.kind, rows, shares, taken, index, seat))

    results = play_deals(game, bots, seed, before=on_decision)
    return [p + (results[p[5]],) for p in pending]


def _visit_shares(model, state, o, legal: list[int], res, action: int) -> list[float]:
    """The search's share of visits of each candidate (``legal``: the
    model's candidates, cards or indices into its actions); the action
    taken alone where no visit was counted (an exact solve)."""
    by_action = {res.ids[name]: v for name, v in res.visits.items() if name in res.ids}
    total = sum(by_action.values())
    if total <= 0:
        return [1.0 if c == (action if o.card is not None else o.taken) else 0.0
                for c in legal]
    if o.card is not None:
        counts = [by_action.get(c, 0) for c in legal]
    else:
        table = RulesTable()
        index_of = {}
        for a in by_action:
            d = model.decision(state, a, table)
            if d is not None:
                index_of[d.taken] = a
        counts = [by_action.get(index_of.get(c, -1), 0) for c in legal]
    n = sum(counts)
    if n <= 0:
        return [1.0 / len(legal)] * len(legal)
    return [c / n for c in counts]


# ---- 2. fit -------------------------------------------------------------------------

def fit_generation(features: dict[str, tuple[str, ...]], params: ModelParams,
                   data: list[tuple], ridge: float = RIDGE, hidden: int = 0,
                   seed: int = 1) -> tuple[ModelParams, dict]:
    """The new parameters and the held-out report per kind and overall:
    every kind with training data refitted from the current weights, or,
    with ``hidden`` units, the linear weights kept and a hidden layer of
    that many units fitted on top of them (``bots.modelfit.fit_hidden``,
    from ``seed``; the training deals' every tenth, by index, picks the
    pass to keep)."""
    train: dict[str, list] = defaultdict(list)
    test: dict[str, list] = defaultdict(list)
    check: dict[str, list] = defaultdict(list)
    for kind, rows, shares, taken, index, _seat, _result in data:
        if index % HOLDOUT == HOLDOUT - 1:
            test[kind].append((rows, shares, taken))
        elif hidden and index % 10 == 3:
            check[kind].append((rows, shares))
        else:
            train[kind].append((rows, shares, taken))
    kinds = {k: dict(v) for k, v in params.kinds.items()}
    layers = dict(params.hidden) if not hidden else {}
    report: dict[str, Any] = {"kinds": {}}
    tot: dict[str, float] = {"n": 0, "old": 0.0, "new": 0.0, "ll_old": 0.0, "ll_new": 0.0}
    for kind in sorted(train):
        names = features[kind]
        start = params.theta(kind, names)
        row: dict[str, float] = {"train": len(train[kind]), "heldout": len(test.get(kind, []))}
        if hidden and len(train[kind]) < HIDDEN_MIN:
            pass                                 # too few to fit a layer: linear alone
        elif hidden:
            layer, fitted = fit_hidden([(r, s) for r, s, _ in train[kind]], len(names), hidden,
                                       start, seed, held=check.get(kind) or None)
            layers[kind] = layer
            row.update(epoch=fitted["kept_epoch"])
        else:
            theta = fit_kind([(r, s) for r, s, _ in train[kind]], len(names), ridge,
                             start=start, toward_start=True)
            kinds[kind] = {n: round(v, 6) for n, v in zip(names, theta, strict=True)
                           if v != 0.0}
        held = test.get(kind) or []
        if held:
            new = [kinds.get(kind, {}).get(n, 0.0) for n in names]
            old_l, old_ll = _losses(held, start, params.hidden.get(kind))
            new_l, new_ll = _losses(held, new, layers.get(kind))
            row.update(loss=round(new_l, 4), loss_before=round(old_l, 4),
                       taken=round(new_ll, 4), taken_before=round(old_ll, 4))
            n = len(held)
            tot["n"] += n
            tot["old"] += old_l * n
            tot["new"] += new_l * n
            tot["ll_old"] += old_ll * n
            tot["ll_new"] += new_ll * n
        report["kinds"][kind] = row
    if tot["n"]:
        k = tot["n"]
        report.update(heldout=int(k), loss=round(tot["new"] / k, 4),
                      loss_before=round(tot["old"] / k, 4), taken=round(tot["ll_new"] / k, 4),
                      taken_before=round(tot["ll_old"] / k, 4))
    out = ModelParams(kinds, params.floor, params.alpha, dict(params.meta), layers)
    return out, report


def _losses(held: list, theta: list[float], layer: dict | None = None) -> tuple[float, float]:
    """Mean cross-entropy to the visit shares and mean log-likelihood of
    the action taken, under ``theta`` (and the hidden ``layer``)."""
    loss = ll = 0.0
    for rows, shares, taken in held:
        deep = hidden_scores(layer, rows)
        scores = [math.fsum(t * x for t, x in zip(theta, r, strict=True)) + h
                  for r, h in zip(rows, deep, strict=True)]
        top = max(scores)
        lz = top + math.log(math.fsum(math.exp(s - top) for s in scores))
        loss -= math.fsum(p * (s - lz) for p, s in zip(shares, scores, strict=True) if p > 0)
        ll += scores[taken] - lz
    return loss / len(held), ll / len(held)


# ---- 3. gate ------------------------------------------------------------------------

def gate_pair(task: tuple) -> float:
    """One duplicate deal pair of the gate (``task``: ``(args, generation,
    index, new document, old document)``): the new model's mean result of
    the deal over its seats minus the old one's, averaged over the two
    seatings (the new model on the even seats, then on the odd ones)."""
    args, generation, index, new_doc, old_doc = task
    game = _game(args.game, args.options)
    new, old = ModelParams.from_json(new_doc), ModelParams.from_json(old_doc)
    seed = _seeds(args, generation, index, 1)
    n = game.num_players
    diff = 0.0
    for first in (0, 1):
        mine = [s for s in range(n) if s % 2 == first]
        bots = [_search(game, s, seed * 10 + s, args.iterations, new if s in mine else old)
                for s in range(n)]
        res = play_deals(game, bots, seed)
        theirs = [s for s in range(n) if s not in mine]
        diff += sum(res[s] for s in mine) / len(mine) - sum(res[s] for s in theirs) / len(theirs)
    return diff / 2


def interval(diffs: list[float]) -> tuple[float, float]:
    """Mean and 95% half-width."""
    m = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((x - m) ** 2 for x in diffs) / max(1, len(diffs) - 1))
    return m, 1.96 * sd / math.sqrt(len(diffs))


# ---- the run ------------------------------------------------------------------------

def _fail(task: tuple, exc: BaseException) -> LearnError:
    return LearnError(DEAL_FAILED(generation=task[1], deal=task[2], kind=type(exc).__name__,
                                  reason=str(exc)))


class _LocalCluster(DaskExecutor):
    """A Dask ``LocalCluster`` of ``jobs`` worker processes, closed with
    the run."""

    def __init__(self, jobs: int):
        # distributed is the optional [dask] extra (``_executor`` checked it)
        import distributed
        self.cluster = distributed.LocalCluster(n_workers=jobs, threads_per_worker=1,
                                                processes=True, dashboard_address=None)
        super().__init__(distributed.Client(self.cluster, set_as_default=False))
        self._own = True

    def close(self) -> None:
        super().close()
        self.cluster.close()


def _executor(jobs: int, dask: Any) -> LocalExecutor | DaskExecutor:
    """The ladder's executors: this process, a Dask LocalCluster of
    ``jobs`` worker processes (local processes without the [dask] extra),
    or the cluster at ``dask``."""
    if dask is not None:
        return DaskExecutor(dask)
    if jobs == 1:
        return LocalExecutor(1)
    try:
        # distributed is the optional [dask] extra: without it, local processes
        import distributed  # noqa: F401
    except ImportError:
        return LocalExecutor(jobs)
    return _LocalCluster(jobs)


def _close(ex: LocalExecutor | DaskExecutor) -> None:
    if isinstance(ex, DaskExecutor):
        ex.close()


def _write(path: Path, doc: dict) -> None:
    """Write ``doc`` as JSON atomically (a kill leaves the old file or the new)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def checkpoint_path(out: str | Path) -> Path:
    return Path(str(out) + ".checkpoint.json")


def run(name: str, options: dict[str, Any], *, generations: int, games: int, seed: int,
        out: str, iterations: int = DEFAULT_ITERATIONS, gate: int = DEFAULT_GATE,
        jobs: int = 1, dask: Any = None, start: Any = None, command: str = "",
        verbose: bool = True, hidden: int = 0) -> dict:
    """Run (or resume) expert iteration (see the module docstring); returns
    the best model's document, as written to ``out``."""
    for what, value, low in (("--generations", generations, 1), ("--games", games, HOLDOUT),
                             ("--iterations", iterations, 1), ("--gate", gate, 0),
                             ("--jobs", jobs, 1), ("--hidden", hidden, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise OptionError(AT_LEAST(flag=what, low=low, got=Quote(value)))
    if hidden > HIDDEN_MAX:
        raise OptionError(HIDDEN_MOST(most=HIDDEN_MAX, got=hidden))
    game = solver.load_game(name, **options)
    if model_of(game) is None:
        raise OptionError(NOTHING_TO_LEARN(game=name))
    args = LearnArgs(name, tuple(sorted(game.non_default_options().items())), generations,
                     games, seed, iterations, gate, hidden)
    ckpt = checkpoint_path(out)
    state: dict[str, Any]
    if ckpt.exists():
        try:
            state = json.loads(ckpt.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise LearnError(UNREADABLE_CHECKPOINT(file=repr(str(ckpt)), reason=str(exc))) \
                from None
        was = state.get("args", {})
        now = json.loads(json.dumps(asdict(args)))
        same = {k: v for k, v in now.items() if k != "generations"}
        if {k: was.get(k) for k in same} != same:
            raise LearnError(OTHER_RUN(file=repr(str(ckpt)), was=was))
        params = check_model(game, state["model"], "learn: checkpoint")
    else:
        params = check_model(game, start, "learn: --from") if start is not None else \
            model_of(game)[1]                     # type: ignore[index]
        # a copy: the run rewrites its model's meta, and the shipped model is
        # shared by everything in this process that plays or weighs worlds
        params = ModelParams.from_json(params.to_json())
        # the model the run starts from made the linear weights: its command
        # stays in the meta, which a run with --hidden does not refit
        state = {"generation": 0, "history": [], "model": params.to_json(),
                 "start_command": params.meta.get("command", "")}
    features = model_of(game)[0].features          # type: ignore[index]
    ex = _executor(jobs, dask)
    try:
        for generation in range(state["generation"] + 1, generations + 1):
            t0 = _time.process_time()
            w0 = _time.perf_counter()
            doc = params.to_json()
            tasks = [(args, generation, i, doc) for i in range(games)]
            data = [d for got in ex.run(tasks, selfplay_deal, _fail) for d in got]
            data.sort(key=lambda d: (d[4], d[5]))   # any executor, the same order
            new, report = fit_generation(features, params, data, hidden=hidden,
                                         seed=seed * 1_000_003 + generation)
            gtasks = [(args, generation, i, new.to_json(), doc) for i in range(gate)]
            diffs = sorted(ex.run(gtasks, gate_pair, _fail))
            # --gate 0: no gate, the new model is kept (its strength measured
            # apart, e.g. at equal time by bench/strength.py)
            mean, half = interval(diffs) if diffs else (0.0, 0.0)
            kept = mean > 0 or not diffs
            entry = {"generation": generation, "games": games, "decisions": len(data),
                     "heldout": report.get("heldout", 0), "loss": report.get("loss"),
                     "loss_before": report.get("loss_before"), "taken": report.get("taken"),
                     "taken_before": report.get("taken_before"), "gate_pairs": gate,
                     "gate": round(mean, 3), "gate_ci95": round(half, 3), "kept": kept,
                     "cpu_seconds": round(_time.process_time() - t0, 1),
                     "seconds": round(_time.perf_counter() - w0, 1), "kinds": report["kinds"]}
            if kept:
                params = new
            state["history"].append(entry)
            state["generation"] = generation
            state["args"] = asdict(args)
            params.meta = {"game": model_key(game), "options": dict(args.options),
                           "command": command, "seed": seed, "iterations": iterations,
                           "hidden": hidden, "start_command": state.get("start_command", ""),
                           "generation": max([e["generation"] for e in state["history"]
                                              if e["kept"]], default=0),
                           "generations_run": generation, "games": games, "gate": gate,
                           "history": [{k: v for k, v in e.items() if k != "kinds"}
                                       for e in state["history"]], "last_fit": report}
            state["model"] = params.to_json()
            _write(Path(out), params.to_json())
            _write(ckpt, state)
            if verbose:
                print(progress_line(entry, generations), file=sys.stderr, flush=True)
    finally:
        _close(ex)
    return params.to_json()


def progress_line(e: dict, generations: int) -> str:
    loss = "n/a" if e["loss"] is None else f"{e['loss']:.4f} (was {e['loss_before']:.4f})"
    return (f"generation {e['generation']}/{generations}: {e['games']} games, "
            f"{e['decisions']} decisions, held-out policy loss {loss}, "
            + (f"new vs old {e['gate']:+.2f} +- {e['gate_ci95']:.2f} over {e['gate_pairs']} "
               f"pairs" if e["gate_pairs"] else "no gate") + " -> "
            f"{'kept' if e['kept'] else 'discarded'} [{e['seconds']:.0f} s]")


__all__ = ["DEFAULT_GATE", "DEFAULT_ITERATIONS", "LearnError", "checkpoint_path",
           "fit_generation", "gate_pair", "progress_line", "run", "selfplay_deal"]
