"""The routes of the tables people play at (docs/server.md, "Tables"): a
table made with its seats' invitations, the lobby of public tables and
joining one, its view from a seat, a move, a hint for the seat to move, a
seat handed to a bot or taken back, a deal's review, its live updates (an
event stream), its record and its rematch; and its deletion.  They read the caller's token
from ``Authorization: Bearer``: a missing one is a 401, one that does not
give what is asked a 403.  The tables themselves are ``tables``'.
"""

from __future__ import annotations

import asyncio
import json
import time as _time

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

import solver
from solver.errors import IllegalActionError, NotationError, short_repr
from solver.search import Limit

from .. import advice
from .. import review as reviews
from . import models, words
from .context import context
from .errors import RequestError, StaleVersion, Unauthorized
from .live import CLOSED
from .requests import body_model, endpoint, limit_of, read_limit, translator
from .work import review_deal

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


def seen(tables, table, seat: int | None, tr) -> dict:
    """The table as ``seat`` sees it (``Table.payload``), with the seconds
    left before a bot takes the turn of the person to move (``turn_left``,
    by the clock absent seats are judged by; None: nobody waits)."""
    out = table.payload(seat, tr)
    ends = out["turn_ends"]
    out["turn_left"] = None if ends is None else max(0.0, round(ends - tables.clock(), 1))
    return out


@endpoint
async def lobby(request):
    """The public tables with an open seat, each with what a joiner needs."""
    ctx = context(request)
    tr = translator(request)

    def listing(stop=None):
        out = []
        for row in ctx.tables.lobby():
            game = solver.load_game(row.game, **row.options)
            out.append({
                "table": row.id, "game": row.game, "title": game.front.name(tr),
                "options": dict(game.options), "players": game.num_players,
                "open": row.open, "persons": row.persons,
                "bots": {str(s): {"bot": spec["bot"], "level": spec.get("level")}
                         for s, spec in enumerate(row.seats) if "bot" in spec},
                "seeded": row.seeded, **({"seed": row.seed} if row.seeded else {}),
                "away": row.away, "created": row.created,
                "age": max(0.0, round(_time.time() - row.created, 1))})
        return {"tables": out}
    return JSONResponse(await ctx.pool.run(listing))


@endpoint
async def join_table(request):
    ctx = context(request)
    tables = ctx.tables
    table_id = request.path_params["table_id"]
    tables.require(table_id)
    body, _ = await body_model(request, ctx.settings.max_body, models.JoinBody)
    tr = translator(request)

    def take(stop=None):
        table = tables.get(table_id)
        with tables.locked(table):
            seat, token = tables.join(table, body.seat)
            tables.play_bots(table, stop)
            out = seen(tables, table, seat, tr)
        out["token"] = token
        out["link"] = invitation(table.id, token, tr.lang)
        return out
    return JSONResponse(await ctx.pool.run(take))


@endpoint
async def seat_away(request):
    ctx = context(request)
    tables = ctx.tables
    table_id = request.path_params["table_id"]
    tables.require(table_id)
    text = request.path_params["seat"]
    if not (text.isascii() and text.isdigit()) or len(text) > 2:
        raise RequestError("a seat is a seat number, got {got}", "seat", got=short_repr(text))
    token = bearer(request)
    body, _ = await body_model(request, ctx.settings.max_body, models.SeatBody)
    tr = translator(request)

    def hand(stop=None):
        table = tables.get(table_id)
        with tables.locked(table):
            mine = tables.set_away(table, token, int(text), body.away, body.bot)
            return seen(tables, table, mine, tr)
    return JSONResponse(await ctx.pool.run(hand))


@endpoint
async def rematch(request):
    ctx = context(request)
    tables = ctx.tables
    table_id = request.path_params["table_id"]
    tables.require(table_id)
    token = bearer(request)
    tr = translator(request)

    def again(stop=None):
        table = tables.get(table_id)
        with tables.locked(table):
            new, seat, made = tables.rematch(table, token, stop)
        with tables.locked(new):
            out = seen(tables, new, seat, tr)
        out["created"] = made
        return out
    out = await ctx.pool.run(again)
    return JSONResponse(out, status_code=201 if out["created"] else 200,
                        headers={"Location": f"/v1/tables/{out['table']}"})


