"""Transcripts of the real ``dixtrix engine`` subprocess (docs/protocol.md):
the handshake, positions of all five games, ``go`` with every limit,
``info`` lines, ``stop`` during an infinite search, bad input of every kind
followed by a good command that still works; the Python client and the
``engine`` bot."""

from __future__ import annotations

import json
import queue
import random
import subprocess
import sys
import threading
import time

import pytest

import solver
from bots import make_bot, play_match
from bots.engine_client import EngineClient, EngineError
from solver.search import Limit
from tests.search.test_equivalence import _endings

GAMES = ["dix", "trix", "tricks", "dixie-rook", "dix-exchange"]


class Transcript:
    """The engine subprocess, line by line, with timeouts."""

    def __init__(self):
        self.p = subprocess.Popen([sys.executable, "-m", "bots.cli", "engine"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  bufsize=1)
        self.q: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line.rstrip("\n"))
        self.q.put(None)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix, timeout=30):
        out = []
        while True:
            line = self.q.get(timeout=timeout)
            assert line is not None, f"the engine exited; read {out}"
            out.append(line)
            if line.startswith(prefix):
                return out

    def close(self):
        try:
            self.send("quit")
            assert self.p.wait(timeout=10) == 0
        finally:
            if self.p.poll() is None:
                self.p.kill()
                self.p.wait()


@pytest.fixture
def engine():
    t = Transcript()
    yield t
    t.close()


def _position(name, seed=3, steps=12, view=True):
    game = solver.load_game(name)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if len(state.legal_actions()) > 1 and rng.random() < 0.2:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    if view:
        return state, json.dumps(state.information_state(state.current_player()).view)
    return state, json.dumps(solver.to_json(state))


def test_handshake_and_isready(engine):
    engine.send("dixtrix")
    lines = engine.until("ok")
    assert lines[0] == "id name dixtrix" and lines[1].startswith("id version ")
    # the trees default to the decision service's fixed number, the same on
    # every machine (the threads that grow them do not change the answer)
    from solver.search.service import DEFAULT_TREES
    assert f"option name trees type spin default {DEFAULT_TREES} min 1 max 64" in lines
    engine.send("isready")
    assert engine.until("readyok") == ["readyok"]


@pytest.mark.parametrize("name", GAMES)
def test_every_game_every_limit(engine, name):
    state, view = _position(name)
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    engine.send("position " + view)
    for go in ("go iterations 300", "go time 0.2", "go worlds 2 bot pimc"):
        engine.send(go)
        lines = engine.until("bestmove")
        result = json.loads(next(x for x in lines if x.startswith("result "))[7:])
        best = lines[-1].split()[1]
        assert best in legal and result["action"] == best and set(result["values"]) <= legal
    # a full record works as well (advice for its seat to move)
    _, record = _position(name, view=False)
    engine.send("position " + record)
    engine.send("go iterations 200")
    assert engine.until("bestmove")[-1].startswith("bestmove ")


def test_the_learned_prior_option(engine):
    state = _endings("trix", {}, 10, 1, seed=4)[0]           # a trick contract
    engine.send("position " + json.dumps(state.information_state(state.current_player()).view))
    engine.send("setoption name prior value learned")
    engine.send("go iterations 300")
    result = json.loads(next(x for x in engine.until("bestmove") if x.startswith("result "))[7:])
    assert result["search"] == {"prior": "learned", "playout": "rules", "leaf": "playout"}
    engine.send("setoption name prior value neural")
    assert "prior" in engine.until("error")[-1]


def test_the_leaf_option(engine):
    _, view = _position("dix", steps=20)
    engine.send("position " + view)
    for leaf in ("value", "playout"):
        engine.send(f"setoption name leaf value {leaf}")
        engine.send("go iterations 300")
        lines = engine.until("bestmove")
        result = json.loads(next(x for x in lines if x.startswith("result "))[7:])
        assert result["search"]["leaf"] == leaf
    engine.send("setoption name leaf value deep")
    assert "leaf" in engine.until("error")[-1]


def test_info_lines_during_a_search(engine):
    _, view = _position("dix", steps=20)
    engine.send("position " + view)
    engine.send("go time 0.5")
    lines = engine.until("bestmove")
    infos = [x for x in lines if x.startswith("info ")]
    assert len(infos) >= 3
    words = infos[-1].split()
    for key in ("iterations", "nodes", "seconds", "best", "value"):
        assert key in words
    # the last info line names what bestmove plays, with the same value
    best = lines[-1].split()
    assert words[words.index("best") + 1] == best[1]
    assert words[words.index("value") + 1] == best[3]
    assert lines[-3] is infos[-1] and lines[-2].startswith("result ")


