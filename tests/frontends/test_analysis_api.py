"""The analysis board's logic (bots/analysis.py) and routes
(bots/server/analysis.py): a record or a seat view opened as a line, values
at any step from the mover's view and, for a record, the exact values of
the true deal within a node budget (checked against the solver), cached per
step; variations checked action by action with the rules' reasons; the
suggested continuation; the stream of progress then the result; refusals
that name their path."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any, cast

import httpx
import pytest

import solver
from bots import analysis as boards
from bots.cli import main
from bots.exact import exact
from bots.server.analysis import _stream
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


def _dix_view(actions: int = 20, seed: int = 1) -> positions.SeatView:
    """Seat 1's view of a dix deal ``actions`` cards in (seat 0 leads
    trick 1: the board's step 0 is the other seat's)."""
    state = solver.load_game("dix").new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        state.apply_action(rng.choice(state.legal_actions()))
    return positions.SeatView.of(state, 1)


def test_a_seat_view_values_and_lists_moves_of_its_own_seat_only():
    """Issue #51: a seat view's board listed 13 "legal" cards for the other
    seat at step 0, the hand of the world it opened with (some never in
    the true hand). Another seat's moves are unknown: no ``legal``, no
    values, in the drawing as in the values."""
    view = _dix_view()
    board = boards.Board(view)
    others = [m.index for m in board.moves if m.seat != 1]
    own = [m.index for m in board.moves if m.seat == 1]
    assert others and own and others[0] == 0
    for at in others[:3]:
        out = boards.analyse(board, at, limit=Limit(iterations=50))
        assert out["seat"] == 0 and out["hidden"] is True, out
        assert "legal" not in out and out["search"] is None and out["exact"] is None
        drawn = boards.drawn(board, at)
        assert drawn["to_move"] == 0 and "legal" not in drawn
        assert drawn["seats"][0]["hand"] is None and drawn["seats"][0]["cards"] > 0
    at = own[0]
    mine = boards.analyse(board, at, limit=Limit(iterations=50))
    state = board.state_at(at)
    assert mine["hidden"] is False and mine["seat"] == 1
    assert mine["legal"] == [state.action_to_string(a) for a in state.legal_actions()]
    assert set(mine["search"]["ranking"]) == set(mine["legal"])


def test_the_issue_s_saved_view_lists_no_move_of_the_other_seat(tmp_path, capsys):
    """Issue #51's own reproduction: the view ``dixtrix hint dix --seed 1
    --after 20 --save-position view.json`` writes.  At every step where
    the other seat is to move its hand is a count and it has no legal list
    (the board once listed 13 cards for it, 3 never in its hand); at the
    view's own seat's steps the legal cards are all in that seat's hand."""
    path = tmp_path / "view.json"
    assert main(["hint", "dix", "--seed", "1", "--after", "20", "--time", "0.05",
                 "--save-position", str(path)]) == 0
    capsys.readouterr()
    doc = json.loads(path.read_text())
    assert doc["seat"] == 1 and len(doc["actions"]) == 20
    board = boards.Board.open(doc)
    assert board.kind == "view" and board.seat == 1
    for at in range(len(board.moves) + 1):
        drawn = boards.drawn(board, at)
        mover = drawn["to_move"]
        if mover == 1:
            assert {a["action"] for a in drawn["legal"]} <= set(drawn["seats"][1]["hand"])
            continue
        assert "legal" not in drawn and drawn["seats"][0]["hand"] is None
        assert drawn["seats"][0]["cards"] > 0
        out = boards.analyse(board, at, limit=Limit(iterations=20))
        assert out["hidden"] is True and "legal" not in out and out["search"] is None


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


def test_the_values_route_gives_no_moves_for_a_seat_a_view_cannot_see(server):
    view = positions.to_json(_dix_view())
    with httpx.Client(base_url=server.url, timeout=60) as http:
        r = http.post("/v1/analysis/values", json={"position": view, "at": 0,
                                                   "limit": {"iterations": 50}})
        assert r.status_code == 200, r.text
        doc = r.json()
        assert doc["seat"] == 0 and doc["hidden"] is True and "legal" not in doc
        assert doc["search"] is None and doc["labels"] == {}
        with http.stream("POST", "/v1/analysis/values",
                         json={"position": view, "at": 0, "stream": True}) as resp:
            lines = [json.loads(x) for x in resp.iter_lines() if x]
        assert "legal" not in lines[-1]["result"] and lines[-1]["result"]["hidden"]
        step = http.post("/v1/analysis/step", json={"position": view, "at": 0}).json()
        assert "legal" not in step and step["seats"][0]["hand"] is None


