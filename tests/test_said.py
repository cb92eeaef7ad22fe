"""What the solver says travels as codes with parameters (solver/said.py):
a phrase is declared once, a record reads back from its JSON, seats,
words and actions are named by the face that says them, a count takes
its plural, a game says a phrase in its own words, and the engine
protocol's result line carries the codes beside the English."""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest

import solver
from bots import advice
from bots.engine_client import result_of
from solver.front import NOBODY
from solver.games.contract_match.front import PLAYED
from solver.said import PHRASES, Act, Said, Seat, Word, phrase
from solver.search import PlayResult
from solver.search.advice import REASON_AS_GOOD, REASON_FEW, TIE_RULE
from solver.search.service import NOTE_BOUND


def test_a_code_is_declared_once_and_known_before_it_is_said():
    assert phrase("search.few", REASON_FEW.template) is not None     # the same words: fine
    with pytest.raises(ValueError, match="'search.few' is already the phrase"):
        phrase("search.few", "other words {visits}")
    with pytest.raises(ValueError, match="no phrase has the code 'no.such'"):
        Said("no.such", {})
    assert PHRASES["search.few"] == REASON_FEW


def test_a_record_reads_back_from_its_json():
    said = advice.TRICK(cards=[advice.SEAT_CARD(name=Seat(2), card="8D"),
                               advice.SEAT_CARD(name=Word(NOBODY), card="9D")])
    doc = json.loads(json.dumps(said.to_json()))
    assert doc["params"]["cards"][0] == {"code": "fact.seat_card",
                                         "params": {"name": {"seat": 2}, "card": "8D"}}
    assert Said.from_json(doc) == said
    assert said.english() == "Trick so far: seat 3 8D, nobody 9D"
    assert said.english(seat=["you", "left", "across", "right"].__getitem__) == \
        "Trick so far: across 8D, nobody 9D"
    play = advice.DO(action=Act("pass", capital=True))
    assert Said.from_json(play.to_json()) == play
    assert play.english(action={"pass": "pass the turn"}.get) == "Pass the turn."
    for bad in ({"code": "search.few"}, {"seat": 1, "x": 2}, [1]):
        with pytest.raises(ValueError, match="not a said record"):
            Said.from_json(bad)


def test_a_count_takes_its_plural_and_a_game_its_own_words():
    one = advice.SAME_CARD(n=1, cards=[Act("9S")])
    two = advice.SAME_CARD(n=2, cards=[Act("9S"), Act("8S")])
    assert one.english() == "9S is the same card here (equivalent)."
    assert two.english() == "9S, 8S are the same card here (equivalent)."
    played = PLAYED(contracts=[Word("King of Hearts")])
    trix = solver.load_game("trix")
    assert played.english() == "Contracts already played in this round: King of Hearts"
    assert advice.say([played], trix) == \
        ["Contracts already played in this kingdom: King of Hearts"]


def test_the_engine_result_carries_the_codes_beside_the_english():
    """``PlayResult.reasons`` and ``note`` stay English; ``reason_codes`` and
    ``note_code`` hold the same as records, and the engine protocol's
    ``result`` line (``asdict``) reads back into them (bots/engine_client.py)."""
    tie = REASON_AS_GOOD(rule=TIE_RULE())
    few = REASON_FEW(visits=12_345)
    note = NOTE_BOUND(nodes=20_000)
    res = PlayResult("AS", {"AS": 1.0, "KS": 2.0, "QS": 1.5}, {}, 0.5, 0, 10, 0.1, "ismcts",
                     reasons={"KS": str(few), "QS": str(tie)},
                     reason_codes={"KS": few, "QS": tie}, note=str(note), note_code=note)
    line = json.loads(json.dumps(asdict(res)))
    assert line["reasons"]["KS"].startswith("searched too little (12,345)")
    assert line["reason_codes"]["KS"] == {"code": "search.few", "params": {"visits": 12345}}
    back = result_of(line)
    assert back.reason_codes == {"KS": few, "QS": tie} and back.note_code == note
    assert back.reasons == res.reasons and back.note == res.note
