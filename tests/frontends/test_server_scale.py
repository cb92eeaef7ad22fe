"""Several ``dixtrix serve`` processes over one PostgreSQL database (a
throwaway server, ``conftest.postgres_server``): a table played to the end
through two processes alternately, one of them SIGKILLed mid-request and
restarted, equals a twin played on one SQLite server; live updates cross
between the processes.  And what an operator watches: ``/healthz`` asks
the database, ``/metrics``, JSON log lines with a request id."""

from __future__ import annotations

import json
import threading
import time

import httpx
import pytest

from .server_process import ServerProcess, running

FLAGS = ("--workers", "2", "--max-time", "1", "--max-iterations", "3000",
         "--hint-time", "0.2", "--threads", "1")
#: a 4-seat match of 60-odd actions: two people, two bots
BODY = {"game": "dixie-rook", "options": {"target": 1}, "seed": 21, "seats": [0, 1],
        "bots": {"2": "rules", "3": "ismcts:iterations=200"}}


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def create(url: str) -> tuple[str, dict]:
    r = httpx.post(f"{url}/v1/tables", json=BODY, timeout=60)
    assert r.status_code == 201, r.text
    t = r.json()
    return t["table"], {inv["seat"]: inv["token"] for inv in t["invitations"]}


def look(url: str, tid: str, tokens: dict, timeout: float = 30.0) -> dict:
    """The table from ``url`` once a person is to move or it is over (a bot
    turn claimed by another process, maybe a killed one whose lease must
    run out first, is waited for)."""
    deadline = time.monotonic() + timeout
    while True:
        r = httpx.get(f"{url}/v1/tables/{tid}", headers=auth(tokens[0]), timeout=60)
        assert r.status_code == 200, r.text
        v = r.json()
        if v["over"] or v["to_move"] in tokens:
            return v
        assert time.monotonic() < deadline, f"the bots did not move: {v['to_move']}"
        time.sleep(0.1)


def move(url: str, tid: str, tokens: dict, seat: int) -> httpx.Response:
    """Seat ``seat`` plays its first legal action, through ``url``."""
    mine = httpx.get(f"{url}/v1/tables/{tid}", headers=auth(tokens[seat]), timeout=60).json()
    return httpx.post(f"{url}/v1/tables/{tid}/actions",
                      json={"action": mine["legal"][0]["action"], "version": mine["version"]},
                      headers=auth(tokens[seat]), timeout=60)


def events(url: str, tid: str, token: str, got: list, n: int, opened: threading.Event):
    with httpx.Client(timeout=60) as c:
        with c.stream("GET", f"{url}/v1/tables/{tid}/events", headers=auth(token)) as resp:
            assert resp.status_code == 200
            for line in resp.iter_lines():
                if line.startswith("data:"):
                    got.append(json.loads(line[5:]))
                    opened.set()
                    if len(got) == n:
                        return


def test_two_servers_over_postgresql_play_a_table_like_one_sqlite_server(postgres_server,
                                                                         tmp_path):
    url = postgres_server.new_database()
    # a time cap far above what the ISMCTS bot's iterations take, so that its
    # moves never depend on how loaded the machine is (the twin compares them)
    flags = (*FLAGS, "--max-time", "10", "--lease", "2")
    servers = [ServerProcess(url, *flags), ServerProcess(url, *flags)]
    try:
        tid, tokens = create(servers[0].url)
        # live updates cross: seat 1 listens on server B, seat 0 plays on server A
        v = look(servers[0].url, tid, tokens)
        got: list = []
        opened = threading.Event()
        reader = threading.Thread(target=events, daemon=True,
                                  args=(servers[1].url, tid, tokens[1], got, 2, opened))
        reader.start()
        assert opened.wait(30) and got[0] == {"version": v["version"]}
        assert move(servers[0].url, tid, tokens, v["to_move"]).status_code == 200
        reader.join(30)
        assert len(got) == 2 and got[1]["version"] > v["version"]
        steps, killed = 0, False
        while True:
            here = servers[steps % 2]
            v = look(here.url, tid, tokens)
            if v["over"]:
                break
            if steps == 9 and not killed:
                # SIGKILL server A while a move is in flight on it: committed or
                # not, with its bots' claim held or not, the match goes on
                flying = threading.Thread(target=_quiet, args=(move, servers[0].url, tid,
                                                                tokens, v["to_move"]))
                flying.start()
                time.sleep(0.05)
                servers[0].kill()
                flying.join(60)
                killed = True
                for _ in range(3):                    # B alone for a while
                    v = look(servers[1].url, tid, tokens)
                    if not v["over"]:
                        assert move(servers[1].url, tid, tokens,
                                    v["to_move"]).status_code == 200
                servers[0] = ServerProcess(url, *flags)          # A again
                continue
            r = move(here.url, tid, tokens, v["to_move"])
            assert r.status_code == 200, r.text
            steps += 1
        assert killed and steps > 12
        record = httpx.get(f"{servers[steps % 2].url}/v1/tables/{tid}/record", timeout=60)
        assert record.status_code == 200
        for srv in servers:
            assert srv.stop() == 0
            assert not [line for line in srv.log if "internal error" in line], srv.log
    finally:
        for srv in servers:
            srv.kill()
    # the twin: the same seed and the same people's choices on one SQLite server
    with running(str(tmp_path / "twin.db"), *FLAGS, "--max-time", "10") as twin:
        tid2, tokens2 = create(twin.url)
        while True:
            v = look(twin.url, tid2, tokens2)
            if v["over"]:
                break
            assert move(twin.url, tid2, tokens2, v["to_move"]).status_code == 200
        twin_record = httpx.get(f"{twin.url}/v1/tables/{tid2}/record", timeout=60).json()
    assert record.json() == twin_record


