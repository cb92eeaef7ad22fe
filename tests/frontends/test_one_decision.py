"""One decision path behind every face (solver.search.service): the same
position, limit and seed give the same action from the Python API,
``dixtrix hint --json``, the engine protocol and ``POST /v1/hint``, and the
bot with the same settings plays it.  Thirty positions of every game, of
every kind of decision the random play-outs reach (cards, contracts,
doubling, bids, the nest, trumps, exchanges), some that the view determines
(solved exactly) and some forced.

Every face also lists the actions in the advice's order: the advised one
first, and an action listed below it with a higher mean carries its reason.
"""

from __future__ import annotations

import json
import math
import random
import shlex

import pytest

import solver
from bots import make_bot
from bots.cli import main
from solver.search import Limit, best_move
from solver.search.service import DEFAULT_EXACT_NODES
from tests.conftest import pick

from .server_process import ServerProcess
from .test_engine import Transcript

GAMES: dict[str, dict[str, object]] = {"dix": {}, "trix": {}, "tricks": {}, "dixie-rook": {},
                                       "dix-exchange": {}}
#: positions a game: 10 by default (each kind of decision of ``WANTED``
#: first, so every kind is still checked), the 30 of issue #25 with
#: DIXTRIX_FULL_TESTS=1 (tests/conftest.py)
PER_GAME = pick(10, 30)
#: the limit every face gets: iterations (the same work on any machine)
ITERATIONS = 120


#: decisions each game's positions include at least once (the first word of
#: an action), besides card play
WANTED = {"trix": ("contract", "reveal"), "tricks": ("contract",),
          "dixie-rook": ("bid", "discard", "trump"), "dix": (), "dix-exchange": ("block",)}


def _kind(world, action) -> str:
    text = world.action_to_string(action)
    if " " in text:
        return text.split()[0]
    return "card" if world.game.is_card(action) else text


def _positions(name: str, count: int) -> list:
    """``count`` seat views of ``name``: one of each ``WANTED`` kind of
    decision, then random play-outs cut at random points, the seat to
    move's view (decisions with two or more actions mostly, a few forced
    ones)."""
    game = solver.load_game(name, **GAMES[name])
    rng = random.Random(f"one-decision/{name}")
    views: list[tuple] = []
    wanted = list(WANTED[name])
    seed = 0
    while len(views) < count:
        seed += 1
        state = game.new_initial_state(seed=seed)
        stop = rng.randrange(0, 160)
        for _ in range(stop):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            kinds = {_kind(state, a) for a in legal}
            hit = next((k for k in wanted if k in kinds), None)
            if hit and len(legal) > 1:
                wanted.remove(hit)
                break
            state.apply_action(rng.choice(legal))
        if state.is_terminal():
            continue
        if len(state.legal_actions()) < 2 and rng.random() < 0.8:
            continue
        views.append((state.information_state(state.current_player()).view, seed % 7))
    assert not wanted, (name, wanted)
    return views


ALL = [(name, i, view, seed) for name in GAMES
       for i, (view, seed) in enumerate(_positions(name, PER_GAME))]


@pytest.fixture(scope="module")
def engine():
    t = Transcript()
    t.send("dixtrix")
    t.until("ok")
    yield t
    t.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("one") / "tables.db")
    # caps out of the way: every face searches the same limit
    proc = ServerProcess(db, "--max-time", "600", "--max-nodes", str(DEFAULT_EXACT_NODES),
                         "--workers", "1")
    yield proc
    proc.stop()


def _check_order(ranking, values, reasons, equal):
    """The advice is listed first; an action below it with a higher mean has
    a reason in words (exact values: nothing ranks above the best)."""
    first = ranking[0]
    for a in ranking[1:]:
        if values.get(a) is not None and values.get(first) is not None and \
                values[a] > values[first] + 1e-9:
            assert reasons.get(a), (a, first, values)


def _cli(capsys, tmp_path, view, seed) -> dict:
    path = tmp_path / "view.json"
    path.write_text(json.dumps(view))
    assert main(["hint", str(path), "--json", "--iterations", str(ITERATIONS),
                 "--search-seed", str(seed)]) == 0
    return json.loads(capsys.readouterr().out)


def _engine(engine, view, seed) -> tuple[list[str], dict]:
    engine.send(f"setoption name seed value {seed}")
    engine.send("position " + json.dumps(view, separators=(",", ":")))
    engine.send(f"go iterations {ITERATIONS}")
    lines = engine.until("bestmove", timeout=120)
    errors = [x for x in lines if x.startswith("error")]
    assert not errors, errors
    result = json.loads(next(x for x in lines if x.startswith("result "))[7:])
    return shlex.split(lines[-1])[1:], result   # an action with a space comes quoted


@pytest.mark.slow
@pytest.mark.parametrize("name,index,view,seed", ALL,
                         ids=[f"{n}-{i}" for n, i, _, _ in ALL])
