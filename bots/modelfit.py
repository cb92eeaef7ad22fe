"""Fitting a game's opponent model (``solver/beliefs.py``) to the strongest
bot's decisions in self-play: ``dixtrix model fit GAME``.

1. **Data**: the bot (``ismcts`` at 10,000 iterations by default) plays
   itself, ``--deals`` deals from ``--seed`` on; every decision it makes
   is described by the game's opponent model (its kind, the actions legal
   for the hand it held, each one's features) with the action it took.
   Matches run over ``--jobs`` processes; a match's seed is fixed by its
   number, so the data are the same for any number of jobs.
2. **Fit**: per kind of decision, maximum likelihood of a conditional logit
   (the probability of an action is a softmax of ``theta . features`` over
   the legal ones) with a small ridge penalty, by Newton's method (numpy).
   The deals are split by match: every fifth match is held out.
3. **Report**: on the held-out decisions, per kind, the mean log-likelihood
   of the action taken under the model and under a uniform choice among
   the legal actions (and their difference, the model's gain).
4. **Write**: the parameters, the figures and the command line that made
   them into the game's data file (``solver/games/<package>/data/
   model-<game>.json``), which the beliefs load.

``--data FILE`` keeps the self-play decisions (JSON lines), and
``--from-data FILE`` fits again from them without playing.

The fit needs numpy (``pip install ".[fit]"``; the test extra has it).
"""

from __future__ import annotations

import json
import math
import sys
import time as _time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import solver
from solver.beliefs import ModelParams, ObservationSet, RulesTable, observation_features
from solver.errors import OptionError
from solver.front import N_
from solver.said import phrase
from solver.search.support import support_for

from .registry import make_bot

# the error raised here (solver/errors.py: a code and its parameters)
NO_MODEL = phrase("no_opponent_model", N_("{game} has no opponent model"))

#: the bot whose play the model is fitted to
DEFAULT_BOT = "ismcts:iterations=10000"
#: every HOLDOUT-th match is held out of the fit
HOLDOUT = 5
#: the ridge penalty of the fit (on the sum of the decisions' log-likelihoods)
RIDGE = 1.0


def _game(name: str, options: dict[str, Any]):
    return solver.load_game(name, **options)


def play_decisions(name: str, options: dict[str, Any], bot: str, match: int, seed: int,
                   deals: int) -> list[tuple[str, list[list[float]], int, int]]:
    """One self-play match's decisions, up to ``deals`` deals: ``(kind,
    feature rows of the legal actions, index of the action taken,
    match)``."""
    game = _game(name, options)
    model = support_for(game).opponent_model(game)
    if model is None:
        raise OptionError(NO_MODEL(game=name))
    state = game.new_initial_state(seed=seed + match)
    bots = [make_bot(bot, game, s, seed=(seed + match) * 100 + s)
            for s in range(game.num_players)]
    start = state.round_index()
    out = []
    while not state.is_terminal() and state.round_index() - start < deals:
        seat = state.current_player()
        action = bots[seat].step(state)
        if len(state.legal_actions()) > 1:
            table = RulesTable()
            ex = model.example(state, action, table)
            if ex is not None:
                o, hand = ex
                obs = ObservationSet([o], model.features, 0, table.rules)
                legal, rows, taken = observation_features(obs, o, hand)
                if taken < 0:
                    raise AssertionError(f"{name}: the action taken is not legal for the "
                                         f"model ({o.kind}, match {match})")
                if len(legal) > 1:
                    out.append((o.kind, rows, taken, match))
        state.apply_action(action)
    return out


def _play_job(args: tuple) -> list:
    return play_decisions(*args)


def collect(name: str, options: dict[str, Any], bot: str, matches: int, seed: int,
            deals: int, jobs: int = 1, progress=None) -> list:
    """Every decision of ``matches`` self-play matches (``play_decisions``)."""
    tasks = [(name, options, bot, m, seed, deals) for m in range(matches)]
    out: list = []
    if jobs <= 1:
        for k, t in enumerate(tasks):
            out.extend(_play_job(t))
            if progress:
                progress(k + 1, len(tasks))
        return out
    with ProcessPoolExecutor(jobs, mp_context=get_context("spawn")) as ex:
        for k, got in enumerate(ex.map(_play_job, tasks)):
            out.extend(got)
            if progress:
                progress(k + 1, len(tasks))
    return out


