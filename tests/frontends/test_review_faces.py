"""Game review through the engine protocol (``review``: on the worker
thread, ``stop`` ends it like ``go``) and the HTTP API (``POST /v1/review``
in the worker pool, within the caps): the same review as ``bots.review``."""

from __future__ import annotations

import json

import httpx
import pytest

import solver
from bots import review as reviews
from bots.registry import make_bot
from solver.search import Limit
from solver.search.service import DEFAULT_TREES

from .server_process import running
from .test_engine import Transcript


def _record(name="dix", seed=2, actions=40, **options):
    game = solver.load_game(name, **options)
    state = game.new_initial_state(seed=seed)
    bots = [make_bot("rules", game, s, seed=s) for s in range(game.num_players)]
    while not state.is_terminal() and len(state.history()) < actions:
        state.apply_action(bots[state.current_player()].step(state))
    return state, solver.to_json(state)


def _without_time(doc):
    return {k: v for k, v in doc.items() if k not in ("time", "limit")}


@pytest.fixture
def engine():
    t = Transcript()
    yield t
    t.close()


def test_the_engine_reviews_a_finished_record_and_refuses_to_advise_on_it(engine):
    state, record = _record("dix", seed=4, actions=10_000, variant="seventeen", target=3)
    assert state.is_terminal()
    engine.send("position " + json.dumps(record))
    engine.send("go iterations 100")
    out = engine.until("error")
    assert "over" in out[-1]
    engine.send("review deal 1 seat 0 iterations 200 nodes 200000")
    out = engine.until("review ")
    assert any(line.startswith("info review ") for line in out[:-1])
    doc = json.loads(out[-1][len("review "):])
    same = reviews.review(record, deal=1, seat=0, limit=Limit(iterations=200, nodes=200_000),
                          nodes=200_000, trees=DEFAULT_TREES)
    assert _without_time(doc) == json.loads(json.dumps(_without_time(same)))
    assert doc["decisions"] and {e["seat"] for e in doc["decisions"]} == {0}
    # bad words get one error line naming them, and the engine goes on
    engine.send("review deal 9")
    assert engine.until("error")[-1].startswith("error deal: the record holds deals")
    engine.send("review seat x")
    assert engine.until("error")[-1] == "error review: seat is a number, got 'x'"
    engine.send("review bot nope")
    assert "bot is ismcts or pimc" in engine.until("error")[-1]
    engine.send("isready")
    engine.until("readyok")


def test_stop_ends_an_engine_review_with_what_it_has(engine):
    _, record = _record("trix", seed=3, actions=60)
    engine.send("position " + json.dumps(record))
    engine.send("review time 2")
    engine.until("info review")
    engine.send("stop")
    out = engine.until("review ", timeout=10)
    doc = json.loads(out[-1][len("review "):])
    assert doc["stopped"] and len(doc["decisions"]) < 30
    engine.send("isready")
    engine.until("readyok")


@pytest.fixture(scope="module")
def http(tmp_path_factory):
    with running(str(tmp_path_factory.mktemp("review") / "tables.db"), "--workers", "1",
                 "--max-time", "1", "--max-iterations", "400", "--max-nodes", "300000",
                 "--threads", "1") as srv:
        with httpx.Client(base_url=srv.url, timeout=120) as client:
            yield client


def test_post_review_gives_the_review_within_the_caps(http):
    _, record = _record("dix", seed=2, actions=40)
    resp = http.post("/v1/review", json={"position": record, "limit": {"iterations": 99999},
                                         "seed": 3})
    assert resp.status_code == 200, resp.text
    doc = resp.json()
    assert doc["limit"] == {"iterations": 400, "time": 1.0, "nodes": 300_000}
    assert doc["nodes"] == 300_000 and doc["deals"][0]["deal"] == 1
    same = reviews.review(record, deal="last", limit=Limit(time=1.0, iterations=400,
                                                           nodes=300_000),
                          seed=3, threads=1, nodes=300_000)
    # the same decisions judged; timings aside (a time cap is in the limit)
    assert [(e["index"], e["played"], e["best"]) for e in doc["decisions"]] == \
        [(e["index"], e["played"], e["best"]) for e in same["decisions"]]
    # a seat view: that seat's own decisions, no hindsight
    state, _ = _record("trix", seed=5, actions=70)
    view = state.information_state(1).view
    doc = http.post("/v1/review", json={"position": view, "deal": 1,
                                        "limit": {"iterations": 100}}).json()
    assert doc["seats"] == [1] and not doc["hindsight"]
    assert {e["seat"] for e in doc["decisions"]} <= {1}


def test_post_review_refusals_name_the_field(http):
    _, record = _record("dix", seed=2, actions=12)
    for body, path in (({"position": record, "deal": 3}, "deal"),
                       ({"position": record, "deal": 0}, "deal"),
                       ({"position": record, "seat": 2}, "seat"),
                       ({"position": record, "bot": "cheat"}, "bot"),
                       ({"position": dict(record, actions=record["actions"] + ["ZZ"])},
                        "position.actions[12]"),
                       ({"position": record, "limit": {"time": -1}}, "limit.time"),
                       ({"position": record, "extra": 1}, "extra")):
        resp = http.post("/v1/review", json=body)
        assert resp.status_code == 422, (body, resp.text)
        assert resp.json().get("path") == path, resp.json()
    assert http.post("/v1/review", content=b"[").status_code == 400
    spec = http.get("/v1/openapi.json").json()
    assert "/v1/review" in spec["paths"]