def test_every_face_names_the_same_action(name, index, view, seed, engine, server,
                                          capsys, tmp_path):
    import httpx
    limit = Limit(iterations=ITERATIONS)
    api = best_move(view, limit, seed=seed)
    _check_order(api.ranking, api.values, api.reasons, api.equal)
    assert api.ranking[0] == api.action
    world = solver.from_json(view).world(seed=0)
    assert sorted(api.ranking) == sorted(world.action_to_string(a)
                                         for a in world.legal_actions())

    cli = _cli(capsys, tmp_path, view, seed)
    assert cli["action"] == api.action and cli["ranking"] == list(api.ranking)
    body = cli.get("search") or cli["exact"]
    _check_order(body["ranking"], body["values"], body.get("reasons", {}), [])

    words, result = _engine(engine, view, seed)
    move = result["action"]
    assert move == api.action and result["ranking"] == list(api.ranking)
    _check_order(result["ranking"], result["values"], result["reasons"], [])
    assert words[0] == api.action

    r = httpx.post(server.url + "/v1/hint",
                   json={"position": view, "limit": {"iterations": ITERATIONS}, "seed": seed},
                   timeout=120)
    assert r.status_code == 200, r.text
    http = r.json()
    assert http["action"] == api.action and http["ranking"] == list(api.ranking)
    body = http.get("search") or http["exact"]
    _check_order(body["ranking"], body["values"], body.get("reasons", {}), [])

    game = solver.load_game(name, **GAMES[name])
    bot = make_bot(f"ismcts:iterations={ITERATIONS}", game,
                   view["seat"], seed=seed)
    assert world.action_to_string(bot.step(world)) == api.action


def test_the_positions_cover_every_kind_of_decision():
    kinds = {"forced": 0, "exact": 0, "ismcts": 0, "pimc": 0}
    for _name, _, view, seed in ALL:
        kinds[best_move(view, Limit(iterations=20), seed=seed).bot] += 1
    # pimc: a contract choice without a kernel of its own is PIMC's
    assert kinds["forced"] and kinds["exact"] and kinds["ismcts"], kinds
    words = set()
    for _name, _, view, _ in ALL:
        world = solver.from_json(view).world(seed=0)
        words |= {_kind(world, a) for a in world.legal_actions()}
    for kind in ("card", "contract", "reveal", "bid", "discard", "trump", "keep", "block"):
        assert kind in words, sorted(words)


def test_the_hint_text_lists_the_advice_first_and_says_why(capsys, tmp_path):
    """The printed table starts with the advised action, and a row below it
    with a higher mean is explained in words (the search is made to leave
    such a row: many trees of a few iterations each)."""
    shown = 0
    for _name, _, view, seed in ALL:
        res = best_move(view, Limit(iterations=ITERATIONS), seed=seed)
        if res.bot != "ismcts" or not res.reasons:
            continue
        path = tmp_path / "view.json"
        path.write_text(json.dumps(view))
        assert main(["hint", str(path), "--iterations", str(ITERATIONS),
                     "--search-seed", str(seed)]) == 0
        out = capsys.readouterr().out
        rows = [line.split() for line in out.splitlines() if line.startswith("  ")
                and line.split() and line.split()[0] in res.ranking]
        assert rows[0][0] == res.action and rows[0][-1] == "advised"
        for a in res.reasons:
            assert f"({a} has a higher mean than {res.action}:" in out
        shown += 1
        if shown == 3:
            break
    assert shown, "no position left a higher mean below the advice"


def test_infinite_intervals_are_null_in_json(capsys, tmp_path):
    # a position whose search leaves some action unvisited: JSON has no inf
    name, _, view, seed = next(x for x in ALL if x[0] == "trix")
    out = _cli(capsys, tmp_path, view, seed)
    text = json.dumps(out)
    assert "Infinity" not in text and "NaN" not in text
    assert all(v is None or math.isfinite(v) for v in out.get("search", {}).get("ci95", {})
               .values())


def test_as_good_names_exactly_what_the_stated_test_cannot_separate(capsys, tmp_path):
    """"As good" is one test, stated once (``solver.search.advice.
    equal_test``) and shown with its numbers: an action is as good as the
    advice exactly when its difference from it is within that difference's
    95% interval (``diff_ci95``, the figure the hint prints beside the
    value) or under ``EQUAL_POINTS`` of the round scale, or it is the same
    card as the advice; the hint's words name exactly those."""
    from solver.search.advice import EQUAL_POINTS
    checked = named = 0
    for name, _, view, seed in ALL:
        res = best_move(view, Limit(iterations=ITERATIONS), seed=seed)
        if res.bot not in ("ismcts", "pimc"):
            continue
        scale = solver.load_game(name, **GAMES[name]).round_scale
        twins = next((m for m in res.same if res.action in m), (res.action,))
        mine = res.values[res.action]
        for a in res.ranking[1:]:
            if a in twins or res.values.get(a) is None:
                continue
            diff, half = abs(res.values[a] - mine), res.diff_ci95[a]
            separable = diff > half and diff > EQUAL_POINTS * scale
            assert (a in res.equal) == (not separable), (name, a, diff, half, res.equal)
            checked += 1
        if named < 2 and len(res.equal) > len(twins):
            path = tmp_path / "view.json"
            path.write_text(json.dumps(view))
            assert main(["hint", str(path), "--iterations", str(ITERATIONS),
                         "--search-seed", str(seed), "--json"]) == 0
            doc = json.loads(capsys.readouterr().out)
            search = doc["search"]
            assert search["diff_ci95"] == pytest.approx(
                {a: (None if not math.isfinite(h) else h) for a, h in res.diff_ci95.items()})
            assert "within its 95% interval" in search["equal_test"]
            others = [a for a in res.equal if a not in twins
                      and math.isfinite(res.ci95.get(a, math.inf))]
            assert f"As good as far as the search can tell: {', '.join(others)} " \
                   f"({search['equal_test']})." in doc["advice"]
            named += 1
    assert checked > 50 and named, (checked, named)
