"""The bounded worker pool: searches and bot turns run here, off the event
loop, on threads (the Cython kernels release the GIL while they search).

At most ``workers`` jobs run and ``queue`` more wait; one more is refused
at once with :class:`Busy` (the app answers 503 with ``Retry-After``), so
a flood of requests can neither grow memory without bound nor delay every
client.  Each job gets a ``threading.Event`` it passes to the search as its
stop event: a shutdown sets them all, and a search ends within
milliseconds with the best it found; so does a client that goes away
while its search runs.
"""

from __future__ import annotations

import asyncio
import contextvars
import math
import threading
from concurrent.futures import ThreadPoolExecutor

from solver.errors import DixtrixError
from solver.front import N_
from solver.said import Said, phrase

#: seconds between two looks at whether a job's client went away
WATCH_SECONDS = 0.1


# the errors raised here and by the tables (bots/server/tables.py): a code
# and its parameters (solver/errors.py), worded in the request's language
SHUTTING_DOWN = phrase("server_shutting_down", N_("the server is shutting down"))
ALL_BUSY = phrase("server_busy", N_("all {workers} workers are busy and {waiting} requests wait "
                                    "(at most {most}): retry later"))
MAX_TABLES = phrase("server_max_tables", N_("this server holds its maximum of {most} tables: "
                                            "retry later"))


class Busy(DixtrixError):
    """Every worker is busy and the queue is full; ``retry_after`` is the
    seconds after which a retry has a fair chance."""

    def __init__(self, message: str | Said, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


class Pool:
    def __init__(self, workers: int, queue: int, job_seconds: float):
        self.workers = workers
        self.capacity = workers + queue
        #: a job's usual upper bound, for Retry-After
        self.job_seconds = job_seconds
        self.executor = ThreadPoolExecutor(max_workers=workers,
                                           thread_name_prefix="dixtrix-worker")
        self.lock = threading.Lock()
        self.pending = 0
        #: jobs running on a worker now (the others of ``pending`` wait)
        self.running = 0
        self.stops: set[threading.Event] = set()
        self.closed = False

    def stats(self) -> dict:
        with self.lock:
            return {"workers": self.workers, "capacity": self.capacity,
                    "pending": self.pending, "running": self.running}

    async def run(self, fn, *args, disconnected=None, **kwargs):
        """``fn(*args, stop=event, **kwargs)`` on a worker; ``Busy`` when
        full.  ``disconnected``: an async callable that says whether the
        client went away (polled every ``WATCH_SECONDS``): then the job's
        stop event is set and its search ends with what it found."""
        stop = threading.Event()
        with self.lock:
            if self.closed:
                raise Busy(SHUTTING_DOWN(), 1)
            if self.pending >= self.capacity:
                waves = math.ceil((self.pending + 1) / max(1, self.workers))
                raise Busy(ALL_BUSY(workers=self.workers, waiting=self.pending - self.workers,
                                    most=self.capacity - self.workers),
                           max(1, math.ceil(waves * self.job_seconds)))
            self.pending += 1
            self.stops.add(stop)

        def done(_):
            with self.lock:
                self.pending -= 1
                self.stops.discard(stop)

        def job():
            with self.lock:
                self.running += 1
            try:
                return fn(*args, stop=stop, **kwargs)
            finally:
                with self.lock:
                    self.running -= 1

        # the request's context (its request id, for the log) on the worker too
        context = contextvars.copy_context()
        try:
            future = self.executor.submit(context.run, job)
        except RuntimeError:                 # the executor was shut down meanwhile
            done(None)
            raise Busy(SHUTTING_DOWN(), 1) from None
        future.add_done_callback(done)
        waiter = asyncio.wrap_future(future)
        try:
            if disconnected is None:
                return await waiter
            while True:
                finished, _ = await asyncio.wait({waiter}, timeout=WATCH_SECONDS)
                if finished:
                    return waiter.result()
                if not stop.is_set() and await disconnected():
                    stop.set()               # nobody waits for the answer: end the search
        except asyncio.CancelledError:       # the request was cancelled: end its search
            stop.set()
            raise

    def stop_all(self) -> None:
        """Ask every search under way to end now (with the best it found)."""
        with self.lock:
            for stop in self.stops:
                stop.set()

    def shutdown(self) -> None:
        with self.lock:
            self.closed = True
            for stop in self.stops:
                stop.set()
        self.executor.shutdown(wait=True, cancel_futures=True)


__all__ = ["Pool", "Busy"]
