"""The engine protocol line by line, through a real ``dixtrix engine``
subprocess (docs/protocol.md): a line that is not UTF-8 costs only itself;
a position may span lines (a position file's pretty-printed JSON); ``stop``
ends an exact ``solve`` and frees the engine, whose solving child process
is gone with it (and goes when the engine is killed); an action with a
space is one quoted word of ``bestmove`` and ``info``; the ``threads``
option defaults to the decision service's own choice."""

from __future__ import annotations

import json
import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import threading
import time

import pytest

import solver
from bots import make_bot
from solver.search import Limit, best_move

#: seconds to wait for an answer that should come at once (a loaded
#: machine's margin; nothing here measures how long an answer took)
PATIENCE = 30


class Raw:
    """The engine subprocess fed raw bytes; answers read line by line."""

    def __init__(self):
        self.p = subprocess.Popen([sys.executable, "-m", "bots.cli", "engine"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.q: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line.decode("utf-8").rstrip("\n"))
        self.q.put(None)

    def send(self, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        self.p.stdin.write(data if data.endswith(b"\n") else data + b"\n")
        self.p.stdin.flush()

    def until(self, prefix, timeout=PATIENCE):
        out = []
        while True:
            try:
                line = self.q.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no line starting {prefix!r} within {timeout} s; "
                                     f"read {out}") from None
            assert line is not None, f"the engine exited; read {out}"
            out.append(line)
            if line.startswith(prefix):
                return out

    def close(self):
        try:
            self.send("quit")
            assert self.p.wait(timeout=PATIENCE) == 0
        finally:
            if self.p.poll() is None:
                self.p.kill()
                self.p.wait()


@pytest.fixture
def engine():
    e = Raw()
    yield e
    e.close()


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    kids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as fh:
                    stat = fh.read().decode("utf-8", "replace")
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                kids.append(int(entry))
    return kids


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().decode().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def _wait_for(condition, what, timeout=PATIENCE):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"{what} within {timeout} s"
        time.sleep(0.02)


def _rook_record(actions=16) -> str:
    """A dixie-rook record 16 actions in: its exact solve runs for minutes."""
    game = solver.load_game("dixie-rook")
    state = game.new_initial_state(seed=1)
    bots = [make_bot("rules", game, s, seed=s) for s in range(4)]
    while len(state.history()) < actions:
        state.apply_action(bots[state.current_player()].step(state))
    return json.dumps(solver.to_json(state))


def _answer(lines) -> tuple:
    """A ``go``'s result (without its time) and its bestmove line."""
    result = json.loads(next(x for x in lines if x.startswith("result "))[7:])
    result.pop("time")
    return result, lines[-1]


def _dix_view(after=20, seed=3):
    state = solver.load_game("dix").new_initial_state(seed=seed)
    for _ in range(after):
        state.apply_action(state.legal_actions()[0])
    return state.information_state(state.current_player()).view


# ---- input -------------------------------------------------------------------


def test_a_line_that_is_not_utf8_costs_only_itself(engine):
    engine.send(b"isready\n\xff\nisready\n")
    assert engine.until("readyok") == ["readyok"]
    out = engine.until("readyok")
    assert len(out) == 2 and out[0].startswith("error input: line 2 is not UTF-8")
    # inside a command too: the bad line is refused, the next one served
    engine.send(b"setoption name seed value \xe9\xe9\nisready\n")
    out = engine.until("readyok")
    assert len(out) == 2 and "not UTF-8" in out[0]


def test_a_position_may_span_lines(engine):
    view = _dix_view()
    pretty = json.dumps(view, indent=1)
    assert pretty.count("\n") > 10
    engine.send("position " + pretty)
    engine.send("go iterations 300")
    multi = engine.until("bestmove")
    engine.send("position " + json.dumps(view))
    engine.send("go iterations 300")
    single = engine.until("bestmove")
    assert not [x for x in multi if x.startswith("error")], multi
    assert _answer(multi) == _answer(single)            # the same result and bestmove

    # a blank line before the brackets close: one error, the old position kept,
    # and the next command is a command again
    engine.send("position {\n \"game\": \"dix\",\n\nisready")
    out = engine.until("readyok")
    assert len(out) == 2 and out[0].startswith("error position:") and "blank line" in out[0]
    # a bad line inside: the rest of the document is not taken for commands
    engine.send(b'position {\n "game": \xff,\n "seed": 1}\nisready\n')
    out = engine.until("readyok")
    assert len(out) == 2 and out[0].startswith("error position:"), out
    # a command before the brackets close ends the position, and runs
    engine.send("position {\n \"game\": \"dix\",\nisready")
    out = engine.until("readyok")
    assert len(out) == 2 and "is the command 'isready'" in out[0], out
    # a malformed first line is one error at once, not the start of a document
    engine.send("position {not json\nisready")
    out = engine.until("readyok")
    assert len(out) == 2 and "malformed JSON" in out[0], out
    engine.send("go iterations 300")
    assert _answer(engine.until("bestmove")) == _answer(single)


def test_a_saved_position_file_is_sent_as_it_is(tmp_path):
    """``dixtrix hint --save-position`` writes pretty-printed JSON; the
    engine reads the file as it is after the word ``position``."""
    from bots.cli import main
    path = tmp_path / "view.json"
    assert main(["hint", "dix", "--seed", "1", "--after", "20", "--iterations", "10",
                 "--save-position", str(path)]) == 0
    text = path.read_text()
    assert text.count("\n") > 5
    out = subprocess.run([sys.executable, "-m", "bots.cli", "engine"],
                         input=f"position {text}go iterations 200\nquit\n",
                         capture_output=True, text=True, timeout=120)
    lines = out.stdout.splitlines()
    assert not [x for x in lines if x.startswith("error")], lines
    assert lines[-1].startswith("bestmove ")


# ---- stop ends a solve --------------------------------------------------------


def test_stop_ends_a_long_solve_and_frees_the_engine(engine):
    engine.send("position " + _rook_record())
    engine.send("solve")
    # about a second in (the quick in-thread attempt has given up by then and
    # a child process solves), as a user would send it
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline and not _children(engine.p.pid):
        time.sleep(0.02)
    engine.send("isready")
    assert engine.until("readyok")[-1] == "readyok"
    engine.send("go iterations 10")                    # refused while it solves
    assert "a search is running" in engine.until("error")[-1]
    engine.send("stop")
    out = engine.until("error solve:")
    assert "stopped before the exact values were found" in out[-1]
    _wait_for(lambda: not [c for c in _children(engine.p.pid) if _alive(c)],
              "the solving child process ended")
    # free again: position, go and newgame are served
    engine.send("position " + json.dumps(_dix_view()))
    engine.send("go iterations 100")
    assert engine.until("bestmove")[-1].startswith("bestmove ")
    engine.send("newgame")
    engine.send("isready")
    assert engine.until("readyok") == ["readyok"]


def test_a_long_solve_in_the_child_gives_the_exact_values(engine):
    """Past the quick attempt's nodes the child process solves: the same
    values as ``solver.solve`` in this process."""
    from bots.engine import QUICK_SOLVE_NODES
    from bots.exact import solve_doc
    state = solver.load_game("dix").new_initial_state(seed=1)
    while state.tricks_done < 13:
        state.apply_action(state.legal_actions()[0])
    direct = solve_doc(state, plies=0)
    assert direct["nodes"] > QUICK_SOLVE_NODES          # so the child is used
    engine.send("position " + json.dumps(solver.to_json(state)))
    engine.send("solve")
    lines = engine.until("bestmove", timeout=120)
    sol = json.loads(lines[0][len("solution "):])
    for key in ("value", "action_values", "best_actions", "solver_value",
                "solver_action_values", "nodes"):
        assert sol[key] == direct[key], key
    assert lines[-1] == f"bestmove {direct['best_actions'][0]} value {direct['value']}"


def test_the_solving_child_ends_when_the_engine_is_killed():
    p = subprocess.Popen([sys.executable, "-m", "bots.cli", "engine"],
                         stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    try:
        p.stdin.write(f"position {_rook_record()}\nsolve\n".encode())
        p.stdin.flush()
        _wait_for(lambda: _children(p.pid), "a solving child process started")
        kids = _children(p.pid)
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=PATIENCE)
        _wait_for(lambda: not [k for k in kids if _alive(k)],
                  "the orphaned solving child exited")
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


# ---- actions with spaces ------------------------------------------------------


def test_an_action_with_a_space_is_one_quoted_word(engine):
    """A trix contract choice: ``bestmove "contract ..."`` and the ``info``
    lines' ``best`` read back whole by ``shlex.split``."""
    state = solver.load_game("trix").new_initial_state(seed=2)
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    assert all(" " in a for a in legal)                 # contracts: "contract kinghearts"
    view = state.information_state(state.current_player()).view
    engine.send("position " + json.dumps(view))
    engine.send("go time 0.5")
    lines = engine.until("bestmove", timeout=120)
    words = shlex.split(lines[-1])
    assert words[0] == "bestmove" and words[1] in legal and words[2] == "value"
    result = json.loads(next(x for x in lines if x.startswith("result "))[7:])
    assert words[1] == result["action"]
    infos = [shlex.split(x) for x in lines if x.startswith("info ") and " best " in x]
    assert infos
    for info in infos:
        assert info[info.index("best") + 1] in legal


def test_the_client_reads_a_quoted_best_action():
    from bots.engine_client import _parse_info
    info = _parse_info('info iterations 10 nodes 11 seconds 0.100 best "bid 70" value 3.5')
    assert info["best"] == "bid 70" and info["value"] == 3.5


# ---- go time ------------------------------------------------------------------


def test_go_time_in_what_looks_like_milliseconds_says_it_is_seconds(engine):
    engine.send("position " + json.dumps(_dix_view()))
    engine.send("go time 1000")
    line = engine.until("info string")[-1]
    assert line.startswith("info string go time is in seconds: this search may run 1000 s")
    assert "go movetime 1000 would be 1 s" in line
    engine.send("stop")
    assert engine.until("bestmove")[-1].startswith("bestmove ")
    engine.send("go movetime 200")                      # milliseconds: no such line
    out = engine.until("bestmove")
    assert not [x for x in out if x.startswith("info string")]


# ---- trees and threads ----------------------------------------------------------


def test_trees_default_to_the_decision_service(engine):
    engine.send("dixtrix")
    lines = engine.until("ok")
    from solver.search.service import DEFAULT_TREES
    assert f"option name trees type spin default {DEFAULT_TREES} min 1 max 64" in lines
    assert "option name threads type spin default 0 min 0 max 64" in lines
    view = _dix_view()
    engine.send("position " + json.dumps(view))
    engine.send("go iterations 500")
    result = json.loads(next(x for x in engine.until("bestmove")
                             if x.startswith("result "))[7:])
    direct = best_move(view, Limit(iterations=500), seed=0)   # the service's default trees
    assert (result["action"], result["values"]) == (direct.action, dict(direct.values))
    engine.send("setoption name trees value 3")
    engine.send("go iterations 500")
    result = json.loads(next(x for x in engine.until("bestmove")
                             if x.startswith("result "))[7:])
    three = best_move(view, Limit(iterations=500), seed=0, trees=3)
    assert (result["action"], result["values"]) == (three.action, dict(three.values))
    # the threads only grow the trees: the same answer with one
    engine.send("setoption name threads value 1")
    engine.send("go iterations 500")
    result = json.loads(next(x for x in engine.until("bestmove")
                             if x.startswith("result "))[7:])
    assert (result["action"], result["values"]) == (three.action, dict(three.values))


# ---- error lines and the result's documentation ---------------------------------


def test_an_error_names_its_path_once(engine):
    """``error <where>: <reason>``: the JSON path or field the error is
    about is the line's ``where`` and is not said again in the reason
    (``error actions[1]: actions[1]: ...`` before)."""
    seed1 = '{"game":"dix","seed":1,'
    cases = [(seed1 + '"actions":["3C","ZZ"]}', "actions[1]", "unknown card 'ZZ'"),
             (seed1 + '"actions":[0]}', "actions[0]", "an action is a string"),
             (seed1 + '"actions":[],"options":{"variant":"x"}}', "options",
              "'variant' must be one of"),
             ('{"game":"dix","seat":5,"deal":{}}', "seat", "must be a seat 0..1")]
    for doc, path, reason in cases:
        engine.send("position " + doc)
        line = engine.until("error")[-1]
        assert reason in line and line.count(f"{path}: ") == 1, (doc, line)
    engine.send("position " + json.dumps(_dix_view()))
    engine.send("go time x")
    line = engine.until("error")[-1]
    assert line.startswith("error go.time: ") and line.count("go.time") == 1, line


def test_the_doc_lists_every_field_of_result(engine):
    """docs/protocol.md's paragraph on ``result <json>`` names each field
    the engine's ``result`` carries (``same`` was missing): the fields of
    an ISMCTS, a PIMC and an exact answer."""
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    start = doc.index("`result\n<json>` is its whole `PlayResult`")
    paragraph = doc[start:doc.index("\n\n", start)]
    named = set(re.findall(r"`([a-z_0-9]+)`", paragraph))
    state = solver.load_game("dix").new_initial_state(seed=1)
    while state.tricks_done < 24:
        state.apply_action(state.legal_actions()[0])
    keys = set()
    for pos, go in ((json.dumps(_dix_view()), "go iterations 200"),
                    (json.dumps(_dix_view()), "go worlds 3 bot pimc"),
                    (json.dumps(solver.to_json(state)), "go iterations 10")):
        engine.send("position " + pos)
        engine.send(go)
        result = json.loads(next(x for x in engine.until("bestmove")
                                 if x.startswith("result "))[7:])
        keys |= set(result)
    assert "same" in keys
    missing = keys - named
    assert not missing, f"docs/protocol.md does not name {sorted(missing)}"


# ---- hostile nesting ----------------------------------------------------------


@pytest.mark.parametrize("levels", [1_000, 100_000])
def test_any_nesting_gets_an_error_line_and_the_engine_goes_on(engine, levels):
    """A position nested past the parser's recursion (1,000 brackets) or
    far past it is one ``error position`` line; the engine answers on."""
    engine.send("isready")
    engine.until("readyok")
    engine.send("position " + "[" * levels)
    engine.send("isready")
    out = engine.until("readyok")
    assert out[0].startswith("error position: the document nests more than 32 levels"), out
    engine.send("position " + "{\"a\": " * levels)
    engine.send("isready")
    out = engine.until("readyok")
    assert out[0].startswith("error position:"), out
    engine.send("position " + json.dumps(_dix_view()))
    engine.send("go iterations 50")
    engine.until("bestmove")
