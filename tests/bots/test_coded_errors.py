"""The bots' and the front ends' refusals are coded as the solver's are
(solver/errors.py): the engine's, the command line's, the analysis
board's, the review's, the ladder's, the table stores', the server's
settings', the search bots' and the Gymnasium seat's errors each carry a
code, their parameters as JSON and the template's English, which the
catalogues translate; every module of bots/ that declares a phrase is
read by the extraction and listed in docs/errors.md."""

from __future__ import annotations

import io
import json

import pytest

import solver
from bots import engine, hint, learn, levels, make_bot, match, review
from bots.analysis import Board, analyse, drawn
from bots.engine_client import EngineClient
from bots.human import read_action
from bots.ladder import executors, ratings
from bots.ladder.schedule import Schedule, parse_game_spec
from bots.ladder.store import LadderStore
from bots.rules import RulesBot
from bots.searchbots import ISMCTSBot, PIMCBot
from bots.server import extract, i18n
from bots.server.pool import SHUTTING_DOWN, Busy
from bots.server.settings import Settings
from bots.server.store import SqliteStore
from solver.errors import INSTALL, DixtrixError, IllegalActionError, OptionError, install_hint
from solver.said import PHRASES, Said

DIX = solver.load_game("dix")


def _coded(exc: DixtrixError) -> None:
    assert exc.code, f"an error without a code: {exc!r}"
    assert json.loads(json.dumps(exc.data, allow_nan=False)) == exc.data, exc
    # the English is the phrase's template filled in, the path before it
    assert exc.words() == str(exc), exc
    assert exc.said is not None and exc.said.code == exc.code


def _record():
    return solver.position.Record.of(DIX.new_initial_state(seed=1))


def _view():
    return solver.position.SeatView.of(DIX.new_initial_state(seed=1), 0)


def _engine(*lines: str):
    """The engine given ``lines``, each a command run as its loop runs it
    (the last one's error is raised, not written as a line)."""
    e = engine.Engine(out=open("/dev/null", "w"))
    for line in lines:
        verb, _, rest = line.partition(" ")
        engine.COMMANDS[verb](e, rest)


#: bad inputs of the bots' and front ends' entry points
BAD_CALLS = {
    "engine setoption": lambda: _engine("setoption name x"),
    "engine unknown option": lambda: _engine("setoption name colour value red"),
    "engine option range": lambda: _engine("setoption name trees value 999"),
    "engine option choice": lambda: _engine("setoption name bot value mcts"),
    "engine no position": lambda: _engine("go"),
    "engine go bot": lambda: _engine("position " + json.dumps(_record().to_json()),
                                     "go bot nobot"),
    "engine evaluate": lambda: _engine("position " + json.dumps(_record().to_json()),
                                       "evaluate worlds x"),
    "engine solve a view": lambda: _engine("position " + json.dumps(_view().to_json()),
                                           "solve"),
    "engine review pairs": lambda: _engine("position " + json.dumps(_record().to_json()),
                                           "review seat"),
    "engine client start": lambda: EngineClient.popen(["/nonexistent/dixtrix-engine"]),
    "engine bot": lambda: make_bot("engine:bot=mcts", DIX, 0),
    "board step": lambda: Board(_record()).check_at(999),
    "board variation": lambda: Board(_record()).state_at(0, "AS"),
    "board illegal": lambda: Board(_record()).state_at(0, ["bid 1000"]),
    "board show": lambda: drawn(Board(_record()), 0, show=7),
    "board other hands": lambda: drawn(Board(_view()), 0, show="all"),
    "board plies": lambda: __import__("bots.analysis").analysis.continuation(
        Board(_record()), 0, plies=0),
    "board nodes": lambda: analyse(Board(_record()), 0, nodes=0),
    "review bot": lambda: review.review(_record(), bot="nobot"),
    "review seat": lambda: review.review(_record(), seat=9),
    "review deal": lambda: review.review(_record(), deal=0),
    "review jobs": lambda: review.review(_record(), jobs=0),
    "hint no file": lambda: hint.read_position("/nonexistent/position.json"),
    "level": lambda: levels.level_settings("godlike", DIX),
    "match bots": lambda: match.play_match(DIX, []),
    "bot switch": lambda: ISMCTSBot(DIX, 0, equivalence="maybe"),
    "bot named limit": lambda: PIMCBot(DIX, 0, time=-1),
    "bot unknown setting": lambda: RulesBot(DIX, 0, colour=1),
    "ladder game": lambda: parse_game_spec(""),
    "ladder entries": lambda: Schedule("dix", ["rules"]),
    "ladder empty entry": lambda: Schedule("dix", "rules,,random"),
    "ladder seed": lambda: Schedule("dix", ["rules", "random"], seed=-1),
    "ladder deals": lambda: list(Schedule("dix", ["rules", "random"]).tasks(0)),
    "ladder database": lambda: LadderStore.open("/nonexistent/ladder.db"),
    "ladder ci": lambda: ratings.rate(["a", "b"], [], ci="wald"),
    "server setting": lambda: Settings(max_time=-1),
    "server log format": lambda: Settings(log_format="xml"),
    "table database": lambda: SqliteStore("/nonexistent/dir/tables.db"),
}


