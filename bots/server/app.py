"""The Starlette application of ``dixtrix serve`` (docs/server.md).

Every route answers JSON.  Request bodies are read up to ``max_body``
bytes (past it: 413), parsed within the position format's input limits
(malformed: 400), and checked by their declared model (``models``: a
wrong field is a 422 naming its JSON path, e.g. ``limit.time``); what no
schema can say (a position's rules, an action's legality, a bot's caps) is
checked next, with the same kind of answer.  Table routes read the
caller's token from ``Authorization: Bearer``: a missing one is a 401, one
that does not give what is asked a 403.  Every search runs in the bounded
worker pool with its limit capped by the settings; a full pool answers 503
with ``Retry-After``.  Nothing a client sends is allowed to produce a 500:
the solver's typed errors map to 4xx, a client that goes away mid-request
is logged as that, and anything else is a bug, logged with its traceback
and answered 500 without stopping the server.  The words of every answer
(labels, the server's own error messages) are in the request's language
(``?lang=`` or ``Accept-Language``: ``i18n``).

The routes are grouped by what they serve, each group a module with its
table of path -> method -> endpoint: the server's own
(``service_routes.ROUTES``), the searches of a sent position
(``search_routes.ROUTES``), the tables (``table_routes.ROUTES``) and the
analysis board (``analysis.ROUTES``).  They share one ``context.Context``,
which ``create_app`` makes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from . import analysis, search_routes, service_routes, table_routes
from .bodytimeout import BodyTimeout
from .context import Context
from .errors import TableNotFound
from .observe import RequestMiddleware
from .requests import error_response, internal_error, read_limit, translator
from .service_routes import STATIC
from .settings import Settings

# the work the search routes hand the pool, read from here when an
# application is made: a test may swap one for its own
# (tests/frontends/test_server_api.py)
from .work import _advise, _evaluate, _solve

log = logging.getLogger("dixtrix.server")


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()
    ctx = Context.open(settings, advise=_advise, solve=_solve, evaluate=_evaluate)
    tables, hub, pool, store = ctx.tables, ctx.hub, ctx.pool, ctx.store

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        if not isinstance(exc, HTTPException):     # registered for HTTPException only
            raise exc
        body = {"error": exc.detail or "error", "status": exc.status_code}
        if exc.status_code == 404:
            tr = translator(request)
            body["error"] = tr("no route {path} (see /docs)", path=repr(request.url.path))
        return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)

    async def sweeper():
        every = max(0.2, min(60.0, settings.grace / 4, settings.idle / 4))
        while True:
            await asyncio.sleep(every)
            try:
                await asyncio.to_thread(tables.sweep)
            except Exception:               # keep sweeping; the next round retries
                log.exception("table sweep failed")

    @contextlib.asynccontextmanager
    async def lifespan(app):
        hub.bind(asyncio.get_running_loop())
        store.listen(hub.receive)           # the other processes' news (PostgreSQL)
        task = asyncio.create_task(sweeper())
        try:
            yield
        finally:
            task.cancel()
            hub.close()
            pool.shutdown()
            store.close()

    handlers = {
        **service_routes.ROUTES,
        **search_routes.ROUTES,
        **table_routes.ROUTES,
        **analysis.ROUTES,
    }
    routes: list[BaseRoute] = [Route(path, _dispatch(methods), methods=[*methods, "OPTIONS"])
                               for path, methods in handlers.items()]
    routes.append(Mount("/static", app=StaticFiles(directory=STATIC), name="static"))
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: http_error, Exception: internal_error})
    app.router.redirect_slashes = False     # "/v1/tables/" is no route: 404, not a 307
    app.state.context = ctx
    app.state.settings = settings
    app.state.tables = tables
    app.state.pool = pool
    app.state.hub = hub
    app.state.routes = {path: sorted(methods) for path, methods in handlers.items()}
    app.state.store = store
    app.state.metrics = ctx.metrics
    templates = [(route.path_regex, route.path) for route in routes if isinstance(route, Route)]

    def route_of(path: str) -> str:
        for regex, template in templates:
            if regex.match(path):
                return template
        return "/static" if path.startswith("/static/") else "other"
    # inside the request middleware, which so logs and counts a 408 it answers
    app.add_middleware(BodyTimeout, seconds=settings.body_timeout)
    app.add_middleware(RequestMiddleware, metrics=ctx.metrics, route_of=route_of)
    return app


def _dispatch(methods: dict):
    """One endpoint for every method of a path; ``OPTIONS`` answers 204 with
    the path's methods in ``Allow`` (a method not listed: Starlette's 405,
    with the same ``Allow``)."""
    allow = ", ".join([*methods, *(["HEAD"] if "GET" in methods else []), "OPTIONS"])

    async def route(request: Request):
        if request.method == "OPTIONS":
            return Response(status_code=204, headers={"Allow": allow})
        method = "GET" if request.method == "HEAD" else request.method
        return await methods[method](request)
    return route


__all__ = ["create_app", "error_response", "read_limit", "TableNotFound", "_advise",
           "_evaluate", "_solve"]
