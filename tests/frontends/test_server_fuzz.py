"""Property test (hypothesis): malformed requests to every route of a real
``dixtrix serve`` get only 4xx answers (JSON with an ``error``), never a
5xx, and the server is alive with no internal error logged afterwards.

Malformed means: random bytes; JSON that is not an object; an object with
an unknown key; a valid body with one field replaced by a value of the
wrong kind (a position that is not one, a limit out of range, a seed that
is not an integer, an action that is not a string, a bot that cannot sit
at a table...); random table ids, seat parameters and tokens."""

from __future__ import annotations

import json

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver

from .server_process import ServerProcess

EXAMPLES = 40

json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**25, 10**25),
                         st.floats(allow_nan=False, allow_infinity=False),
                         st.text(max_size=30))
json_values = st.recursive(json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)),
    max_leaves=12)
non_objects = json_values.filter(lambda v: not isinstance(v, dict))
#: objects that are no position: no 'game' key, or a game that does not exist
garbage_objects = st.dictionaries(st.text(max_size=10).filter(lambda k: k != "game"),
                                  json_values, max_size=4)
bad_games = st.text(max_size=20).filter(lambda g: g not in solver.registered_games())
state = solver.load_game("dix").new_initial_state(seed=1)
for _ in range(6):
    state.apply_action(state.legal_actions()[0])
RECORD = solver.to_json(state)
VIEW = state.information_state(state.current_player()).view
hand_made = st.sampled_from([
    dict(RECORD, actions=RECORD["actions"] + ["ZZ"]),
    dict(RECORD, actions=RECORD["actions"][:1] * 2),
    dict(RECORD, options={"target": -5}),
    dict(RECORD, seed="one"),
    dict(VIEW, seat=5),
    dict(VIEW, actions=["?"] * 6),
    {k: v for k, v in VIEW.items() if k != "deal"},
    dict(RECORD, extra=1),
])
bad_positions = st.one_of(non_objects, garbage_objects, hand_made,
                          bad_games.map(lambda g: dict(RECORD, game=g)))
#: numbers that are no integer (JSON's 2.0 is the integer 2, and is accepted as one)
fractions = st.floats().filter(lambda f: not f.is_integer())
bad_limits = st.one_of(
    non_objects.filter(lambda v: v is not None),
    st.just({}),
    st.fixed_dictionaries({"time": st.one_of(st.floats(max_value=0), st.text(), st.booleans(),
                                             st.lists(st.integers(), max_size=2))}),
    st.fixed_dictionaries({"iterations": st.one_of(st.integers(max_value=0), fractions,
                                                   st.text(), st.booleans())}),
    st.fixed_dictionaries({"worlds": st.one_of(st.integers(max_value=0), st.text())}),
    st.dictionaries(st.text(max_size=8).filter(lambda k: k not in ("time", "iterations",
                                                                    "worlds")),
                    json_values, min_size=1, max_size=3))
bad_seeds = st.one_of(st.integers(max_value=-1), st.integers(min_value=2**63),
                      fractions, st.text(), st.booleans(), st.lists(st.integers(), max_size=2))
bad_actions = st.one_of(st.integers(), st.none(), st.lists(st.text(), max_size=2),
                        st.just(""), st.just("   "), st.text(min_size=101, max_size=150))
bad_bots = st.one_of(st.sampled_from(["cheat", "engine:cmd=ls", "ismcts:time=1000",
                                      "ismcts:iterations=99999999", "pimc:bogus=1",
                                      "nobody", ""]),
                     st.integers(), st.lists(st.text(), max_size=2),
                     st.dictionaries(st.text(max_size=3), st.text(max_size=5), min_size=1,
                                     max_size=2).filter(
                         lambda d: not all(k in ("1",) for k in d)))

def _whole_in(v, allowed) -> bool:
    """``v`` is a JSON integer (``1`` or ``1.0``) in ``allowed``."""
    return (isinstance(v, (int, float)) and not isinstance(v, bool) and
            float(v).is_integer() and v in allowed)


