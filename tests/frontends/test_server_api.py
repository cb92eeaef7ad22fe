"""The HTTP API through a real ``dixtrix serve`` on a loopback ephemeral
port: every route, every refusal (400, 404, 405, 409, 413, 422, 503 with
Retry-After), the caps on every limit, determinism of an iteration-limited
hint, and a server log without an internal error at the end."""

from __future__ import annotations

import re
import threading
import time

import httpx
import pytest

import solver
from bots.registry import make_bot

from .server_process import ServerProcess, running

#: seconds to wait for something that should happen at once (a loaded
#: machine's margin; no test here measures how long anything took)
PATIENCE = 60

FLAGS = ("--workers", "2", "--queue", "2", "--max-time", "1.5", "--max-iterations", "5000",
         "--max-worlds", "40", "--max-body", "65536", "--hint-time", "0.2",
         "--threads", "1")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running(str(tmp_path_factory.mktemp("api") / "tables.db"), *FLAGS) as srv:
        yield srv


@pytest.fixture(scope="module")
def http(server):
    with httpx.Client(base_url=server.url, timeout=60) as client:
        yield client


def played(game_name: str, n: int, seed: int = 1, **options):
    game = solver.load_game(game_name, **options)
    state = game.new_initial_state(seed=seed)
    bots = [make_bot("rules", game, s, seed=s) for s in range(game.num_players)]
    for _ in range(n):
        state.apply_action(bots[state.current_player()].step(state))
    return state


def view_doc(state) -> dict:
    return state.information_state(state.current_player()).view


def dix_endgame():
    """A dix record from trick 15 on (the stock is empty: every card known)."""
    state = solver.load_game("dix").new_initial_state(seed=1)
    while state.tricks_done < 14:
        state.apply_action(state.legal_actions()[0])
    return state


def refused(resp, status: int, path: str | None = None, text: str | None = None) -> dict:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert body["status"] == status and isinstance(body["error"], str) and body["error"]
    if path is not None:
        assert body.get("path") == path, body
    if text is not None:
        assert text in body["error"], body
    return body


# ---- service routes -----------------------------------------------------------


def test_healthz_and_the_games(http):
    h = http.get("/healthz").json()
    assert h["status"] == "ok" and h["workers"] == 2 and h["capacity"] == 4
    g = http.get("/v1/games").json()
    assert [x["name"] for x in g["games"]] == solver.registered_games()
    dix = next(x for x in g["games"] if x["name"] == "dix")
    assert dix["options"]["variant"]["choices"] == ["standard", "seventeen"]
    assert dix["options"]["target"]["type"] == "int" and dix["players"] == 2
    assert "cheat" not in g["table_bots"] and "rules" in g["table_bots"]
    assert g["limits"]["max_iterations"] == 5000


def test_openapi_documents_every_route_and_the_page_is_served(http):
    doc = http.get("/v1/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    for path in ("/healthz", "/v1/games", "/v1/hint", "/v1/solve", "/v1/evaluate",
                 "/v1/tables", "/v1/tables/{table_id}", "/v1/tables/{table_id}/actions",
                 "/v1/tables/{table_id}/hint", "/v1/tables/{table_id}/record"):
        assert path in doc["paths"], path
    page = http.get("/docs")
    assert page.status_code == 200 and "POST /v1/hint" in page.text
    index = http.get("/")
    assert index.status_code == 200 and "text/html" in index.headers["content-type"]
    for name in ("words.js", "common.js", "app.js", "style.css", "index.html",
                 "analysis.js", "analysis.css", "analysis.html"):
        assert http.get(f"/static/{name}").status_code == 200
    # every script a page loads is served (the shared ones before the page's own)
    for page, own in (("/", "app.js"), ("/analysis", "analysis.js")):
        scripts = re.findall(r'<script src="(/static/[\w.]+)"', http.get(page).text)
        assert scripts == ["/static/words.js", "/static/common.js", f"/static/{own}"], page
        assert all(http.get(src).status_code == 200 for src in scripts)
    refused(http.get("/static/nope.js"), 404)


# ---- searches -----------------------------------------------------------------


def test_hint_values_every_legal_action_and_is_deterministic(http):
    state = played("dix", 20)
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    body = {"position": view_doc(state), "limit": {"iterations": 400}, "seed": 3}
    first = http.post("/v1/hint", json=body).json()
    assert set(first["search"]["values"]) == legal
    assert set(first["search"]["ci95"]) == legal
    assert first["advice"].startswith("Play ") and first["facts"]
    assert first["limit"] == {"time": 1.5, "iterations": 400, "nodes": 2_000_000}
    again = http.post("/v1/hint", json=body).json()
    assert again["search"]["values"] == first["search"]["values"]