def fit_kind(data: list, size: int, ridge: float = RIDGE, steps: int = 100,
             start: list[float] | None = None, toward_start: bool = False):
    """Maximum likelihood weights of a conditional logit: ``data`` a list of
    ``(rows, target)``, ``target`` the index of the action taken or a
    probability for each row (a search's visit shares: the cross-entropy
    to them is fitted, as expert iteration fits a policy to its search);
    ``size`` features; ``start`` the weights to start from (default 0),
    and with ``toward_start`` the weights the ridge pulls toward (a new
    generation's fit stays near the model it improves where its data say
    little; else toward 0).  The objective, the log-likelihood less a ridge
    penalty ``ridge / 2 * |theta - centre|^2``, is concave: Newton's method, each step halved until the
    objective rises (a step can overshoot where the data nearly separate
    the actions); returns the weights (a list)."""
    # numpy is the optional [fit] extra (bots/cli.py checks for it first)
    import numpy as np
    X, valid, T = _padded(data, size)
    xy = np.einsum("na,naf->nf", T, X).sum(axis=0)

    def objective(theta):
        s = np.where(valid, X @ theta, -np.inf)
        top = s.max(axis=1, keepdims=True)
        lse = np.log(np.exp(s - top).sum(axis=1)) + top[:, 0]
        d = theta - centre
        return float(xy @ theta - lse @ T.sum(axis=1) - ridge / 2 * d @ d)

    theta = np.zeros(size) if start is None else np.array(start, dtype=float)
    centre = theta.copy() if toward_start else np.zeros(size)
    value = objective(theta)
    for _ in range(steps):
        s = np.where(valid, X @ theta, -np.inf)
        s -= s.max(axis=1, keepdims=True)
        p = np.exp(s)
        p /= p.sum(axis=1, keepdims=True)
        mean = np.einsum("na,naf->nf", p, X)
        w = T.sum(axis=1)                  # each decision's weight (1: a distribution)
        grad = xy - w @ mean - ridge * (theta - centre)
        second = np.einsum("n,na,naf,nag->fg", w, p, X, X) - \
            np.einsum("n,nf,ng->fg", w, mean, mean)
        step = np.linalg.solve(second + ridge * np.eye(size), grad)
        t = 1.0
        while t > 1e-6:
            new = objective(theta + t * step)
            if new >= value:
                break
            t /= 2
        else:
            break
        theta = theta + t * step
        gained, value = new - value, new
        if gained < 1e-9 and np.abs(t * step).max() < 1e-7:
            break
    return [float(v) for v in theta]


def _padded(data: list, size: int):
    """``data`` (``(rows, target)`` pairs) as arrays: features ``(n, width,
    size)``, which rows are actions, and the targets (a distribution a
    decision)."""
    # numpy is the optional [fit] extra (bots/cli.py checks for it first)
    import numpy as np
    width = max(len(rows) for rows, _ in data)
    n = len(data)
    X = np.zeros((n, width, size))
    valid = np.zeros((n, width), dtype=bool)
    T = np.zeros((n, width))
    for i, (rows, target) in enumerate(data):
        X[i, :len(rows)] = rows
        valid[i, :len(rows)] = True
        if isinstance(target, int):
            T[i, target] = 1.0
        else:
            T[i, :len(rows)] = target
    return X, valid, T


def hidden_forward(layer: dict, X):
    """The hidden layer's part of the scores of feature rows ``X`` (any
    leading shape, features last), ``v . relu(w x + b)``: the numpy twin of
    ``solver.search.learned.hidden_scores`` and of the kernels'
    ``hidden_score`` (csrc/include/cardfeat.pxd)."""
    # numpy is the optional [fit] extra (bots/cli.py checks for it first)
    import numpy as np
    w, b, v = (np.asarray(layer[k], dtype=float) for k in ("w", "b", "v"))
    return np.maximum(X @ w.T + b, 0.0) @ v


#: the hidden layer's fit: Adam's step size, its mini-batch, the passes over
#: the data and the weight decay (on the hidden layer's weights)
HIDDEN_LR = 0.01
HIDDEN_BATCH = 256
HIDDEN_EPOCHS = 40
HIDDEN_DECAY = 1e-4


