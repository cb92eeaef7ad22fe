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
    """A tqdm bar on stderr (games done, games/s, ETA), or plain lines.

    The rate counts only the games this run plays (a resumed run's stored
    games are not divided by this run's seconds) and is the average since
    the start, not a moving one: games end in bursts when several workers
    run, and a rate taken over a burst promises an end in seconds.  Until
    ``settle`` games of this run are done the plain lines give no rate or
    ETA at all (the first games of a window all end about together)."""

    def __init__(self, total: int, initial: int, enabled: bool, desc: str, settle: int = 1):
        self.bar = None
        self.enabled = enabled
        self.total, self.initial, self.n = total, initial, initial
        self.settle = max(1, settle)
        self.t0 = time.monotonic()
        self.last: float | None = None
        if not enabled:
            return
        try:
            # tqdm is the optional [ladder] extra: without it, no bar
            from tqdm import tqdm
        except ImportError:              # plain lines instead of a bar
            return
        self.bar = tqdm(total=total, initial=initial, unit="game", desc=desc,
                        file=sys.stderr, dynamic_ncols=True, smoothing=0)

    def line(self, now: float) -> str:
        """The plain progress line at ``now`` (``time.monotonic()``)."""
        played = self.n - self.initial
        text = f"{self.n}/{self.total} games"
        if played < self.settle:
            return text + f" (rate and ETA once {self.settle} games of this run are done)"
        rate = played / max(now - self.t0, 1e-9)
        eta = (self.total - self.n) / rate
        return text + f", {rate:.2f} games/s, ETA {_duration(eta)}"

    def update(self) -> None:
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.update(1)
            return
        self.n += 1
        now = time.monotonic()
        if self.last is None or now - self.last >= 2.0 or self.n == self.total:
            self.last = now
            print(self.line(now), file=sys.stderr)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _duration(seconds: float) -> str:
    """``ETA 9 min``: seconds as a person reads them."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def scope(schedule: Schedule, todo: int, stored: int, workers: str) -> str:
    """What a run is about to do, said before its first game: how many
    games, and that each is a whole match (with what ends it), since a
    ladder at a game's default match length runs for a long time."""
    game = schedule.game
    text = (f"ladder {schedule.game_spec}: {todo:,} games to play {workers}"
            + (f" ({stored:,} already stored)" if stored else "")
            + f"; each game is a whole {game.name} match")
    spec = game.options_spec.get("target")
    if spec is not None:
        target = game.options["target"]
        text += f" (to {target} points" + (", the default" if target == spec.default else "") \
            + ")"
        if target == spec.default:
            text += (f", many deals each: a first try runs faster with a lower target "
                     f"(--game {game.name}:target=...)")
    return text


def run_ladder(game, bots, *, deals: int, seed: int = 0, db: str = "ladder.db",
               jobs: int = 1, dask=None, progress: bool | None = None,
               schedule: Schedule | None = None, notice=None) -> RunSummary:
    """Play (or resume) a ladder into the SQLite file ``db``.

    ``game``: ``"dix:variant=seventeen"``; ``bots``: settings strings (a
    list or one comma-separated string); ``jobs``: worker processes;
    ``dask``: a scheduler address or a ``distributed.Client`` / cluster
    (instead of ``jobs``); ``progress``: a bar on stderr (default: when
    stderr is a terminal); ``notice``: called with one line saying what
    the run is about to play (``scope``) before the first game."""
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
            if notice is not None and todo:
                notice(scope(sch, len(todo), len(tasks) - len(todo), executor.describe()))
            bar = _Progress(len(tasks), len(tasks) - len(todo), progress and bool(todo),
                            f"ladder {sch.game_spec}",
                            settle=2 * getattr(executor, "jobs", 2))
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
