"""The toy game of tests/toygame/, registered with its one line, served by
the front ends with no file outside its package touched: a table over the
HTTP API (a person and bots, played to the end, its deal summarised; a
table of bots alone), a hint through the command line and through the
HTTP API, and a review of the finished table (``bots/review.py``, and the
table's review route).  The toy game declares nothing for the front ends
(``solver/front.py``'s defaults): its cards are shown as written."""

from __future__ import annotations

import json

import pytest

import solver
import solver.games
from bots import review as reviews
from bots.cli import main
from solver import position
from solver.search import Limit

PACKAGE = "tests.toygame"
NAME = "toy"


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def toy():
    """The toy game, registered for this module's tests only."""
    solver.games.register_package(PACKAGE)
    yield solver.load_game(NAME)
    solver.games.unregister_package(PACKAGE)


@pytest.fixture(scope="module")
def client(toy, tmp_path_factory):
    from starlette.testclient import TestClient

    from bots.server.app import create_app
    from bots.server.settings import Settings
    db = str(tmp_path_factory.mktemp("toy") / "tables.db")
    with TestClient(create_app(Settings(db=db, max_time=0.5, hint_time=0.1,
                                        max_iterations=400, threads=1))) as c:
        yield c


@pytest.fixture(scope="module")
def finished(client):
    """A toy table of one person (seat 0) and three rules bots, played to
    its end: the person plays the first legal card each turn."""
    t = client.post("/v1/tables", json={"game": NAME, "seed": 7, "seats": [0],
                                         "bots": "medium"})
    assert t.status_code == 201, t.text
    t = t.json()
    token = t["invitations"][0]["token"]
    seen = [t]
    for _ in range(20):
        if t["over"]:
            break
        assert t["your_turn"] and t["legal"], t
        r = client.post(f"/v1/tables/{t['table']}/actions", headers=auth(token),
                        json={"action": t["legal"][0]["action"], "version": t["version"]})
        assert r.status_code == 200, r.text
        t = r.json()
        seen.append(t)
    assert t["over"]
    return t, token, seen


def test_the_games_list_it(client, toy):
    games = {g["name"]: g for g in client.get("/v1/games").json()["games"]}
    got = games[NAME]
    assert got["title"] == NAME and got["players"] == toy.num_players
    assert got["options"]["first_leader"]["label"] == "first_leader"
    assert got["setup"] == {"hands": None, "owner": None}


def test_a_table_plays_to_the_end_and_summarises_its_deal(client, toy, finished):
    t, _, seen = finished
    assert t["summaries"] and t["summaries"][0]["points"] == t["deal_scores"][0]
    assert t["summaries"][0]["running"] == t["deal_scores"][0]
    assert t["returns"] == [float(v) for v in t["deal_scores"][0]]
    assert sum(t["returns"]) == 4                       # a point a trick, four tricks
    # every card played in the log, with who played it, the cards as written
    # (the toy's facts write its trick as text, with no leader: the board
    # draws a trick from the conventional ``trick`` list and ``leader``)
    assert len(t["log"]) == 16 and {e["seat"] for e in t["log"]} == {0, 1, 2, 3}
    assert all(e["card"] for e in t["log"]) and len(seen) >= 4
    assert all(c["name"] == i for i, c in t["cards"].items())
    assert [e["label"] for e in t["log"]] == [e["action"] for e in t["log"]]
    spectator = client.get(f"/v1/tables/{t['table']}").json()
    assert spectator["spectator"] and spectator["over"] and spectator["summaries"]


def test_a_table_of_bots_alone_plays_through(client):
    t = client.post("/v1/tables", json={"game": NAME, "seed": 3, "seats": [],
                                         "bots": "easy"}).json()
    assert t["over"] and len(t["summaries"]) == 1 and len(t["log"]) == 16


def test_a_hint_through_the_command_line(toy, capsys):
    assert main(["hint", NAME, "--seed", "2", "--after", "5", "--iterations", "100",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == NAME and out["action"] in out["ranking"] and out["facts"]
    assert out["advice"]


def test_a_hint_through_the_http_api(client, toy):
    t = client.post("/v1/tables", json={"game": NAME, "seed": 2, "seats": [1],
                                         "bots": "medium"}).json()
    token = t["invitations"][0]["token"]
    assert t["your_turn"]
    h = client.post(f"/v1/tables/{t['table']}/hint", headers=auth(token),
                    json={"limit": {"iterations": 100}, "seed": 1})
    assert h.status_code == 200, h.text
    h = h.json()
    assert h["action"] in {a["action"] for a in t["legal"]} and h["advice"]
    assert h["labels"][h["action"]] == h["action"]
    free = client.post("/v1/hint", json={"position": t["view"], "limit": {"iterations": 100}})
    assert free.status_code == 200, free.text
    assert free.json()["action"] in {a["action"] for a in t["legal"]}


def test_the_finished_table_is_reviewed(client, toy, finished):
    t, token, _ = finished
    r = client.post(f"/v1/tables/{t['table']}/review", headers=auth(token),
                    json={"limit": {"iterations": 30}})
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["decisions"] and all(d["seat"] == 0 for d in doc["decisions"])
    assert all(d["played_label"] == d["played"] for d in doc["decisions"])
    # bots/review.py itself, on the whole record with hindsight
    state = toy.new_initial_state(seed=7)
    for e in t["log"]:
        state.apply_action(state.string_to_action(e["action"]))
    assert state.is_terminal()
    rev = reviews.review(position.Record.of(state), deal=1, limit=Limit(iterations=30))
    seats = {d["seat"] for d in rev["decisions"]}
    assert rev["decisions"] and seats <= set(range(toy.num_players))


def test_the_api_s_document_states_its_positions_and_options(client, toy, finished):
    """The OpenAPI document's position schema is one per registered game,
    the toy's too, made from its declarations (its deal's shape, its
    option, its four seats) with no line of the server naming it: the
    finished table's record and a seat's view fit it, a fifth seat or an
    option it lacks do not (and the server refuses them); a table's options
    and seats are the toy's."""
    import jsonschema

    doc = client.get("/v1/openapi.json").json()
    hint = doc["paths"]["/v1/hint"]["post"]["requestBody"]["content"]["application/json"]
    games = hint["schema"]["properties"]["position"]["discriminator"]["mapping"]
    assert games[NAME] == "#/components/schemas/Position.toy"
    check = jsonschema.Draft202012Validator({**hint["schema"]["properties"]["position"],
                                             "components": doc["components"]})
    t, _, _ = finished
    record = client.get(f"/v1/tables/{t['table']}/record").json()
    record = record.get("record", record)
    view = position.SeatView.of(position.from_json(record).state(), 2).to_json()
    assert check.is_valid(record) and check.is_valid(view)
    for bad in (dict(view, seat=4), dict(record, options={"first_leader": 4}),
                dict(record, options={"target": 5}),
                dict(record, deal={"deals": [{"hands": ["AS KS", "2C"]}]})):
        assert not check.is_valid(bad), bad
        r = client.post("/v1/hint", json={"position": bad})
        assert r.status_code == 422, (bad, r.text)
    table = doc["paths"]["/v1/tables"]["post"]["requestBody"]["content"]["application/json"]
    table = jsonschema.Draft202012Validator(table["schema"])
    assert table.is_valid({"game": NAME, "options": {"first_leader": 2}, "seats": [3]})
    assert not table.is_valid({"game": NAME, "options": {"first_leader": 5}})
    assert not table.is_valid({"game": NAME, "seats": [4]})
