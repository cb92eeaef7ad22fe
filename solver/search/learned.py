"""The learned policy: a game's fitted model of play as a player's policy
and as the searches' prior and play-out policy.

Each game's model of play (``solver.beliefs.OpponentModel``, fitted to the
strongest search's own decisions by ``dixtrix model fit``: a softmax over
counted features of each legal action, one set of weights a kind of
decision) gives, for the seat to move, the probability of each legal action
from what that seat knows: its own cards and what is public.  The beliefs
read it to weigh the worlds (solver/beliefs.py); here it plays:

A model may carry a **hidden layer** per kind (``ModelParams.hidden``,
fitted by ``dixtrix learn --hidden``): an action's score is then its
linear score plus ``v . relu(w x + b)`` over the same features, in the
Python twin (``hidden_scores``) and in the kernels (``hidden_score`` in
csrc/include/cardfeat.pxd); the beliefs keep the linear part.

* ``action_probabilities(model, params, state)``: the policy of any
  decision the model describes (cards, bids, contracts, doubling, the
  layout, exchanges), in Python: the ``learned`` bot and the twin the
  kernels are held to;
* ``kernel_spec(model, params, state)``: the card policy of the deal in
  play as the Cython kernels load it (``Search.set_policy``: the trick
  rules as arrays and a lead's and a follow's weights per phase), so that
  every card node of the tree selects by PUCT with the policy's
  probabilities (``prior=learned``) and the play-outs draw their cards from
  it (``policy=learned``); each seat's probabilities are those of its own
  cards in the world the iteration drew (csrc/include/cardfeat.pxd);
* ``learned_prior`` / ``learned_rollout``: the same for the Python search
  (the policy's most likely action as the PUCT favourite, a play-out action
  drawn from the policy), where the game's rules policy fills in for a
  decision the model does not describe.
"""

from __future__ import annotations

import json
import math
import os
import random
from collections.abc import Callable
from typing import Any

from ..beliefs import ModelParams, ObservationSet, OpponentModel, RulesTable, observation_features
from ..cardplay import CARD_FEATURES
from ..errors import OptionError
from ..front import N_
from ..game import Game, State
from ..said import Quote, phrase
from .native import LEARNED_PLAYOUTS
from .support import support_for

#: the phases a kernel's card policy tells apart (csrc/include/cardfeat.pxd)
POLICY_PHASES = 2

#: the most units a policy's hidden layer may have (the kernels' arrays:
#: ``HIDDEN_MAX`` in csrc/include/cardfeat.pxd)
HIDDEN_MAX = 32

#: what ``prior=`` takes: the rules bot's move as the favourite, the learned
#: policy's probabilities, or none (UCB1)
PRIORS = ("rules", "learned", "none")


# the errors raised here (solver/errors.py: a code and its parameters;
# ``where``, the argument's name, written before them)
FILE_UNREADABLE = phrase("file_unreadable", N_("cannot read {path} ({why})"))
FILE_NOT_JSON = phrase("file_not_json", N_("{path} is not JSON ({why})"))
MODEL_KINDS = phrase("model_kinds", N_("a model has a 'kinds' object of weights by kind of decision"))
NOT_A_MODEL = phrase("not_a_model", N_("not a model ({why})"))
MODEL_TYPE = phrase("model_type", N_("expected a model file, its JSON or ModelParams, got {got}"))
NO_MODEL = phrase("no_model", N_("{game} has no model of play"))
MODEL_GAME = phrase("model_game", N_("a model of {made_for} does not fit {game}"))
MODEL_NO_KIND = phrase("model_no_kind", N_("{game} has no decision kind {kind} (its kinds: {kinds})"))
MODEL_WEIGHTS = phrase("model_weights", N_("kind {kind}: weights by feature name, got {got}"))
MODEL_NO_FEATURE = phrase("model_no_feature", N_("kind {kind} has no feature {feature}"))
MODEL_WEIGHT = phrase("model_weight", N_("kind {kind}, feature {feature}: a weight is a finite "
                                         "number, got {got}"))
HIDDEN_KIND = phrase("hidden_kind", N_("a hidden layer for {kind}, a kind of decision the game "
                                       "does not have (its kinds: {kinds})"))