@pytest.mark.parametrize("name", BAD_CALLS)
def test_every_refusal_of_the_bots_and_faces_carries_a_code(name):
    with pytest.raises(DixtrixError) as err:
        BAD_CALLS[name]()
    _coded(err.value)


def test_a_refusal_keeps_its_english_and_its_data():
    """The English is what it was before the codes (the engine's and the
    command line's lines print it); the data are numbers and the user's
    value, not English glued in."""
    with pytest.raises(OptionError) as err:
        _engine("setoption name trees value 999")
    assert str(err.value) == "option trees: an integer 1..64, got 999"
    assert err.value.code == "engine_option_int"
    assert err.value.data == {"name": "trees", "low": 1, "high": 64, "got": 999}
    with pytest.raises(OptionError) as err:
        ISMCTSBot(DIX, 0, equivalence="maybe")
    assert str(err.value) == "ismcts: equivalence must be 'on' or 'off', got 'maybe'"
    assert err.value.data == {"bot": "ismcts", "name": "equivalence", "got": "maybe"}
    # a refusal of the search named by the bot nests the search's own phrase
    with pytest.raises(DixtrixError) as err:
        PIMCBot(DIX, 0, time=-1)
    assert err.value.code == "bot_named"
    assert err.value.data["bot"] == "pimc" and err.value.data["error"]["code"]


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_a_bots_refusal_is_worded_in_the_reader_s_language(lang):
    tr = i18n.Translator(lang)
    busy = Busy(SHUTTING_DOWN(), 1)
    assert busy.words(tr) != str(busy) and "shutting" not in busy.words(tr)
    with pytest.raises(OptionError) as err:
        Schedule("dix", ["rules"])
    worded = err.value.words(tr)
    assert "ladder" not in worded and "1" in worded, worded


def test_the_install_command_is_the_solver_s():
    """The phrase that says how to install an extra is ``install_hint``'s
    words (the solver's, which the command line printed before)."""
    for extra in ("plot", "fit", "dask", "server"):
        assert str(INSTALL(extra=extra)) == install_hint(extra)


def test_every_module_that_declares_a_phrase_is_read_and_listed():
    """docs/errors.md is written from every module of bots/ that declares a
    phrase (imported by ``error_codes``, whatever the process imported
    before), and the extraction reads their message ids."""
    modules = extract.phrase_modules()
    assert {"bots.engine", "bots.cli", "bots.ladder.store", "bots.server.errors",
            "bots.server.pool", "bots.gym_env"} <= set(modules)
    table = extract.error_codes()
    found = {m for m, _ in extract.server_messages()}
    for code in ("engine_busy", "ladder_other_schedule", "store_cannot_open", "bot_switch"):
        assert f"| `{code}` |" in table
        assert PHRASES[code].template in found


def test_a_failed_game_of_the_ladder_or_of_learn_is_coded():
    task = next(Schedule("dix", ["rules", "random"]).tasks(1))
    failed = executors._fail(task, ValueError("boom"))
    _coded(failed)
    assert str(failed) == "game (deal 0, group 0, rotation 0: rules, random) failed: ValueError: boom"
    assert failed.data is not None and failed.data["specs"] == ["rules", "random"]
    _coded(learn._fail((0, 1, 2), KeyError("x")))


def test_the_solving_child_sends_its_error_s_code(monkeypatch, capsys):
    """A long ``solve`` runs in a child process (bots/engine.py): its error
    comes back with its phrase, so the engine's error keeps its code."""
    def refuse(*args, **kwargs):
        raise OptionError(SHUTTING_DOWN())
    monkeypatch.setattr(engine, "solve_doc", refuse)
    request = json.dumps({"position": _record().to_json(), "tt_mb": 1}).encode()
    monkeypatch.setattr("sys.stdin", type("In", (), {"buffer": io.BytesIO(request)}))
    engine.solve_child(None)
    reply = json.loads(capsys.readouterr().out)
    assert reply["error"] == "the server is shutting down"
    again = DixtrixError(Said.from_json(reply["said"]))
    assert again.code == "server_shutting_down" and str(again) == reply["error"]


def test_a_typed_prefix_that_starts_several_actions_is_refused_with_a_code():
    """The person at the console (bots/human.py) types the start of an
    action: one that starts several is refused, its reason coded with
    the actions it could be."""
    state = DIX.new_initial_state(seed=1)
    with pytest.raises(IllegalActionError) as err:
        read_action(state, "k", state.legal_actions())
    _coded(err.value)
    assert err.value.reason == "it could be KD, KH: type more of it"
    assert err.value.data == {"action": "k", "reason": {"code": "human_ambiguous",
                                                        "params": {"actions": ["KD", "KH"]}}}
