"""The lobby, the rematch and absent seats (issue #51, "At the table"):
``GET /v1/tables`` lists the public tables with an open seat (never a
private one), a person joins an open seat from it; a finished match goes
on at a rematch with the same people and bots and the next seed; a host
hands a person's seat to a bot, a person's turn that runs out is played
by a bot (judged by ``Tables.clock``, injected here: no sleeping), and the
person takes the seat back.  Also a move for a version the table has
never reached is said as such, not as the table having moved on.

The app runs in process (Starlette's test client), as in
``test_server_tables.py``, whose helpers these tests share."""

from __future__ import annotations

import time

import pytest

import solver
from bots import levels

from .test_server_tables import act, app, auth, new_table, play_on, refused, view

__all__ = ["app"]                        # the fixture, shared with test_server_tables.py

DIX = {"game": "dix", "options": {"variant": "seventeen", "target": 1}}


def lobby(client) -> dict:
    resp = client.get("/v1/tables")
    assert resp.status_code == 200, resp.text
    return {e["table"]: e for e in resp.json()["tables"]}


def tables_of(client):
    return client.app_.state.context.tables


# ---- the lobby ------------------------------------------------------------------------


def test_the_lobby_lists_public_tables_with_an_open_seat_and_never_a_private_one(app):
    assert lobby(app) == {}                     # it answered 405 before
    private = new_table(app, game="trix", seats=[0, 2], bots="easy")
    public = new_table(app, game="trix", seats=[0, 2], bots={"1": "easy", "3": "rules"},
                       seed=7, public=True, away=60)
    # a public table's creator gets only their own seat: the other is open
    assert [i["seat"] for i in public["invitations"]] == [0]
    assert public["public"] and public["open"] == [2] and not private["open"]
    listed = lobby(app)
    assert list(listed) == [public["table"]]
    entry = listed[public["table"]]
    assert entry["game"] == "trix" and entry["title"] == "Trix" and entry["players"] == 4
    assert entry["open"] == [2] and entry["persons"] == [0, 2]
    easy = levels.level_settings("easy", solver.load_game("trix"))
    assert entry["bots"] == {"1": {"bot": easy, "level": "easy"},
                             "3": {"bot": "rules", "level": None}}
    assert entry["seeded"] and entry["seed"] == 7 and entry["away"] == 60
    assert entry["created"] <= time.time() and entry["age"] >= 0
    assert "options" in entry
    # a private table: reached only by its invitations, never joined
    refused(app.post(f"/v1/tables/{private['table']}/join", json={}), 403, None, "private")
    # joining takes the open seat: its own token and link, the seat no longer open
    joined = app.post(f"/v1/tables/{public['table']}/join", json={})
    assert joined.status_code == 200, joined.text
    mine = joined.json()
    assert mine["seat"] == 2 and len(mine["token"]) == 32 and "#token=" in mine["link"]
    assert mine["open"] == [] and not mine["spectator"]
    assert lobby(app) == {}                     # no open seat left
    again = app.get(f"/v1/tables/{public['table']}", headers=auth(mine["token"]))
    assert again.status_code == 200 and again.json()["seat"] == 2
    refused(app.post(f"/v1/tables/{public['table']}/join", json={}), 409, None, "no open seat")


def test_joining_a_seat_that_is_not_open_is_refused(app):
    t = new_table(app, game="trix", seats=[0, 1, 2], bots="easy", public=True)
    assert t["open"] == [1, 2]
    refused(app.post(f"/v1/tables/{t['table']}/join", json={"seat": 0}), 409, "seat", "open")
    refused(app.post(f"/v1/tables/{t['table']}/join", json={"seat": 3}), 409, "seat")
    refused(app.post(f"/v1/tables/{t['table']}/join", json={"seat": "2"}), 422, "seat")
    got = app.post(f"/v1/tables/{t['table']}/join", json={"seat": 2}).json()
    assert got["seat"] == 2 and lobby(app)[t["table"]]["open"] == [1]
    refused(app.post("/v1/tables", json={**DIX, "public": "yes"}), 422, "public")
    for away in (5, 86401, "60"):
        refused(app.post("/v1/tables", json={**DIX, "away": away}), 422, "away")


# ---- the rematch ----------------------------------------------------------------------