#: a valid body per route, and the strategies that break one of its fields
ROUTES = {
    "/v1/hint": ({"position": VIEW, "limit": {"iterations": 50}},
                 {"position": bad_positions, "limit": bad_limits, "seed": bad_seeds,
                  "bot": json_values.filter(lambda b: b not in ("ismcts", "pimc"))}),
    "/v1/solve": ({"position": RECORD},
                  {"position": bad_positions,
                   "line": json_values.filter(lambda v: not (isinstance(v, (int, float)) and
                                                             not isinstance(v, bool) and
                                                             float(v).is_integer() and
                                                             0 <= v <= 16))}),
    "/v1/evaluate": ({"position": VIEW, "limit": {"worlds": 5}},
                     {"position": bad_positions, "limit": bad_limits, "seed": bad_seeds,
                      "policy": json_values.filter(lambda p: p not in ("rules", "random"))}),
    "/v1/review": ({"position": RECORD, "limit": {"iterations": 50}},
                   {"position": bad_positions, "limit": bad_limits, "seed": bad_seeds,
                    "bot": json_values.filter(lambda b: b not in ("ismcts", "pimc")),
                    "deal": json_values.filter(lambda v: not _whole_in(v, (1,))),
                    "seat": json_values.filter(lambda v: not _whole_in(v, (0, 1)))}),
    "/v1/tables": ({"game": "dix", "seats": [0]},
                   {"game": st.one_of(bad_games, non_objects.filter(
                       lambda g: not isinstance(g, str))),
                    "options": st.one_of(non_objects, st.dictionaries(
                        st.text(max_size=8).filter(lambda k: k not in ("variant", "target",
                                                                       "free_play_while_stock")),
                        json_values, min_size=1, max_size=2)),
                    "seats": st.one_of(non_objects.filter(lambda v: not isinstance(v, list)),
                                       st.lists(st.integers(2, 99) | st.integers(
                                           max_value=-1), min_size=1, max_size=3)),
                    "bots": bad_bots, "seed": bad_seeds}),
    "TABLE/actions": ({"seat": 0, "action": "QS", "version": 0},
                      {"action": bad_actions,
                       "seat": st.one_of(st.integers(min_value=64), st.integers(max_value=-1),
                                         st.text(), fractions, st.booleans()),
                       "version": st.one_of(st.integers(max_value=-1), st.text(), fractions,
                                            st.booleans(), st.none())}),
    "TABLE/hint": ({"seat": 0, "limit": {"iterations": 50}},
                   {"limit": bad_limits, "seed": bad_seeds,
                    "seat": st.one_of(st.integers(min_value=64), st.text(), st.booleans())}),
    # the table's first deal is not over: even the valid body is refused (409)
    "TABLE/review": ({"seat": 0, "deal": 1, "limit": {"iterations": 50}},
                     {"limit": bad_limits, "seed": bad_seeds,
                      "bot": json_values.filter(lambda b: b not in ("ismcts", "pimc")),
                      "deal": json_values,
                      "seat": st.one_of(st.integers(min_value=64), st.text(), st.booleans())}),
}


@st.composite
def malformed(draw, route):
    template, fields = ROUTES[route]
    kind = draw(st.sampled_from(["bytes", "non-object", "unknown key", "bad field"]))
    if kind == "bytes":
        raw = draw(st.binary(max_size=200))
        try:
            if isinstance(json.loads(raw), dict):
                raw = b"[" + raw
        except (ValueError, UnicodeDecodeError):
            pass
        return raw
    if kind == "non-object":
        return json.dumps(draw(non_objects)).encode()
    body = dict(template)
    if kind == "unknown key":
        key = draw(st.text(min_size=1, max_size=10).filter(lambda k: k not in fields and
                                                           k not in template))
        body[key] = draw(json_values)
    else:
        name = draw(st.sampled_from(sorted(fields)))
        body[name] = draw(fields[name])
    return json.dumps(body).encode()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ServerProcess(str(tmp_path_factory.mktemp("fuzz") / "tables.db"),
                        "--max-body", "4096", "--max-time", "0.5", "--max-iterations", "500")
    yield srv
    assert srv.alive(), "the server died"
    assert srv.stop() == 0
    assert not [line for line in srv.log if "internal error" in line or "Traceback" in line], \
        "".join(srv.log)[-3000:]