def test_a_set_up_refusal_comes_as_data_under_the_position(server):
    """Issue #51: the set-up's refusals in the player's words are worded by
    the page from ``code`` and ``data`` (docs/positions.md), their paths
    in the body's terms: a card given to two seats is a duplicate (not the
    longer hand's size), a short hand its seat's size."""
    hands = ["AS KS QS JS TS 9S 8S 7S 6S 5S 4S AH 7H",
             "3S 2S KH QH JH TH 9H 8H 6H 5H 4H 3H 2H",
             "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
             "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"]

    def opened(given):
        doc = {"game": "trix", "deal": {"first_owner": 0, "deals": [given]}, "actions": []}
        return http.post("/v1/analysis/open", json={"position": doc})

    with httpx.Client(base_url=server.url, timeout=60) as http:
        r = opened([hands[0], hands[1], hands[2] + " QS", hands[3]])
        assert r.status_code == 422 and r.json()["code"] == "duplicate_card", r.text
        assert r.json()["data"] == {"card": "QS", "also": "position.deal.deals[0][0][2]",
                                    "paths": ["position.deal.deals[0][0][2]",
                                              "position.deal.deals[0][2][13]"]}
        r = opened([hands[0], hands[1], hands[2] + " 3C", hands[3].replace(" 3C", "")])
        assert r.status_code == 422 and r.json()["path"] == "position.deal.deals[0][2]"
        assert r.json()["code"] == "hand_size" and r.json()["data"] == {
            "seat": 2, "want": 13, "got": 14}
        # the same refusal of a position elsewhere (a hint) carries it too
        r = http.post("/v1/hint", json={"position": {
            "game": "trix", "deal": {"first_owner": 0, "deals": [
                [hands[0], hands[1], hands[2] + " QS", hands[3]]]}, "actions": []}})
        assert r.status_code == 422 and r.json()["code"] == "duplicate_card"


# ---- what lies on the table at a step (POST /v1/analysis/step) ------------


def _trix_layout_record(cards: int = 30):
    """A trix record whose first deal is the layout (Trix), ``cards`` laid."""
    state = solver.load_game("trix").new_initial_state(seed=11)
    rng = random.Random(4)
    state.apply_action(state.string_to_action("contract trix"))
    laid = 0
    while laid < cards and not state.is_terminal():
        action = rng.choice(state.legal_actions())
        laid += state.game.is_card(action)
        state.apply_action(action)
    return state


def test_the_layout_rows_are_read_as_the_game_writes_them():
    TRIX = solver.load_game("trix")
    assert boards.layout_rows(TRIX, "S:9S..AS H:JH D:- C:TC..AC") == {
        "S": list("9TJQKA"), "H": ["J"], "D": [], "C": list("TJQKA")}
    # one reader of the notation (the game's own, beside Layout.text): a
    # part of another form is refused, not drawn as something else
    with pytest.raises(ValueError, match="junk"):
        boards.layout_rows(TRIX, "S:TS..QS junk")
    assert boards.layout_rows(TRIX, None) == {}
    # a game that lays out no rows (its front declares none) refuses one
    with pytest.raises(ValueError, match="lays out no rows"):
        boards.layout_rows(solver.load_game("dix"), "S:TS..QS")
    state = _trix_layout_record()
    board = boards.Board.open(positions.to_json(state))
    drawn = boards.drawn(board, len(board.actions))
    text = state.information_state(0).known["layout"]
    rows = drawn["layout"]
    assert sum(len(r) for r in rows.values()) == 30 and text.count("..") >= 1
    for suit, ranks in rows.items():
        for r in ranks:                   # every card drawn in a row was laid by someone
            assert f"{r}{suit}" in [m.action for m in board.moves]


def test_a_step_is_drawn_from_a_seat_or_with_every_hand():
    state = _trix()
    board = boards.Board.open(positions.to_json(state))
    lead = next(m.index for m in board.moves if m.trick == 9)
    at = lead + 1                                    # one card into trick 9
    true = board.state_at(at)
    every = boards.drawn(board, at, show="all")
    assert [s["hand"] for s in every["seats"]] == [
        true.information_state(s).known["hand"].split() for s in range(4)]
    assert every["to_move"] == true.current_player() and every["trick"][0]["card"] == \
        board.moves[at - 1].action
    one = boards.drawn(board, at, show=2)
    assert [s["hand"] is not None for s in one["seats"]] == [False, False, True, False]
    assert [s["cards"] for s in one["seats"]] == [s["cards"] for s in every["seats"]]
    between = boards.drawn(board, lead)                # a trick just taken: it stays drawn
    assert between["trick"] == [] and len(between["last_trick"]["cards"]) == 4
    legal = [true.action_to_string(a) for a in true.legal_actions()]
    what_if = boards.drawn(board, at, [legal[-1]])
    assert what_if["trick"][-1]["card"] == legal[-1] and what_if["variation"] == [legal[-1]]
    view = boards.Board(positions.SeatView.of(true, 1))
    mine = boards.drawn(view, at)
    assert mine["show"] == 1 and [s["hand"] is not None for s in mine["seats"]] == [
        False, True, False, False]
    with pytest.raises(solver.errors.PositionError, match="seat 1's view"):
        boards.drawn(view, at, show="all")


