"""Tables through a real ``dixtrix serve``: a seat sees only its own view,
illegal actions get the reason, bots play server-side, a whole deal's
score equals the record replayed, a table survives a SIGKILL of the server
(same SQLite file) and goes on exactly as a table never interrupted, ended
and idle tables are deleted (in process, under an injected clock), bots are
checked against the caps."""

from __future__ import annotations

import time

import httpx
import pytest

import solver

from .server_process import ServerProcess, replay_table, running

FLAGS = ("--workers", "2", "--max-time", "1", "--max-iterations", "3000",
         "--hint-time", "0.2", "--threads", "1")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running(str(tmp_path_factory.mktemp("tables") / "tables.db"), *FLAGS) as srv:
        yield srv


@pytest.fixture(scope="module")
def http(server):
    with httpx.Client(base_url=server.url, timeout=60) as client:
        yield client


def new_table(http, **body) -> dict:
    resp = http.post("/v1/tables", json=body)
    assert resp.status_code == 201, resp.text
    assert resp.headers["Location"] == f"/v1/tables/{resp.json()['table']}"
    return resp.json()


def act(http, t: dict, action: str, seat: int | None = None) -> httpx.Response:
    return http.post(f"/v1/tables/{t['table']}/actions",
                     json={"seat": t["seat"] if seat is None else seat, "action": action})


def play_first_legal(http, t: dict, until) -> dict:
    while not until(t):
        assert t["your_turn"], t
        resp = act(http, t, t["legal"][0]["action"])
        assert resp.status_code == 200, resp.text
        t = resp.json()
    return t


def test_a_seat_sees_only_its_own_view(http):
    t = new_table(http, game="trix", seed=4, seats=[2], bots="rules")
    assert t["seat"] == 2 and t["seats"] == [2] and set(t["bots"]) == {"0", "1", "3"}
    hands = t["view"]["deal"]["deals"][0]
    assert isinstance(hands[2], str) and all(isinstance(hands[s], int) for s in (0, 1, 3))
    assert len(t["hand"]) == 13 and t["names"][2] == "you"
    # the bots before seat 2 have played: it is seat 2's turn now
    assert t["your_turn"] and t["legal"] and t["to_move"] == 2
    refused = http.get(f"/v1/tables/{t['table']}", params={"seat": 0})
    assert refused.status_code == 422 and refused.json()["path"] == "seat"
    assert "only its own view" in refused.json()["error"]
    assert http.get(f"/v1/tables/{t['table']}", params={"seat": "x"}).status_code == 422
    again = http.get(f"/v1/tables/{t['table']}", params={"seat": 2}).json()
    assert again["view"] == t["view"] and again["legal"] == t["legal"]
    # the record with every hand only once the match is over
    assert http.get(f"/v1/tables/{t['table']}/record").status_code == 409


def test_illegal_actions_get_the_reason(http):
    t = new_table(http, game="dix", options={"variant": "seventeen"}, seed=2, seats=[0, 1])
    assert t["to_move"] == 0 and not t["bots"]
    other = t["view"]["deal"]
    mine = set(t["hand"])
    not_mine = next(c for c in ("2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS")
                    if c not in mine)
    bad = act(http, t, not_mine)
    assert bad.status_code == 422 and bad.json()["path"] == "action"
    assert bad.json()["reason"]
    wrong_turn = act(http, t, t["legal"][0]["action"], seat=1)
    assert wrong_turn.status_code == 422 and "turn" in wrong_turn.json()["reason"]
    nonsense = act(http, t, "XYZ")
    assert nonsense.status_code == 422 and nonsense.json()["path"] == "action"
    for body, path in (({"action": 5}, "action"), ({"action": ""}, "action"),
                       ({"seat": 9, "action": "QS"}, "seat"), ({}, "action"),
                       ({"seat": "0", "action": "QS"}, "seat")):
        r = http.post(f"/v1/tables/{t['table']}/actions", json=body)
        assert r.status_code == 422 and r.json()["path"] == path, (body, r.text)
    assert other == http.get(f"/v1/tables/{t['table']}").json()["view"]["deal"]