@pytest.mark.parametrize("name", ["dix", "dixie-rook"])
def test_stop_answers_an_infinite_search(engine, name):
    """``go infinite`` (a day's limit) answered after ``stop``: the answer
    says it was stopped; how fast is printed, not asserted (a loaded
    machine may take longer than the 100 ms the protocol aims at)."""
    _, view = _position(name, steps=0 if name == "dixie-rook" else 20)
    engine.send("position " + view)
    engine.send("go infinite")
    engine.until("info", timeout=10)                   # the search is under way
    engine.send("isready")                             # answered while it runs
    assert "readyok" in engine.until("readyok")
    t0 = time.perf_counter()
    engine.send("stop")
    lines = engine.until("bestmove")
    print(f"{name}: stop answered in {(time.perf_counter() - t0) * 1000:.1f} ms")
    assert json.loads(next(x for x in lines if x.startswith("result "))[7:])["stopped"]


BAD = [("bogus", "bogus: unknown command"),
       ("position {not json", "position: malformed JSON"),
       ("position " + "[" * 100 + "]" * 100, "nests"),
       ('position {"game": "dix", "seed": ' + "9" * 5000 + "}", "digits"),
       ('position {"game": "chess"}', "unknown game"),
       ('position {"game": "dix", "seed": 1, "actions": ["ZZ"]}', "actions[0]"),
       ("setoption name threads value 65", "threads"),
       ("setoption name nonsense value 1", "unknown option"),
       ("setoption name threads", "expected"),
       ("go time -1", "go.time: must be seconds"),
       ("go iterations x", "iterations"),
       ("go worlds", "expected"),
       ("go bot alphazero", "bot"),
       ("evaluate worlds many", "worlds")]


def test_bad_input_gets_one_error_line_and_the_engine_goes_on(engine):
    _, view = _position("trix")
    engine.send("position " + view)
    for line, expected in BAD:
        engine.send(line)
        out = engine.until("error")
        assert len(out) == 1 and expected in out[0], (line, out)
    engine.send("go iterations 200")                   # the position is unchanged
    assert engine.until("bestmove")[-1].startswith("bestmove ")
    engine.send("solve")                               # a seat view cannot be solved
    assert "seat view" in engine.until("error")[0]
    engine.send("newgame")
    engine.send("go iterations 10")
    assert "no position" in engine.until("error")[0]


def test_solve_and_evaluate_verbs(engine):
    state = solver.load_game("dix").new_initial_state(seed=1)
    while state.tricks_done < 20:
        state.apply_action(state.legal_actions()[0])
    engine.send("position " + json.dumps(solver.to_json(state)))
    engine.send("solve")
    lines = engine.until("bestmove")
    sol = json.loads(lines[0][len("solution "):])
    assert sol["value"] == solver.solve(state).value
    engine.send("evaluate worlds 10")
    ev = json.loads(engine.until("evaluation")[0][len("evaluation "):])
    assert ev["worlds"] == 10 and len(ev["values"]) == 2


def test_the_client_plays_analyses_and_reaps_the_process():
    state, view = _position("dix", steps=20)
    with EngineClient.popen() as eng:
        assert eng.id["name"] == "dixtrix"
        res = eng.play(view, Limit(iterations=2000))
        direct = solver.best_move(view, Limit(iterations=2000), seed=0)
        assert (res.action, res.values) == (direct.action, direct.values)
        res2, infos = eng.analyse(state, Limit(time=0.3))
        assert res2.action in res2.values and infos
        eng.configure(threads=2, bot="pimc")
        assert eng.play(view, Limit(worlds=3)).bot == "pimc"
        with pytest.raises(EngineError, match="threads"):
            eng.configure(threads=99)
        eng.ping()                                      # still serving
        proc = eng.process
    assert proc.poll() is not None                      # reaped


def test_the_client_reports_a_dead_engine():
    with pytest.raises(EngineError, match="cannot start"):
        EngineClient.popen("/nonexistent/engine")
    with pytest.raises(EngineError):
        EngineClient.popen([sys.executable, "-c", "print('hello')"], timeout=5)


def test_an_engine_bot_plays_a_match():
    game = solver.load_game("dix", variant="seventeen", target=3)
    bots = [make_bot("engine:iterations=300", game, 0, seed=1),
            make_bot("rules", game, 1, seed=2)]
    try:
        final = play_match(game, bots, seed=5)
        assert final.is_terminal()
    finally:
        bots[0].close()
