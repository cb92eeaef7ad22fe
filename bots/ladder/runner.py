"""The coordinator: schedule -> executor -> store, with a progress bar.

``run_ladder`` checks everything it was given before any game runs (the
game and its options, every bot entry with ``make_bot``, the executor,
the database's schedule), then plays only the games the database does not
hold yet, storing each as it finishes.  Rerunning the same command after a
kill resumes; the final table is the same as an uninterrupted run's,
since every seed comes from the schedule, never from the run order.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from .executors import DaskExecutor, LocalExecutor
from .schedule import Schedule
from .store import LadderStore


@dataclass
class RunSummary:
    schedule: Schedule
    db: str
    scheduled: int          # games in the first ``deals`` deals
    already: int            # of those, already in the database
    played: int             # played by this run
    seconds: float
    where: str

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else float("nan")


class _Progress:
    """A tqdm bar on stderr (games done, games/s, ETA), or nothing."""

    def __init__(self, total: int, initial: int, enabled: bool, desc: str):
        self.bar = None
        self.enabled = enabled
        if not enabled:
            return
        try:
            from tqdm import tqdm
        except ImportError:              # plain lines instead of a bar
            self.total, self.n, self.t0, self.last = total, initial, time.monotonic(), 0.0
            return
        self.bar = tqdm(total=total, initial=initial, unit="game", desc=desc,
                        file=sys.stderr, dynamic_ncols=True, smoothing=0.1)

    def update(self) -> None:
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.update(1)
            return
        self.n += 1
        now = time.monotonic()
        if now - self.last >= 2.0 or self.n == self.total:
            self.last = now
            rate = self.n / max(now - self.t0, 1e-9)
            eta = (self.total - self.n) / rate if rate > 0 else float("inf")
            print(f"{self.n}/{self.total} games, {rate:.2f} games/s, ETA {eta:.0f} s",
                  file=sys.stderr)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def run_ladder(game, bots, *, deals: int, seed: int = 0, db: str = "ladder.db",
               jobs: int = 1, dask=None, progress: bool | None = None,
               schedule: Schedule | None = None) -> RunSummary:
    """Play (or resume) a ladder into the SQLite file ``db``.

    ``game``: ``"dix:variant=seventeen"``; ``bots``: settings strings (a
    list or one comma-separated string); ``jobs``: worker processes;
    ``dask``: a scheduler address or a ``distributed.Client`` / cluster
    (instead of ``jobs``); ``progress``: a bar on stderr (default: when
    stderr is a terminal)."""
    sch = schedule or Schedule(game, bots, seed)
    tasks = list(sch.tasks(deals))
    executor = DaskExecutor(dask) if dask is not None else LocalExecutor(jobs)
    try:
        with LadderStore.create(db, sch) as store:
            prev = int(store.meta("deals", "0"))
            if deals > prev:
                store.set_meta("deals", str(deals))
            done = store.done_keys()
            todo = [t for t in tasks if t.key not in done]
            if progress is None:
                progress = sys.stderr.isatty()
            bar = _Progress(len(tasks), len(tasks) - len(todo), progress and bool(todo),
                            f"ladder {sch.game_spec}")
            played = 0
            t0 = time.perf_counter()
            try:
                for res in executor.run(todo):
                    store.add(res)
                    played += 1
                    bar.update()
            finally:
                bar.close()
            seconds = time.perf_counter() - t0
            return RunSummary(sch, db, len(tasks), len(tasks) - len(todo), played, seconds,
                              executor.describe())
    finally:
        if isinstance(executor, DaskExecutor):
            executor.close()
