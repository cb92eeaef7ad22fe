"""Every word in the request's language (issue #41): the API's answers
that carry words, asked with ``lang=ar`` and ``lang=fr``, hold no English
word (``words_check``): the games and their options, every game's table
as a seat and as a spectator (the Trix layout too), the hints at a table
with their beliefs, a hint solved exactly, an evaluation, a solve, a
review and a table's review, and the server's own refusals.  A planted
English string (a translation taken out of the catalogue) is caught, so
the check is seen to act.  And the server words what the solver says
from its codes, never from its English (its message ids are the
phrases' templates), names seats from their numbers, builds a hint's
facts and advice once, and every option of every game has its words on
the form."""

from __future__ import annotations

import pytest

import solver
from bots import advice
from bots.server import i18n, words
from solver.said import PHRASES, Said
from solver.search import advice as search_advice
from solver.search.service import NOTE_BOUND

from .words_check import english_in_json, english_in_text


def auth(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from starlette.testclient import TestClient

    from bots.server.app import create_app
    from bots.server.settings import Settings
    db = str(tmp_path_factory.mktemp("words") / "tables.db")
    with TestClient(create_app(Settings(db=db, max_time=0.5, hint_time=0.1,
                                        max_iterations=400, threads=1))) as c:
        yield c


def _finished_dix_record() -> dict:
    """A dix (seventeen) record whose first round is over, the second begun."""
    state = solver.load_game("dix", variant="seventeen").new_initial_state(seed=2)
    while state.round_index() == 0:
        state.apply_action(state.legal_actions()[0])
    return solver.to_json(state)


def _late_dix_record() -> dict:
    """A dix record near its round's end: every card known, solved exactly."""
    state = solver.load_game("dix").new_initial_state(seed=2)
    for _ in range(48):
        state.apply_action(state.legal_actions()[0])
    return solver.to_json(state)


def _layout_table(client, lang: str) -> list:
    """A trix table of four people brought into the Trix layout: its views."""
    t = client.post("/v1/tables", params={"lang": lang},
                    json={"game": "trix", "seed": 4, "seats": [0, 1, 2, 3]}).json()
    tokens = {inv["seat"]: inv["token"] for inv in t["invitations"]}
    got = []
    for _ in range(40):
        seat = client.get(f"/v1/tables/{t['table']}").json()["to_move"]
        mine = client.get(f"/v1/tables/{t['table']}", params={"lang": lang},
                          headers=auth(tokens[seat])).json()
        legal = [a["action"] for a in mine["legal"]]
        action = "contract trix" if "contract trix" in legal else legal[0]
        r = client.post(f"/v1/tables/{t['table']}/actions", params={"lang": lang},
                        json={"action": action, "version": mine["version"]},
                        headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
        if sum(map(len, r.json()["board"].get("layout", {}).values())) >= 6:
            got.append(("layout view", r.json()))
            got.append(("layout spectator", client.get(f"/v1/tables/{t['table']}",
                                                       params={"lang": lang}).json()))
            break
    else:
        raise AssertionError("the layout was not reached")
    assert got[0][1]["board"]["layout"]
    return got


def answers(client, lang: str) -> list[tuple[str, object]]:
    """Every answer with words the words test reads, asked in ``lang``."""
    q = {"lang": lang}
    out: list = [("games", client.get("/v1/games", params=q).json())]
    for game, options in (("dix", {"variant": "seventeen"}), ("trix", {}), ("tricks", {}),
                          ("dixie-rook", {}), ("dix-exchange", {"players": 5})):
        t = client.post("/v1/tables", params=q, json={"game": game, "options": options,
                                                       "seed": 3, "seats": [0]})
        assert t.status_code == 201, t.text
        t = t.json()
        out.append((f"{game} created", t))
        token = t["invitations"][0]["token"]
        out.append((f"{game} spectator", client.get(f"/v1/tables/{t['table']}",
                                                     params=q).json()))
        h = client.post(f"/v1/tables/{t['table']}/hint", params=q, headers=auth(token),
                        json={"limit": {"iterations": 150}, "beliefs": True, "seed": 1})
        assert h.status_code == 200, h.text
        out.append((f"{game} hint", h.json()))
        e = client.post("/v1/evaluate", params=q,
                        json={"position": t["view"], "limit": {"worlds": 4}})
        assert e.status_code == 200, e.text
        out.append((f"{game} evaluate", e.json()))
        stale = client.post(f"/v1/tables/{t['table']}/actions", params=q, headers=auth(token),
                            json={"action": t["legal"][0]["action"],
                                  "version": t["version"] + 1})
        assert stale.status_code == 409
        out.append((f"{game} stale move", stale.json()))
    out += _layout_table(client, lang)
    late = _late_dix_record()
    for route, body in (("/v1/hint", {"position": late}),
                        ("/v1/solve", {"position": late, "line": 4}),
                        ("/v1/review", {"position": _finished_dix_record(), "deal": 1,
                                        "limit": {"iterations": 30}}),
                        # the analysis board: a step's values (searched and exact) and
                        # its drawing, the line opened, the engine's continuation
                        ("/v1/analysis/open", {"position": late}),
                        ("/v1/analysis/values", {"position": late, "at": len(late["actions"]),
                                                 "limit": {"iterations": 30}}),
                        ("/v1/analysis/step", {"position": late, "at": len(late["actions"])}),
                        ("/v1/analysis/line", {"position": late, "at": len(late["actions"]),
                                               "plies": 2})):
        r = client.post(route, params=q, json=body)
        assert r.status_code == 200, r.text
        out.append((route, r.json()))
    # a table's review: a finished round of dix seventeen, reviewed by its seat
    t = client.post("/v1/tables", params=q, json={"game": "dix", "seed": 5, "seats": [0],
                                                   "bots": "random",
                                                   "options": {"variant": "seventeen"}}).json()
    token = t["invitations"][0]["token"]
    for _ in range(60):
        if t["deal_scores"]:
            break
        t = client.post(f"/v1/tables/{t['table']}/actions", params=q, headers=auth(token),
                        json={"action": t["legal"][0]["action"],
                              "version": t["version"]}).json()
    out.append(("a finished round", t))
    r = client.post(f"/v1/tables/{t['table']}/review", params=q, headers=auth(token),
                    json={"limit": {"iterations": 30}})
    assert r.status_code == 200, r.text
    out.append(("table review", r.json()))
    # the server's own refusals
    for what, resp in (
            ("no token", client.post(f"/v1/tables/{t['table']}/actions", params=q,
                                     json={"action": "QS", "version": 0})),
            ("no table", client.get("/v1/tables/abcdefghijkl", params=q)),
            ("no route", client.get("/v1/nothing", params=q)),
            ("bad seed", client.post("/v1/tables", params=q, json={"game": "dix",
                                                                   "seed": -1})),
            ("unknown key", client.post("/v1/hint", params=q, json={"x": 1}))):
        assert 400 <= resp.status_code < 500
        out.append((what, resp.json()))
    return out


@pytest.mark.parametrize("lang", ["ar", "fr"])
def test_no_english_word_in_an_answer(client, lang):
    left = []
    for what, doc in answers(client, lang):
        for path, text, found in english_in_json(doc, lang):
            left.append(f"{what} {path}: {found} in {text[:160]!r}")
    assert not left, "\n".join(left[:40])


def test_a_planted_english_string_is_caught(client, monkeypatch):
    """The check acts: with a fact's translation taken out of the Arabic
    catalogue (and one French translation put back in English) the answers
    hold English, and the check finds it where it is."""
    t = client.post("/v1/tables", params={"lang": "ar"},
                    json={"game": "trix", "seed": 3, "seats": [0]}).json()
    assert not english_in_json(t, "ar")
    monkeypatch.delitem(i18n.catalogue("ar"), "Your hand: {hand}")
    t = client.post("/v1/tables", params={"lang": "ar"},
                    json={"game": "trix", "seed": 3, "seats": [0]}).json()
    found = english_in_json(t, "ar")
    assert [path for path, _, _ in found] == [".facts[0]"]
    assert found[0][2][:2] == ["Your", "hand"]
    monkeypatch.setitem(i18n.catalogue("fr"), "Players", "Players")
    games = client.get("/v1/games", params={"lang": "fr"}).json()
    assert [w for _, _, w in english_in_json(games, "fr")] == [["Players"], ["Players"]]
    # and in plain text, read as each language
    assert english_in_text("العب ورقة Play now", "ar") == ["Play", "now"]
    assert english_in_text("À jouer : Gauche, the deal", "fr") == ["the", "deal"]
    assert english_in_text("Valeur : 9S..AS, S:9S..AS, Trix, Dix (Fred Blundun)", "fr") == []


def test_the_server_words_what_the_solver_says_from_its_codes():
    """A reason, a note and the as-good test come as codes with their
    parameters (numbers as numbers), said in English by the solver and in
    French by the server from the same record, whose message id is the
    phrase's template: no sentence is parsed back (words.py has no
    regular expression)."""
    fr = i18n.Translator("fr")
    few = search_advice.REASON_FEW(visits=1234)
    assert few.to_json() == {"code": "search.few", "params": {"visits": 1234}}
    assert str(few) == ("searched too little (1,234) to be advised: its mean rests on a "
                        "few results")
    assert few.words(fr) == fr(search_advice.REASON_FEW.template, visits=1234) != str(few)
    assert "1,234" in few.words(fr)
    tie = search_advice.REASON_AS_GOOD(rule=search_advice.TIE_RULE())
    assert Said.from_json(tie.to_json()) == tie
    assert "égalités" in tie.words(fr)
    note = NOTE_BOUND(nodes=20_000)
    assert "nœuds" in note.words(fr) and "20,000" in str(note)
    assert "0.04" in words.equal_test(40, fr) and "intervalle" in words.equal_test(40, fr)
    # every phrase's template is a message id both catalogues translate
    for lang in ("fr", "ar"):
        missing = [p.code for p in PHRASES.values()
                   if p.plural is None and p.template not in i18n.catalogue(lang)]
        assert not missing, (lang, missing)
    import bots.server.words as module
    assert "import re" not in open(module.__file__).read()


@pytest.mark.parametrize("n, partnership", [(2, False), (3, False), (4, True), (4, False),
                                            (5, False), (6, True), (6, False)])
def test_seats_are_named_from_their_numbers(n, partnership):
    """Each seat's name comes from its number and the reader's seat: in
    English as the command line says them, in French the same relation
    (no English name is read back)."""
    en, fr = i18n.Translator("en"), i18n.Translator("fr")
    want = {"you": "You", "left": "Left", "right": "Right", "partner": "Partner",
            "across": "Across", "opponent": "Opponent"}
    for viewer in range(n):
        english = advice.seat_names(n, viewer, partnership)
        for seat in range(n):
            kind, k = advice.seat_relation(n, viewer, seat, partnership)
            said = words.seat_name(n, viewer, seat, partnership, en)
            if kind in want:
                assert english[seat] == kind and said == want[kind]
                assert words.seat_name(n, viewer, seat, partnership, fr) == fr(want[kind])
            else:
                assert str(seat + 1) in said and f"{k} to the left" in english[seat]
    assert words.seat_name(6, 0, 2, True, fr) == "Partenaire, place 3"


def test_a_hint_builds_its_facts_and_advice_once(client, monkeypatch):
    """``POST /v1/hint`` in French builds the position's facts and the line
    of advice once (``advice.facts_of``, ``advice.advice_of``), says them
    in English in the hint and words the same records in French."""
    calls = {"facts_of": 0, "advice_of": 0}
    for name in calls:
        real = getattr(advice, name)

        def counted(*args, _real=real, _name=name, **kw):
            calls[_name] += 1
            return _real(*args, **kw)
        monkeypatch.setattr(advice, name, counted)
    state = solver.load_game("trix").new_initial_state(seed=3)
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    view = solver.position.SeatView.of(state, state.current_player()).to_json()
    r = client.post("/v1/hint", params={"lang": "fr"},
                    json={"position": view, "limit": {"iterations": 100}})
    assert r.status_code == 200, r.text
    assert calls == {"facts_of": 1, "advice_of": 1}
    out = r.json()
    assert [c["code"] for c in out["fact_codes"]][:2] == ["fact.hand", "fact.contract_by"]
    assert out["facts"][0].startswith("Votre main")
    assert out["advice_codes"][0]["code"] in ("advice.play", "advice.do")
    assert not english_in_json(out, "fr")


@pytest.mark.parametrize("name", solver.registered_games())
def test_every_option_of_every_game_has_its_words(name):
    """A new option cannot reach the form as a raw name: each has a label
    and a line of help, each named choice its words."""
    game = solver.load_game(name)
    said = words.games(i18n.Translator("en"), {name: game})[name]
    assert said["description"] != game.description or not game.front.description
    declared = game.front.option_words
    for key, spec in game.options_spec.items():
        mine = declared.get(key)
        assert mine is not None, f"{name}: option {key} has no words on the form"
        label, doc, choices = mine
        assert label and doc and label != key
        assert said["options"][key]["label"] == label
        named = [c for c in (spec.choices or ()) if isinstance(c, str)]
        assert sorted(choices) == sorted(named), (name, key)
    # seat numbers a person reads are counted from 1
    text = " ".join(doc for _, doc, _ in declared.values())
    assert "0+2" not in text and "seats 0" not in text


def test_the_openapi_document_states_the_hint_s_codes(client):
    """The hint's response schema (``GET /v1/openapi.json``) names the
    records beside the words, and real hints -- searched and exact, with a
    note -- agree with it."""
    import jsonschema
    doc = client.get("/v1/openapi.json").json()
    schema = doc["paths"]["/v1/hint"]["post"]["responses"]["200"]["content"][
        "application/json"]["schema"]
    assert {"fact_codes", "advice_codes", "note_code"} <= set(schema["properties"])
    assert doc["paths"]["/v1/tables/{table_id}/hint"]["post"]["responses"]["200"] == \
        doc["paths"]["/v1/hint"]["post"]["responses"]["200"]
    check = jsonschema.Draft202012Validator({**schema, "components": doc["components"]})
    state = solver.load_game("trix").new_initial_state(seed=3)
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    view = solver.position.SeatView.of(state, state.current_player()).to_json()
    for body in ({"position": view, "limit": {"iterations": 100}},
                 {"position": _late_dix_record()}):
        out = client.post("/v1/hint", params={"lang": "ar"}, json=body).json()
        check.validate(out)
    bad = dict(out, advice_codes=[{"code": "advice.play"}])
    with pytest.raises(jsonschema.ValidationError):
        check.validate(bad)