@pytest.fixture(scope="module")
def http(server):
    with httpx.Client(base_url=server.url, timeout=30) as client:
        yield client


@pytest.fixture(scope="module")
def created(http):
    resp = http.post("/v1/tables", json={"game": "dix", "seed": 1, "seats": [0]})
    assert resp.status_code == 201
    return resp.json()


@pytest.fixture(scope="module")
def table(created):
    return created["table"]


@pytest.fixture(scope="module")
def token(created):
    """The seat's token: the bodies of the table routes are read only with one."""
    return created["invitations"][0]["token"]


def only_4xx(resp):
    assert 400 <= resp.status_code < 500, (resp.status_code, resp.text[:500])
    assert resp.json()["error"]


FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow, HealthCheck.filter_too_much])


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_malformed_bodies_get_only_4xx(http, table, token, route):
    path = route.replace("TABLE", f"/v1/tables/{table}")
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}

    @FUZZ
    @given(body=malformed(route))
    def check(body):
        only_4xx(http.post(path, content=body, headers=headers))
    check()


@FUZZ
@given(table_id=st.text(max_size=70), seat=st.text(max_size=6),
       method=st.sampled_from(["GET", "DELETE", "POST"]),
       tail=st.sampled_from(["", "/actions", "/hint", "/review", "/events"]), junk=st.text(max_size=60))
def test_random_table_ids_seats_and_tokens_get_only_4xx(http, table, token, table_id, seat,
                                                       method, tail, junk):
    from urllib.parse import quote
    tid = quote(table_id, safe="") or "x"
    resp = http.request(method, f"/v1/tables/{tid}{tail}", params={"seat": seat},
                        content=b"{}")
    only_4xx(resp)
    resp = http.get(f"/v1/tables/{table}", params={"seat": seat})
    only_4xx(resp)                      # a seat's view needs its token
    resp = http.get(f"/v1/tables/{table}", params={"seat": seat},
                    headers={"Authorization": f"Bearer {token}"})
    if not (seat.isascii() and seat.isdigit() and len(seat) <= 3 and int(seat) == 0):
        only_4xx(resp)                  # seat 0 ("0", "00") is the token's: a view
    else:
        assert resp.status_code == 200
    header = "Bearer " + junk
    if header.isascii() and header.isprintable() and header == header.strip():
        resp = http.request(method, f"/v1/tables/{table}{tail}", content=b"{}",
                            headers={"Authorization": header})
        if junk.strip() == token:
            assert resp.status_code < 500
        else:
            only_4xx(resp)              # no table's token: 401 or 403, never a view


@FUZZ
@given(path=st.text(max_size=40), method=st.sampled_from(["GET", "POST", "PUT", "PATCH"]))
def test_random_paths_get_only_4xx_or_a_page(http, path, method):
    from urllib.parse import quote
    resp = http.request(method, "/" + quote(path), content=b"x")
    assert resp.status_code < 500, (resp.status_code, resp.text[:300])


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(junk=st.one_of(
    st.binary(min_size=1, max_size=300),
    st.builds(lambda m, p, h: f"{m} {p} HTTP/1.1\r\n{h}\r\n\r\n".encode("utf-8", "replace"),
              st.sampled_from(["GET", "POST", "BREW", "", "GET GET"]),
              st.text(max_size=30), st.text(max_size=60))))
def test_junk_on_the_socket_gets_a_4xx_or_a_closed_connection(server, junk):
    """Bytes that are no HTTP request: the answer, if any, is no 5xx (uvicorn
    answers 400 to what it cannot parse), and the server goes on."""
    import socket
    host, port = server.url.split("//")[1].rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(junk)
        s.shutdown(socket.SHUT_WR)
        data = b""
        try:
            while len(data) < 64:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
        except (TimeoutError, ConnectionResetError):
            pass
    if data.startswith(b"HTTP/1.1 "):
        # a 4xx, or an answer to what happened to be a request ("GET / ...")
        assert int(data[9:12]) < 500, data[:200]
    assert server.alive()