HIDDEN_KEYS = phrase("hidden_keys", N_("kind {kind}: a hidden layer is an object of 'w', 'b' and "
                                       "'v', got {got}"))
HIDDEN_SHAPE = phrase("hidden_shape", N_("kind {kind}: a hidden layer has 1..{top} units, each "
                                         "with {features} weights (one a feature), a bias and an "
                                         "output"))
HIDDEN_WEIGHT = phrase("hidden_weight", N_("kind {kind}: the hidden layer's weights are finite "
                                           "numbers, got {got}"))


def model_of(game: Game, params: ModelParams | None = None
             ) -> tuple[OpponentModel, ModelParams] | None:
    """The game's model of play and its parameters (``params``, else the
    fitted ones it ships), or None for a game without one."""
    model = support_for(game).opponent_model(game)
    if model is None:
        return None
    return model, (params if params is not None else model.params())


def read_json(path: str | os.PathLike, where: str) -> Any:
    """The JSON document in the file ``path`` (a model or a value file),
    refused with ``OptionError`` naming ``where`` and the file when it
    cannot be read or is not JSON."""
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except OSError as exc:
        raise OptionError(FILE_UNREADABLE(path=Quote(str(path)),
                                          why=exc.strerror or type(exc).__name__), where) from None
    except ValueError as exc:
        raise OptionError(FILE_NOT_JSON(path=Quote(str(path)), why=str(exc)), where) from None


def check_model(game: Game, params: Any, where: str = "model") -> ModelParams:
    """``params`` as the parameters of ``game``'s model of play: a
    ``ModelParams``, its JSON document (a dict) or the path of a model file
    (``dixtrix model fit`` and ``dixtrix learn`` write them); refused with
    ``OptionError`` naming what does not fit: a file that cannot be read, a
    model of another game, a kind of decision the game does not have, a
    weight that is not a number or a feature the kind does not name."""
    if isinstance(params, (str, os.PathLike)):
        params = read_json(params, where)
    if isinstance(params, dict):
        if not isinstance(params.get("kinds"), dict):
            raise OptionError(MODEL_KINDS(), where)
        try:
            params = ModelParams.from_json(params)
        except (TypeError, ValueError, AttributeError) as exc:
            raise OptionError(NOT_A_MODEL(why=str(exc)), where) from None
    if not isinstance(params, ModelParams):
        raise OptionError(MODEL_TYPE(got=Quote(params)), where)
    got = model_of(game)
    if got is None:
        raise OptionError(NO_MODEL(game=game.name), where)
    model = got[0]
    made_for = params.meta.get("game")
    if made_for is not None and made_for not in (game.name, model_key(game)):
        raise OptionError(MODEL_GAME(made_for=Quote(made_for), game=Quote(model_key(game))),
                          where)
    for kind, weights in params.kinds.items():
        names = model.features.get(kind)
        if names is None:
            raise OptionError(MODEL_NO_KIND(game=model_key(game), kind=Quote(kind),
                                            kinds=sorted(model.features)), where)
        if not isinstance(weights, dict):
            raise OptionError(MODEL_WEIGHTS(kind=Quote(kind), got=Quote(weights)), where)
        for name, w in weights.items():
            if name not in names:
                raise OptionError(MODEL_NO_FEATURE(kind=Quote(kind), feature=Quote(name)), where)
            if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w):
                raise OptionError(MODEL_WEIGHT(kind=Quote(kind), feature=Quote(name),
                                               got=Quote(w)), where)
    for kind, layer in params.hidden.items():
        _check_hidden(model, kind, layer, where)
    return params


def _check_hidden(model: OpponentModel, kind: str, layer: Any, where: str) -> None:
    """Refuse a hidden layer that does not fit ``kind``'s features."""
    names = model.features.get(kind)
    if names is None:
        raise OptionError(HIDDEN_KIND(kind=Quote(kind), kinds=sorted(model.features)), where)
    if not isinstance(layer, dict) or set(layer) != {"w", "b", "v"}:
        raise OptionError(HIDDEN_KEYS(kind=Quote(kind), got=Quote(layer)), where)
    w, b, v = layer["w"], layer["b"], layer["v"]
    units = len(b) if isinstance(b, list) else -1
    if not 1 <= units <= HIDDEN_MAX or not isinstance(v, list) or len(v) != units \
            or not isinstance(w, list) or len(w) != units \
            or any(not isinstance(r, list) or len(r) != len(names) for r in w):
        raise OptionError(HIDDEN_SHAPE(kind=Quote(kind), top=HIDDEN_MAX, features=len(names)),
                          where)
    for x in [*b, *v, *(y for r in w for y in r)]:
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
            raise OptionError(HIDDEN_WEIGHT(kind=Quote(kind), got=Quote(x)), where)


