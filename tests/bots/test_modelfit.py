"""``dixtrix model fit`` (bots/modelfit.py): the conditional logit fit finds
known weights, stays finite where the data nearly separate the actions,
and a small self-play fit writes parameters the beliefs read, the same
whether made by playing or from the decisions it kept."""

from __future__ import annotations

import json
import math
import random

import pytest

np = pytest.importorskip("numpy")

from bots import modelfit  # noqa: E402
from solver.beliefs import ModelParams  # noqa: E402


def _synthetic(theta, n, rng, width=(2, 6)):
    data = []
    for _ in range(n):
        k = rng.randint(*width)
        rows = [[rng.gauss(0, 1) for _ in theta] for _ in range(k)]
        scores = [sum(t * x for t, x in zip(theta, r, strict=True)) for r in rows]
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        data.append((rows, rng.choices(range(k), weights)[0]))
    return data


def test_the_fit_finds_the_weights_that_made_the_choices():
    truth = [1.5, -0.8, 0.0]
    data = _synthetic(truth, 4000, random.Random(3))
    got = modelfit.fit_kind(data, 3, ridge=0.0)
    assert got == pytest.approx(truth, abs=0.12)
    held = _synthetic(truth, 1000, random.Random(4))
    model, uniform = modelfit.log_likelihood(held, got)
    assert model > uniform + 0.3


def test_nearly_separable_choices_give_finite_weights_and_no_loss():
    # the taken action has the largest first feature almost always (a bid a
    # bot always makes): an undamped Newton step overshoots here
    rng = random.Random(5)
    data = []
    for _ in range(500):
        rows = [[rng.uniform(0, 1), rng.gauss(0, 1)] for _ in range(rng.randint(2, 8))]
        taken = max(range(len(rows)), key=lambda i: rows[i][0])
        if rng.random() < 0.01:
            taken = rng.randrange(len(rows))
        rows = [[50 * r[0], r[1]] for r in rows]
        data.append((rows, taken))
    theta = modelfit.fit_kind(data, 2)
    assert all(math.isfinite(t) for t in theta)
    model, uniform = modelfit.log_likelihood(data, theta)
    assert model > uniform


def test_a_small_fit_writes_what_the_beliefs_read_and_refits_from_its_data(tmp_path):
    out, kept = tmp_path / "model.json", tmp_path / "decisions.jsonl"
    doc = modelfit.run("dix-exchange", {"players": 4}, bot="rules", matches=5, deals=3,
                       seed=2, out=str(out), data=str(kept), command="test", alpha=0.75,
                       verbose=False)
    params = ModelParams.from_json(json.loads(out.read_text()))
    assert params.alpha == 0.75 and params.kinds and params.meta["command"] == "test"
    assert params.meta["decisions"] == sum(1 for _ in kept.open())
    again = modelfit.run("dix-exchange", {"players": 4}, bot="rules", matches=5, deals=3,
                         seed=2, out=str(tmp_path / "again.json"), from_data=str(kept),
                         command="test", alpha=0.75, verbose=False)
    assert again["kinds"] == doc["kinds"]