def test_concurrent_actions_on_one_table_are_ordered(http, server):
    """Four clients post the same card at once: one is played, the others are
    told why not (422), and the record holds it once."""
    import threading
    t = new_table(http, game="dix", options={"variant": "seventeen"}, seed=8)
    card = t["legal"][0]["action"]
    got = []

    def post():
        with httpx.Client(base_url=server.url, timeout=60) as c:
            got.append(act(c, t, card))
    threads = [threading.Thread(target=post) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(r.status_code for r in got) == [200, 422, 422, 422]
    assert all(r.json()["reason"] for r in got if r.status_code == 422)
    state = replay_table(server.p.args[server.p.args.index("--db") + 1], t["table"])
    assert [state.action_to_string(a) for a in state.history()].count(card) == 1


def test_hint_at_a_table(http):
    t = new_table(http, game="dix", options={"variant": "seventeen"}, seed=6)
    h = http.post(f"/v1/tables/{t['table']}/hint",
                  json={"limit": {"iterations": 300}}).json()
    assert set(h["search"]["values"]) == {a["action"] for a in t["legal"]}
    assert h["advice"]
    both = new_table(http, game="dix", seed=6, seats=[0, 1])
    r = http.post(f"/v1/tables/{both['table']}/hint", json={"seat": 1})
    assert r.status_code == 409 and "not to move" in r.json()["error"]
    r = http.post(f"/v1/tables/{both['table']}/hint", json={"seat": 1, "limit": {"time": 0}})
    assert r.status_code == 422 and r.json()["path"] == "limit.time"


def test_a_whole_deal_scores_as_the_record(http, server):
    t = new_table(http, game="trix", seed=9, bots={"1": "random", "3": "rules"})
    assert t["bots"] == {"1": "random", "2": "rules", "3": "rules"}
    t = play_first_legal(http, t, lambda t: t["deal_scores"])
    state = replay_table(server.p.args[server.p.args.index("--db") + 1], t["table"])
    assert t["deal_scores"][0] == [float(v) for v in state.round_returns(0)]
    assert t["deal"] == 1 and sum(t["totals"]) == sum(t["deal_scores"][0])


def test_bots_out_of_time_in_one_request_go_on_at_the_next(tmp_path):
    """--bot-seconds bounds the bots' play in one request: here one action a
    request (or a few forced ones); the answer says a bot is to move, and each GET lets them go on
    until it is the person's turn.  A search bot gets the server's time cap."""
    srv = ServerProcess(str(tmp_path / "t.db"), *FLAGS, "--bot-seconds", "0.001")
    try:
        with httpx.Client(base_url=srv.url, timeout=60) as http:
            t = new_table(http, game="trix", seed=0, seats=[2],   # seat 3 chooses first
                          bots={"0": "ismcts:iterations=100", "1": "rules", "3": "rules"})
            assert t["bots"]["0"] == "ismcts:iterations=100,nodes=2000000,time=1"
            gets = 0
            while not t["your_turn"]:
                assert not t["legal"] and t["to_move"] != 2
                before = t["actions"]
                t = http.get(f"/v1/tables/{t['table']}", params={"seat": 2}).json()
                assert t["actions"] > before              # the bots went on
                gets += 1
            assert gets >= 2 and t["legal"]
    finally:
        assert srv.stop() == 0


def test_bot_settings_are_checked(http):
    for bots, path, text in (("cheat", "bots", "cannot sit"),
                             ("engine:cmd=ls", "bots", "cannot sit"),
                             ("ismcts:time=100", "bots", "cap"),
                             ("ismcts:iterations=999999", "bots", "cap"),
                             ("pimc:worlds=5,bogus=1", "bots", "unknown setting"),
                             ({"0": "rules"}, "bots.0", "bots' seats"),
                             ({"7": "rules"}, "bots.7", "bots' seats"),
                             ({"1": 3}, "bots.1", "settings string"),
                             (5, "bots", "settings string")):
        r = http.post("/v1/tables", json={"game": "dix", "bots": bots})
        assert r.status_code == 422, (bots, r.text)
        assert r.json()["path"] == path and text in r.json()["error"], (bots, r.text)
    for body, path in (({"game": "chess"}, "game"), ({}, "game"),
                       ({"game": "dix", "options": {"target": 0}}, "options"),
                       ({"game": "dix", "options": []}, "options"),
                       ({"game": "dix", "seats": []}, "seats"),
                       ({"game": "dix", "seats": [0, 0]}, "seats"),
                       ({"game": "dix", "seats": [2]}, "seats[0]"),
                       ({"game": "dix", "seats": [True]}, "seats[0]"),
                       ({"game": "dix", "seed": -1}, "seed"),
                       ({"game": "dix", "seed": 2**64}, "seed")):
        r = http.post("/v1/tables", json=body)
        assert r.status_code == 422 and r.json()["path"] == path, (body, r.text)


def test_delete(http):
    t = new_table(http, game="dix-exchange", options={"players": 5}, seed=1)
    assert t["bots"] == {str(s): "rules" for s in range(1, 5)}
    assert http.delete(f"/v1/tables/{t['table']}").status_code == 204
    assert http.get(f"/v1/tables/{t['table']}").status_code == 404
    assert http.delete(f"/v1/tables/{t['table']}").status_code == 404


def test_a_table_survives_a_killed_server_and_goes_on_as_if_never_stopped(tmp_path):
    """SIGKILL mid-match, restart on the same SQLite file: the table is where
    it was, and playing on gives the same bot actions as a twin table that
    was never interrupted."""
    db = str(tmp_path / "tables.db")
    body = {"game": "dix", "options": {"variant": "seventeen"}, "seed": 11,
            "bots": "ismcts:iterations=200"}
    first = ServerProcess(db, *FLAGS)
    try:
        with httpx.Client(base_url=first.url, timeout=60) as http:
            t = new_table(http, **body)
            twin = new_table(http, **body)
            for _ in range(5):
                t = act(http, t, t["legal"][0]["action"]).json()
            before = http.get(f"/v1/tables/{t['table']}").json()
    finally:
        first.kill()                                  # SIGKILL: no shutdown at all
    second = ServerProcess(db, *FLAGS)
    try:
        with httpx.Client(base_url=second.url, timeout=60) as http:
            after = http.get(f"/v1/tables/{t['table']}").json()
            assert after == before
            t = play_first_legal(http, after, lambda t: t["deal_scores"])
            twin = play_first_legal(http, twin, lambda t: t["deal_scores"])
            assert [e for e in t["log"]] == [e for e in twin["log"]]
            assert t["deal_scores"] == twin["deal_scores"]
    finally:
        assert second.stop() == 0


class Clock:
    """The tables' wall clock (``bots.server.tables._time``), moved by
    hand: expiry is tested at chosen times, not by sleeping through them."""

    def __init__(self):
        self.now = time.time()

    def time(self):
        return self.now

    @staticmethod
    def monotonic():
        return time.monotonic()


def test_ended_and_idle_tables_are_deleted(tmp_path, monkeypatch):
    """An ended table goes ``grace`` seconds after its end, an unused one
    ``idle`` seconds after its last use; the app's sweeper deletes them
    (in process, under an injected clock)."""
    from starlette.testclient import TestClient

    from bots.server import tables as tables_module
    from bots.server.app import create_app
    from bots.server.settings import Settings

    clock = Clock()
    monkeypatch.setattr(tables_module, "_time", clock)
    app = create_app(Settings(db=str(tmp_path / "tables.db"), grace=0.5, idle=3, workers=2,
                              max_time=1, max_iterations=3000, hint_time=0.2, threads=1))
    store = app.state.tables.store

    def swept(table_id):
        """The sweeper (every 0.2 s) has deleted the table's row."""
        deadline = time.monotonic() + 30
        while store.exists(table_id):
            assert time.monotonic() < deadline, f"the sweeper never deleted {table_id}"
            time.sleep(0.02)

    with TestClient(app) as http:
        done = new_table(http, game="dix", options={"variant": "seventeen", "target": 1},
                         seed=3)
        done = play_first_legal(http, done, lambda t: t["over"])
        assert done["returns"] is not None and done["legal"] == []
        rec = http.get(f"/v1/tables/{done['table']}/record")
        assert rec.status_code == 200
        state = solver.from_json(rec.json()).state()
        assert state.is_terminal() and state.returns() == done["returns"]
        bad = act(http, done, "QS")
        assert bad.status_code == 422 and "over" in bad.json()["reason"]
        idle = new_table(http, game="dix", seed=1)
        assert app.state.tables.sweep() == 0             # neither is due yet
        clock.now += 1.0                                  # past the grace, not yet idle
        swept(done["table"])
        assert http.get(f"/v1/tables/{done['table']}").status_code == 404
        assert http.get(f"/v1/tables/{idle['table']}").status_code == 200   # a use
        clock.now += 2.9                                  # 3.9 s since made, 2.9 since used
        assert app.state.tables.sweep() == 0
        clock.now += 0.2                                  # 3.1 s since its last use
        swept(idle["table"])
        assert http.get(f"/v1/tables/{idle['table']}").status_code == 404
