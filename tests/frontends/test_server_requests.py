"""The server's request reader (``bots/server/requests.py``), in process:
a body read, checked by its model, and its ``position`` and ``limit``
read, as every route does before it computes anything."""

from __future__ import annotations

import asyncio
import json

import pytest
from starlette.requests import Request

from bots.server import models, requests
from bots.server.errors import RequestError
from bots.server.settings import Settings
from solver import position
from solver.search import Limit


def _request(body: bytes) -> Request:
    async def receive():
        return {"type": "http.request", "body": body, "more_body": False}
    return Request({"type": "http", "method": "POST", "query_string": b"", "path": "/v1/hint",
                    "headers": [(b"content-length", str(len(body)).encode())]}, receive)


def read(body: dict | str, model=models.HintBody):
    raw = body if isinstance(body, str) else json.dumps(body)
    return asyncio.run(requests.body_model(_request(raw.encode()), 1 << 20, model))


def test_a_whole_number_written_with_a_fraction_is_an_integer_everywhere():
    """JSON Schema's ``integer``, which the OpenAPI document states, takes
    390.0; so does the server, wherever it reads an integer: the body's
    own fields (a seed, a limit's counts), a position's seed, seat, dealer,
    counts and options.  schemathesis found ``"seed": 390.0`` refused in a
    position ("must be an integer", issue #51)."""
    text = ('{"position": {"game": "dix", "seed": 390.0, "options": {"target": 1e1}, '
            '"actions": ["QC"]}, "seed": 5.0, "limit": {"iterations": 2e2, "time": 1.0}}')
    model, doc = read(text)
    assert model.seed == 5 and model.limit.iterations == 200
    record = requests.read_position(doc)
    assert record.seed == 390 and type(record.seed) is int
    assert record.game.options["target"] == 10
    limit, given, applied = requests.read_limit(doc, Settings(db=":memory:"), Limit(time=1))
    assert given and limit.iterations == 200 and applied["iterations"] == 200
    seat_view = position.SeatView.of(record.state(), 1).to_json()
    seat_view["seat"] = 1.0
    seat_view["deal"]["first_dealer"] = float(seat_view["deal"]["first_dealer"])
    seat_view["deal"]["rounds"][0]["hands"][0] = 13.0          # the unseen hand's count
    _, doc = read({"position": seat_view})
    assert requests.read_position(doc).seat == 1
    # a fraction is no integer: refused, naming its path
    for body, path in (({"position": {"game": "dix", "seed": 390.5}}, "position.seed"),
                       ({"position": dict(seat_view, seat=0.5)}, "position.seat")):
        _, doc = read(body)
        with pytest.raises(RequestError) as err:
            requests.read_position(doc)
        assert err.value.path == path, err.value
    for body, path in (({"position": {"game": "dix", "seed": 1}, "seed": 5.5}, "seed"),
                       ({"position": {"game": "dix", "seed": 1},
                         "limit": {"iterations": 20.5}}, "limit.iterations")):
        with pytest.raises(RequestError) as err:
            read(body)
        assert err.value.path == path, err.value
