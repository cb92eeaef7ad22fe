"""The learned value at a search's leaf (``leaf=value``).

A play-out of the Cython ISMCTS normally plays the deal to its end by a
greedy rule; most of its spread is that rule's blunders late in the deal.
With a leaf value the play-out stops after ``cut`` tricks and reads the
expected rest of the deal from a linear value of the world's state (the
iteration's drawn world: every seat's cards, never the truth), one set of
weights a phase of the deal: the spread of the rest is gone and an
iteration costs a few tricks instead of the whole deal.

The features are computed in C by the game's kernel (dix:
``dix_value_point`` in csrc/search/dix.pxd, named by the game's
``GameSupport.value_features``); the
weights are fitted here, in numpy, by ridge regression of the play-outs'
own returns from each state (``samples``, ``fit``), and ship as a small
JSON file beside the game's model of play (``value-<model key>.json`` in the
game's ``data/``), with the command, seed, sizes and held-out figures in its
``meta``.  ``predict`` is the numpy twin of the kernel's ``leaf_dot``
(csrc/include/leafvalue.pxd), held equal by tests/search/test_value.py.
"""

from __future__ import annotations

import math
import os
import random
from importlib import resources
from typing import Any

from ..errors import OptionError
from ..front import N_
from ..game import Game
from ..position import SeatView
from ..said import Quote, phrase
from .heuristics import make_policy
from .learned import model_key, read_json
from .native import native_search
from .support import support_for

#: what ``leaf=`` takes: the learned value after a few tricks of play-out,
#: play-outs to the end, or (PIMC only) play-outs ending in an exact solve
LEAVES = ("value", "playout", "exact")

#: the phases a value tells apart (csrc/include/leafvalue.pxd, VALUE_PHASES)
VALUE_PHASES = 4

#: the tricks a play-out plays past the tree before the value is read, and
#: the tricks left at which a play-out goes to the end instead (the last
#: tricks are cheap to play and the value knows least about their detail)
DEFAULT_CUT = 6
DEFAULT_FLOOR = 3


# the errors raised here (solver/errors.py: a code and its parameters;
# ``where``, the argument's or the bot's name, written before them)
NO_LEAF_VALUE = phrase("no_leaf_value", N_("{game} has no leaf value"))
VALUE_NOT_OBJECT = phrase("value_not_object", N_("a value is a JSON object, got {got}"))
VALUE_FEATURES = phrase("value_features", N_("its features are not the kernel's ({features})"))
VALUE_PHASES_LIST = phrase("value_phases", N_("'weights' is a list of {phases} phases"))
VALUE_PHASE = phrase("value_phase", N_("phase {phase}: {n} finite weights"))
VALUE_TRICKS = phrase("value_tricks", N_("{key} is a number of tricks 0..64, got {got}"))
VALUE_COMPILED = phrase("value_compiled", N_("the leaf value needs the compiled search"))
NO_VALUE_TO_FIT = phrase("no_value_to_fit", N_("no leaf value to fit"))
LEAF = phrase("unknown_leaf", N_("leaf must be one of {choices}, got {got}"))
PIMC_LEAF = phrase("pimc_leaf", N_("pimc: leaf is 'exact' or 'playout' (the learned value is "
                                   "ISMCTS's)"))
EXACT_LEAF = phrase("exact_leaf", N_("leaf is 'value' or 'playout' (an exact end is PIMC's)"))
VALUE_SOURCE = phrase("value_source", N_("a value's source is one of {choices}, got {got}"))


def value_path(game: Game, key: str) -> str:
    """Where the value of the game whose model key is ``key`` ships: its
    package's ``data/value-<key>.json``."""
    package = type(game).__module__.rpartition(".")[0]
    return str(resources.files(package).joinpath("data").joinpath(f"value-{key}.json"))


def features_of(game: Game) -> tuple[str, ...]:
    """The names of ``game``'s leaf-value features, in the kernel's order
    (``OptionError`` for a game without a leaf value)."""
    names = support_for(game).value_features
    if not names:
        raise OptionError(NO_LEAF_VALUE(game=game.name))
    return tuple(names)


def check_value(doc: Any, names: tuple[str, ...], where: str = "value") -> dict[str, Any]:
    """``doc`` (a value file's JSON, or its path) checked against the
    features ``names``: its features named as the kernel computes them, a list of
    ``VALUE_PHASES`` rows of finite weights, ``cut`` and ``floor`` tricks;
    refused with ``OptionError`` naming what does not fit."""
    if isinstance(doc, (str, os.PathLike)):
        doc = read_json(doc, where)
    if not isinstance(doc, dict):
        raise OptionError(VALUE_NOT_OBJECT(got=Quote(doc)), where)
    if doc.get("features") != list(names):
        raise OptionError(VALUE_FEATURES(features=list(names)), where)
    weights = doc.get("weights")
    if not isinstance(weights, list) or len(weights) != VALUE_PHASES:
        raise OptionError(VALUE_PHASES_LIST(phases=VALUE_PHASES), where)
    for p, row in enumerate(weights):
        if not isinstance(row, list) or len(row) != len(names) or not all(
                not isinstance(w, bool) and isinstance(w, (int, float)) and math.isfinite(w)
                for w in row):
            raise OptionError(VALUE_PHASE(phase=p, n=len(names)), where)
    for key in ("cut", "floor"):
        v = doc.get(key)
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 64:
            raise OptionError(VALUE_TRICKS(key=Quote(key), got=Quote(v)), where)
    return doc


