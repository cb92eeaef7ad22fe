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
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time as _time
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

import solver
from solver import position
from solver.errors import (
    HiddenInformationError,
    IllegalActionError,
    NotationError,
    short_repr,
)
from solver.search import Limit

from .. import advice
from .. import levels as bot_levels
from .. import review as reviews
from ..registry import registered_bots
from . import analysis, i18n, labels, models, openapi, words
from .bodytimeout import BodyTimeout
from .db import open_store
from .errors import RequestError, StaleVersion, TableNotFound, Unauthorized
from .i18n import Translator
from .live import CLOSED, Hub
from .observe import Metrics, RequestMiddleware
from .pool import Pool
from .requests import (
    body_model,
    endpoint,
    error_response,
    internal_error,
    limit_of,
    read_limit,
    read_position,
    translator,
)
from .settings import Settings
from .store import StoreError
from .tables import TABLE_BOTS, Tables, default_bot

log = logging.getLogger("dixtrix.server")

STATIC = Path(__file__).parent / "static"
#: evaluate's worlds when the request gives no limit
DEFAULT_WORLDS = 200
#: seconds between two keep-alive comments on an event stream
HEARTBEAT = 15.0


def bearer(request: Request) -> str | None:
    """The token of ``Authorization: Bearer <token>`` (None: none given)."""
    value = request.headers.get("authorization")
    if value is None:
        return None
    scheme, _, token = value.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > 200:
        raise Unauthorized("send a token as 'Authorization: Bearer <token>'")
    return token


def seat_query(request: Request) -> int | None:
    text = request.query_params.get("seat")
    if text is None:
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > 3:
        raise RequestError("seat is a seat number, got {got}", "seat", got=short_repr(text))
    return int(text)


def invitation(table_id: str, token: str, lang: str) -> str:
    """A seat's link: the token is in the fragment, which browsers never
    send, so it reaches no server's log (the page sends it in a header)."""
    return f"/?table={table_id}&lang={lang}#token={token}"


