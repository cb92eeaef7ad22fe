"""Crash safety (issue #16): a ladder SIGKILLed mid-run loses at most the
games in flight; rerunning the same command plays only what is missing and
ends with the same table as an uninterrupted run."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time

from bots.cli import main
from bots.ladder import LadderResults, LadderStore, Schedule

GAME = "dix:variant=seventeen,target=20"
BOTS = "rules,random"
DEALS = 120


def _count(db: str) -> int:
    try:
        conn = sqlite3.connect(db, timeout=5)
        try:
            return conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def _comparable(db: str) -> list[dict]:
    with LadderStore.open(db) as store:
        return [{k: v for k, v in r.items() if k != "seconds"}
                for r in store.rows(with_record=True)]


def test_sigkill_then_resume_matches_an_uninterrupted_run(tmp_path):
    db = str(tmp_path / "killed.db")
    argv = ["ladder", "run", "--game", GAME, "--bots", BOTS, "--deals", str(DEALS),
            "--seed", "7", "--db", db, "--quiet"]
    total = DEALS * 2
    # the coordinator and its two workers in a session of their own, killed together
    proc = subprocess.Popen([sys.executable, "-c", "from bots.cli import entry; entry()",
                             *argv, "--jobs", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while _count(db) < 12:
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "the ladder stored no game in 60 s"
            time.sleep(0.01)
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    stored = _count(db)
    assert 12 <= stored < total, "killed before the end"

    # the rerun plays only what is missing
    assert main(argv + ["--jobs", "1"]) == 0
    with LadderStore.open(db) as store:
        keys = [(r["deal"], r["grp"], r["rotation"]) for r in store.rows()]
        scheduled = [t.key for t in Schedule(GAME, BOTS, seed=7).tasks(DEALS)]
    assert keys == scheduled                     # every game exactly once (sorted rows)
    assert len(set(keys)) == total

    # the same rows and the same table as an uninterrupted run
    clean = str(tmp_path / "clean.db")
    assert main(["ladder", "run", "--game", GAME, "--bots", BOTS, "--deals", str(DEALS),
                 "--seed", "7", "--db", clean, "--quiet"]) == 0
    assert _comparable(db) == _comparable(clean)
    assert LadderResults.open(db).table() == LadderResults.open(clean).table()
