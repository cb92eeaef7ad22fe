"""Where the games run: in this process (``jobs=1``), in worker processes
(``concurrent.futures.ProcessPoolExecutor``), or on an existing Dask
distributed cluster.  Each executor yields finished games as they come,
in any order; the coordinator (``runner.run_ladder``) stores them.  The
same executors run other plain-data tasks with a function of their own
(``run(tasks, fn, fail)``: the self-play and duplicate games of
``dixtrix learn``, bots/learn.py).  At
most a small window of games is in flight at a time (twice the workers),
so a killed coordinator loses only those, and the worker processes end
with it (``bots.lifeline``): nobody is left to store what they would play.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any

from solver.errors import INSTALL, OptionError
from solver.front import N_
from solver.said import Quote, phrase

from ..lifeline import exit_with_parent
from .play import play_game
from .schedule import GameTask
from .store import LadderError

# the errors raised here (solver/errors.py: a code and its parameters); the
# first is also the command line's (bots/cli.py, bots/ladder/cli.py)
JOBS_OR_DASK = phrase("jobs_or_dask", N_("--jobs and --dask exclude each other (Dask decides "
                                         "the workers)"))
JOBS_RANGE = phrase("ladder_jobs", N_("--jobs must be 1..256, got {got}"))
NEEDS_DASK = phrase("needs_dask", N_("--dask needs Dask distributed: {install}"))
DASK_EMPTY = phrase("dask_empty", N_("--dask: empty scheduler address"))
GAME_FAILED = phrase("ladder_game_failed", N_("game (deal {deal}, group {group}, rotation "
                                               "{rotation}: {specs}) failed: {kind}: {reason}"))
DASK_UNREACHABLE = phrase("dask_unreachable", N_("--dask {address}: cannot reach the scheduler "
                                                 "({kind}: {reason})"))


class GameFailed(LadderError):
    """A game raised inside a bot or the rules: names the game."""


#: what an executor runs: a picklable function of one plain-data task
TaskFn = Callable[[Any], Any]
#: the error that names a failed task
FailFn = Callable[[Any, BaseException], Exception]


def _fail(task: GameTask, exc: BaseException) -> GameFailed:
    return GameFailed(GAME_FAILED(deal=task.deal, group=task.group, rotation=task.rotation,
                                  specs=list(task.specs), kind=type(exc).__name__,
                                  reason=str(exc)))


class LocalExecutor:
    """``jobs`` processes on this machine (``jobs=1``: this process)."""

    def __init__(self, jobs: int = 1):
        if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= 256:
            raise OptionError(JOBS_RANGE(got=Quote(jobs)))
        self.jobs = jobs

    def describe(self) -> str:
        return "in this process" if self.jobs == 1 else f"on {self.jobs} worker processes"

    def run(self, tasks: Iterable[Any], fn: TaskFn = play_game,
            fail: FailFn = _fail) -> Iterator[Any]:
        if self.jobs == 1:
            for task in tasks:
                try:
                    yield fn(task)
                except Exception as exc:
                    raise fail(task, exc) from exc
            return
        window = 2 * self.jobs
        it = iter(tasks)
        # the coordinator's pid goes down with the workers: a worker reading
        # its parent itself could read a coordinator killed while it started
        with ProcessPoolExecutor(max_workers=self.jobs, initializer=exit_with_parent,
                                 initargs=(os.getpid(),)) as pool:
            pending = {}
            try:
                for task in it:
                    pending[pool.submit(fn, task)] = task
                    if len(pending) >= window:
                        break
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for fut in done:
                        task = pending.pop(fut)
                        error = fut.exception()
                        if error is not None:
                            raise fail(task, error) from error
                        yield fut.result()
                        nxt = next(it, None)
                        if nxt is not None:
                            pending[pool.submit(fn, nxt)] = nxt
            finally:
                for fut in pending:
                    fut.cancel()


class DaskExecutor:
    """The games on an existing Dask distributed cluster: ``address`` is a
    scheduler address (``tcp://host:8786``), or a ``distributed.Client``
    or cluster object (``LocalCluster``).  Workers need only dixtrix
    installed; results come back to this process, which writes SQLite."""

    def __init__(self, address, timeout: float = 30.0):
        try:
            # distributed is the optional [dask] extra, needed only with --dask
            import distributed
        except ImportError:
            raise OptionError(NEEDS_DASK(install=INSTALL(extra="dask"))) from None
        self._distributed = distributed
        self._own = False
        if isinstance(address, distributed.Client):
            self.client = address
        else:
            if isinstance(address, str) and not address.strip():
                raise OptionError(DASK_EMPTY())
            try:
                self.client = distributed.Client(address, timeout=timeout,
                                                 set_as_default=False)
            except (OSError, TimeoutError, ValueError) as exc:
                raise LadderError(DASK_UNREACHABLE(address=Quote(address), kind=type(exc).__name__,
                                                   reason=str(exc))) from None
            self._own = True

    def describe(self) -> str:
        n = len(self.client.scheduler_info().get("workers", {}))
        return f"on Dask cluster {self.client.scheduler.address} ({n} workers)"

    def _window(self) -> int:
        info = self.client.scheduler_info().get("workers", {})
        threads = sum(w.get("nthreads", 1) for w in info.values()) or os.cpu_count() or 2
        return 2 * threads

    def run(self, tasks: Iterable[Any], fn: TaskFn = play_game,
            fail: FailFn = _fail) -> Iterator[Any]:
        it = iter(tasks)
        futures = {}
        window = self._window()
        for task in it:
            futures[self.client.submit(fn, task, pure=False)] = task
            if len(futures) >= window:
                break
        queue = self._distributed.as_completed(list(futures), loop=self.client.loop)
        try:
            for fut in queue:
                task = futures.pop(fut)
                if fut.status == "error":
                    raise fail(task, fut.exception())
                res = fut.result()
                fut.release()
                yield res
                nxt = next(it, None)
                if nxt is not None:
                    f2 = self.client.submit(fn, nxt, pure=False)
                    futures[f2] = nxt
                    queue.add(f2)
        finally:
            for fut in futures:
                fut.cancel()

    def close(self) -> None:
        if self._own:
            self.client.close()
