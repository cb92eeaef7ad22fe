"""The Starlette application of ``dixtrix serve`` (docs/server.md).

Every route answers JSON.  Request bodies are read up to ``max_body``
bytes (past it: 413), parsed within the position format's input limits
(malformed: 400), and checked field by field (a wrong field: 422 naming
its JSON path, e.g. ``position.actions[3]`` or ``limit.time``).  Every
search runs in the bounded worker pool with its limit capped by the
settings; a full pool answers 503 with ``Retry-After``.  Nothing a client
sends is allowed to produce a 500: the solver's typed errors map to 4xx,
and anything else is a bug, logged with its traceback and answered 500
without stopping the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time as _time
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

import solver
from solver import position
from solver.errors import (DixtrixError, HiddenInformationError, IllegalActionError, LimitError,
                           NotationError, PositionError, short_repr)
from solver.search import Limit

from .. import hint as hints
from .. import review as reviews
from ..base import registered_bots
from . import openapi
from .errors import RequestError, TableNotFound
from .pool import Busy, Pool
from .settings import Settings
from .store import Store, StoreError
from .tables import TABLE_BOTS, Tables, default_bot

log = logging.getLogger("dixtrix.server")

STATIC = Path(__file__).parent / "static"
#: evaluate's worlds when the request gives no limit
DEFAULT_WORLDS = 200
#: plies of the expected line of play a solve gives by default, and at most
DEFAULT_LINE, MAX_LINE = 8, 16


# --------------------------------------------------------------------------
# answers


def error_response(exc: Exception) -> JSONResponse:
    """The answer to a refused request: ``{"error", "status", "path"?,
    "reason"?}``."""
    headers = {}
    body: dict = {"error": " ".join(str(exc).split())[:2000]}
    if isinstance(exc, Busy):
        status = 503
        headers["Retry-After"] = str(exc.retry_after)
    elif isinstance(exc, StoreError):       # the database failed: try again later
        status = 503
        headers["Retry-After"] = "1"
    elif isinstance(exc, RequestError):
        status = exc.status
    elif isinstance(exc, DixtrixError):
        status = 422
    else:                                   # pragma: no cover - guarded by callers
        status = 500
    path = getattr(exc, "path", None)
    if path:
        body["path"] = path
    if isinstance(exc, IllegalActionError):
        body["reason"] = exc.reason
        body["action"] = str(exc.action)
    body["status"] = status
    return JSONResponse(body, status_code=status, headers=headers)


def internal_error(request: Request, exc: BaseException) -> JSONResponse:
    log.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
    return JSONResponse({"error": f"internal error ({type(exc).__name__}); it is logged",
                         "status": 500}, status_code=500)


def endpoint(fn):
    """A route that answers every refusal with its typed status."""
    async def wrapped(request: Request):
        try:
            return await fn(request)
        except DixtrixError as exc:
            return error_response(exc)
        except (asyncio.CancelledError, KeyboardInterrupt):
            raise
        except Exception as exc:            # a bug: log it, keep serving
            return internal_error(request, exc)
    wrapped.__name__ = fn.__name__
    wrapped.__doc__ = fn.__doc__
    return wrapped


# --------------------------------------------------------------------------
# reading requests


async def read_body(request: Request, max_body: int) -> bytes:
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isdigit() or len(length) > 18:
            raise RequestError(f"bad Content-Length {short_repr(length)}", status=400)
        if int(length) > max_body:
            raise RequestError(f"the body has {int(length):,} bytes (at most {max_body:,})",
                               status=413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > max_body:
            raise RequestError(f"the body is over {max_body:,} bytes", status=413)
        chunks.append(chunk)
    return b"".join(chunks)


async def body_object(request: Request, max_body: int, keys: tuple) -> dict:
    """The body as a JSON object with only ``keys``."""
    raw = await read_body(request, max_body)
    if not raw.strip():
        raise RequestError("the body is empty: send a JSON object", status=400)
    if len(raw) > position.MAX_DOCUMENT_BYTES:
        raise RequestError(f"the body has {len(raw):,} bytes (a JSON document is at most "
                           f"{position.MAX_DOCUMENT_BYTES:,})", status=413)
    try:
        doc = position.parse_json(raw)
    except PositionError as exc:
        raise RequestError(str(exc), status=400) from None
    if not isinstance(doc, dict):
        raise RequestError(f"the body is a JSON object, got {type(doc).__name__}", "")
    for key in doc:
        if key not in keys:
            raise RequestError(f"unknown key {short_repr(key)} (this route takes: "
                               f"{', '.join(keys)})", key)
    return doc


def need(doc: dict, key: str):
    if key not in doc:
        raise RequestError(f"missing {key!r}", key)
    return doc[key]


def int_field(doc: dict, key: str, default: int, lo: int, hi: int) -> int:
    v = doc.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise RequestError(f"an integer {lo}..{hi}, got {short_repr(v)}", key)
    return v


def choice_field(doc: dict, key: str, default: str, choices) -> str:
    v = doc.get(key, default)
    if not isinstance(v, str) or v not in choices:
        raise RequestError(f"one of {', '.join(choices)}, got {short_repr(v)}", key)
    return v


def read_position(doc: dict):
    """The ``position`` field: a record or a seat view (docs/positions.md);
    its errors name the path under ``position``."""
    value = need(doc, "position")
    if not isinstance(value, dict):
        raise RequestError(f"a position is a JSON object (a record or a seat view), got "
                           f"{short_repr(value)}", "position")
    try:
        return position.from_json(value)
    except PositionError as exc:
        path = "position" + (("." if not exc.path.startswith("[") else "") + exc.path
                             if exc.path else "")
        raise RequestError(str(exc), path) from None
    except DixtrixError as exc:
        raise RequestError(str(exc), "position") from None


def read_limit(doc: dict, settings: Settings, default: Limit) -> tuple[Limit, bool, dict]:
    """The ``limit`` field (``Limit.from_mapping``) capped by the settings
    (``Limit.capped``): the Limit, whether the request gave one, and the
    limit as applied (for the answer).  The server's time and node caps
    always apply, so an iteration count cannot hold a worker longer than
    ``max_time``."""
    value = doc.get("limit")
    given = value is not None
    caps = Limit(time=settings.max_time, iterations=settings.max_iterations,
                 worlds=settings.max_worlds, nodes=settings.max_nodes)
    if isinstance(value, dict):
        # a number past the server's cap is asked for more than it gives:
        # the cap applies (the answer says so), whatever the number.  Only a
        # number of the field's type: a count is an integer, so 501.0
        # iterations is refused as 400.0 is, not taken for the cap
        top = caps.to_dict()

        def over_cap(k, v):
            kinds = (int, float) if k == "time" else int
            return k in top and isinstance(v, kinds) and not isinstance(v, bool) \
                and v > top[k]
        value = {k: (top[k] if over_cap(k, v) else v) for k, v in value.items()}
    try:
        limit = default if value is None else Limit.from_mapping(value, "limit")
    except LimitError as exc:
        raise RequestError(str(exc).split(": ", 1)[-1] if exc.path else str(exc),
                           exc.path or "limit") from None
    limit, _ = limit.capped(caps)
    return limit, given, limit.to_dict()


# --------------------------------------------------------------------------
# the application


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()
    store = Store(settings.db)
    tables = Tables(settings, store)
    pool = Pool(settings.workers, settings.queue, settings.max_time)
    started = _time.time()

    # ---- service ------------------------------------------------------------

    @endpoint
    async def index(request):
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @endpoint
    async def healthz(request):
        return JSONResponse({"status": "ok", "version": solver.__version__,
                             "uptime": round(_time.time() - started, 3), **pool.stats()})

    @endpoint
    async def games(request):
        out = []
        for name in solver.registered_games():
            game = solver.load_game(name)
            out.append({
                "name": name, "description": game.description, "players": game.num_players,
                "unit": game.round_unit, "default_bot": default_bot(game),
                "options": {key: {"default": spec.default, "doc": spec.doc,
                                  "type": type(spec.default).__name__,
                                  "choices": list(spec.choices) if spec.choices else None,
                                  "min": spec.min, "max": spec.max}
                            for key, spec in game.options_spec.items()}})
        return JSONResponse({"games": out, "table_bots": list(TABLE_BOTS),
                             "bots": registered_bots(),
                             "limits": {"max_time": settings.max_time,
                                        "max_iterations": settings.max_iterations,
                                        "max_worlds": settings.max_worlds,
                                        "max_nodes": settings.max_nodes,
                                        "max_body": settings.max_body}})

    # ---- searches -----------------------------------------------------------

    @endpoint
    async def hint(request):
        doc = await body_object(request, settings.max_body,
                                ("position", "limit", "bot", "seed"))
        bot = choice_field(doc, "bot", "ismcts", ("ismcts", "pimc"))
        seed = int_field(doc, "seed", 0, 0, 2**63 - 1)
        limit, given, applied = read_limit(
            doc, settings, Limit(time=min(settings.hint_time, settings.max_time)))
        need(doc, "position")

        def advise(stop=None):
            # the position is validated (replayed) on the worker too
            view = hints.view_of(read_position(doc))
            return _advise(view, bot, limit, seed, settings, stop=stop)
        out = await pool.run(advise, disconnected=request.is_disconnected)
        out["limit"] = applied
        return JSONResponse(hints.json_finite(out))

    @endpoint
    async def solve(request):
        doc = await body_object(request, settings.max_body, ("position", "line"))
        plies = int_field(doc, "line", DEFAULT_LINE, 0, MAX_LINE)
        need(doc, "position")

        def solve_it(stop=None):
            pos = read_position(doc)
            if isinstance(pos, position.SeatView):
                raise HiddenInformationError("solve needs every card, and this is a seat "
                                             "view: use /v1/hint or /v1/evaluate")
            state = pos.state()
            if state.is_terminal():
                raise RequestError("the game in this record is over: nothing to solve",
                                   "position")
            return _solve(state, plies, settings, stop=stop)
        return JSONResponse(await pool.run(solve_it, disconnected=request.is_disconnected))

    @endpoint
    async def evaluate(request):
        doc = await body_object(request, settings.max_body,
                                ("position", "limit", "policy", "seed"))
        policy = choice_field(doc, "policy", "rules", ("rules", "random"))
        seed = int_field(doc, "seed", 0, 0, 2**63 - 1)
        limit, _, applied = read_limit(
            doc, settings, Limit(worlds=min(DEFAULT_WORLDS, settings.max_worlds)))
        need(doc, "position")

        def evaluate_it(stop=None):
            view = hints.view_of(read_position(doc))
            return _evaluate(view, limit, policy, seed, stop=stop)
        out = await pool.run(evaluate_it, disconnected=request.is_disconnected)
        out["limit"] = applied
        return JSONResponse(hints.json_finite(out))

    @endpoint
    async def review(request):
        doc = await body_object(request, settings.max_body,
                                ("position", "deal", "seat", "limit", "bot", "seed"))
        bot = choice_field(doc, "bot", "ismcts", ("ismcts", "pimc"))
        seed = int_field(doc, "seed", 0, 0, 2**63 - 1)
        # one deal a request (the last of the record by default), each
        # decision's search within the caps, each hindsight solve within max_nodes
        deal = int_field(doc, "deal", 1, 1, 10**6) if "deal" in doc else "last"
        seat = int_field(doc, "seat", 0, 0, 63) if "seat" in doc else None
        limit, _, applied = read_limit(
            doc, settings, Limit(time=min(reviews.DEFAULT_SECONDS, settings.max_time)))
        need(doc, "position")

        def review_it(stop=None):
            return reviews.review(read_position(doc), deal=deal, seat=seat, limit=limit,
                                  bot=bot, seed=seed, threads=settings.threads,
                                  nodes=min(reviews.DEFAULT_NODES, settings.max_nodes),
                                  stop=stop)
        out = await pool.run(review_it, disconnected=request.is_disconnected)
        out["limit"] = applied
        return JSONResponse(out)

    # ---- tables -------------------------------------------------------------

    def seat_param(request, table) -> int:
        text = request.query_params.get("seat")
        if text is None:
            return table.row.humans[0]
        if not (text.isascii() and text.isdigit()) or len(text) > 3:
            raise RequestError(f"seat is a seat number, got {short_repr(text)}", "seat")
        return int(text)

    @endpoint
    async def create_table(request):
        doc = await body_object(request, settings.max_body,
                                ("game", "options", "seats", "bots", "seed"))

        def make(stop=None):
            table, seat = tables.create(doc, stop)
            with table.lock:
                return table.payload(seat)
        out = await pool.run(make)
        return JSONResponse(out, status_code=201,
                            headers={"Location": f"/v1/tables/{out['table']}"})

    @endpoint
    async def get_table(request):
        table_id = request.path_params["table_id"]

        def look(stop=None):
            table = tables.get(table_id)        # a replay after a restart: on a worker
            seat = seat_param(request, table)
            with table.lock:
                table.play_bots(store, stop, settings.bot_seconds)       # after a restart, a bot may be to move
                table.touch(store, settings.idle)
                return table.payload(seat)
        return JSONResponse(await pool.run(look))

    @endpoint
    async def delete_table(request):
        table_id = request.path_params["table_id"]
        tables.check_id(table_id)
        await asyncio.to_thread(tables.delete, table_id)
        return Response(status_code=204)

    @endpoint
    async def act(request):
        table_id = request.path_params["table_id"]
        tables.require(table_id)
        doc = await body_object(request, settings.max_body, ("seat", "action"))
        seat = int_field(doc, "seat", -1, 0, 63) if "seat" in doc else None
        action = need(doc, "action")
        if not isinstance(action, str) or not action.strip() or len(action) > 100:
            raise RequestError(f"an action in the game's notation (like 'QS' or 'bid 85'), "
                               f"got {short_repr(action)}", "action")

        def play(stop=None, seat=seat):
            table = tables.get(table_id)
            seat = table.row.humans[0] if seat is None else seat
            with table.lock:
                try:
                    table.act(seat, action, store)
                except (NotationError, IllegalActionError) as exc:
                    exc.path = "action"
                    raise
                table.play_bots(store, stop, settings.bot_seconds)
                return table.payload(seat)
        return JSONResponse(await pool.run(play))

    @endpoint
    async def table_hint(request):
        table_id = request.path_params["table_id"]
        tables.require(table_id)
        doc = await body_object(request, settings.max_body, ("seat", "limit", "bot", "seed"))
        seat = int_field(doc, "seat", -1, 0, 63) if "seat" in doc else None
        bot = choice_field(doc, "bot", "ismcts", ("ismcts", "pimc"))
        seed = int_field(doc, "seed", 0, 0, 2**63 - 1)
        limit, given, applied = read_limit(
            doc, settings, Limit(time=min(settings.hint_time, settings.max_time)))

        def advise(stop=None, seat=seat):
            table = tables.get(table_id)
            seat = table.row.humans[0] if seat is None else seat
            with table.lock:
                table.check_seat(seat)
                if table.state.is_terminal():
                    raise RequestError("the match is over: there is no move to advise",
                                       status=409)
                if table.state.current_player() != seat:
                    raise RequestError(f"seat {seat} is not to move (seat "
                                       f"{table.state.current_player()} is)", "seat",
                                       status=409)
                view = table.seat_view(seat)
            return _advise(view, bot, limit, seed, settings, stop=stop)
        out = await pool.run(advise, disconnected=request.is_disconnected)
        out["limit"] = applied
        return JSONResponse(hints.json_finite(out))

    @endpoint
    async def table_record(request):
        table_id = request.path_params["table_id"]

        def record(stop=None):
            table = tables.get(table_id)
            with table.lock:
                return table.record()
        return JSONResponse(await pool.run(record))

    # ---- documentation ------------------------------------------------------

    @endpoint
    async def openapi_json(request):
        return JSONResponse(openapi.document(settings))

    @endpoint
    async def docs(request):
        return HTMLResponse(openapi.html(openapi.document(settings)))

    async def http_error(request, exc: HTTPException):
        body = {"error": exc.detail or "error", "status": exc.status_code}
        if exc.status_code == 404:
            body["error"] = f"no route {request.url.path!r} (see /docs)"
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
        task = asyncio.create_task(sweeper())
        try:
            yield
        finally:
            task.cancel()
            pool.shutdown()
            store.close()

    routes = [
        Route("/", index),
        Route("/healthz", healthz),
        Route("/docs", docs),
        Route("/v1/openapi.json", openapi_json),
        Route("/v1/games", games),
        Route("/v1/hint", hint, methods=["POST"]),
        Route("/v1/solve", solve, methods=["POST"]),
        Route("/v1/evaluate", evaluate, methods=["POST"]),
        Route("/v1/review", review, methods=["POST"]),
        Route("/v1/tables", create_table, methods=["POST"]),
        Route("/v1/tables/{table_id}", get_table, methods=["GET"]),
        Route("/v1/tables/{table_id}", delete_table, methods=["DELETE"]),
        Route("/v1/tables/{table_id}/actions", act, methods=["POST"]),
        Route("/v1/tables/{table_id}/hint", table_hint, methods=["POST"]),
        Route("/v1/tables/{table_id}/record", table_record),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: http_error, Exception: internal_error})
    app.router.redirect_slashes = False     # "/v1/tables/" is no route: 404, not a 307
    app.state.settings = settings
    app.state.tables = tables
    app.state.pool = pool
    return app


# --------------------------------------------------------------------------
# the work done on a worker


def _advise(view, bot, limit, seed, settings, stop=None) -> dict:
    return hints.advise(view, "request", bot=bot, limit=limit, seed=seed, stop=stop,
                        threads=settings.threads)


def _solve(state, plies, settings, stop=None) -> dict:
    from ..exact import solve_doc
    # values, best actions and line from one set of values (bots/exact.py);
    # the line's solves share one budget (at most max_nodes more) and end
    # when the request is stopped (client gone, server stopping)
    return solve_doc(state, plies=plies, max_nodes=settings.max_nodes,
                     line_nodes=settings.max_nodes, stop=stop)


def _evaluate(view, limit, policy, seed, stop=None) -> dict:
    from solver.search import evaluate
    ev = evaluate(view, limit, policy=policy, seed=seed, stop=stop)
    names = hints.seat_names(view.game.num_players, view.seat, view.game.partnership)
    return {"game": view.game.name, "seat": view.seat, "names": names, "values": ev.values,
            "ci95": ev.ci95, "worlds": ev.worlds, "unit": ev.unit, "method": ev.method,
            "time": ev.time, "stopped": ev.stopped}


__all__ = ["create_app", "error_response", "read_limit", "TableNotFound"]
