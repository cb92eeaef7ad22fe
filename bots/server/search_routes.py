"""The searches a client asks of a position it sends (docs/server.md): a
hint (``POST /v1/hint``), the exact values of a deal with every card
known (``POST /v1/solve``), the expected result per seat (``POST
/v1/evaluate``) and the review of a deal's decisions (``POST
/v1/review``).  Each runs on a worker of the pool, within the settings'
caps; the work itself is ``work``'s (through the application's context).
"""

from __future__ import annotations

from starlette.responses import JSONResponse

from solver import position
from solver.errors import HiddenInformationError
from solver.front import N_
from solver.said import phrase
from solver.search import Limit

from .. import advice
from .. import review as reviews
from . import models, words
from .context import context
from .errors import RequestError
from .requests import body_model, endpoint, limit_of, read_limit, read_position, translator
from .work import review_deal

# the error raised here (solver/errors.py: a code and its parameters)
SOLVE_VIEW = phrase("server_solve_view", N_("solve needs every card, and this is a seat view: "
                                            "use /v1/hint or /v1/evaluate"))

#: evaluate's worlds when the request gives no limit
DEFAULT_WORLDS = 200


@endpoint
async def hint(request):
    ctx = context(request)
    settings = ctx.settings
    body, doc = await body_model(request, settings.max_body, models.HintBody)
    limit, given, applied = read_limit(
        limit_of(body), settings, Limit(time=min(settings.hint_time, settings.max_time)))
    tr = translator(request)

    def advise(stop=None):
        # the position is validated (replayed) on the worker too
        view = advice.view_of(read_position(doc))
        return ctx.advise(view, body.bot, limit, body.seed, settings, tr, stop=stop,
                          inference=body.inference, beliefs=body.beliefs, prior=body.prior,
                          leaf=body.leaf if body.bot == "ismcts" else None)
    out = await ctx.pool.run(advise, disconnected=request.is_disconnected)
    out["limit"] = applied
    return JSONResponse(advice.json_finite(out))


@endpoint
async def solve(request):
    ctx = context(request)
    settings = ctx.settings
    body, doc = await body_model(request, settings.max_body, models.SolveBody)

    tr = translator(request)

    def solve_it(stop=None):
        pos = read_position(doc)
        if isinstance(pos, position.SeatView):
            raise HiddenInformationError(SOLVE_VIEW())
        state = pos.state()
        if state.is_terminal():
            raise RequestError("the game in this record is over: nothing to solve",
                               "position")
        return words.solution(ctx.solve(state, body.line, settings, stop=stop), state.game, tr)
    return JSONResponse(await ctx.pool.run(solve_it, disconnected=request.is_disconnected))


@endpoint
async def evaluate(request):
    ctx = context(request)
    settings = ctx.settings
    body, doc = await body_model(request, settings.max_body, models.EvaluateBody)
    limit, _, applied = read_limit(
        limit_of(body), settings, Limit(worlds=min(DEFAULT_WORLDS, settings.max_worlds)))
    tr = translator(request)

    def evaluate_it(stop=None):
        view = advice.view_of(read_position(doc))
        return words.evaluation(ctx.evaluate(view, limit, body.policy, body.seed, stop=stop,
                                             inference=body.inference),
                                view.game, view.seat, tr)
    out = await ctx.pool.run(evaluate_it, disconnected=request.is_disconnected)
    out["limit"] = applied
    return JSONResponse(advice.json_finite(out))


@endpoint
async def review(request):
    ctx = context(request)
    settings = ctx.settings
    body, doc = await body_model(request, settings.max_body, models.ReviewBody)
    # one deal a request (the last of the record by default), each
    # decision's search within the caps, each hindsight solve within max_nodes
    limit, _, applied = read_limit(
        limit_of(body), settings, Limit(time=min(reviews.DEFAULT_SECONDS, settings.max_time)))
    tr = translator(request)

    def review_it(stop=None):
        pos = read_position(doc)
        out = review_deal(pos, body.deal or "last", body.seat, limit, body, settings, tr, stop)
        return words.review(out, pos.game, tr)
    out = await ctx.pool.run(review_it, disconnected=request.is_disconnected)
    out["limit"] = applied
    return JSONResponse(out)


#: path -> method -> endpoint
ROUTES = {
    "/v1/hint": {"POST": hint},
    "/v1/solve": {"POST": solve},
    "/v1/evaluate": {"POST": evaluate},
    "/v1/review": {"POST": review},
}
