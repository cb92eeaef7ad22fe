"""What an operator watches: Prometheus metrics (``GET /metrics``), one
log line a request with a request id (``--log-format json``).

The request middleware wraps the whole application (a plain ASGI callable,
so event streams pass through unbuffered): it gives each request an id
(the client's ``X-Request-ID`` when it is a short plain token, as a
reverse proxy sends it, otherwise a new one), answers with it in
``X-Request-ID``, counts the request and its seconds by route template
(``/v1/tables/{table_id}``, never the table's id: one series a route), and
logs one line: method, path, route, status, seconds, request id.  The id
is also in every other log line written while the request runs, on its
worker too (``pool.Pool`` runs a job in the request's context).
"""

from __future__ import annotations

import contextvars
import json
import logging
import os
import re
import secrets
import time as _time
from collections.abc import Callable
from datetime import datetime, timezone

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily

#: the id of the request being served (None: none)
REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id",
                                                                       default=None)
#: what a client's X-Request-ID may be to be kept
CLIENT_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
#: the latency buckets (seconds): a view takes milliseconds, a search up to max_time
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

request_log = logging.getLogger("dixtrix.request")


class Metrics:
    """The server's metrics in a registry of its own (several apps in one
    process, as in the tests, each count their own)."""

    def __init__(self, gauges: Callable[[], dict[str, tuple[str, float]]]):
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter("dixtrix_requests", "HTTP requests answered",
                                ("method", "route", "status"), registry=self.registry)
        self.seconds = Histogram("dixtrix_request_seconds", "Seconds from a request's start "
                                 "to its answer's start", ("route",), buckets=BUCKETS,
                                 registry=self.registry)
        self.registry.register(_Gauges(gauges))

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


class _Gauges:
    """Gauges read when scraped: ``gauges()`` gives name -> (help, value)."""

    def __init__(self, gauges):
        self.gauges = gauges

    def collect(self):
        for name, (doc, value) in self.gauges().items():
            yield GaugeMetricFamily(name, doc, value=value)

    def describe(self):
        return []


class RequestMiddleware:
    def __init__(self, app, metrics: Metrics, route_of: Callable[[str], str]):
        self.app = app
        self.metrics = metrics
        self.route_of = route_of

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers") or ()).get(b"x-request-id", b"").decode("latin-1")
        rid = given if CLIENT_ID.match(given) else secrets.token_hex(8)
        token = REQUEST_ID.set(rid)
        start = _time.perf_counter()
        route = self.route_of(scope["path"])
        #: the answer's status (500 until one starts: an exception that
        #: escapes is answered 500 by Starlette's outermost layer)
        status = [500]
        counted = [False]

        def count():
            if not counted[0]:
                counted[0] = True
                self.metrics.seconds.labels(route).observe(_time.perf_counter() - start)
                self.metrics.requests.labels(scope["method"], route, str(status[0])).inc()

        async def sending(message):
            if message["type"] == "http.response.start":
                status[0] = message["status"]
                message = dict(message, headers=[*message.get("headers", ()),
                                                 (b"x-request-id", rid.encode())])
                count()
            await send(message)
        try:
            await self.app(scope, receive, sending)
        finally:
            count()
            if request_log.isEnabledFor(logging.INFO):
                request_log.info("%s %s %s", scope["method"], scope["path"], status[0],
                                 extra={"fields": {
                                     "method": scope["method"], "path": scope["path"],
                                     "route": route,
                                     "status": status[0],
                                     "seconds": round(_time.perf_counter() - start, 6)}})
            REQUEST_ID.reset(token)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message,
    the process id, the request id if a request is being served, a
    request's fields, and the traceback of an exception."""

    def format(self, record: logging.LogRecord) -> str:
        doc = {"time": datetime.fromtimestamp(record.created, timezone.utc)
               .isoformat(timespec="milliseconds"),
               "level": record.levelname.lower(), "logger": record.name,
               "message": record.getMessage(), "pid": os.getpid()}
        rid = REQUEST_ID.get()
        if rid is not None:
            doc["request_id"] = rid
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            doc.update(fields)
        if record.exc_info:
            doc["exception"] = self.formatException(record.exc_info)
        return json.dumps(doc, ensure_ascii=False, default=str)


def configure_logging(log_format: str) -> None:
    """``json``: every log line of the server (its own, uvicorn's) as JSON
    on stderr, with one line a request; ``text``: as before (warnings and
    errors; uvicorn's access log with ``--access-log``)."""
    if log_format != "json":
        return
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    for name in ("dixtrix", "uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
    logging.getLogger("dixtrix").setLevel(logging.INFO)
    logging.getLogger("uvicorn.error").setLevel(logging.INFO)


__all__ = ["Metrics", "RequestMiddleware", "JsonFormatter", "configure_logging", "REQUEST_ID"]
