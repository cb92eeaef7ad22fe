"""Expert iteration (bots/learn.py, ``dixtrix learn``): a small run
reproduces from its seed, resumes after SIGKILL between generations to the
same models as an uninterrupted run, writes a model file that round-trips
with its meta and that the searches and the ``learned`` bot take, and bad
files and settings get the project's errors."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

import solver
from bots import learn
from bots.cli import main
from bots.registry import make_bot
from solver.beliefs import ModelParams
from solver.errors import OptionError
from solver.search import Limit, best_move
from solver.search.learned import check_model
from tests.search.test_equivalence import _endings

pytest.importorskip("numpy")

#: a run of a few seconds: dix's short variant, tiny searches
ARGV = ["learn", "dix", "--option", "variant=seventeen", "--games", "5", "--iterations", "60",
        "--gate", "2", "--seed", "3"]


def _comparable(path) -> dict:
    """A model file without what depends on the machine's speed."""
    doc = json.loads(open(path, encoding="utf-8").read())
    for e in doc["meta"]["history"]:
        e.pop("seconds")
        e.pop("cpu_seconds")
    doc["meta"].pop("command")
    return doc


def test_a_small_run_reproduces_from_its_seed(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert main(ARGV + ["--generations", "2", "--out", str(a)]) == 0
    assert main(ARGV + ["--generations", "2", "--out", str(b)]) == 0
    assert _comparable(a) == _comparable(b)
    err = capsys.readouterr().err
    assert "generation 1/2: 5 games" in err and "held-out policy loss" in err
    doc = _comparable(a)
    meta = doc["meta"]
    assert meta["game"] == "dix-seventeen" and meta["seed"] == 3
    assert meta["generations_run"] == 2 and len(meta["history"]) == 2
    for e in meta["history"]:
        assert e["decisions"] > 0 and e["heldout"] > 0 and e["gate_pairs"] == 2
    assert os.path.getsize(a) < 1_000_000
    # the file is a model of the game: it round-trips and the players take it
    game = solver.load_game("dix", variant="seventeen")
    params = check_model(game, str(a))
    assert ModelParams.from_json(params.to_json()).kinds == params.kinds
    assert params.meta["history"] == json.loads(a.read_text())["meta"]["history"]
    state = _endings("dix", {"variant": "seventeen"}, 8, 1, seed=2)[0]
    res = best_move(state, Limit(iterations=200), seed=1, exact=False, prior="learned",
                    model=str(a))
    assert res.search["prior"] == "learned"
    bot = make_bot(f"learned:model={a}", game, state.current_player(), seed=1)
    assert bot.step(state) in state.legal_actions()


def test_a_hidden_layer_is_fitted_on_top_of_the_linear_weights(tmp_path, monkeypatch):
    # five games give a kind a few dozen decisions: let every kind have a layer
    monkeypatch.setattr(learn, "HIDDEN_MIN", 1)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    # --gate 0: no gate, the new model is kept
    argv = ARGV + ["--generations", "1", "--hidden", "4", "--gate", "0"]
    assert main(argv + ["--out", str(a)]) == 0
    assert main(argv + ["--out", str(b)]) == 0
    assert _comparable(a) == _comparable(b)
    game = solver.load_game("dix", variant="seventeen")
    params = check_model(game, str(a))
    shipped = check_model(game, "solver/games/dix/data/model-dix-seventeen.json")
    assert params.meta["hidden"] == 4 and params.meta["history"][0]["kept"]
    assert params.meta["start_command"] == shipped.meta["command"]
    assert params.kinds == shipped.kinds              # the beliefs' part does not move
    assert params.hidden and all(len(h["b"]) == 4 for h in params.hidden.values())
    fit = params.meta["last_fit"]
    assert fit["loss"] is not None and fit["heldout"] > 0
    assert any("epoch" in r for r in fit["kinds"].values())   # layers were fitted
    state = _endings("dix", {"variant": "seventeen"}, 8, 1, seed=2)[0]
    res = best_move(state, Limit(iterations=200), seed=1, exact=False, prior="learned",
                    model=str(a))
    assert res.search["prior"] == "learned"
    assert main(ARGV + ["--generations", "1", "--hidden", "33", "--out",
                        str(tmp_path / "c.json")]) == 2


def test_sigkill_between_generations_then_the_same_command_resumes(tmp_path):
    out = tmp_path / "killed.json"
    argv = ARGV + ["--generations", "3", "--out", str(out)]
    proc = subprocess.Popen([sys.executable, "-c", "from bots.cli import entry; entry()",
                             *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    ckpt = learn.checkpoint_path(out)
    try:
        deadline = time.monotonic() + 120
        while not ckpt.exists():
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "no generation ended in 120 s"
            time.sleep(0.01)
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stderr.close()
    done = json.loads(ckpt.read_text())["generation"]
    assert 1 <= done < 3, "killed before the end"
    assert main(argv) == 0                        # the same command goes on
    whole = tmp_path / "whole.json"
    assert main(ARGV + ["--generations", "3", "--out", str(whole)]) == 0
    assert _comparable(out) == _comparable(whole)
    # asking for more generations goes on from the last one
    assert main(ARGV + ["--generations", "4", "--out", str(out)]) == 0
    assert json.loads(out.read_text())["meta"]["generations_run"] == 4


def test_a_checkpoint_of_another_run_is_refused(tmp_path, capsys):
    out = tmp_path / "m.json"
    assert main(ARGV + ["--generations", "1", "--out", str(out)]) == 0
    argv = [a if a != "3" else "4" for a in ARGV]          # another seed
    assert main(argv + ["--generations", "1", "--out", str(out)]) == 2
    assert "checkpoint of another run" in capsys.readouterr().err


def test_bad_settings_and_files_are_refused(tmp_path, capsys):
    assert main(ARGV + ["--generations", "0", "--out", str(tmp_path / "x.json")]) == 2
    assert "--generations must be an integer of at least 1" in capsys.readouterr().err
    game = solver.load_game("trix")
    with pytest.raises(OptionError, match="cannot read"):
        check_model(game, str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(OptionError, match="is not JSON"):
        check_model(game, str(bad))
    with pytest.raises(OptionError, match="does not fit 'trix'"):
        check_model(game, {"meta": {"game": "dix"}, "kinds": {}})
    with pytest.raises(OptionError, match="has no decision kind 'card:lead:stock'"):
        check_model(game, {"kinds": {"card:lead:stock": {"rank": 1.0}}})
    with pytest.raises(OptionError, match="has no feature 'colour'"):
        check_model(game, {"kinds": {"card:queens:lead": {"colour": 1.0}}})
    with pytest.raises(OptionError, match="a weight is a finite number"):
        check_model(game, {"kinds": {"card:queens:lead": {"rank": "high"}}})
    with pytest.raises(OptionError, match="ismcts: model: cannot read"):
        make_bot("ismcts:model=/no/such/file.json", game, 0)
    with pytest.raises(OptionError, match="best_move: model"):
        best_move(game.new_initial_state(seed=1), Limit(iterations=10), model=3)