def test_hint_takes_the_learned_prior_and_says_what_guided_it(http):
    state = played("dix", 20)
    body = {"position": view_doc(state), "limit": {"iterations": 400}, "seed": 3}
    rules = http.post("/v1/hint", json=dict(body, prior="rules")).json()
    assert rules["search"]["guided"]["prior"] == "rules"
    learned = http.post("/v1/hint", json=body).json()           # dix's default
    assert learned["search"]["guided"]["prior"] == "learned"
    assert learned["search"]["values"] != rules["search"]["values"]
    refused(http.post("/v1/hint", json=dict(body, prior="neural")), 422)
    for leaf in ("value", "playout"):
        got = http.post("/v1/hint", json=dict(body, leaf=leaf)).json()
        assert got["search"]["guided"]["leaf"] == leaf
    refused(http.post("/v1/hint", json=dict(body, leaf="deep")), 422)


def test_hint_caps_the_limit_and_takes_a_record(http):
    state = played("trix", 12)
    rec = solver.to_json(state)
    out = http.post("/v1/hint", json={"position": rec, "limit": {"iterations": 10**9,
                                                                 "time": 1e9}}).json()
    assert out["limit"] == {"time": 1.5, "iterations": 5000, "nodes": 2_000_000}
    assert out["search"]["iterations"] <= 5000 * 8
    assert out["seat"] == state.current_player()     # the view of the seat to move
    pimc = http.post("/v1/hint", json={"position": rec, "bot": "pimc",
                                       "limit": {"worlds": 10**6}}).json()
    assert pimc["limit"]["worlds"] == 40 and pimc["search"]["bot"] == "pimc"
    # a count is a JSON integer, 400.0 as 400 (JSON Schema's integer, which the
    # OpenAPI document states): past the cap and below it alike, a number is
    # taken the same way, and a fraction or a bool is refused on both sides
    # (the fuzz test once found 501.0 iterations taken for the cap of 500
    # while 400.0 was refused)
    for limit, applied in (({"iterations": 400.0}, 400), ({"iterations": 10.0**9}, 5000)):
        out = http.post("/v1/hint", json={"position": rec, "limit": limit}).json()
        assert out["limit"]["iterations"] == applied
    for limit in ({"iterations": 400.5}, {"iterations": 10.0**9 + 0.5}, {"worlds": 1e6 + 0.5},
                  {"iterations": True}, {"nodes": 3e6 + 0.5}):
        refused(http.post("/v1/hint", json={"position": rec, "limit": limit}), 422,
                "limit." + next(iter(limit)))


def test_hint_is_exact_once_every_card_is_known(http):
    state = dix_endgame()
    out = http.post("/v1/hint", json={"position": view_doc(state)}).json()
    assert "exact" in out and out["exact"]["best"]
    assert set(out["exact"]["values"]) == {state.action_to_string(a)
                                           for a in state.legal_actions()}


def test_solve_and_evaluate(http):
    state = dix_endgame()
    sol = http.post("/v1/solve", json={"position": solver.to_json(state), "line": 4}).json()
    assert sol["best_actions"] and len(sol["line"]) <= 4
    assert sol["value"] == max(sol["action_values"].values()) or sol["value"] == \
        min(sol["action_values"].values())
    refused(http.post("/v1/solve", json={"position": view_doc(state)}), 422,
            text="seat view")
    refused(http.post("/v1/solve", json={"position": solver.to_json(state), "line": 99}),
            422, "line")
    ev = http.post("/v1/evaluate", json={"position": view_doc(played("trix", 12)),
                                         "limit": {"worlds": 10**6}}).json()
    assert ev["worlds"] == 40 and ev["limit"]["worlds"] == 40
    assert len(ev["values"]) == 4 and len(ev["ci95"]) == 4
    refused(http.post("/v1/evaluate", json={"position": view_doc(state),
                                            "policy": "psychic"}), 422, "policy")