def test_a_rematch_seats_the_same_people_and_bots_with_the_next_seed(app):
    t = new_table(app, game="dixie-rook", options={"target": 1}, seats=[0, 2],
                  bots={"1": "easy", "3": "random"}, seed=41)
    tokens = t["tokens"]
    refused(app.post(f"/v1/tables/{t['table']}/rematch", headers=auth(tokens[0])), 409, None,
            "not over")
    refused(app.post(f"/v1/tables/{t['table']}/rematch"), 401)
    refused(app.post(f"/v1/tables/{t['table']}/rematch", headers=auth("x" * 32)), 403)
    over = play_on(app, t, lambda v: v["over"], tokens)
    assert over["over"] and over["rematch"] is None
    first = app.post(f"/v1/tables/{t['table']}/rematch", headers=auth(tokens[2]))
    assert first.status_code == 201, first.text
    new = first.json()
    assert first.headers["Location"] == f"/v1/tables/{new['table']}" and new["created"]
    assert new["table"] != t["table"] and new["seat"] == 2
    assert new["seed"] == 42 and new["game"] == "dixie-rook"
    assert new["options"] == over["options"]
    assert new["persons"] == [0, 2] and new["bots"] == over["bots"]
    assert new["levels"] == over["levels"] == {"1": "easy"}
    # the other person asks too: the same table, where their own token is their seat
    second = app.post(f"/v1/tables/{t['table']}/rematch", headers=auth(tokens[0]))
    assert second.status_code == 200 and second.json()["table"] == new["table"]
    assert not second.json()["created"] and second.json()["seat"] == 0
    assert view(app, t, 0)["rematch"] == new["table"]          # the old table points to it
    mine = app.get(f"/v1/tables/{new['table']}", headers=auth(tokens[0])).json()
    assert mine["seat"] == 0 and mine["hand"]
    admin = app.post(f"/v1/tables/{t['table']}/rematch", headers=auth(t["admin_token"]))
    assert admin.status_code == 200 and admin.json()["spectator"]
    assert app.delete(f"/v1/tables/{new['table']}",
                      headers=auth(t["admin_token"])).status_code == 204


def test_an_unseeded_table_rematches_with_a_fresh_secret_seed(app):
    t = new_table(app, **DIX, bots="random")
    over = play_on(app, t, lambda v: v["over"], t["tokens"])
    new = app.post(f"/v1/tables/{over['table']}/rematch", headers=auth(t["tokens"][0])).json()
    assert not new["seeded"] and "seed" not in new and new["version"] >= 0


# ---- absent seats -----------------------------------------------------------------------


def test_a_person_whose_turn_runs_out_is_played_by_a_bot_until_they_take_the_seat_back(app):
    t = new_table(app, game="trix", seats=[0, 2], bots="random", seed=5, away=30)
    tokens = t["tokens"]
    tables = tables_of(app)
    now = time.time()
    tables.clock = lambda: now
    seen = view(app, t, 0)
    mover = seen["to_move"]
    assert seen["seats"][mover]["kind"] == "person" and not seen["seats"][mover]["away"]
    assert seen["away"] == 30 and 0 < seen["turn_left"] <= 30
    version = seen["version"]
    tables.clock = lambda: now + 29             # not yet: nothing happens
    assert view(app, t, 0)["version"] == version
    tables.clock = lambda: now + 31             # the turn ran out: a bot plays the seat
    after = view(app, t, 0)
    assert after["seats"][mover]["away"] and after["seats"][mover]["standin"] == "rules"
    assert after["version"] > version
    # the seat's own token takes it back; another's cannot
    other = 2 if mover == 0 else 0
    refused(app.post(f"/v1/tables/{t['table']}/seats/{mover}", json={"away": False},
                     headers=auth(tokens[other])), 403, "seat")
    refused(app.post(f"/v1/tables/{t['table']}/seats/{mover}", json={"away": False},
                     headers=auth(t["admin_token"])), 403, "seat")
    back = app.post(f"/v1/tables/{t['table']}/seats/{mover}", json={"away": False},
                    headers=auth(tokens[mover]))
    assert back.status_code == 200, back.text
    assert not back.json()["seats"][mover]["away"] and back.json()["seat"] == mover
    # the clock starts again when the seat is taken back
    seen = view(app, t, mover)
    if seen["your_turn"]:
        assert seen["turn_left"] == pytest.approx(30, abs=1)