def hidden_scores(layer: dict[str, list] | None, rows: list[list[float]]) -> list[float]:
    """The hidden layer's part of each row's score, ``v . relu(w x + b)``
    (0 without a layer): the twin of the kernels' ``hidden_score``
    (csrc/include/cardfeat.pxd) and of the fit's numpy forward pass
    (``bots.modelfit.hidden_forward``)."""
    if not layer:
        return [0.0] * len(rows)
    w, b, v = layer["w"], layer["b"], layer["v"]
    out = []
    for x in rows:
        s = 0.0
        for wj, bj, vj in zip(w, b, v, strict=True):
            a = bj + sum(p * q for p, q in zip(wj, x, strict=True))
            if a > 0.0:
                s += vj * a
        out.append(s)
    return out


def model_key(game: Game) -> str:
    """The name a game's model is made for: the model file's name without
    ``model-`` and ``.json`` (``dix-seventeen``, ``dixie-rook-6``)."""
    got = model_of(game)
    data = got[0].data if got is not None else ""
    return data[len("model-"):-len(".json")] if data.startswith("model-") else game.name


def action_probabilities(model: OpponentModel, params: ModelParams,
                         state: State, leads_only: bool = False) -> dict[int, float] | None:
    """The policy's probability of each legal action (by id) of the seat to
    move in ``state``, read from that seat's cards and what is public; None
    where the model does not describe the decision (a kind it leaves out,
    or one legal action; with ``leads_only``, any decision but a card led
    to a trick).  An action the model holds illegal for the hand gets 0
    (the rules decide legality; the model only weighs)."""
    legal = state.legal_actions()
    if len(legal) < 2:
        return None
    table = RulesTable()
    first = model.example(state, legal[0], table)
    if first is None:
        return None
    o, hand = first
    if leads_only and (o.card is None or not o.card.leading):
        return None
    names = model.features.get(o.kind)
    if names is None:
        return None
    obs = ObservationSet([o], model.features, 0, table.rules)
    cands, rows, _ = observation_features(obs, o, hand)
    theta = params.theta(o.kind, names)
    deep = hidden_scores(params.hidden.get(o.kind), rows)
    score = {c: sum(t * f for t, f in zip(theta, row, strict=True)) + h
             for c, row, h in zip(cands, rows, deep, strict=True)}
    # a card decision's candidates are the cards, which are the actions'
    # ids; any other decision's are indices into its candidate list, which
    # the model names for each action taken
    if o.card is not None:
        key = {a: a for a in legal}
    else:
        key = {}
        for a in legal:
            d = model.decision(state, a, table)
            if d is not None:
                key[a] = d.taken
    known = {a: score[k] for a, k in key.items() if k in score}
    if not known:
        return {a: 1.0 / len(legal) for a in legal}
    top = max(known.values())
    z = sum(math.exp(s - top) for s in known.values())
    return {a: (math.exp(known[a] - top) / z if a in known else 0.0) for a in legal}


def best_action(probs: dict[int, float]) -> int:
    """The most likely action (ties: the lowest id)."""
    return max(probs, key=lambda a: (probs[a], -a))


