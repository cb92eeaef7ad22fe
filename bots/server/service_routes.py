"""The server's own routes (docs/server.md): the two pages, health and
metrics, the API's documentation, the games it serves with their options
and limits, and the words of each language.
"""

from __future__ import annotations

import asyncio
import time as _time
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response

import solver
from solver.errors import short_repr

from .. import levels as bot_levels
from ..registry import registered_bots
from . import i18n, labels, openapi, words
from .context import context
from .errors import RequestError
from .requests import endpoint, translator
from .store import StoreError
from .tables import TABLE_BOTS, default_bot

STATIC = Path(__file__).parent / "static"

#: the levels' names as a player reads them (message ids)
LEVEL_LABELS = {"easy": i18n.N_("Easy"), "medium": i18n.N_("Medium"), "hard": i18n.N_("Hard"),
                "expert": i18n.N_("Expert")}


@endpoint
async def index(request):
    return FileResponse(STATIC / "index.html", media_type="text/html")


@endpoint
async def analysis_page(request):
    return FileResponse(STATIC / "analysis.html", media_type="text/html")


@endpoint
async def healthz(request):
    ctx = context(request)
    # the database is asked off the event loop but not in the worker
    # pool: a pool busy with searches is no reason to call the server down
    try:
        await asyncio.to_thread(ctx.store.ping)
        database, status = "ok", 200
    except StoreError as exc:
        database, status = str(exc), 503
    return JSONResponse({"status": "ok" if status == 200 else "unavailable",
                         "database": database, "version": solver.__version__,
                         "uptime": round(_time.time() - ctx.started, 3), **ctx.pool.stats(),
                         "streams": ctx.hub.count()}, status_code=status)


async def metrics_route(request: Request) -> Response:
    return Response(context(request).metrics.exposition(),
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
    settings = context(request).settings
    tr = translator(request)
    out = []
    loaded = {name: solver.load_game(name) for name in solver.registered_games()}
    said = words.games(tr, loaded)          # titles, help and option names in words
    for name, game in loaded.items():
        out.append({
            "name": name, "title": said[name]["title"],
            "description": said[name]["description"], "players": game.num_players,
            "unit": labels.unit(game, game.round_unit, tr), "default_bot": default_bot(game),
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


@endpoint
async def openapi_json(request):
    return JSONResponse(openapi.document(context(request).settings))


@endpoint
async def docs(request):
    return HTMLResponse(openapi.html(openapi.document(context(request).settings)))


#: path -> method -> endpoint (``/static`` is a mount of its own: ``app``)
ROUTES = {
    "/": {"GET": index},
    "/analysis": {"GET": analysis_page},
    "/healthz": {"GET": healthz},
    "/metrics": {"GET": metrics_route},
    "/docs": {"GET": docs},
    "/v1/openapi.json": {"GET": openapi_json},
    "/v1/games": {"GET": games},
    "/v1/i18n/{lang}": {"GET": catalogue},
}