def test_the_host_hands_a_seat_to_a_bot(app):
    t = new_table(app, game="trix", seats=[0, 2], bots="random", seed=9)
    tokens, table = t["tokens"], t["table"]
    assert t["away"] == 300                          # the default: nobody waits for ever
    refused(app.post(f"/v1/tables/{table}/seats/2", json={"away": True}), 401)
    refused(app.post(f"/v1/tables/{table}/seats/2", json={"away": True},
                     headers=auth(tokens[0])), 403, "seat")
    refused(app.post(f"/v1/tables/{table}/seats/1", json={"away": True},
                     headers=auth(t["admin_token"])), 422, "seat")      # a bot's seat
    refused(app.post(f"/v1/tables/{table}/seats/2", json={"away": True, "bot": "cheat"},
                     headers=auth(t["admin_token"])), 422, "bot")
    refused(app.post(f"/v1/tables/{table}/seats/x", json={"away": True},
                     headers=auth(t["admin_token"])), 422, "seat")
    # a person hands their own seat over, and takes it back; seat 2 is still
    # a person's here, so the bots stop at its turn (with both seats away the
    # bots could end the whole match inside one request on a fast machine,
    # and a finished match refuses the take-back)
    assert app.post(f"/v1/tables/{table}/seats/0", json={"away": True},
                    headers=auth(tokens[0])).json()["seats"][0]["away"]
    back = app.post(f"/v1/tables/{table}/seats/0", json={"away": False},
                    headers=auth(tokens[0]))
    assert back.status_code == 200, back.text
    assert not back.json()["seats"][0]["away"]
    got = app.post(f"/v1/tables/{table}/seats/2", json={"away": True, "bot": "easy"},
                   headers=auth(t["admin_token"]))
    assert got.status_code == 200, got.text
    seat = got.json()["seats"][2]
    easy = levels.level_settings("easy", solver.load_game("trix"))
    assert seat["away"] and seat["standin"] == easy and got.json()["spectator"]
    # seat 0 plays on alone: seat 2's turns are the bot's
    over = play_on(app, t, lambda v: v["deal_scores"], {0: tokens[0]})
    assert over["deal_scores"]


def test_an_open_seat_of_a_public_table_is_played_by_a_bot_until_someone_joins(app):
    t = new_table(app, game="trix", seats=[0, 1], bots="random", seed=3, public=True, away=10)
    tables = tables_of(app)
    seen = view(app, t, 0)
    while not seen["over"] and seen["to_move"] != 1:
        seen = play_on(app, t, lambda v: v["to_move"] == 1 or v["over"], t["tokens"])
    base = time.time()
    tables.clock = lambda: base + 11
    covered = app.get(f"/v1/tables/{t['table']}").json()
    assert covered["seats"][1]["away"] and covered["seats"][1]["open"]
    assert t["table"] in lobby(app)                  # still open: a joiner takes it back
    joined = app.post(f"/v1/tables/{t['table']}/join", json={}).json()
    assert joined["seat"] == 1 and not joined["seats"][1]["away"]
    assert not joined["seats"][1]["open"]


# ---- the words of a stale version ------------------------------------------------------------


def test_a_version_the_table_never_reached_is_not_said_to_have_moved_on(app):
    t = new_table(app, **DIX, seed=3, bots="random")
    now = view(app, t, 0)["version"]
    ahead = refused(act(app, t, t["legal"][0]["action"], version=999), 409, "version")
    assert ahead["version"] == now
    assert "moved on" not in ahead["error"] and "never reached version 999" in ahead["error"]
    fr = app.post(f"/v1/tables/{t['table']}/actions", params={"lang": "fr"},
                  json={"action": t["legal"][0]["action"], "version": 999},
                  headers=auth(t["tokens"][0])).json()
    assert "999" in fr["error"] and "never" not in fr["error"]
    assert act(app, t, t["legal"][0]["action"], version=now).status_code == 200
    behind = refused(act(app, t, t["legal"][0]["action"], version=now), 409, "version")
    assert "moved on since you looked" in behind["error"]