def test_a_finished_game_has_no_move_to_advise(http):
    state = played("dix", 0, variant="seventeen", target=1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    refused(http.post("/v1/hint", json={"position": solver.to_json(state)}), 422,
            text="over")
    refused(http.post("/v1/solve", json={"position": solver.to_json(state)}), 422,
            "position", "over")


# ---- refusals -----------------------------------------------------------------


@pytest.mark.parametrize("route", ["/v1/hint", "/v1/solve", "/v1/evaluate", "/v1/tables"])
def test_malformed_bodies(http, route):
    refused(http.post(route, content=b"{bad"), 400, text="malformed JSON")
    refused(http.post(route, content=b""), 400, text="empty")
    refused(http.post(route, content=b"\xff\xfe{}"), 400, text="UTF-8")
    # well-formed, but past the input limits: a value refused, not malformed text
    refused(http.post(route, content=b"[" * 100 + b"]" * 100), 422, text="nests")
    refused(http.post(route, content=b'{"seed": 1' + b"0" * 40 + b"}"), 422, text="digits")
    refused(http.post(route, content=b'{"seed": NaN}'), 400)
    refused(http.post(route, json=[1, 2]), 422, text="JSON object")
    refused(http.post(route, json={"bogus": 1}), 422, "bogus", "unknown key")


def test_bad_positions_name_their_path(http):
    state = played("dix", 6)
    rec = solver.to_json(state)
    refused(http.post("/v1/hint", json={}), 422, "position", "missing")
    refused(http.post("/v1/hint", json={"position": "dix"}), 422, "position")
    bad = dict(rec, actions=rec["actions"][:3] + ["ZZ"])
    refused(http.post("/v1/hint", json={"position": bad}), 422, "position.actions[3]",
            "unknown card")
    illegal = dict(rec, actions=rec["actions"][:1] + rec["actions"][:1])
    refused(http.post("/v1/hint", json={"position": illegal}), 422, "position.actions[1]")
    view = view_doc(state)
    refused(http.post("/v1/hint", json={"position": dict(view, seat=7)}), 422,
            "position.seat")
    refused(http.post("/v1/hint", json={"position": dict(rec, options={"target": -1})}),
            422, "position", "target")
    refused(http.post("/v1/hint", json={"position": dict(rec, game="chess")}), 422,
            "position", "unknown game")


def test_bad_limits_and_fields(http):
    pos = view_doc(played("dix", 6))
    for limit, path in (({"time": -1}, "limit.time"), ({"time": "1"}, "limit.time"),
                        ({"time": True}, "limit.time"), ({"iterations": 0}, "limit.iterations"),
                        ({"iterations": 1.5}, "limit.iterations"), ({"worlds": -3},
                                                                     "limit.worlds"),
                        ({"depth": 3}, "limit.depth"), ({}, "limit"), ([1], "limit")):
        refused(http.post("/v1/hint", json={"position": pos, "limit": limit}), 422, path)
    refused(http.post("/v1/hint", json={"position": pos, "bot": "cheat"}), 422, "bot")
    refused(http.post("/v1/hint", json={"position": pos, "seed": -1}), 422, "seed")
    refused(http.post("/v1/hint", json={"position": pos, "seed": "x"}), 422, "seed")


def test_body_too_large_gets_413(http):
    big = b'{"position": "' + b"x" * 70000 + b'"}'
    refused(http.post("/v1/hint", content=big), 413)

    def chunks():                       # no Content-Length: counted as it streams
        for _ in range(20):
            yield b"x" * 8192
    refused(http.post("/v1/evaluate", content=chunks()), 413)
    refused(http.post("/v1/tables", content=big), 413)


def test_unknown_routes_methods_and_tables(http):
    refused(http.get("/v2/hint"), 404, text="no route")
    refused(http.get("/v1/hint"), 405)
    refused(http.put("/v1/tables"), 405)
    for method, path in (("GET", "/v1/tables/abcdefghijk"), ("DELETE", "/v1/tables/abcdefghij"),
                         ("POST", "/v1/tables/abcdefghijk/actions"),
                         ("POST", "/v1/tables/abcdefghijk/hint"),
                         ("GET", "/v1/tables/abcdefghijk/record"),
                         ("GET", "/v1/tables/..%2F..%2Fetc"), ("GET", "/v1/tables/x")):
        refused(http.request(method, path, json={"action": "QS"}), 404)


def test_a_full_pool_answers_503_with_retry_after(monkeypatch):
    """2 workers and a queue of 2 (in process): four hints that cannot end
    until the test lets them (their search waits on a gate) fill it; the
    fifth is refused with Retry-After while none of them could have ended,
    so it was not queued; the four then get their answers."""
    from starlette.testclient import TestClient

    from bots.server import app as server_app
    from bots.server.settings import Settings

    gate = threading.Event()
    real = server_app._advise

    def gated(*args, **kwargs):
        assert gate.wait(PATIENCE), "the test never opened the gate"
        return real(*args, **kwargs)
    monkeypatch.setattr(server_app, "_advise", gated)
    app = server_app.create_app(Settings(db=":memory:", workers=2, queue=2, max_time=1.5,
                                         max_iterations=5000, hint_time=0.2, threads=1))
    body = {"position": view_doc(played("trix", 12)), "limit": {"iterations": 200}}
    answers = []
    with TestClient(app) as http:
        def slow():
            answers.append(http.post("/v1/hint", json=body).status_code)
        threads = [threading.Thread(target=slow) for _ in range(4)]
        for t in threads:
            t.start()
        try:
            deadline = time.monotonic() + PATIENCE
            while http.get("/healthz").json()["pending"] < 4:
                assert time.monotonic() < deadline, "the pool never filled"
                time.sleep(0.02)
            busy = http.post("/v1/hint", json=body)
            assert not gate.is_set() and answers == []    # refused while all four wait
            refused(busy, 503, text="busy")
            assert int(busy.headers["Retry-After"]) >= 1
        finally:
            gate.set()
            for t in threads:
                t.join()
        assert answers == [200] * 4
        assert http.get("/healthz").json()["pending"] == 0


#: a search limit no test waits for: a search of this many seconds that
#: ends was ended by its stop event (the server allows it with the flags)
A_DAY = 86400
LONG = ("--max-time", str(A_DAY), "--max-iterations", str(10**9), "--threads", "1")


def test_sigterm_ends_a_long_search_at_once(tmp_path):
    """A stop signal sets every search's stop event: a day-long hint is
    answered with what it found (``stopped``) and the server exits 0."""
    srv = ServerProcess(str(tmp_path / "t.db"), *LONG)
    got = []
    try:
        body = {"position": view_doc(played("trix", 12)), "limit": {"time": A_DAY}}

        def ask():
            with httpx.Client(base_url=srv.url, timeout=PATIENCE) as c:
                got.append(c.post("/v1/hint", json=body))
        t = threading.Thread(target=ask)
        t.start()
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            deadline = time.monotonic() + PATIENCE
            while c.get("/healthz").json()["pending"] < 1:
                assert time.monotonic() < deadline
                time.sleep(0.02)
        assert srv.stop(timeout=PATIENCE) == 0
        t.join(timeout=PATIENCE)
        assert got and got[0].status_code == 200
        assert got[0].json()["search"]["stopped"] is True
        assert got[0].json()["limit"]["time"] == A_DAY
    finally:
        srv.kill()


def test_a_client_that_goes_away_ends_its_search(tmp_path):
    """A day-long hint whose client gives up after half a second: the
    server sees the connection close and stops the search, so the pool is
    free again (it would be busy for a day otherwise)."""
    srv = ServerProcess(str(tmp_path / "t.db"), *LONG)
    try:
        body = {"position": view_doc(played("trix", 12)), "limit": {"time": A_DAY}}
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            with pytest.raises(httpx.ReadTimeout):
                c.post("/v1/hint", json=body, timeout=0.5)
            deadline = time.monotonic() + PATIENCE
            while c.get("/healthz").json()["pending"] > 0:
                assert time.monotonic() < deadline, "the search went on without its client"
                time.sleep(0.05)
    finally:
        assert srv.stop() == 0


def test_an_internal_error_is_a_logged_500_and_the_server_goes_on(monkeypatch, caplog):
    """In process: a bug (here a planted RuntimeError) gives a JSON 500 and a
    log line with the traceback; the next request is served."""
    from starlette.testclient import TestClient

    from bots.server import app as server_app
    from bots.server.settings import Settings

    def broken(*args, **kwargs):
        raise RuntimeError("planted")
    monkeypatch.setattr(server_app, "_solve", broken)
    application = server_app.create_app(Settings(db=":memory:", max_tables=1))
    with TestClient(application, raise_server_exceptions=False) as client:
        resp = client.post("/v1/solve", json={"position": solver.to_json(dix_endgame())})
        assert resp.status_code == 500 and "RuntimeError" in resp.json()["error"]
        assert any("internal error" in r.getMessage() and r.exc_info for r in caplog.records)
        assert client.get("/healthz").status_code == 200
        # the table limit: one more table is refused with 503 and Retry-After
        assert client.post("/v1/tables", json={"game": "dix"}).status_code == 201
        full = client.post("/v1/tables", json={"game": "dix"})
        assert full.status_code == 503 and int(full.headers["Retry-After"]) >= 1


def test_serve_command_errors_are_one_line(capsys, monkeypatch, tmp_path):
    import socket
    import sys as _sys

    from bots.cli import main

    def error(argv):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("dixtrix: error:") and err.count("\n") == 1
        return err
    db = str(tmp_path / "t.db")
    assert "workers" in error(["serve", "--workers", "0", "--db", db])
    assert "max_time" in error(["serve", "--max-time", "-1", "--db", db])
    assert "--port" in error(["serve", "--port", "70000", "--db", db])
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert "cannot listen" in error(["serve", "--port", str(port), "--db", db])
    assert "cannot open the table database" in error(["serve", "--db", str(tmp_path)])
    monkeypatch.setitem(_sys.modules, "uvicorn", None)
    assert "server extra" in error(["serve", "--db", db])
