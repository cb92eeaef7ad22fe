"""The state travels with the request (issue #42): one hint on the position
``dixtrix hint trix --seed 2 --after 30`` reaches, asked through every
face -- the Python API (``best_move``), ``dixtrix hint`` (in process,
``bots/cli.py``'s ``main``), the engine protocol (``bots/engine.py``) and
``POST /v1/hint`` (``bots/server/app.py``) -- with counting wrappers on the
real functions that turn one form of the position into another:

* **replays**: ``Game.replay`` and the trix/tricks public replay of a view's
  notation (``ContractGame._public_facts``, counted when not cached);
* **names parsed**: ``string_to_action`` (an action's name back to its id);
* **worlds drawn** outside the search: the view's sampler's ``sample``
  (the search's own draws are its business and not counted);
* **JSON built**: ``SeatView.to_json``, ``Record.to_json``,
  ``solver.position.to_json`` and ``InfoState.to_json``.

Each face may replay and parse only the input it is given (a record once;
a seat view's check: its public replay and the replay of a completion), draw
one world, and build the position's JSON only where it prints it
(``--json``, the HTTP answer).  Before this test, the same hint made 1 to 2
needless replays of the view's names, drew 1 to 5 worlds and built the
view's JSON on every face of ``bots.advice``; ``docs/architecture.md``,
"The path of one request", draws the path as it now is.
"""

from __future__ import annotations

import collections
import contextlib
import io
import json
from collections import OrderedDict

import pytest

from bots import cli
from bots.engine import Engine
from solver import game as game_module
from solver import position
from solver.games.contract_match import game as contract_game
from solver.games.contract_match import state as contract_state
from solver.games.contract_match import views as contract_views
from solver.search import Limit, best_move, service

#: the search's work for every face (iterations: the same on any machine)
ITERATIONS = 200
DEMO = ["hint", "trix", "--seed", "2", "--after", "30"]


@pytest.fixture(scope="module")
def demo_state():
    """The issue's position: trix dealt by seed 2, the rules bots' 30
    actions and the two forced ones after them (action 32, trick play)."""
    args = cli.build_parser().parse_args(DEMO)
    args.game = args.target                 # as cmd_hint reads a game's name
    _, state, _ = cli._demo_position(args)
    return state


@pytest.fixture
def counts(monkeypatch):
    seen: collections.Counter = collections.Counter()     # by kind: the docstring's
    searching = [0]                # the depth of searches under way

    def count(owner, name, key):
        real = getattr(owner, name)

        def counted(*args, **kwargs):
            if not searching[0]:
                seen[key] += 1
            return real(*args, **kwargs)
        monkeypatch.setattr(owner, name, counted)

    # a fresh cache of trix's public replays, so a miss is this request's
    monkeypatch.setattr(contract_game, "_PUBLIC_CACHE", OrderedDict())
    real_facts = contract_game.ContractGame._public_facts

    def public_facts(self, view):
        cached = list(contract_game._PUBLIC_CACHE.values())
        out = real_facts(self, view)
        if not any(out is hit for hit in cached):
            seen["replays"] += 1
        return out
    monkeypatch.setattr(contract_game.ContractGame, "_public_facts", public_facts)
    count(game_module.Game, "replay", "replays")
    count(contract_state.ContractMatchState, "string_to_action", "names parsed")
    count(contract_views.ContractWorldSampler, "sample", "worlds drawn")
    for owner in (position.SeatView, position.Record, game_module.InfoState):
        count(owner, "to_json", "JSON built")
    count(position, "to_json", "JSON built")
    # the search's own draws (the Python search draws a world an iteration)
    for name in ("ismcts", "pimc"):
        real = getattr(service._Job, name)

        def searched(self, *args, _real=real, **kwargs):
            searching[0] += 1
            try:
                return _real(self, *args, **kwargs)
            finally:
                searching[0] -= 1
        monkeypatch.setattr(service._Job, name, searched)
    return seen


def _check(seen: collections.Counter, replays: int = 0, parsed: int = 0, json_built: int = 0) -> None:
    """At most the replays and parses of the face's own input and the JSON
    the face prints; one world (exactly: the counters see what they count,
    as the engine's and ``--json``'s exact counts show for the others)."""
    assert seen["replays"] <= replays, seen
    assert seen["names parsed"] <= parsed, seen
    assert seen["worlds drawn"] == 1, seen
    assert seen["JSON built"] <= json_built, seen


def test_the_python_api_converts_nothing(demo_state, counts):
    state = demo_state.clone()
    res = best_move(state, Limit(iterations=ITERATIONS), seed=0)
    assert res.ids[res.action] == res.action_id and res.action_id in state.legal_actions()
    _check(counts)


@pytest.mark.parametrize("as_json", [False, True])
def test_dixtrix_hint_converts_nothing_it_does_not_print(counts, as_json):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(DEMO + ["--iterations", str(ITERATIONS)] +
                        (["--json"] if as_json else [])) == 0
    if as_json:
        doc = json.loads(out.getvalue())
        assert len(doc["position"]["actions"]) == 32
        assert set(doc["ids"]) == set(doc["ranking"])
        assert counts["JSON built"] == 1
    _check(counts, json_built=1 if as_json else 0)


def test_the_engine_replays_its_record_once(demo_state, counts):
    record = json.dumps(position.to_json(demo_state))
    counts.clear()
    out = io.StringIO()
    engine = Engine(out=out)
    engine.handle("position " + record)
    engine.handle(f"go iterations {ITERATIONS}")
    engine.worker.join(timeout=120)
    assert "bestmove " in out.getvalue(), out.getvalue()
    n = len(demo_state.history())
    assert (counts["replays"], counts["names parsed"]) == (1, n)
    _check(counts, replays=1, parsed=n)


@pytest.mark.parametrize("kind", ["view", "record"])
def test_the_http_hint_checks_its_input_once(demo_state, counts, tmp_path, kind):
    from starlette.testclient import TestClient

    from bots.server.app import create_app
    from bots.server.settings import Settings
    seat = demo_state.current_player()
    doc = (position.SeatView.of(demo_state, seat).to_json() if kind == "view"
           else position.to_json(demo_state))
    n = len(demo_state.history())
    with TestClient(create_app(Settings(db=str(tmp_path / "t.db")))) as client:
        counts.clear()
        answer = client.post("/v1/hint", json={"position": doc,
                                               "limit": {"iterations": ITERATIONS}})
        assert answer.status_code == 200, answer.text
        hint = answer.json()
    assert set(hint["labels"]) == set(hint["ranking"]) == set(hint["ids"])
    assert hint["position"]["seat"] == seat
    # a seat view is checked by its public replay and the replay of one
    # completion; a record by its replay.  The answer prints the position
    if kind == "view":
        _check(counts, replays=2, parsed=2 * n, json_built=1)
    else:
        _check(counts, replays=1, parsed=n, json_built=1)