def test_a_stopping_server_hands_its_bot_turns_to_another(postgres_server):
    """SIGTERM while a table of bots plays on server A: its bots finish the
    decision under way, A answers and hands the turns back, and B goes on
    at once, not after A's (long) lease."""
    url = postgres_server.new_database()
    flags = (*FLAGS, "--max-time", "10", "--max-iterations", "10000", "--lease", "600")
    # A's bots would play the whole match in one request (several seconds of
    # searches); B's play half a second a request, so its look stays short
    a = ServerProcess(url, *flags, "--bot-seconds", "600")
    b = ServerProcess(url, *flags, "--bot-seconds", "0.5")
    try:
        made: list = []
        body = {"game": "dixie-rook", "options": {"target": 1}, "seed": 3, "seats": [],
                "bots": "ismcts:iterations=10000"}
        creating = threading.Thread(target=lambda: made.append(
            httpx.post(f"{a.url}/v1/tables", json=body, timeout=60)))
        creating.start()
        time.sleep(1.0)
        assert a.stop() == 0                               # SIGTERM, then a clean exit
        creating.join(60)
        assert made and made[0].status_code == 201, made
        t = made[0].json()
        assert not t["over"]                               # stopped mid-match
        # B plays on at its first look: with A's claim still held, it would
        # show the same version until A's 600 s lease ran out
        r = httpx.get(f"{b.url}/v1/tables/{t['table']}", timeout=120)
        assert r.status_code == 200 and r.json()["version"] > t["version"]
        assert not [line for line in a.log + b.log if "internal error" in line]
    finally:
        a.kill()
        assert b.stop() == 0


def _quiet(fn, *args):
    try:
        fn(*args)
    except httpx.TransportError:
        pass                        # the server was killed under the request


def test_healthz_metrics_and_json_logs(tmp_path):
    with running(str(tmp_path / "t.db"), *FLAGS, "--log-format", "json") as srv:
        with httpx.Client(base_url=srv.url, timeout=30) as http:
            h = http.get("/healthz", headers={"X-Request-ID": "lb-1234"})
            assert h.status_code == 200 and h.json()["database"] == "ok"
            assert h.headers["x-request-id"] == "lb-1234"
            made = http.post("/v1/tables", json={"game": "dix", "seed": 1})
            assert made.status_code == 201
            mine = made.headers["x-request-id"]
            assert len(mine) == 16                   # ours: none was given
            http.get(f"/v1/tables/{made.json()['table']}")
            text = http.get("/metrics").text
    assert 'dixtrix_requests_total{method="POST",route="/v1/tables",status="201"} 1.0' in text
    # one series a route, never a table's id
    assert 'route="/v1/tables/{table_id}"' in text and made.json()["table"] not in text
    for name in ("dixtrix_request_seconds_bucket", "dixtrix_searches_running",
                 "dixtrix_queue", "dixtrix_tables_open 1.0"):
        assert name in text, name
    lines = [json.loads(line) for line in srv.log if line.startswith("{")]
    requests = [d for d in lines if d.get("logger") == "dixtrix.request"]
    assert {d["request_id"] for d in requests} >= {"lb-1234", mine}
    made_line = next(d for d in requests if d["request_id"] == mine)
    assert made_line["method"] == "POST" and made_line["status"] == 201 and \
        made_line["route"] == "/v1/tables" and made_line["seconds"] >= 0
    assert not [line for line in srv.log if line.strip() and not line.startswith("{")], srv.log


def test_healthz_says_when_the_database_does_not_answer(tmp_path):
    from starlette.testclient import TestClient

    from bots.server.app import create_app
    from bots.server.settings import Settings
    from bots.server.store import StoreError
    app = create_app(Settings(db=str(tmp_path / "t.db")))
    with TestClient(app) as client:
        assert client.get("/healthz").json()["database"] == "ok"
        store = app.state.store

        def down():
            raise StoreError("the table database failed: connection refused")
        store.ping = down
        r = client.get("/healthz")
        assert r.status_code == 503
        assert r.json()["status"] == "unavailable" and "refused" in r.json()["database"]


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_serve_prints_where_the_tables_are_without_a_password(db, tmp_path, request):
    if db == "sqlite":
        name = str(tmp_path / "t.db")
        shown = name
    else:
        server = request.getfixturevalue("postgres_server")
        url = server.new_database()
        # trust login: the password is not checked, and must never be printed
        name = url.replace("dixtrix@", "dixtrix:hunter2@")
        shown = url.replace("dixtrix@", "dixtrix:***@")
    srv = ServerProcess(name, *FLAGS)
    try:
        assert httpx.get(f"{srv.url}/healthz", timeout=30).json()["database"] == "ok"
    finally:
        assert srv.stop() == 0
    assert srv.banner and f"tables in {shown};" in srv.banner
    assert "hunter2" not in "".join(srv.log + srv.out + [srv.banner])