_SHIPPED: dict[str, dict[str, Any] | None] = {}


def shipped_value(game: Game) -> dict[str, Any] | None:
    """The value ``game`` ships (beside its model: ``value_path``; read
    once), or None where it ships none."""
    names = support_for(game).value_features
    if not names:
        return None
    path = value_path(game, model_key(game))
    if path not in _SHIPPED:
        _SHIPPED[path] = check_value(path, tuple(names), path) if os.path.exists(path) else None
    return _SHIPPED[path]


def kernel_value(doc: dict[str, Any]) -> dict[str, Any]:
    """The dict ``Search.set_value`` loads (csrc/include/leafvalue.pxd)."""
    return {"weights": doc["weights"], "cut": doc["cut"], "floor": doc["floor"]}


def predict(doc: dict[str, Any], phase: int, features: Any) -> float:
    """The value's estimate of the rest of the deal for a seat with these
    ``features`` in ``phase`` (before the clip to the reward range): the
    numpy twin of the kernel's ``leaf_dot``."""
    import numpy as np  # numpy is the fit's (the test extra), not the search's
    return float(np.dot(np.asarray(doc["weights"][phase], dtype=float),
                        np.asarray(features, dtype=float)))


def samples(game: Game, deals: int, playouts: int, seed: int) -> tuple[Any, Any, Any, Any]:
    """Training rows: ``deals`` seeded deals (``seed``, ``seed + 1``, ...),
    from each the first player's view, ``playouts`` determinizations played
    out by the kernel's play-out policy; a row at every state where the
    value is read.  Returns numpy ``(features, phases, targets, deal)``,
    the target the seat's reward at the end minus its reward so far, in
    the kernel's reward scale."""
    import numpy as np  # numpy is the fit's (the test extra), not the search's


    xs, ps, ys, ds = [], [], [], []
    nf = 0
    for d in range(deals):
        state = game.new_initial_state(seed=seed + d)
        view = SeatView.of(state, state.current_player())
        native = native_search(game, view.sampler(), "rules")
        if native is None:
            raise OptionError(VALUE_COMPILED(), game.name)
        nf = len(features_of(game))
        x, ph, y = native.value_samples(playouts, random.Random(seed + d).getrandbits(64))
        xs.append(np.frombuffer(x, dtype=float).reshape(-1, nf))
        ps.append(np.frombuffer(ph, dtype=np.int32))
        ys.append(np.frombuffer(y, dtype=float))
        ds.append(np.full(len(ys[-1]), d, dtype=np.int32))
    return (np.concatenate(xs) if xs else np.zeros((0, nf)), np.concatenate(ps),
            np.concatenate(ys), np.concatenate(ds))


def play_samples(game: Game, deals: int, seed: int) -> tuple[Any, Any, Any, Any]:
    """Training rows from the rules player's own play: ``deals`` seeded
    deals (``seed``, ``seed + 1``, ...) played to the end of the first deal
    by the rules player at every seat, a row at every state where the value
    is read (``GameSupport.value_twin``), the target the first seat's deal
    result at the end (``round_returns``, scaled as the kernel's rewards:
    ``round_scale``) minus its reward so far.  The same ``(features,
    phases, targets, deal)`` as ``samples``."""
    import numpy as np  # numpy is the fit's (the test extra), not the search's
    twin = support_for(game).value_twin
    if twin is None:
        raise OptionError(NO_VALUE_TO_FIT(), game.name)
    xs, ps, ys, ds = [], [], [], []
    scale = float(game.round_scale)
    for d in range(deals):
        state = game.new_initial_state(seed=seed + d)
        players = [make_policy("rules", game, s, seed=(seed + d) * 16 + s)
                   for s in range(game.num_players)]
        rows = []
        while not state.is_terminal() and state.round_index() < 1:
            got = twin(state, 0)
            if got is not None:
                rows.append(got)
            state.apply_action(players[state.current_player()].step(state))
        end = max(-1.0, min(1.0, state.round_returns(0)[0] / scale))
        for phase, f, partial in rows:
            xs.append(f)
            ps.append(phase)
            ys.append(end - partial[0])
            ds.append(d)
    return (np.asarray(xs, dtype=float), np.asarray(ps, dtype=np.int32),
            np.asarray(ys, dtype=float), np.asarray(ds, dtype=np.int32))


