"""The toy game of tests/toygame/, registered with its one line, served by
the front ends with no file outside its package touched: a table over the
HTTP API (a person and bots, played to the end, its deal summarised; a
table of bots alone), a hint through the command line and through the
HTTP API, and a review of the finished table (``bots/review.py``, and the
table's review route).  Its cards are shown as written (``solver/front.py``'s
defaults); its auction is declared by its package alone (``ToyFront`` in
tests/toygame/game.py, its words' French in tests/toygame/locale/fr.po):
its bids are worded as actions, listed in a "bids" panel of the table's
and the analysis board, under each seat, in a hint's facts (the command
line's and the HTTP API's) and in the deal's summary, in English and in
French."""

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
    # the four bids, then every card played in the log, with who played it,
    # the cards as written, the bids in the toy's words
    assert len(t["log"]) == 20 and {e["seat"] for e in t["log"]} == {0, 1, 2, 3}
    bids, cards = t["log"][:4], t["log"][4:]
    assert all(e["card"] for e in cards) and not any(e["card"] for e in bids)
    assert all(c["name"] == i for i, c in t["cards"].items()) and len(seen) >= 4
    assert [e["label"] for e in cards] == [e["action"] for e in cards]
    assert all(e["label"] == ("Bid nil" if e["action"] == "bid 0" else
                              f"Bid {e['action'][4:]}") for e in bids)
    # the summary: the points by the bids, and each seat's bid and tricks
    summary = t["summaries"][0]
    said = [int(e["action"][4:]) for e in sorted(bids, key=lambda e: e["seat"])]
    assert summary["bids"] == said and sum(summary["tricks"]) == 4
    rows = {r["id"]: r for r in summary["said"]["rows"]}
    assert rows["bids"]["values"] == said and rows["bids"]["label"] == "Bids"
    assert rows["tricks"]["values"] == summary["tricks"]
    spectator = client.get(f"/v1/tables/{t['table']}").json()
    assert spectator["spectator"] and spectator["over"] and spectator["summaries"]


def test_a_table_of_bots_alone_plays_through(client):
    t = client.post("/v1/tables", json={"game": NAME, "seed": 3, "seats": [],
                                         "bots": "easy"}).json()
    assert t["over"] and len(t["summaries"]) == 1 and len(t["log"]) == 20


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
    assert h["action"].startswith("bid ") and h["labels"]["bid 2"] == "Bid 2"
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
    assert all(d["played_label"] == d["played"] for d in doc["decisions"]
               if not d["played"].startswith("bid "))
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


def _bidding_table(client, lang: str):
    """A toy table at seat 1's bid (seat 0, a bot, has bid), in ``lang``."""
    t = client.post(f"/v1/tables?lang={lang}", json={"game": NAME, "seed": 2, "seats": [1],
                                                      "bots": "medium"})
    assert t.status_code == 201, t.text
    return t.json()


@pytest.mark.parametrize("lang,bids,seat1,nil,two,note", [
    ("en", "Bids", "You: no bid yet", "Bid nil", "Bid 2", "bid 2, took 0"),
    ("fr", "Enchères", "Vous : pas encore d'enchère", "Enchère nulle", "Enchérir à 2",
     "enchère 2, plis 0")])
def test_the_table_s_board_shows_the_bids(client, toy, lang, bids, seat1, nil, two, note):
    """The board of a table in the auction: the "bids" panel (seat 0's bid,
    seat 1's none yet), the bid under seat 0, the legal bids labelled, in
    English and in French (the toy's own catalogue)."""
    t = _bidding_table(client, lang)
    board = t["board"]
    panel = {p["id"]: p for p in board["panels"]}["bids"]
    assert panel["title"] == bids and panel["rows"][1]["text"] == seat1
    assert t["log"][0]["action"] == "bid 2" and t["log"][0]["seat"] == 0   # the seed's bot
    assert board["seat_notes"] == [note, "", "", ""]
    labels = {a["action"]: a["label"] for a in t["legal"]}
    assert labels["bid 0"] == nil and labels["bid 2"] == two and len(labels) == 5
    assert board["notes"] and all("{" not in n for n in board["notes"])