def test_a_step_carries_every_fact_the_game_declares():
    """A drawing carries, as the game gives them, the facts the game
    declares (solver/facts.py's widget facts and its ``Game.facts``) that
    the shown seat knows, but the hands (drawn seat by seat) and the trick
    and layout (drawn in their own form): a game's own fact reaches the
    board with no word in bots/analysis.py, as the toy's ``bids`` and
    dixie-rook's ``hand_no``.  The contract in play is worded from what the
    game's front reads (``Front.contract_in_play``: none by default)."""
    from solver.facts import declared
    from solver.front import Front

    from .test_game_fronts import _the_toy

    with _the_toy():
        for name in ("dixie-rook", "toy", "trix", "dix-exchange"):
            state = _random_play(name, 40)
            board = boards.Board(positions.Record.of(state))
            for show in ("all", 1):
                doc = boards.drawn(board, len(board.actions), show=show)
                known = doc["known"]
                own = {"hand", "card", "opponent_hand", "trick", "leader", "layout"}
                copied = {k for k in declared(board.game)
                          if k not in own and known.get(k) not in (None, "")}
                assert copied and all(doc[k] == known[k] for k in copied), (name, show)
                assert not own & (set(doc) - {"trick", "leader", "layout"})
        toy = boards.Board(positions.Record.of(_random_play("toy", 2)))
        assert boards.drawn(toy, 2)["bids"][:2] == boards.drawn(toy, 2)["known"]["bids"][:2]
    assert Front(solver.load_game("dix")).contract_in_play({"contract": "trix"}) is None
    trix = solver.load_game("trix").front
    assert trix.contract_in_play({"contract": "queens"}) == "queens"
    assert trix.contract_in_play({"contract": None}) is None


def _random_play(name: str, actions: int, seed: int = 3):
    state = solver.load_game(name).new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_the_step_route_draws_in_words_and_refuses_by_path(server):
    record = positions.to_json(_trix_layout_record())
    n = len(record["actions"])
    with httpx.Client(base_url=server.url, timeout=60) as http:
        r = http.post("/v1/analysis/step?lang=ar", json={"position": record, "at": n})
        assert r.status_code == 200, r.text
        doc = r.json()
        assert doc["names"] == ["المقعد 1", "المقعد 2", "المقعد 3", "المقعد 4"]
        assert doc["contract"] == "trix" and doc["contract_label"] != "Trix"
        assert sum(len(v) for v in doc["layout"].values()) == 30
        assert all(c in doc["cards"] for s in doc["seats"] for c in s["hand"])
        r = http.post("/v1/analysis/step", json={"position": record, "at": 3, "show": 2})
        doc = r.json()
        assert r.status_code == 200 and doc["names"][2] == "You" and doc["names"][0] == "Across"
        assert [s["hand"] is not None for s in doc["seats"]] == [False, False, True, False]
        for body, path in (({"at": n + 1}, "at"), ({"at": 1, "variation": ["ZZ"]},
                                                    "variation[0]"),
                           ({"at": 1, "show": 7}, "show"), ({"at": 1, "show": "none"}, "show")):
            bad = http.post("/v1/analysis/step", json={"position": record, **body})
            assert bad.status_code == 422 and bad.json()["path"] == path, (body, bad.text)
        view = positions.to_json(positions.SeatView.of(_trix(), 3))
        bad = http.post("/v1/analysis/step", json={"position": view, "at": 2, "show": "all"})
        assert bad.status_code == 422 and bad.json()["path"] == "show"
        opened = http.post("/v1/analysis/open?lang=fr", json={"position": record}).json()
        assert opened["names"][0] == "Place 1"
        hands = opened["deal"]["deals"][0]            # the first deal, every card explicit
        assert len(hands) == 4 and all(len(h.split()) == 13 for h in hands)