def fit(x: Any, phases: Any, y: Any, l2: float = 0.1) -> list[list[float]]:
    """Ridge regression of ``y`` on ``x``, one set of weights a phase (no
    intercept: the features are differences between the seats, so the
    value of one seat is minus the other's)."""
    import numpy as np  # numpy is the fit's (the test extra), not the search's
    nf = x.shape[1]
    weights = []
    for p in range(VALUE_PHASES):
        m = phases == p
        xp, yp = x[m], y[m]
        if len(yp) == 0:
            weights.append([0.0] * nf)
            continue
        w = np.linalg.solve(xp.T @ xp + l2 * np.eye(nf), xp.T @ yp)
        weights.append([round(float(v), 6) for v in w])
    return weights


def held_out(weights: list[list[float]], x: Any, phases: Any, y: Any) -> list[dict[str, float]]:
    """Per phase, on rows the fit did not see: rows, the target's variance,
    the value's mean squared error and the share of the variance it
    explains."""
    import numpy as np  # numpy is the fit's (the test extra), not the search's
    out = []
    for p in range(VALUE_PHASES):
        m = phases == p
        if not m.any():
            out.append({"rows": 0, "variance": 0.0, "mse": 0.0, "r2": 0.0})
            continue
        r = y[m] - x[m] @ np.asarray(weights[p])
        var = float(y[m].var())
        mse = float((r ** 2).mean())
        out.append({"rows": int(m.sum()), "variance": round(var, 6), "mse": round(mse, 6),
                    "r2": round(1 - mse / var, 4) if var > 0 else 0.0})
    return out


def check_leaf(leaf: Any, bot: str, game: Game) -> str:
    """``leaf`` as one of ``LEAVES`` for ``bot`` (``OptionError`` else):
    None is the bot's default (PIMC ``exact``, ISMCTS the game's
    ``GameSupport.leaf``); True and False, the switch PIMC had before,
    are ``exact`` (ISMCTS: its default) and ``playout``."""
    if leaf is None or leaf is True:
        return "exact" if bot == "pimc" else support_for(game).default_leaf(game)
    if leaf is False:
        return "playout"
    if leaf not in LEAVES:
        raise OptionError(LEAF(choices=list(LEAVES), got=Quote(leaf)), bot)
    if bot == "pimc" and leaf == "value":
        raise OptionError(PIMC_LEAF())
    if bot != "pimc" and leaf == "exact":
        raise OptionError(EXACT_LEAF(), bot)
    return str(leaf)


def leaf_value(game: Game, native: Any) -> dict[str, Any] | None:
    """The value the game ships for a prepared Cython search's kind of
    decision, or None (no kernel, or no value for it)."""
    kind = support_for(game).value_kind
    if native is None or kind is None or getattr(native, "kind", None) != kind:
        return None
    return shipped_value(game)


def attach_value(native: Any, doc: dict[str, Any] | None) -> bool:
    """Give a prepared Cython search the leaf value ``doc``; False where
    the kernel has none (the play-outs then go to the end)."""
    if doc is None or native is None:
        return False
    return bool(native.set_value(kernel_value(doc)))


#: where a value's training rows come from: the rules player's own play
#: (``play_samples``) or the kernel's play-outs (``samples``)
SOURCES = ("rules", "playout")


def make_value(game: Game, deals: int, playouts: int, seed: int,
               cut: int = DEFAULT_CUT, floor: int = DEFAULT_FLOOR, source: str = "rules",
               command: str = "") -> dict[str, Any]:
    """Fit a value: the rows of ``deals`` deals from ``source`` (four in
    five fit, the rest held out, split by deal), the document a value file
    holds."""
    features_of(game)                   # a game without a value is refused first
    if source not in SOURCES:
        raise OptionError(VALUE_SOURCE(choices=list(SOURCES), got=Quote(source)))
    if source == "rules":
        x, ph, y, d = play_samples(game, deals, seed)
    else:
        x, ph, y, d = samples(game, deals, playouts, seed)
    train = d % 5 != 4
    weights = fit(x[train], ph[train], y[train])
    return {"features": list(features_of(game)), "weights": weights, "cut": cut,
            "floor": floor,
            "meta": {"game": model_key(game), "command": command, "seed": seed, "deals": deals,
                     "source": source, "playouts": playouts if source == "playout" else 0,
                     "rows": int(len(y)),
                     "held_out": held_out(weights, x[~train], ph[~train], y[~train])}}


__all__ = ["DEFAULT_CUT", "DEFAULT_FLOOR", "LEAVES", "SOURCES", "VALUE_PHASES",
           "attach_value", "check_leaf", "check_value", "fit", "held_out", "kernel_value",
           "features_of", "leaf_value", "make_value",
           "play_samples", "predict", "samples", "shipped_value", "value_path"]
