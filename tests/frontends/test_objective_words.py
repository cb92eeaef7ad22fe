"""What an exact solve's value measures travels as a code (solver/said.py):
``Solution.objective_said`` beside the English ``objective``, which stays
as the command line prints it; a solve's JSON carries the code as
``objective_code`` (bots/exact.py) and the server words ``objective`` in
the request's language from it (bots/server/words.py ``solution``), the
contract by the game's own title, the kind of value in words.  One game
kind each: a trick contract (each seat, the team, max^n), the layout,
dix, dixie-rook and dix-exchange."""

from __future__ import annotations

import pytest

import solver
from bots.exact import solve_doc
from bots.server import words
from bots.server.i18n import Translator
from solver.errors import DixtrixError
from solver.games.contract_match.exact import maxn_tried

from .words_check import english_in_text


def _late(name: str, options: dict, prefer: str | None = None):
    """The first state of a seeded game (the first legal action each ply,
    ``prefer`` where it is legal) that an exact solve of at most 20,000
    nodes finishes, and its solve (``solve_doc``)."""
    state = solver.load_game(name, **options).new_initial_state(seed=3)
    while not state.is_terminal():
        legal = [state.action_to_string(a) for a in state.legal_actions()]
        state.apply_action(state.string_to_action(prefer if prefer in legal else legal[0]))
        try:
            return state, solve_doc(state, plies=0, max_nodes=20_000)
        except DixtrixError:
            continue
    raise AssertionError(f"no {name} position was solved")


#: (game, options, preferred action, the English objective, its code, in French)
KINDS = [
    ("trix", {}, None, "king: the seat's deal score (paranoid)", "objective.deal_seat",
     "Roi de cœur : le score de la donne de la place (paranoïaque)"),
    ("trix", {"partners": True}, None, "king: the team's deal score (team minimax)",
     "objective.deal_team", "Roi de cœur : le score de la donne de l'équipe (minimax d'équipe)"),
    ("trix", {}, "contract trix", "layout: the seat's finishing points (paranoid)",
     "objective.layout_seat", "Trix : les points d'arrivée de la place (paranoïaque)"),
    ("dix", {}, None, "dix round score difference", "objective.dix",
     "Dix : différence des scores de la manche"),
    ("dixie-rook", {}, None,
     "dixie-rook: the team's captured points (count, nest, most tricks)",
     "objective.dixie_rook",
     "Dixie Rook : les points pris par l'équipe (points des cartes, nid, plus de plis)"),
    ("dix-exchange", {"players": 4}, None,
     "dix-exchange: tokens won (-lost) this round (paranoid)", "objective.dix_exchange",
     "DIX : jetons gagnés (-perdus) dans cette manche (paranoïaque)"),
]


@pytest.mark.parametrize("name,options,prefer,english,code,french", KINDS,
                         ids=[f"{k[0]}-{k[4]}" for k in KINDS])
def test_the_objective_is_a_code_worded_in_the_reader_s_language(name, options, prefer,
                                                                  english, code, french):
    state, doc = _late(name, options, prefer)
    assert doc["objective"] == english            # the command line's English, as it was
    assert doc["objective_code"]["code"] == code
    fr = words.solution(dict(doc), state.game, Translator("fr"))
    assert fr["objective"] == french and fr["objective_code"] == doc["objective_code"]
    assert not english_in_text(french, "fr")
    ar = words.solution(dict(doc), state.game, Translator("ar"))
    assert ar["objective"] != english and not english_in_text(ar["objective"], "ar")


def test_the_max_n_objective_names_its_seat_from_its_number():
    state, _ = _late("trix", {})
    while not maxn_tried(state):        # max^n is tried late in the deal only
        state.apply_action(state.legal_actions()[0])
    doc = solve_doc(state, plies=0, kind="maxn")
    assert doc["kind"] == "maxn"
    seat = doc["objective_code"]["params"]["seat"]["seat"]
    assert doc["objective"] == ("king: each seat's deal score (max^n: every seat for its own, "
                                f"ties against seat {seat})")
    fr = words.solution(dict(doc), state.game, Translator("fr"))
    assert fr["objective"] == ("Roi de cœur : le score de la donne de chaque place (max^n : "
                               f"chaque place pour elle-même, égalités contre Place {seat + 1})")


def test_a_french_solve_over_http_words_its_objective(tmp_path):
    """POST /v1/solve in French: the objective in French with its code;
    in English the same code, worded by its English template."""
    from starlette.testclient import TestClient

    from bots.server.app import create_app
    from bots.server.settings import Settings
    state, _ = _late("trix", {})
    body = {"position": solver.to_json(state), "line": 0}
    with TestClient(create_app(Settings(db=str(tmp_path / "t.db")))) as client:
        fr = client.post("/v1/solve", json=body, params={"lang": "fr"}).json()
        en = client.post("/v1/solve", json=body).json()
    assert fr["objective"] == "Roi de cœur : le score de la donne de la place (paranoïaque)"
    assert fr["objective_code"]["code"] == "objective.deal_seat"
    assert fr["objective_code"] == en["objective_code"]
    assert en["objective"] == "King of Hearts: the seat's deal score (paranoid)"