def test_every_word_of_the_board_page_is_translated():
    """Every ``t("...")`` of the board's scripts (static/analysis.js and the
    pages' shared common.js, as analysis.html loads them) and ``data-t`` of
    analysis.html has an Arabic and a French translation, found by a plain
    search of the files (Babel's extractor skips a call inside a template
    literal, which test_server_i18n.py would then not see)."""
    import re
    from pathlib import Path

    from bots.server import i18n
    static = Path(i18n.__file__).parent / "static"
    page = (static / "analysis.html").read_text(encoding="utf-8")
    scripts = re.findall(r'<script src="/static/([\w.]+)"', page)
    assert scripts == ["words.js", "common.js", "analysis.js"]
    js = "\n".join((static / name).read_text(encoding="utf-8") for name in scripts)
    ids = {json.loads(f'"{m}"') for m in re.findall(r'\bt\("((?:[^"\\]|\\.)*)"', js)}
    ids |= set(re.findall(r'data-t="([^"]*)"', page))
    assert len(ids) > 60
    for lang in ("ar", "fr"):
        assert not sorted(ids - set(i18n.catalogue(lang))), lang


def test_each_kind_of_exact_value_is_offered_asked_and_named(server):
    """Issue #51: "+50 best, exact" beside "Searched +130" said nothing of
    what the exact value assumed.  The board offers each kind the solver
    has for the game (solver/dd/solve.py ``ASKED_KINDS``: paranoid and
    max^n where the seats play each for itself; minimax where two sides
    do), the values and the engine's line answer the kind asked, and every
    exact value names its kind, in words in the reader's language."""
    trix = boards.Board.open(positions.to_json(_trix()))
    assert trix.kinds() == ["paranoid", "maxn"]
    assert boards.Board(_dix_view()).kinds() == ["minimax"]
    own = boards.analyse(trix, 44, limit=Limit(iterations=50))
    maxn = boards.analyse(trix, 44, limit=Limit(iterations=50), kind="maxn")
    assert own["exact"]["kind"] == "paranoid" and maxn["exact"]["kind"] == "maxn"
    assert not maxn["cached"]                        # the kind is part of the cache's key
    state = trix.state_at(44)
    assert maxn["exact"]["values"] == exact(state, kind="maxn").values
    with pytest.raises(solver.errors.OptionError):
        boards.analyse(trix, 44, kind="best")
    record = positions.to_json(_trix())
    with httpx.Client(base_url=server.url, timeout=60) as http:
        opened = http.post("/v1/analysis/open?lang=fr", json={"position": record}).json()
        assert [k["kind"] for k in opened["kinds"]] == ["paranoid", "maxn"]
        assert opened["kinds"][0]["label"] == "paranoïaque"
        body = {"position": record, "at": 44, "limit": {"iterations": 50}, "kind": "maxn"}
        r = http.post("/v1/analysis/values?lang=fr", json=body)
        assert r.status_code == 200, r.text
        said = r.json()["exact"]["kind_words"]
        assert said["kind"] == "maxn" and said["words"].startswith("max^n : chaque siège")
        r = http.post("/v1/analysis/values", json={**body, "kind": "best"})
        assert r.status_code == 422 and r.json()["path"] == "kind"
        r = http.post("/v1/analysis/line", json={"position": record, "at": 44, "plies": 2,
                                                 "kind": "maxn"})
        assert [s["kind"] for s in r.json()["line"]] == ["maxn", "maxn"]
        assert r.json()["line"][0]["kind_words"]["label"] == "max^n"
        dix = positions.to_json(solver.load_game("dix").new_initial_state(seed=2))
        opened = http.post("/v1/analysis/open?lang=ar", json={"position": dix}).json()
        assert opened["kinds"] == [{"kind": "minimax", "label": "ميني ماكس",
                                    "words": "ميني ماكس: كل مقعد يلعب ضد الآخر"}]


def test_a_stream_cut_off_leaves_no_task_pending():
    """Issue #51: the server's log said "Task was destroyed but it is
    pending!": a values stream whose client went away while it waited for
    the next progress line was cancelled there, and the task reading that
    line stayed pending for good until the garbage collector dropped it.
    Cut off at that wait, the stream now leaves no task behind."""
    class Pool:                    # a search that reports once and never ends
        async def run(self, work, progress, disconnected):
            progress({"iterations": 1})
            await asyncio.Event().wait()

    class Request:
        async def is_disconnected(self):
            return False

    async def cut_off() -> list:
        lines = aiter(_stream(Pool(), None, cast(Any, Request())).body_iterator)
        assert "progress" in str(await anext(lines))
        reader = asyncio.ensure_future(anext(lines))
        await asyncio.sleep(0.05)              # the stream waits for its next line
        reader.cancel()                        # as a client gone away cancels it
        with pytest.raises(asyncio.CancelledError):
            await reader
        for _ in range(3):                     # the cancelled tasks end
            await asyncio.sleep(0)
        return [repr(t) for t in asyncio.all_tasks() if t is not asyncio.current_task()]

    assert asyncio.run(cut_off()) == []
