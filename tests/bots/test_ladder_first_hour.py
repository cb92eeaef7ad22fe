"""The ladder as a new user meets it: the worker processes end when the
coordinator is SIGKILLed; the progress lines' rate and ETA count only this
run's games; a run says up front how much it will play; ``ladder report``
without matplotlib prints its tables, says how to get plots and exits 0;
the rating history says what its intervals show."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from bots.cli import main
from bots.ladder import LadderResults, Schedule, runner
from bots.ladder.ratings import Ratings

#: seconds to wait for something that should happen at once (a loaded
#: machine's margin; nothing here measures a duration)
PATIENCE = 60
SMALL = "dix:variant=seventeen,target=3"


def _children(pid: int) -> list[int]:
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


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux /proc")
def test_workers_exit_when_the_coordinator_is_killed(tmp_path):
    db = str(tmp_path / "ladder.db")
    proc = subprocess.Popen([sys.executable, "-c", "from bots.cli import entry; entry()",
                             "ladder", "run", "--game", "dix:variant=seventeen,target=40",
                             "--bots", "rules,random", "--deals", "200", "--db", db,
                             "--quiet", "--jobs", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    workers = []
    try:
        deadline = time.monotonic() + PATIENCE
        while len(workers) < 2:
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "no worker processes started"
            # the pool's workers (a resource tracker may sit beside them)
            workers = [k for k in _children(proc.pid)
                       if b"resource_tracker" not in open(f"/proc/{k}/cmdline", "rb").read()]
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)              # the coordinator alone
        proc.wait(timeout=PATIENCE)
        deadline = time.monotonic() + PATIENCE
        while [w for w in workers if _alive(w)]:
            assert time.monotonic() < deadline, \
                f"workers {[w for w in workers if _alive(w)]} outlived their coordinator"
            time.sleep(0.05)
    finally:
        for w in workers:
            if _alive(w):
                os.kill(w, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux /proc")
def test_a_child_whose_parent_died_before_its_watch_began_still_exits():
    """The race the ladder's workers and the engine's solving child run:
    the parent is SIGKILLed after starting the child but before the child's
    watch began.  The child is told its parent's pid, so it does not take
    its new parent (PID 1 or a subreaper) for the one to watch."""
    # the child starts its watch only once its parent is gone: its stdin
    # (the parent's pipe) reads to the end and its parent pid has changed
    code = ("import os, sys, time\n"
            "sys.stdin.read()\n"
            "while os.getppid() == int(sys.argv[1]):\n"
            "    time.sleep(0.01)\n"
            "from bots.lifeline import exit_with_parent\n"
            "exit_with_parent(int(sys.argv[1]))\n"
            "time.sleep(600)\n")
    parent = subprocess.Popen(
        [sys.executable, "-c",
         "import os, subprocess, sys\n"
         f"child = subprocess.Popen([sys.executable, '-c', {code!r}, str(os.getpid())],"
         " stdin=subprocess.PIPE)\n"
         "print(child.pid, flush=True)\n"
         "os.kill(os.getpid(), 9)\n"],
        stdout=subprocess.PIPE)
    child = None
    try:
        child = int(parent.stdout.readline())
        parent.wait(timeout=PATIENCE)
        assert parent.returncode == -signal.SIGKILL
        deadline = time.monotonic() + PATIENCE
        while _alive(child):
            assert time.monotonic() < deadline, "the child outlived its parent"
            time.sleep(0.05)
    finally:
        if child is not None and _alive(child):
            os.kill(child, signal.SIGKILL)
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        parent.stdout.close()


def test_the_first_progress_line_of_a_resumed_run_is_not_absurd(monkeypatch, capsys):
    """A run resuming 100 stored games, a game done every 30 s: today's
    lines divided the stored games too by this run's seconds ("3.37
    games/s, ETA 71 s" before a two-hour run)."""
    clock = [1000.0]
    monkeypatch.setattr(runner.time, "monotonic", lambda: clock[0])
    monkeypatch.setitem(sys.modules, "tqdm", None)      # the plain lines

    def lines(bar, games):
        out = []
        for _ in range(games):                          # a game every 30 s
            clock[0] += 30.0
            bar.update()
            out.append(capsys.readouterr().err.strip())
        return out

    first = lines(runner._Progress(total=340, initial=100, enabled=True, desc="ladder"), 2)
    assert first == ["101/340 games, 0.03 games/s, ETA 2.0 h",
                     "102/340 games, 0.03 games/s, ETA 2.0 h"]
    # with workers, the first games of a window end together: no rate until
    # a window's worth (settle) of this run's games is done
    out = lines(runner._Progress(total=340, initial=100, enabled=True, desc="ladder",
                                 settle=4), 8)
    assert out[0] == "101/340 games (rate and ETA once 4 games of this run are done)"
    assert out[3] == "104/340 games, 0.03 games/s, ETA 2.0 h"
    assert out[7] == "108/340 games, 0.03 games/s, ETA 1.9 h"


