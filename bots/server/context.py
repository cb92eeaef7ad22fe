"""What every route of one application shares (``app.create_app`` makes
it, the routers read it from ``request.app.state.context``): the settings
that cap a request, the table store and the tables held in memory, the hub
of live updates, the worker pool and the metrics; and the work a search
route hands the pool (``work``), held here so that a test may swap it.
"""

from __future__ import annotations

import time as _time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request

from .db import open_store
from .live import Hub
from .observe import Metrics
from .pool import Pool
from .settings import Settings
from .store import TableStore
from .tables import Tables


@dataclass
class Context:
    settings: Settings
    store: TableStore
    tables: Tables
    hub: Hub
    pool: Pool
    #: the hint, solve and evaluate of a request, run on a worker
    #: (``work._advise``, ``work._solve``, ``work._evaluate``)
    advise: Callable[..., dict]
    solve: Callable[..., dict]
    evaluate: Callable[..., dict]
    #: when the application was made (seconds since the epoch: ``/healthz``'s uptime)
    started: float = field(default_factory=_time.time)
    metrics: Metrics = field(init=False)

    def __post_init__(self) -> None:
        self.metrics = Metrics(self.gauges)

    @classmethod
    def open(cls, settings: Settings, **work: Any) -> Context:
        """The store, tables, hub and pool ``settings`` ask for, with the
        work ``advise``, ``solve`` and ``evaluate`` given."""
        store = open_store(settings.db)
        tables = Tables(settings, store)
        # news of a change reaches this process's viewers and, through the
        # store (PostgreSQL's NOTIFY), the other processes' (live.Hub)
        hub = Hub(relay=store.notify, origin=tables.owner)
        tables.notify = hub.publish
        pool = Pool(settings.workers, settings.queue, settings.max_time)
        return cls(settings=settings, store=store, tables=tables, hub=hub, pool=pool, **work)

    def gauges(self) -> dict[str, tuple[str, float]]:
        stats = self.pool.stats()
        return {
            "dixtrix_searches_running": ("Jobs (searches, bot turns) running on a worker",
                                         stats["running"]),
            "dixtrix_queue": ("Jobs waiting for a worker",
                              max(0, stats["pending"] - stats["running"])),
            "dixtrix_queue_capacity": ("Jobs that may run or wait at once", stats["capacity"]),
            "dixtrix_tables_open": ("Tables this process holds in memory", len(self.tables.cache)),
            "dixtrix_event_streams": ("Live-update streams open", self.hub.count()),
        }


def context(request: Request) -> Context:
    """The context of the application that serves ``request``."""
    return request.app.state.context