# --------------------------------------------------------------------------
# the application


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()
    store = open_store(settings.db)
    tables = Tables(settings, store)
    # news of a change reaches this process's viewers and, through the
    # store (PostgreSQL's NOTIFY), the other processes' (live.Hub)
    hub = Hub(relay=store.notify, origin=tables.owner)
    tables.notify = hub.publish
    pool = Pool(settings.workers, settings.queue, settings.max_time)
    started = _time.time()

    def gauges() -> dict[str, tuple[str, float]]:
        stats = pool.stats()
        return {
            "dixtrix_searches_running": ("Jobs (searches, bot turns) running on a worker",
                                         stats["running"]),
            "dixtrix_queue": ("Jobs waiting for a worker",
                              max(0, stats["pending"] - stats["running"])),
            "dixtrix_queue_capacity": ("Jobs that may run or wait at once", stats["capacity"]),
            "dixtrix_tables_open": ("Tables this process holds in memory", len(tables.cache)),
            "dixtrix_event_streams": ("Live-update streams open", hub.count()),
        }
    metrics = Metrics(gauges)

    # ---- service ------------------------------------------------------------

    @endpoint
    async def index(request):
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @endpoint
    async def analysis_page(request):
        return FileResponse(STATIC / "analysis.html", media_type="text/html")

    @endpoint
    async def healthz(request):
        # the database is asked off the event loop but not in the worker
        # pool: a pool busy with searches is no reason to call the server down
        try:
            await asyncio.to_thread(store.ping)
            database, status = "ok", 200
        except StoreError as exc:
            database, status = str(exc), 503
        return JSONResponse({"status": "ok" if status == 200 else "unavailable",
                             "database": database, "version": solver.__version__,
                             "uptime": round(_time.time() - started, 3), **pool.stats(),
                             "streams": hub.count()}, status_code=status)

    async def metrics_route(request):
        return Response(metrics.exposition(),
                        media_type="text/plain; version=0.0.4; charset=utf-8")

    @endpoint
    async def catalogue(request):
        lang = request.path_params["lang"]
        if lang not in i18n.LANGS:
            raise RequestError("no language {lang} (one of: {langs})", status=404,
                               lang=short_repr(lang), langs=", ".join(i18n.LANGS))
        expr, count = i18n.plural_rule(lang)
        return JSONResponse({"lang": lang, "dir": "rtl" if lang in i18n.RTL else "ltr",
                             "messages": i18n.catalogue(lang),
                             # counts: each message's forms and the catalogue's rule
                             "plurals": i18n.plurals(lang),
                             "plural": {"expr": expr, "forms": count}})

    @endpoint
    async def games(request):
        tr = translator(request)
        out = []
        loaded = {name: solver.load_game(name) for name in solver.registered_games()}
        said = words.games(tr, loaded)          # titles, help and option names in words
        for name, game in loaded.items():
            out.append({
                "name": name, "title": said[name]["title"],
                "description": said[name]["description"], "players": game.num_players,
                "unit": labels.unit(game.round_unit, tr), "default_bot": default_bot(game),
                "levels": {lv: bot_levels.level_settings(lv, game)
                           for lv in bot_levels.LEVELS},
                # where a deal set up by hand keeps its hands (the analysis page)
                "setup": said[name]["setup"],
                "options": {key: {"default": spec.default, **said[name]["options"][key],
                                  "type": type(spec.default).__name__,
                                  "choices": list(spec.choices) if spec.choices else None,
                                  "min": spec.min, "max": spec.max}
                            for key, spec in game.options_spec.items()}})
        return JSONResponse({"games": out, "table_bots": list(TABLE_BOTS),
                             "levels": [{"name": lv, "label": tr(LEVEL_LABELS[lv])}
                                        for lv in bot_levels.LEVELS],
                             "bots": registered_bots(),
                             "limits": {"max_time": settings.max_time,
                                        "max_iterations": settings.max_iterations,
                                        "max_worlds": settings.max_worlds,
                                        "max_nodes": settings.max_nodes,
                                        "max_body": settings.max_body}})

    # ---- searches -----------------------------------------------------------

    @endpoint
    async def hint(request):
        body, doc = await body_model(request, settings.max_body, models.HintBody)
        limit, given, applied = read_limit(
            limit_of(body), settings, Limit(time=min(settings.hint_time, settings.max_time)))
        tr = translator(request)

        def advise(stop=None):
            # the position is validated (replayed) on the worker too
            view = advice.view_of(read_position(doc))
            return _advise(view, body.bot, limit, body.seed, settings, tr, stop=stop,
                           inference=body.inference, beliefs=body.beliefs)
        out = await pool.run(advise, disconnected=request.is_disconnected)
        out["limit"] = applied
        return JSONResponse(advice.json_finite(out))

    @endpoint
    async def solve(request):
        body, doc = await body_model(request, settings.max_body, models.SolveBody)

        tr = translator(request)

        def solve_it(stop=None):
            pos = read_position(doc)
            if isinstance(pos, position.SeatView):
                raise HiddenInformationError("solve needs every card, and this is a seat "
                                             "view: use /v1/hint or /v1/evaluate")
            state = pos.state()
            if state.is_terminal():
                raise RequestError("the game in this record is over: nothing to solve",
                                   "position")
            return words.solution(_solve(state, body.line, settings, stop=stop), tr)
        return JSONResponse(await pool.run(solve_it, disconnected=request.is_disconnected))

    @endpoint
    async def evaluate(request):
        body, doc = await body_model(request, settings.max_body, models.EvaluateBody)
        limit, _, applied = read_limit(
            limit_of(body), settings, Limit(worlds=min(DEFAULT_WORLDS, settings.max_worlds)))
        tr = translator(request)

        def evaluate_it(stop=None):
            view = advice.view_of(read_position(doc))
            return words.evaluation(_evaluate(view, limit, body.policy, body.seed, stop=stop,
                                              inference=body.inference),
                                    view.game, view.seat, tr)
        out = await pool.run(evaluate_it, disconnected=request.is_disconnected)
        out["limit"] = applied
        return JSONResponse(advice.json_finite(out))

    @endpoint
    async def review(request):
        body, doc = await body_model(request, settings.max_body, models.ReviewBody)
        # one deal a request (the last of the record by default), each
        # decision's search within the caps, each hindsight solve within max_nodes
        limit, _, applied = read_limit(
            limit_of(body), settings, Limit(time=min(reviews.DEFAULT_SECONDS, settings.max_time)))
        tr = translator(request)

        def review_it(stop=None):
            out = reviews.review(read_position(doc), deal=body.deal or "last", seat=body.seat,
                                 limit=limit, bot=body.bot, seed=body.seed,
                                 trees=settings.trees, threads=settings.threads or None,
                                 nodes=min(reviews.DEFAULT_NODES, settings.max_nodes),
                                 stop=stop, describe=lambda view: words.facts(view, tr))
            return words.review(out, tr)
        out = await pool.run(review_it, disconnected=request.is_disconnected)
        out["limit"] = applied
        return JSONResponse(out)

    # ---- tables -------------------------------------------------------------

    @endpoint
    async def create_table(request):
        body, _ = await body_model(request, settings.max_body, models.CreateTable)
        doc = body.model_dump(exclude_unset=True)       # JSON's 2.0 as the integer 2
        tr = translator(request)

        def make(stop=None):
            table, seat, admin, tokens = tables.create(doc, stop)
            with table.lock:
                out = table.payload(seat, tr)
            out["admin_token"] = admin
            out["invitations"] = [{"seat": s, "name": out["names"][s], "token": t,
                                   "link": invitation(table.id, t, tr.lang)}
                                  for s, t in sorted(tokens.items())]
            return out
        out = await pool.run(make)
        return JSONResponse(out, status_code=201,
                            headers={"Location": f"/v1/tables/{out['table']}"})

    @endpoint
    async def get_table(request):
        table_id = request.path_params["table_id"]
        tables.check_id(table_id)
        token = bearer(request)
        seat = seat_query(request)
        tr = translator(request)

        def look(stop=None):
            table = tables.get(table_id)        # a replay after a restart: on a worker
            viewer = table.viewer(token, seat)
            with tables.locked(table):
                tables.play_bots(table, stop)   # after a restart, a bot may be to move
                table.touch(store, settings.idle)
                return table.payload(viewer, tr)
        return JSONResponse(await pool.run(look))

    @endpoint
    async def delete_table(request):
        table_id = request.path_params["table_id"]
        tables.check_id(table_id)
        token = bearer(request)
        await pool.run(lambda stop=None: tables.delete(table_id, token))
        return Response(status_code=204)

    @endpoint
    async def act(request):
        table_id = request.path_params["table_id"]
        tables.require(table_id)
        token = bearer(request)
        if token is None:
            raise Unauthorized("playing at a table needs your seat's token (Authorization: "
                               "Bearer <token> from your invitation link)")
        body, doc = await body_model(request, settings.max_body, models.ActBody)
        tr = translator(request)

        def play(stop=None):
            table = tables.get(table_id)
            seat = table.acting_seat(token, body.seat)
            with tables.locked(table):
                # the version the client saw, checked under the table's lock
                # after catching up with the store: a retried or stale move is
                # refused before anything is played, so none is played twice
                if body.version != table.version:
                    raise StaleVersion(body.version, table.version)
                try:
                    tables.act(table, seat, body.action, stop)
                except (NotationError, IllegalActionError) as exc:
                    exc.path = "action"
                    raise
                return table.payload(seat, tr)
        return JSONResponse(await pool.run(play))

    @endpoint
    async def table_hint(request):
        table_id = request.path_params["table_id"]
        tables.require(table_id)
        token = bearer(request)
        if token is None:
            raise Unauthorized("a hint at a table needs your seat's token (Authorization: "
                               "Bearer <token> from your invitation link)")
        body, doc = await body_model(request, settings.max_body, models.TableHintBody)
        limit, given, applied = read_limit(
            limit_of(body), settings, Limit(time=min(settings.hint_time, settings.max_time)))
        tr = translator(request)

        def advise(stop=None):
            table = tables.get(table_id)
            seat = table.acting_seat(token, body.seat)
            with tables.locked(table):
                if table.state.is_terminal():
                    raise RequestError("the match is over: there is no move to advise",
                                       status=409)
                if table.state.current_player() != seat:
                    raise RequestError("seat {seat} is not to move (seat {other} is)", "seat",
                                       status=409, seat=seat,
                                       other=table.state.current_player())
                view = table.seat_view(seat)
            return _advise(view, body.bot, limit, body.seed, settings, tr, stop=stop,
                           inference=body.inference, beliefs=body.beliefs)
        out = await pool.run(advise, disconnected=request.is_disconnected)
        out["limit"] = applied
        return JSONResponse(advice.json_finite(out))

    @endpoint
    async def table_review(request):
        table_id = request.path_params["table_id"]
        tables.require(table_id)
        token = bearer(request)
        if token is None:
            raise Unauthorized("reviewing a deal of a table needs your seat's token "
                               "(Authorization: Bearer <token> from your invitation link), or "
                               "the admin token once the match is over")
        body, doc = await body_model(request, settings.max_body, models.TableReviewBody)
        limit, _, applied = read_limit(
            limit_of(body), settings, Limit(time=min(reviews.DEFAULT_SECONDS, settings.max_time)))
        tr = translator(request)

        def review_it(stop=None):
            table = tables.get(table_id)
            with tables.locked(table):
                pos, seat, deal = table.review_request(token, body.seat, body.deal)
            out = reviews.review(pos, deal=deal, seat=seat, limit=limit, bot=body.bot,
                                 seed=body.seed, trees=settings.trees,
                                 threads=settings.threads or None,
                                 nodes=min(reviews.DEFAULT_NODES, settings.max_nodes),
                                 stop=stop, describe=lambda view: words.facts(view, tr))
            with table.lock:
                table.label_review(out, tr)
            return words.review(out, tr)
        out = await pool.run(review_it, disconnected=request.is_disconnected)
        out["limit"] = applied
        return JSONResponse(out)

    @endpoint
    async def table_events(request):
        table_id = request.path_params["table_id"]
        tables.check_id(table_id)
        token = bearer(request)

        def check(stop=None):
            table = tables.get(table_id)
            table.viewer(token, None)           # a wrong token: 403, as for a view
            with tables.locked(table):
                return table.version
        version = await pool.run(check)
        queue = hub.subscribe(table_id)

        async def stream():
            try:
                yield f"event: table\ndata: {json.dumps({'version': version})}\n\n"
                while True:
                    try:
                        got = await asyncio.wait_for(queue.get(), HEARTBEAT)
                    except asyncio.TimeoutError:
                        yield ": keep-alive\n\n"
                        continue
                    if got == CLOSED:
                        yield "event: closed\ndata: {}\n\n"
                        return
                    if got < 0:
                        yield "event: deleted\ndata: {}\n\n"
                        return
                    yield f"event: table\ndata: {json.dumps({'version': got})}\n\n"
            finally:
                hub.unsubscribe(table_id, queue)
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache",
                                          "X-Accel-Buffering": "no"})

    @endpoint
    async def table_record(request):
        table_id = request.path_params["table_id"]
        tables.check_id(table_id)

        def record(stop=None):
            table = tables.get(table_id)
            with tables.locked(table):
                return table.record()
        return JSONResponse(await pool.run(record))

    # ---- documentation ------------------------------------------------------

    @endpoint
    async def openapi_json(request):
        return JSONResponse(openapi.document(settings))

    @endpoint
    async def docs(request):
        return HTMLResponse(openapi.html(openapi.document(settings)))

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
        "/": {"GET": index},
        "/analysis": {"GET": analysis_page},
        "/healthz": {"GET": healthz},
        "/metrics": {"GET": metrics_route},
        "/docs": {"GET": docs},
        "/v1/openapi.json": {"GET": openapi_json},
        "/v1/games": {"GET": games},
        "/v1/i18n/{lang}": {"GET": catalogue},
        "/v1/hint": {"POST": hint},
        "/v1/solve": {"POST": solve},
        "/v1/evaluate": {"POST": evaluate},
        "/v1/review": {"POST": review},
        "/v1/tables": {"POST": create_table},
        "/v1/tables/{table_id}": {"GET": get_table, "DELETE": delete_table},
        "/v1/tables/{table_id}/actions": {"POST": act},
        "/v1/tables/{table_id}/hint": {"POST": table_hint},
        "/v1/tables/{table_id}/review": {"POST": table_review},
        "/v1/tables/{table_id}/events": {"GET": table_events},
        "/v1/tables/{table_id}/record": {"GET": table_record},
        **analysis.routes(settings, pool),
    }
    routes: list[BaseRoute] = [Route(path, _dispatch(methods), methods=[*methods, "OPTIONS"])
                               for path, methods in handlers.items()]
    routes.append(Mount("/static", app=StaticFiles(directory=STATIC), name="static"))
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: http_error, Exception: internal_error})
    app.router.redirect_slashes = False     # "/v1/tables/" is no route: 404, not a 307
    app.state.settings = settings
    app.state.tables = tables
    app.state.pool = pool
    app.state.hub = hub
    app.state.routes = {path: sorted(methods) for path, methods in handlers.items()}
    app.state.store = store
    app.state.metrics = metrics
    templates = [(route.path_regex, route.path) for route in routes if isinstance(route, Route)]

    def route_of(path: str) -> str:
        for regex, template in templates:
            if regex.match(path):
                return template
        return "/static" if path.startswith("/static/") else "other"
    # inside the request middleware, which so logs and counts a 408 it answers
    app.add_middleware(BodyTimeout, seconds=settings.body_timeout)
    app.add_middleware(RequestMiddleware, metrics=metrics, route_of=route_of)
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