def fit_hidden(data: list, size: int, units: int, theta: list[float], seed: int,
               epochs: int = HIDDEN_EPOCHS, lr: float = HIDDEN_LR,
               decay: float = HIDDEN_DECAY, held: list | None = None) -> tuple[dict, dict]:
    """A hidden layer of ``units`` units fitted on top of the linear
    weights ``theta`` (kept fixed): each action's score is ``theta . x +
    v . relu(w x + b)``, and the layer minimises the cross-entropy to the
    targets of ``data`` (``(rows, target)``, as ``fit_kind``) plus
    ``decay / 2 * (|w|^2 + |v|^2)``, by Adam over mini-batches drawn by a
    generator seeded with ``seed``.  ``v`` starts at 0, so the fit starts
    from the linear policy and moves only where the data ask.  With
    ``held`` (decisions kept out of the fit), the layer kept is the one of
    the pass with the lowest held-out loss.  Returns the layer (``{"w",
    "b", "v"}`` as lists) and a report (passes, losses)."""
    # numpy is the optional [fit] extra (bots/cli.py checks for it first)
    import numpy as np
    rng = np.random.default_rng(seed)
    X, valid, T = _padded(data, size)
    base = X @ np.asarray(theta, dtype=float)
    params = {"w": rng.normal(0.0, 1.0 / math.sqrt(size), (units, size)),
              "b": np.zeros(units), "v": np.zeros(units)}
    moments = {k: (np.zeros_like(p), np.zeros_like(p)) for k, p in params.items()}
    if held:
        HX, Hvalid, HT = _padded(held, size)
        hbase = HX @ np.asarray(theta, dtype=float)

    def loss_of(Xs, valids, Ts, bases, layer) -> float:
        s = np.where(valids, bases + hidden_forward(layer, Xs), -np.inf)
        top = s.max(axis=1, keepdims=True)
        lz = np.log(np.exp(s - top).sum(axis=1, keepdims=True)) + top
        return float(-(Ts * np.where(valids, s - lz, 0.0)).sum() / len(Xs))

    def snapshot() -> dict:
        return {k: p.copy() for k, p in params.items()}

    best, best_loss, best_epoch = snapshot(), math.inf, 0
    if held:
        best_loss = loss_of(HX, Hvalid, HT, hbase, params)
    n, step = len(data), 0
    b1, b2, eps = 0.9, 0.999, 1e-8
    for epoch in range(1, epochs + 1):
        order = rng.permutation(n)
        for lo in range(0, n, HIDDEN_BATCH):
            idx = order[lo:lo + HIDDEN_BATCH]
            x, ok, t = X[idx], valid[idx], T[idx]
            pre = x @ params["w"].T + params["b"]           # (m, width, units)
            h = np.maximum(pre, 0.0)
            s = np.where(ok, base[idx] + h @ params["v"], -np.inf)
            s = s - s.max(axis=1, keepdims=True)
            p = np.where(ok, np.exp(s), 0.0)
            p /= p.sum(axis=1, keepdims=True)
            ds = (p * t.sum(axis=1, keepdims=True) - t) / len(idx)   # d loss / d score
            dh = ds[..., None] * params["v"] * (pre > 0)
            grads = {"v": np.einsum("ma,mau->u", ds, h) + decay * params["v"],
                     "w": np.einsum("mau,maf->uf", dh, x) + decay * params["w"],
                     "b": dh.sum(axis=(0, 1))}
            step += 1
            for k, g in grads.items():
                m1, m2 = moments[k]
                m1 *= b1
                m1 += (1 - b1) * g
                m2 *= b2
                m2 += (1 - b2) * g * g
                params[k] -= lr * (m1 / (1 - b1 ** step)) / (np.sqrt(m2 / (1 - b2 ** step)) + eps)
        if held:
            now = loss_of(HX, Hvalid, HT, hbase, params)
            if now < best_loss:
                best, best_loss, best_epoch = snapshot(), now, epoch
    if not held:
        best, best_epoch = snapshot(), epochs
    report = {"units": units, "epochs": epochs, "kept_epoch": best_epoch,
              "train_loss": round(loss_of(X, valid, T, base, best), 4)}
    if held:
        report["heldout_loss"] = round(best_loss, 4)
    layer = {"w": [[round(float(x), 6) for x in r] for r in best["w"]],
             "b": [round(float(x), 6) for x in best["b"]],
             "v": [round(float(x), 6) for x in best["v"]]}
    return layer, report


def log_likelihood(data: list, theta: list[float]) -> tuple[float, float]:
    """Mean log-likelihood of the actions taken, under ``theta`` and under
    a uniform choice among the legal actions."""
    total = uniform = 0.0
    for rows, taken in data:
        scores = [math.fsum(t * x for t, x in zip(theta, r, strict=True)) for r in rows]
        top = max(scores)
        z = math.fsum(math.exp(s - top) for s in scores)
        total += scores[taken] - top - math.log(z)
        uniform -= math.log(len(rows))
    return total / len(data), uniform / len(data)


