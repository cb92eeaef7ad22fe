"""The analysis board's logic (bots/analysis.py) and routes
(bots/server/analysis.py): a record or a seat view opened as a line, values
at any step from the mover's view and, for a record, the exact values of
the true deal within a node budget (checked against the solver), cached per
step; variations checked action by action with the rules' reasons; the
suggested continuation; the stream of progress then the result; refusals
that name their path."""

from __future__ import annotations

import json
import random

import httpx
import pytest

import solver
from bots import analysis as boards
from bots.exact import exact
from solver import position as positions
from solver.search import Limit

from .server_process import running


def _trix(actions: int = 60, seed: int = 5):
    state = solver.load_game("trix").new_initial_state(seed=seed)
    rng = random.Random(1)
    for _ in range(actions):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_a_record_opens_as_a_line_of_every_action():
    state = _trix()
    board = boards.Board.open(positions.to_json(state))
    assert board.kind == "record" and len(board.moves) == len(state.history()) == 60
    assert [m.action for m in board.moves] == positions.to_json(state)["actions"]
    replay = solver.load_game("trix").new_initial_state(seed=5)
    for m in board.moves:
        assert m.seat == replay.current_player()
        replay.apply_action(replay.string_to_action(m.action))
    assert board.moves[-1].trick == 13 and board.moves[0].trick is None
    doc = board.to_json()
    assert doc["deals"] == [{"deal": 1, "first": 0}] and doc["actions"] == 60


def test_a_seat_view_keeps_what_its_seat_cannot_see_hidden():
    state = solver.load_game("dix-exchange", players=5).new_initial_state(seed=3)
    rng = random.Random(2)
    for _ in range(12):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    view = positions.SeatView.of(state, 2)
    board = boards.Board(view)
    assert [m.action for m in board.moves] == view.view["actions"]
    with pytest.raises(solver.errors.PositionError, match="seat 2's view"):
        board.seat_view(board.state_at(len(board.moves)), seat=1)


def test_the_exact_values_are_the_solvers_and_the_search_is_the_hints():
    state = _trix()
    board = boards.Board.open(positions.to_json(state))
    at = 48                                      # trick 12 of the deal
    out = boards.analyse(board, at, limit=Limit(iterations=300), nodes=2_000_000)
    true = board.state_at(at)
    ex = exact(true, true.current_player())
    assert out["exact"]["finished"] and out["exact"]["values"] == dict(ex.values)
    assert out["exact"]["best"] == list(ex.best)
    assert out["seat"] == true.current_player()
    assert set(out["search"]["ranking"]) == set(out["legal"])
    again = boards.analyse(board, at, limit=Limit(iterations=300), nodes=2_000_000)
    assert again["cached"] and again["exact"] == out["exact"]


def test_an_exact_solve_past_its_budget_says_so():
    board = boards.Board.open(positions.to_json(_trix(20)))
    out = boards.analyse(board, 12, limit=Limit(iterations=100), nodes=1_000)
    assert out["exact"] is not None and out["exact"]["finished"] is False
    assert out["exact"]["budget"] == 1_000


def test_a_variation_is_checked_action_by_action():
    board = boards.Board.open(positions.to_json(_trix()))
    state = board.state_at(40)
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    assert board.state_at(40, legal[:1]).history()[-1] == state.legal_actions()[0]
    with pytest.raises(solver.errors.PositionError, match=r"variation\[1\]"):
        board.state_at(40, [legal[0], "ZZ"])
    played = board.moves[10].action
    with pytest.raises(solver.errors.PositionError, match=r"variation\[0\].*not legal"):
        board.state_at(40, [played])
    with pytest.raises(solver.errors.PositionError, match="at"):
        board.state_at(61)


def test_the_continuation_is_the_exact_line_late_in_a_deal():
    board = boards.Board.open(positions.to_json(_trix()))
    steps = boards.continuation(board, 44, plies=4)
    assert len(steps) == 4 and all(s["exact"] for s in steps)
    state = board.state_at(44)
    first = exact(state, state.current_player())
    assert steps[0]["action"] == first.best[0]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running(str(tmp_path_factory.mktemp("board") / "tables.db"), "--workers", "2",
                 "--max-time", "1", "--threads", "1") as srv:
        yield srv


def test_the_routes_open_value_stream_and_refuse(server):
    record = positions.to_json(_trix())
    with httpx.Client(base_url=server.url, timeout=60) as http:
        r = http.post("/v1/analysis/open?lang=fr", json={"position": record})
        assert r.status_code == 200, r.text
        doc = r.json()
        assert len(doc["moves"]) == 60 and doc["labels"]["contract queens"] != "contract queens"
        body = {"position": record, "at": 48, "limit": {"iterations": 300}}
        r = http.post("/v1/analysis/values", json=body)
        assert r.status_code == 200 and r.json()["exact"]["finished"]
        lines = []
        with http.stream("POST", "/v1/analysis/values",
                         json={**body, "at": 44, "stream": True}) as resp:
            assert resp.status_code == 200
            assert resp.headers["content-type"].startswith("application/x-ndjson")
            lines = [json.loads(x) for x in resp.iter_lines() if x]
        assert "result" in lines[-1] and all("progress" in x for x in lines[:-1])
        assert any("exact" in x["progress"] for x in lines[:-1])
        bad = http.post("/v1/analysis/values", json={**body, "variation": ["AS", "nope"]})
        assert bad.status_code == 422 and bad.json()["path"].startswith("variation[")
        bad = http.post("/v1/analysis/values", json={**body, "at": 99})
        assert bad.status_code == 422 and bad.json()["path"] == "at"
        bad = http.post("/v1/analysis/open", json={"position": {"game": "trix", "seed": 1,
                                                                "actions": ["QQ"]}})
        assert bad.status_code == 422 and bad.json()["path"].startswith("position.actions")
        r = http.post("/v1/analysis/line", json={"position": record, "at": 44, "plies": 3})
        assert r.status_code == 200 and len(r.json()["line"]) == 3
