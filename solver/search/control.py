"""What every long search shares: stopping on request, reporting progress on
time, and the 95% interval of a mean.

A search takes ``stop`` (anything with ``is_set()``, e.g. a
``threading.Event``) and ``progress`` (a callable or None).  It checks
``stop`` often (the Cython kernels every 64 iterations, the Python loops
every iteration or world) and, once it is set, ends and returns what it
has found so far as a normal result (``stopped=True``).  ``progress`` is
called about every ``PROGRESS_SECONDS`` with a dict (``iterations``,
``seconds``, ``nodes``, ``best``, ``value``).  Ctrl-C (SIGINT) raises
``KeyboardInterrupt`` from the search within a fraction of a second when it
runs in the main thread: the Python loops run bytecode, and the Cython
kernels hand the main thread back to Python to poll (csrc/search/ismcts.pyx,
solver.dd).
"""

from __future__ import annotations

import time as _time
from collections.abc import Callable
from typing import Any, Protocol

from ..errors import OptionError
from ..front import N_
from ..said import phrase
from ..stats import Z95, half_width  # re-exported: the searches' intervals

# the errors raised here (solver/errors.py: a code and its parameters)
STOP_TYPE = phrase("stop_type", N_("stop must be None or an event with is_set() (e.g. a threading.Event), "
                                   "got {got}"))
PROGRESS_TYPE = phrase("progress_type", N_("progress must be a callable or None, got {got}"))

#: seconds between two progress reports of a search
PROGRESS_SECONDS = 0.1


class StopFlag(Protocol):
    """What a search's ``stop`` is: anything with ``is_set()`` (a
    ``threading.Event``)."""

    def is_set(self) -> bool: ...


def check_stop(stop: Any) -> None:
    if stop is not None and not callable(getattr(stop, "is_set", None)):
        raise OptionError(STOP_TYPE(got=type(stop).__name__))


def check_progress(progress: Any) -> None:
    if progress is not None and not callable(progress):
        raise OptionError(PROGRESS_TYPE(got=type(progress).__name__))


class Control:
    """A search's stop flag and progress clock."""

    __slots__ = ("stop", "progress", "next_report", "start")

    def __init__(self, stop=None, progress: Callable | None = None):
        check_stop(stop)
        check_progress(progress)
        self.stop = stop
        self.progress = progress
        self.start = _time.perf_counter()
        self.next_report = self.start + PROGRESS_SECONDS

    def stopped(self) -> bool:
        return self.stop is not None and bool(self.stop.is_set())

    def due(self) -> bool:
        """Whether a progress report is due (and, if so, the clock restarts)."""
        if self.progress is None:
            return False
        now = _time.perf_counter()
        if now < self.next_report:
            return False
        self.next_report = now + PROGRESS_SECONDS
        return True

    def report(self, info: dict) -> None:
        if self.progress is not None:
            self.progress(info)


__all__ = ["Control", "StopFlag", "PROGRESS_SECONDS", "Z95", "half_width", "check_stop",
           "check_progress"]