def fit(name: str, options: dict[str, Any], decisions: list, features: dict,
        ridge: float = RIDGE) -> tuple[ModelParams, dict]:
    """The fitted parameters and the held-out report from ``collect``'s
    decisions."""
    train: dict[str, list] = defaultdict(list)
    test: dict[str, list] = defaultdict(list)
    for kind, rows, taken, match in decisions:
        (test if match % HOLDOUT == HOLDOUT - 1 else train)[kind].append((rows, taken))
    kinds: dict[str, dict[str, float]] = {}
    report: dict[str, dict[str, float]] = {}
    for kind in sorted(features):
        names = features[kind]
        if not train.get(kind):
            continue
        theta = fit_kind(train[kind], len(names), ridge)
        kinds[kind] = {n: round(v, 6) for n, v in zip(names, theta, strict=True) if v != 0.0}
        held = test.get(kind) or []
        row: dict[str, float] = {"train": len(train[kind]), "heldout": len(held)}
        if held:
            ll, uni = log_likelihood(held, [kinds[kind].get(n, 0.0) for n in names])
            row.update(model=round(ll, 4), uniform=round(uni, 4), gain=round(ll - uni, 4))
        report[kind] = row
    return ModelParams(kinds), report


def data_path(game) -> Path:
    """Where ``game``'s opponent model keeps its parameters."""
    model = support_for(game).opponent_model(game)
    if model is None:
        raise OptionError(NO_MODEL(game=game.name))
    package = Path(sys.modules[type(model).__module__].__file__ or ".").parent
    return package / "data" / model.data


def save_decisions(path: str, decisions: list) -> None:
    """``collect``'s decisions as JSON lines (a fit can be made again from
    them: ``load_decisions``)."""
    with open(path, "w", encoding="utf-8") as fh:
        for d in decisions:
            fh.write(json.dumps(d) + "\n")


def load_decisions(path: str) -> list:
    with open(path, encoding="utf-8") as fh:
        return [tuple(json.loads(line)) for line in fh if line.strip()]


def run(name: str, options: dict[str, Any], bot: str = DEFAULT_BOT, matches: int = 20,
        deals: int = 20, seed: int = 1, jobs: int = 1, out: str | None = None,
        command: str = "", alpha: float = 1.0, floor: float | None = None,
        verbose: bool = True, data: str | None = None, from_data: str | None = None) -> dict:
    """Make the data, fit, report and write (see the module docstring);
    returns the document written."""
    game = _game(name, options)
    model = support_for(game).opponent_model(game)
    if model is None:
        raise OptionError(NO_MODEL(game=name))
    start = _time.perf_counter()

    def progress(done, total):
        if verbose:
            print(f"\r{done}/{total} matches", end="", file=sys.stderr, flush=True)

    if from_data:
        decisions = load_decisions(from_data)
    else:
        decisions = collect(name, options, bot, matches, seed, deals, jobs, progress)
        if verbose:
            print(file=sys.stderr)
        if data:
            save_decisions(data, decisions)
    params, report = fit(name, options, decisions, model.features)
    params.alpha = alpha
    if floor is not None:
        params.floor = floor
    params.meta = {"game": name, "options": options, "bot": bot, "matches": matches,
                   "deals": deals, "seed": seed, "ridge": RIDGE, "holdout": f"every "
                   f"{HOLDOUT}th match", "decisions": len(decisions), "command": command,
                   "seconds": round(_time.perf_counter() - start, 1), "heldout": report}
    doc = params.to_json()
    path = Path(out) if out else data_path(game)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1) + "\n")
    if verbose:
        print(format_report(report))
        print(f"written: {path}")
    return doc


def format_report(report: dict) -> str:
    """The held-out figures as a table."""
    lines = [f"{'kind':<26} {'train':>7} {'held':>6} {'model':>8} {'uniform':>8} {'gain':>7}"]
    for kind, r in sorted(report.items()):
        if "model" in r:
            lines.append(f"{kind:<26} {r['train']:>7} {r['heldout']:>6} {r['model']:>8.3f} "
                         f"{r['uniform']:>8.3f} {r['gain']:>+7.3f}")
        else:
            lines.append(f"{kind:<26} {r['train']:>7} {r.get('heldout', 0):>6}")
    return "\n".join(lines)


__all__ = ["DEFAULT_BOT", "collect", "fit", "fit_hidden", "fit_kind", "format_report",
           "hidden_forward", "log_likelihood", "play_decisions", "run"]
