"""Live updates: who is waiting for news of which table.

``publish(table_id, version)`` is called (from any thread) after every
change a table commits -- a move, the bots' moves, its deletion (version
-1); each subscriber of that table gets the version in its queue, and the
events route (``GET /v1/tables/{id}/events``) sends it to the browser as a
server-sent event, which then asks for its view again.  Versions, not
views, travel here: each viewer's view depends on its token, so each
fetches its own.

Several processes over one database: ``publish`` also hands the news to
``relay`` (the store's ``notify``: PostgreSQL's NOTIFY), and ``receive``
takes the other processes' news (from the store's ``listen``) to this
process's subscribers.  Each process names itself (``origin``) and skips
its own news coming back.  With SQLite, nothing crosses: one process
serves a file's tables.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable

from solver.errors import DixtrixError

log = logging.getLogger("dixtrix.server")

#: a queue holds at most this many unread versions (a slow reader misses the
#: intermediate ones, never the latest: each event says "ask again")
QUEUE = 8
CLOSED = -2


class Hub:
    def __init__(self, relay: Callable[[str, int, str], None] | None = None,
                 origin: str = ""):
        #: sends a change to the other processes (table id, version, origin)
        self.relay = relay
        self.origin = origin
        self.loop: asyncio.AbstractEventLoop | None = None
        self.lock = threading.Lock()
        self.subscribers: dict[str, set[asyncio.Queue]] = {}
        self.closed = False

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """The event loop the subscribers wait on (set when the app starts)."""
        self.loop = loop

    def subscribe(self, table_id: str) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue(QUEUE)
        with self.lock:
            if self.closed:
                queue.put_nowait(CLOSED)
            self.subscribers.setdefault(table_id, set()).add(queue)
        return queue

    def unsubscribe(self, table_id: str, queue: asyncio.Queue) -> None:
        with self.lock:
            subs = self.subscribers.get(table_id)
            if subs is not None:
                subs.discard(queue)
                if not subs:
                    del self.subscribers[table_id]

    def count(self, table_id: str | None = None) -> int:
        with self.lock:
            if table_id is not None:
                return len(self.subscribers.get(table_id, ()))
            return sum(len(s) for s in self.subscribers.values())

    def publish(self, table_id: str, version: int) -> None:
        """Tell every subscriber of ``table_id``, here and (``relay``) in the
        other processes; safe from any thread.  A relay that fails is
        logged: the change is stored, and the other processes' viewers see
        it at their next look."""
        if self.relay is not None:
            try:
                self.relay(table_id, version, self.origin)
            except DixtrixError as exc:
                log.warning("live update of table %s not relayed: %s", table_id, exc)
        self._local(table_id, version)

    def receive(self, table_id: str, version: int, origin: str) -> None:
        """Another process's news (the store's listener thread)."""
        if origin != self.origin:
            self._local(table_id, version)

    def _local(self, table_id: str, version: int) -> None:
        with self.lock:
            queues = list(self.subscribers.get(table_id, ()))
        if not queues or self.loop is None:
            return
        try:
            self.loop.call_soon_threadsafe(self._deliver, queues, version)
        except RuntimeError:                # the loop is closed: the server is stopping
            pass

    @staticmethod
    def _deliver(queues, version: int) -> None:
        for q in queues:
            if q.full():                    # keep the latest: drop the oldest unread
                try:
                    q.get_nowait()
                except asyncio.QueueEmpty:
                    pass
            q.put_nowait(version)

    def close(self) -> None:
        """End every stream (the server is stopping); safe from any thread."""
        with self.lock:
            self.closed = True
            queues = [q for subs in self.subscribers.values() for q in subs]
        if queues and self.loop is not None:
            try:
                self.loop.call_soon_threadsafe(self._deliver, queues, CLOSED)
            except RuntimeError:
                pass


__all__ = ["Hub", "CLOSED"]
