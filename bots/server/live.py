"""Live updates: who is waiting for news of which table.

``publish(table_id, version)`` is called (from any thread) after every
change a table commits -- a move, the bots' moves, its deletion (version
-1); each subscriber of that table gets the version in its queue, and the
events route (``GET /v1/tables/{id}/events``) sends it to the browser as a
server-sent event, which then asks for its view again.  Versions, not
views, travel here: each viewer's view depends on its token, so each
fetches its own.

This hub serves one process.  Several processes over one database need
their news to cross between them (PostgreSQL's LISTEN/NOTIFY, say): such
a hub keeps these two methods and ``close``, and the store's writers call
``publish`` as they do now.
"""

from __future__ import annotations

import asyncio
import threading

#: a queue holds at most this many unread versions (a slow reader misses the
#: intermediate ones, never the latest: each event says "ask again")
QUEUE = 8
CLOSED = -2


class Hub:
    def __init__(self):
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
        """Tell every subscriber of ``table_id``; safe from any thread."""
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