@endpoint
async def create_table(request):
    ctx = context(request)
    body, _ = await body_model(request, ctx.settings.max_body, models.CreateTable)
    doc = body.model_dump(exclude_unset=True)       # JSON's 2.0 as the integer 2
    tr = translator(request)

    def make(stop=None):
        table, seat, admin, tokens = ctx.tables.create(doc, stop)
        with table.lock:
            out = seen(ctx.tables, table, seat, tr)
        out["admin_token"] = admin
        out["invitations"] = [{"seat": s, "name": out["names"][s], "token": t,
                               "link": invitation(table.id, t, tr.lang)}
                              for s, t in sorted(tokens.items())]
        return out
    out = await ctx.pool.run(make)
    return JSONResponse(out, status_code=201,
                        headers={"Location": f"/v1/tables/{out['table']}"})


@endpoint
async def get_table(request):
    ctx = context(request)
    tables = ctx.tables
    table_id = request.path_params["table_id"]
    tables.check_id(table_id)
    token = bearer(request)
    seat = seat_query(request)
    tr = translator(request)

    def look(stop=None):
        table = tables.get(table_id)        # a replay after a restart: on a worker
        with tables.locked(table):
            # after the catch-up: a seat joined in another process has its token
            viewer = table.viewer(token, seat)
            # a person whose turn ran out: a bot stands in (every look asks)
            tables.cover_absent(table)
            tables.play_bots(table, stop)   # after a restart, a bot may be to move
            table.touch(ctx.store, ctx.settings.idle)
            return seen(tables, table, viewer, tr)
    return JSONResponse(await ctx.pool.run(look))


@endpoint
async def delete_table(request):
    ctx = context(request)
    table_id = request.path_params["table_id"]
    ctx.tables.check_id(table_id)
    token = bearer(request)
    await ctx.pool.run(lambda stop=None: ctx.tables.delete(table_id, token))
    return Response(status_code=204)


@endpoint
async def act(request):
    ctx = context(request)
    tables = ctx.tables
    table_id = request.path_params["table_id"]
    tables.require(table_id)
    token = bearer(request)
    if token is None:
        raise Unauthorized("playing at a table needs your seat's token (Authorization: "
                           "Bearer <token> from your invitation link)")
    body, doc = await body_model(request, ctx.settings.max_body, models.ActBody)
    tr = translator(request)

    def play(stop=None):
        table = tables.get(table_id)
        with tables.locked(table):
            seat = table.acting_seat(token, body.seat)
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
            return seen(tables, table, seat, tr)
    return JSONResponse(await ctx.pool.run(play))


@endpoint
async def table_hint(request):
    ctx = context(request)
    settings, tables = ctx.settings, ctx.tables
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
        return ctx.advise(view, body.bot, limit, body.seed, settings, tr, stop=stop,
                          inference=body.inference, beliefs=body.beliefs)
    out = await ctx.pool.run(advise, disconnected=request.is_disconnected)
    out["limit"] = applied
    return JSONResponse(advice.json_finite(out))


@endpoint
async def table_review(request):
    ctx = context(request)
    settings, tables = ctx.settings, ctx.tables
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
        out = review_deal(pos, deal, seat, limit, body, settings, tr, stop)
        with table.lock:
            table.label_review(out, tr)
        return words.review(out, table.game, tr)
    out = await ctx.pool.run(review_it, disconnected=request.is_disconnected)
    out["limit"] = applied
    return JSONResponse(out)


@endpoint
async def table_events(request):
    ctx = context(request)
    tables, hub = ctx.tables, ctx.hub
    table_id = request.path_params["table_id"]
    tables.check_id(table_id)
    token = bearer(request)

    def check(stop=None):
        table = tables.get(table_id)
        table.viewer(token, None)           # a wrong token: 403, as for a view
        with tables.locked(table):
            return table.version
    version = await ctx.pool.run(check)
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
    ctx = context(request)
    table_id = request.path_params["table_id"]
    ctx.tables.check_id(table_id)

    def record(stop=None):
        table = ctx.tables.get(table_id)
        with ctx.tables.locked(table):
            return table.record()
    return JSONResponse(await ctx.pool.run(record))


#: path -> method -> endpoint
ROUTES = {
    "/v1/tables": {"GET": lobby, "POST": create_table},
    "/v1/tables/{table_id}/join": {"POST": join_table},
    "/v1/tables/{table_id}/seats/{seat}": {"POST": seat_away},
    "/v1/tables/{table_id}/rematch": {"POST": rematch},
    "/v1/tables/{table_id}": {"GET": get_table, "DELETE": delete_table},
    "/v1/tables/{table_id}/actions": {"POST": act},
    "/v1/tables/{table_id}/hint": {"POST": table_hint},
    "/v1/tables/{table_id}/review": {"POST": table_review},
    "/v1/tables/{table_id}/events": {"GET": table_events},
    "/v1/tables/{table_id}/record": {"GET": table_record},
}