@pytest.mark.parametrize("lang,bids", [("en", "Bids"), ("fr", "Enchères")])
def test_a_hint_and_the_analysis_board_show_the_bids(client, toy, lang, bids):
    """``POST /v1/hint`` lists the bids made among the position's facts,
    and ``/v1/analysis/step`` draws the "bids" panel, in the asked language."""
    t = _bidding_table(client, lang)
    view = t["view"]
    h = client.post(f"/v1/hint?lang={lang}", json={"position": view,
                                                     "limit": {"iterations": 100}, "seed": 1})
    assert h.status_code == 200, h.text
    h = h.json()
    assert h["action"].startswith("bid ")
    assert any(f.startswith(bids) for f in h["facts"]), h["facts"]
    assert h["fact_codes"][-1]["code"] == "fact.seat_fact"
    step = client.post(f"/v1/analysis/step?lang={lang}", json={"position": view, "at": 1})
    assert step.status_code == 200, step.text
    panel = {p["id"]: p for p in step.json()["panels"]}["bids"]
    assert panel["title"] == bids and len(panel["rows"]) == 4
    # the toy's own fact, as it declares it, with no word for it in the
    # analysis board's modules
    assert step.json()["bids"] == [2, -1, -1, -1]


@pytest.mark.parametrize("lang,bids", [("en", "Bids: Across nil, Right 2"),
                                       ("fr", "Enchères : En face : nulle, Droite : 2")])
def test_a_hint_s_facts_say_a_nil_bid_as_the_panel_does(client, toy, lang, bids):
    """A bid of no trick is "nil" in a hint's facts, as on the panel and
    under the seats, by the toy's own front (``ToyFront.seat_fact_value``)
    and its own French: seat 2, to bid after a nil and a 2, in the
    command line's words and ``POST /v1/hint``'s; the fact's record
    carries the word, not the number."""
    from bots import advice
    state = toy.replay(["bid 0", "bid 2"], seed=1)
    view = position.SeatView.of(state, 2)
    if lang == "en":
        assert advice.describe(view)[-1] == "Bids: across nil, right 2"
        record = advice.facts_of(view)[-1].to_json()
        assert record["params"]["scores"][0]["params"]["value"] == \
            {"message": "nil", "context": None}
    h = client.post(f"/v1/hint?lang={lang}", json={"position": view.to_json(),
                                                     "limit": {"iterations": 50}, "seed": 1})
    assert h.status_code == 200, h.text
    assert h.json()["facts"][-1] == bids


def test_the_command_line_hint_shows_the_bids(toy, capsys):
    assert main(["hint", NAME, "--seed", "2", "--after", "2", "--iterations", "100"]) == 0
    out = capsys.readouterr().out
    assert "Bids: across " in out and ", right " in out
    assert main(["hint", NAME, "--seed", "2", "--after", "2", "--iterations", "100",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["action"].startswith("bid ") and doc["facts"][-1].startswith("Bids: ")


def test_its_french_is_its_own_and_whole(toy):
    """The toy's template holds every message its package marks (what
    ``python -m bots.server.extract --package tests.toygame`` writes), and
    its ``locale/fr.po`` words each with the same placeholders; the
    server's catalogue has none of the toy's own words (its French comes
    from its package)."""
    import pathlib
    import re

    from babel.messages.pofile import read_po

    from bots.server import extract, i18n
    locale = pathlib.Path(__file__).resolve().parents[1] / "toygame" / "locale"
    marked = {m for m, _ in extract.game_messages(PACKAGE)}
    with open(locale / "messages.pot", "rb") as fh:
        assert {m.id for m in read_po(fh) if m.id} == marked
    with open(locale / "fr.po", "rb") as fh:
        french = {m.id: m.string for m in read_po(fh, locale="fr") if m.id}
    assert set(french) == marked
    for message, words in french.items():
        assert words and set(re.findall(r"{\w+}", words)) == set(re.findall(r"{\w+}", message))
    assert i18n.sources("fr")[-1] == locale / "fr.po"
    with open(i18n.LOCALE / "fr.po", "rb") as fh:
        server = {m.id for m in read_po(fh, locale="fr")}
    assert "Bid nil" not in server and "Bids" in marked
