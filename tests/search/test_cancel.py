"""Stopping a search: on request (a stop event: the best so far comes back
as a normal result) and on Ctrl-C (SIGINT raises KeyboardInterrupt in the
Cython kernels too).  Every check is of events and counts: a search of a
billion iterations that comes back stopped was stopped, whatever the
machine's load; no test here asserts how long anything took (the latency
of a stop is measured by ``bench/`` scripts and printed, never asserted)."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import solver
from solver.errors import OptionError
from solver.search import Limit, best_move, evaluate

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _dix_mid_round(seed=3, n=20):
    state = solver.load_game("dix").new_initial_state(seed=seed)
    for _ in range(n):
        state.apply_action(state.legal_actions()[0])
    return state


def _stop_once_under_way(reports=2):
    """A stop event and a progress callback that sets it at the search's
    ``reports``-th progress report: the stop comes while the search runs,
    after it has done some work, on any machine."""
    event = threading.Event()
    seen = []

    def progress(info):
        seen.append(info)
        if len(seen) >= reports:
            event.set()
    return event, progress, seen


@pytest.mark.parametrize("bot,limit", [("ismcts", Limit(iterations=10**9)),
                                       ("pimc", Limit(worlds=10**9))])
def test_a_stop_request_returns_the_best_so_far(bot, limit):
    state = _dix_mid_round()
    stop, progress, seen = _stop_once_under_way()
    res = best_move(state, limit, bot=bot, stop=stop, progress=progress, seed=1)
    assert res.stopped and res.action in res.values
    assert 0 < res.iterations < 10**9 and len(seen) >= 2


def test_a_stop_request_ends_python_searches_and_evaluate():
    game = solver.load_game("dixie-rook")
    state = game.new_initial_state(seed=1)          # the auction: the Python search
    stop, progress, _ = _stop_once_under_way()
    res = best_move(state, Limit(iterations=10**9), stop=stop, progress=progress)
    assert res.stopped and res.action in res.values
    stop, progress, _ = _stop_once_under_way()
    ev = evaluate(state, Limit(worlds=10**9), stop=stop, progress=progress)
    assert ev.stopped and 0 < ev.worlds < 10**9


def test_bad_stop_and_progress_are_option_errors():
    state = _dix_mid_round()
    with pytest.raises(OptionError, match="stop"):
        best_move(state, Limit(iterations=10), stop=5)
    with pytest.raises(OptionError, match="progress"):
        best_move(state, Limit(iterations=10), progress=5)


SCRIPT = textwrap.dedent("""
    import os, signal, sys, traceback
    # a process started in the background may inherit SIGINT ignored (then
    # Python installs no handler): the test is of Python's default handler
    signal.signal(signal.SIGINT, signal.default_int_handler)
    import solver
    from solver.search import Limit, best_move
    bot = sys.argv[1]
    state = solver.load_game("GAME", **OPTIONS).new_initial_state(seed=3)
    for _ in range(STEPS):
        state.apply_action(state.legal_actions()[0])

    def under_way(info, said=[]):
        if not said:                     # the search is running: signal now
            said.append(1)
            print("searching", flush=True)

    try:
        if bot == "solve":
            print("searching", flush=True)
            solver.solve(state)
        else:
            # exact=False: the search itself, even where the view
            # determines the deal (dix after the stock)
            best_move(state, Limit(LIMIT=10**9), bot=bot, seed=1, exact=False,
                      progress=under_way)
    except KeyboardInterrupt as exc:
        # where the interrupt landed: inside the search or solver, or before it
        inside = any(os.sep + "solver" + os.sep in f.filename
                     for f in traceback.extract_tb(exc.__traceback__)[1:])
        print("interrupted " + ("inside" if inside else "outside"), flush=True)
        sys.exit(0)
    print("finished", flush=True)
""")


def _pump(stream, lines: queue.Queue) -> None:
    for line in stream:
        lines.put(line.strip())


def _interrupt(bot, game, steps, limit, options=None, attempts=3):
    """SIGINT to a child process in the middle of a search of a billion
    iterations (or a solve of minutes): its answer (``interrupted inside``
    when the KeyboardInterrupt came out of the search or solver).  A search
    says it is under way through its progress callback; the exact solver
    reports no progress, so the child is given a moment to enter it, more
    on each attempt that finds the interrupt landed before it."""
    for attempt in range(attempts):
        code = SCRIPT.replace("GAME", game).replace("STEPS", str(steps)).replace(
            "LIMIT", limit).replace("OPTIONS", repr(options or {}))
        proc = subprocess.Popen([sys.executable, "-c", code, bot], stdout=subprocess.PIPE,
                                text=True, cwd=ROOT)
        lines: queue.Queue = queue.Queue()
        # this attempt's child and queue passed as they are: a closure would
        # read the names late, and an earlier attempt's reader still running
        # would put its child's lines into this attempt's queue
        threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True).start()
        try:
            assert lines.get(timeout=120) == "searching"
            if bot == "solve":
                time.sleep(0.5 * (attempt + 1))        # into the kernel: no progress there
            proc.send_signal(signal.SIGINT)
            try:
                line = lines.get(timeout=60)          # liveness only: never hang the suite
            except queue.Empty:
                line = "no answer within 60 s"
            assert proc.wait(timeout=30) == 0
        finally:
            proc.kill()
            proc.wait()
        if line != "interrupted outside":
            return line
    return line


@pytest.mark.parametrize("bot,game,steps,limit", [
    ("ismcts", "dix", 20, "iterations"),          # the Cython kernel
    ("ismcts", "dixie-rook", 0, "iterations"),    # the Python search (the auction)
    ("pimc", "dix", 20, "worlds"),                # play-outs while the stock lasts
    ("pimc", "dix", 30, "worlds"),                # every world solved double dummy
    ("pimc", "trix", 5, "worlds"),                # full-deal solves of 2M nodes each
    ("solve", "dixie-rook", 16, "worlds"),        # a full-deal solve: the generic kernel
    ("solve", "dix:seventeen", 0, "worlds"),      # a whole round: the dix solver
])
def test_ctrl_c_stops_a_search(bot, game, steps, limit):
    options = {}
    if ":" in game:
        game, variant = game.split(":")
        options = {"variant": variant}
    assert _interrupt(bot, game, steps, limit, options=options) == "interrupted inside"


def test_the_cython_search_reports_progress_as_it_runs():
    state = _dix_mid_round()
    seen = []
    res = best_move(state, Limit(time=0.6), seed=1, progress=seen.append)
    assert len(seen) >= 2                     # about every 0.1 s: 6 on a quiet machine
    its = [info["iterations"] for info in seen]
    assert its == sorted(its) and seen[-1]["best"] and its[-1] <= res.iterations