def kernel_spec(model: OpponentModel, params: ModelParams, state: State) -> dict[str, Any] | None:
    """The card policy of the deal in play in ``state`` as the kernels load
    it (csrc/include/cardfeat.pxd, ``card_policy_load``), or None where the
    model has no card play there.  Only public facts of ``state`` are read
    (the trick rules: the trumps, the contract, the cards revealed)."""
    got = model.card_kinds(state)
    if got is None:
        return None
    rules, phases = got
    theta: list[float] = []
    slots: list[str] = []
    for k in range(POLICY_PHASES):
        lead, follow = phases[min(k, len(phases) - 1)]
        theta += params.theta(lead, CARD_FEATURES) + params.theta(follow, CARD_FEATURES)
        slots += [lead, follow]
    return {**_kernel_hidden(params, slots),"suit": list(rules.suit_masks), "above": list(rules.above),
            "points": [float(x) for x in rules.points], "strength": list(rules.strength),
            "pips": list(rules.pips), "pipcards": list(rules.pip_cards),
            "trumps": rules.trumps, "trick_value": float(rules.trick_value),
            "scale": float(rules.scale or 1.0), "special": rules.special_sum,
            "special_value": float(rules.special_value), "theta": theta}


def _kernel_hidden(params: ModelParams, slots: list[str]) -> dict[str, Any]:
    """The hidden layers of the policy's slots (a phase's lead, its
    follow) as the kernel loads them: every slot with the most units any
    has (a smaller layer padded with units whose output is 0, a slot
    without one all zeros), flattened slot by slot."""
    layers = [params.hidden.get(k) for k in slots]
    units = max((len(layer["b"]) for layer in layers if layer), default=0)
    if not units:
        return {"hidden": 0}
    hw: list[float] = []
    hb: list[float] = []
    hv: list[float] = []
    zero = [0.0] * len(CARD_FEATURES)
    for layer in layers:
        w, b, v = (layer["w"], layer["b"], layer["v"]) if layer else ([], [], [])
        for j in range(units):
            hw += [float(x) for x in w[j]] if j < len(b) else zero
            hb.append(float(b[j]) if j < len(b) else 0.0)
            hv.append(float(v[j]) if j < len(b) else 0.0)
    return {"hidden": units, "hw": hw, "hb": hb, "hv": hv}


def attach(native: Any, game: Game, world: State, *, prior: bool, playout: str = "rules",
           params: ModelParams | None = None) -> bool:
    """Give a prepared Cython search (``solver.search.native``) the game's
    card policy (``params``, else the shipped one): as the prior of its card
    nodes (``prior``) and to draw its play-outs' cards (``playout``, the
    search's play-out policy: ``learned`` every card, ``leads`` the leads,
    any other none).  False where the kernel or the model has none for this
    decision (the search then runs as without it)."""
    got = model_of(game, params)
    if got is None:
        return False
    spec = kernel_spec(got[0], got[1], world)
    if spec is None:
        return False
    return bool(native.set_policy(spec, prior, LEARNED_PLAYOUTS.get(playout, 0)))


def learned_prior(game: Game, fallback: Callable[..., int] | None,
                  params: ModelParams | None = None) -> Callable[..., int] | None:
    """The Python search's PUCT favourite: the policy's most likely action
    for the mover's cards in the world at hand (``fallback``, the rules
    policy, where the model does not describe the decision)."""
    got = model_of(game, params)
    if got is None:
        return fallback
    model, params = got

    def prior(state: State) -> int:
        probs = action_probabilities(model, params, state)
        if probs is None:
            legal = state.legal_actions()
            return fallback(state) if fallback is not None and len(legal) > 1 else legal[0]
        return best_action(probs)
    return prior


def learned_rollout(game: Game, rng: random.Random, fallback: Callable[..., int],
                    params: ModelParams | None = None,
                    leads: bool = False) -> Callable[..., int]:
    """The Python search's play-out move: drawn from the policy (``fallback``
    where the model does not describe the decision; with ``leads``, every
    decision but a card led to a trick, as the kernels' ``leads``
    play-outs)."""
    got = model_of(game, params)
    if got is None:
        return fallback
    model, params = got

    def rollout(state: State, _rng: random.Random | None = None) -> int:
        probs = action_probabilities(model, params, state, leads_only=leads)
        if probs is None:
            return fallback(state)
        acts = sorted(probs)
        return rng.choices(acts, weights=[probs[a] for a in acts])[0]
    return rollout


__all__ = ["HIDDEN_MAX", "POLICY_PHASES", "PRIORS", "action_probabilities", "attach",
           "best_action", "check_model", "hidden_scores", "kernel_spec", "learned_prior",
           "learned_rollout", "model_key", "model_of", "read_json"]
