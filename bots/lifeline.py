"""Child processes that end with their parent.

A process started to do work for another (a ladder's worker, the engine's
exact solve) is useless once that other process is gone, and a CPU-bound
one left running keeps a core busy for minutes.  ``exit_with_parent``
gives such a child a daemon thread that watches its parent and ends the
child when the parent is gone, however it went (a SIGKILL included: no
handler in the parent runs then, so the child has to notice by itself).
"""

from __future__ import annotations

import os
import threading

#: seconds between two looks at the parent
POLL_SECONDS = 0.2


def exit_with_parent(parent: int | None = None,
                     poll: float = POLL_SECONDS) -> threading.Thread:
    """Start the watch in this (child) process: when the process ``parent``
    is no longer its parent (it died, and the child was handed to another
    process, so ``os.getppid()`` changed), the child exits with status 1,
    without cleanup (there is nobody left to clean up for).  Returns the
    watching thread.

    ``parent`` is the pid the parent passes down (``os.getpid()`` there).
    Without it the watch takes ``os.getppid()`` when it starts, and a
    parent killed between starting the child and the watch would be missed:
    the child would take its new parent for the one to watch."""
    if parent is None:
        parent = os.getppid()
    if os.getppid() != parent:          # gone already, before the watch began
        os._exit(1)

    never = threading.Event()   # never set: its wait is the poll's sleep

    def watch():
        while not never.wait(poll):
            if os.getppid() != parent:
                os._exit(1)

    thread = threading.Thread(target=watch, name="dixtrix-lifeline", daemon=True)
    thread.start()
    return thread


__all__ = ["exit_with_parent", "POLL_SECONDS"]