#: the levels' names as a player reads them (message ids)
LEVEL_LABELS = {"easy": i18n.N_("Easy"), "medium": i18n.N_("Medium"), "hard": i18n.N_("Hard"),
                "expert": i18n.N_("Expert")}


# --------------------------------------------------------------------------
# the work done on a worker


def _advise(view, bot, limit, seed, settings, tr: Translator | None = None, stop=None,
            inference=None, beliefs: bool = False) -> dict:
    out = advice.with_position(
        advice.advise(view, "request", bot=bot, limit=limit, seed=seed, stop=stop,
                      trees=settings.trees, threads=settings.threads or None,
                      inference=None if inference is None else inference == "on",
                      beliefs=beliefs), view)
    tr = tr or Translator("en")
    # every action in words, in the reader's language, for the page's hint
    # panel (each action's id is beside its name: nothing parsed again)
    game = view.game
    out["labels"] = {text: labels.action(game, text, game.is_card(out["ids"][text]), tr)
                     for text in out["ranking"]}
    if "beliefs" in out and out["beliefs"].get("kind") == "card":
        out["beliefs"]["labels"] = {card: labels.action(game, card, True, tr)
                                    for card in out["beliefs"]["cards"]}
    # the facts, the advice, the units and the reasons in the reader's words
    return words.hint(out, view, tr)


def _solve(state, plies, settings, stop=None) -> dict:
    from ..exact import solve_doc
    # values, best actions and line from one set of values (bots/exact.py);
    # the line's solves share one budget (at most max_nodes more) and end
    # when the request is stopped (client gone, server stopping)
    return solve_doc(state, plies=plies, max_nodes=settings.max_nodes,
                     line_nodes=settings.max_nodes, stop=stop)


def _evaluate(view, limit, policy, seed, stop=None, inference=None) -> dict:
    from solver.search import evaluate
    ev = evaluate(view, limit, policy=policy, seed=seed, stop=stop,
                  inference=None if inference is None else inference == "on")
    names = advice.seat_names(view.game.num_players, view.seat, view.game.partnership)
    return {"game": view.game.name, "seat": view.seat, "names": names, "values": ev.values,
            "ci95": ev.ci95, "worlds": ev.worlds, "unit": ev.unit, "method": ev.method,
            "time": ev.time, "stopped": ev.stopped}


__all__ = ["create_app", "error_response", "read_limit", "TableNotFound"]