def test_a_run_says_up_front_what_it_will_play(tmp_path, capsys):
    text = runner.scope(Schedule("dix", "rules,random", 0), 240, 0, "on 2 worker processes")
    assert text.startswith("ladder dix: 240 games to play on 2 worker processes")
    assert "each game is a whole dix match (to 50 points, the default" in text
    assert "dix:target=" in text
    db = str(tmp_path / "l.db")
    assert main(["ladder", "run", "--game", SMALL, "--bots", "rules,random", "--deals", "2",
                 "--db", db]) == 0
    err = capsys.readouterr().err
    assert ("ladder dix:target=3,variant=seventeen: 4 games to play in this process; each "
            "game is a whole dix match (to 3 points)") in err
    assert main(["ladder", "run", "--game", SMALL, "--bots", "rules,random", "--deals", "2",
                 "--db", db, "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_report_without_matplotlib_prints_the_tables_and_exits_0(tmp_path, capsys,
                                                                 monkeypatch):
    db = str(tmp_path / "l.db")
    assert main(["ladder", "run", "--game", SMALL, "--bots", "rules,random", "--deals", "3",
                 "--db", db, "--quiet"]) == 0
    capsys.readouterr()
    monkeypatch.setitem(sys.modules, "matplotlib", None)   # not installed
    out_dir = str(tmp_path / "report")
    assert main(["ladder", "report", "--db", db, "--out", out_dir]) == 0
    out, err = capsys.readouterr()
    assert "rules" in out and "random" in out and "(tables only, no plots)" in out
    assert 'pip install ".[plot]"' in err
    assert os.listdir(out_dir) == ["report.md"]
    assert "```" in open(os.path.join(out_dir, "report.md")).read()


def test_the_history_says_what_its_intervals_show():
    from bots.ladder.report import history_note
    class Res:
        entries = ["random", "rules", "pimc"]
    # random lost all 10, rules and pimc split theirs
    last = Ratings(Res.entries, [-400, 200, 200], [-1000, -100, -100], [200, 500, 500],
                   "fisher", 20, wins=[0, 8, 7], draws=[0, 0, 0], losses=[10, 2, 3])
    note = history_note(Res(), [(6, 3, last), (20, 10, last)])
    assert "Fisher 95% intervals" in note and "narrow about as 1/sqrt(games)" in note
    assert note.endswith("until the other result comes: random (lost all 10).")
    even = Ratings(Res.entries, [0, 0, 0], [-1, -1, -1], [1, 1, 1], "bootstrap", 20,
                   wins=[3, 3, 3], draws=[0, 0, 0], losses=[3, 3, 3])
    assert "prior" not in history_note(Res(), [(6, 3, even), (20, 10, even)])


def test_the_report_writes_the_history_note(tmp_path, capsys):
    from bots.ladder.report import history_note
    pytest.importorskip("matplotlib")
    db = str(tmp_path / "l.db")
    assert main(["ladder", "run", "--game", SMALL, "--bots", "rules,random", "--deals", "6",
                 "--db", db, "--quiet"]) == 0
    out_dir = str(tmp_path / "report")
    assert main(["ladder", "report", "--db", db, "--out", out_dir]) == 0
    res = LadderResults.open(db)
    text = open(os.path.join(out_dir, "report.md")).read()
    assert history_note(res, res.history()) in text
