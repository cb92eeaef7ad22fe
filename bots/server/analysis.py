"""The analysis board's routes (docs/server.md, "The analysis board"): a
record or a seat view opened as a line of moves (``POST
/v1/analysis/open``), every legal action's value at a step of it or of a
variation (``POST /v1/analysis/values``, as JSON or as JSON lines with the
progress first, cancelled when the client goes away), and the engine's
suggested continuation (``POST /v1/analysis/line``), and what lies on
the table at a step, in words (``POST /v1/analysis/step``).  The board's logic is
``bots/analysis.py``; the page is ``static/analysis.html``.
"""

from __future__ import annotations

import asyncio
import copy
import json
import math
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from solver import position as positions
from solver.errors import DixtrixError, PositionError
from solver.front import BoardView
from solver.search import Limit

from .. import advice
from .. import analysis as boards
from . import labels, models, words
from .context import context
from .errors import RequestError
from .i18n import N_, Translator
from .requests import (
    body_model,
    endpoint,
    limit_of,
    position_refused,
    read_limit,
    translator,
)

#: each kind of exact value (solver/dd/solution.py ``KINDS``) in a word and
#: in a sentence: "team minimax" where partners play, "minimax" where two
#: seats do (issue #51: "+50 best, exact" said nothing of what it assumed)
KIND_WORDS = {
    "paranoid": (N_("paranoid"),
                 N_("paranoid: the seat to move against the other seats as one side")),
    "maxn": (N_("max^n"),
             N_("max^n: every seat plays for its own score, ties against the seat to move")),
    "team": (N_("team minimax"),
             N_("team minimax: each team plays for itself against the other")),
    "minimax": (N_("minimax"), N_("minimax: each seat plays against the other")),
}


def kind_words(board: boards.Board, kind: str | None, tr: Translator) -> dict[str, str] | None:
    """A kind of exact value in the reader's words: ``{"kind", "label",
    "words"}`` (minimax said as a team's where partners play); None for
    none."""
    if kind is None:
        return None
    key = "team" if kind == "minimax" and board.game.partnership else kind
    if key not in KIND_WORDS:
        return {"kind": kind, "label": kind, "words": kind}
    label, said = KIND_WORDS[key]
    return {"kind": kind, "label": tr(label), "words": tr(said)}


def _board(doc: dict) -> boards.Board:
    """The board of the body's ``position``; its errors under ``position``."""
    try:
        return boards.Board.open(doc["position"])
    except PositionError as exc:
        raise position_refused(exc, bare=True) from None
    except DixtrixError as exc:
        raise RequestError.passing(exc, "position") from None


def _step(board: boards.Board, body) -> None:
    """Check the body's step and variation before any work (errors named
    ``at``, ``variation[i]``)."""
    try:
        board.state_at(body.at, body.variation or ())
    except PositionError as exc:
        raise RequestError.passing(exc, exc.path or "at", bare=True) from None


def _labels(board: boards.Board, texts, tr: Translator) -> dict[str, str]:
    """Each action's words in the reader's language."""
    game = board.game
    state = board.start
    out = {}
    for text in texts:
        if text == "?" or text in out:
            continue
        try:
            is_card = game.is_card(state.string_to_action(text))
        except DixtrixError:
            is_card = False
        out[text] = labels.action(game, text, is_card, tr)
    return out


def _names(board: boards.Board, show, tr: Translator) -> list[str]:
    """The seats' names as people read them: Seat 1..n when every hand is
    shown, else as the shown seat says them (You, Left, Partner...)."""
    return words.seat_names(board.game, None if show in ("all", None) else show, tr)


def _words(board: boards.Board, out: dict, tr: Translator) -> dict:
    """A drawing (``boards.drawn``) with its words in the reader's
    language: the seats' names, the cards' faces and names, the trumps,
    the contracts, the last action and the unit."""
    game = board.game
    out["names"] = _names(board, out["show"], tr)
    for seat in out["seats"]:
        seat["name"] = out["names"][seat["seat"]]
    said = game.front
    out["cards"] = labels.cards_in(game, out["cards"], tr)
    # the trumps and the contract in play as the game's front reads them
    # from the shown seat's facts, in words
    known = out.pop("known", {})
    trumps = said.trumps(known, tr)
    if trumps is not None:
        out["trumps"] = trumps
    contract = said.contract_in_play(known)
    if contract:
        out["contract_label"] = said.contract(contract, tr)
    # the game's board in its words, as generic widgets (``Front.panels``)
    moves = out.pop("deal_moves", [])
    view = BoardView(known, out["names"], None if out["show"] == "all" else out["show"],
                     [(m["seat"], labels.action(game, m["action"], m["card"], tr))
                      for m in moves])
    out.update(labels.board(game, view, tr))
    for entry in out.get("legal", []):
        entry["label"] = labels.action(game, entry["action"], entry["card"], tr)
        if entry["card"]:
            out["cards"][entry["action"]] = said.card(entry["action"], tr)
    if out.get("last"):
        last = out["last"]
        last["label"] = labels.action(game, last["action"], last["card"], tr)
    out["unit"] = labels.unit(game, game.round_unit, tr)
    return out


def _exact_words(board: boards.Board, ex: dict | None, tr: Translator) -> dict | None:
    """The true deal's exact part (``boards.exact_values``) with its words
    in the reader's language: its unit, its kind (``kind_words``) and,
    where the solve did not finish, each action's proved bracket
    (``words.brackets``)."""
    if not ex:
        return ex
    if ex.get("unit"):
        ex["unit"] = labels.unit(board.game, ex["unit"], tr)
    if ex.get("kind"):
        ex["kind_words"] = kind_words(board, ex["kind"], tr)
    if ex.get("finished") is False and "brackets" in ex:
        words.brackets(ex, tr)
    return ex


def _in_words(board: boards.Board, out: dict, tr: Translator) -> dict:
    """A step's values with their words in the reader's language: the
    search's facts, advice, units, test and reasons as ``/v1/hint`` gives
    them, and the exact values' unit, kind and brackets (``_exact_words``)."""
    _exact_words(board, out.get("exact"), tr)
    searched = (out.get("search") or {}).get("exact")
    if searched and searched.get("kind"):
        searched["kind_words"] = kind_words(board, searched["kind"], tr)
    if out.get("search") is not None and out.get("seat") is not None:
        view = positions.SeatView.of(board.state_at(out["at"], out["variation"]), out["seat"])
        out["search"].setdefault("labels", out["labels"])
        out["search"] = words.hint(out["search"], view, tr)
    return out


def _finite(value: Any) -> Any:
    return advice.json_finite(value)


def _limit(body, settings, default: Limit) -> tuple[Limit, dict]:
    limit, _, applied = read_limit(limit_of(body), settings, default)
    return limit, applied


def _nodes(body, settings) -> int:
    asked = body.nodes if body.nodes is not None else boards.DEFAULT_NODES
    return min(asked, settings.max_nodes)


@endpoint
async def open_board(request: Request) -> Response:
    ctx = context(request)
    body, doc = await body_model(request, ctx.settings.max_body, models.AnalysisOpenBody)
    tr = translator(request)

    def work(stop=None):
        board = _board(doc)
        out = board.to_json()
        out["names"] = _names(board, board.seat if board.seat is not None else "all", tr)
        out["labels"] = _labels(board, [m.action for m in board.moves], tr)
        out["unit"] = labels.unit(board.game, board.game.round_unit, tr)
        # the kinds of exact value the page may ask for, the game's own first
        out["kinds"] = [kind_words(board, k, tr) for k in board.kinds()]
        if board.kind == "record":
            # the first deal's every card, explicit: where a deal set up
            # by hand starts (docs/positions.md gives each game's shape)
            out["deal"] = positions.to_json(board.start).get("deal")
        return out
    return JSONResponse(_finite(await ctx.pool.run(work, disconnected=request.is_disconnected)))


@endpoint
async def values(request: Request) -> Response:
    ctx = context(request)
    settings = ctx.settings
    body, doc = await body_model(request, settings.max_body, models.AnalysisValuesBody)
    limit, applied = _limit(body, settings,
                            Limit(time=min(settings.hint_time, settings.max_time)))
    nodes = _nodes(body, settings)
    tr = translator(request)
    variation = list(body.variation or ())
    inference = None if body.inference is None else body.inference == "on"

    def check(stop=None):
        board = _board(doc)
        _step(board, body)
        return board

    # a bad position, step or variation is refused before anything is
    # computed (and before a stream starts: its status is the answer's)
    board = await ctx.pool.run(check, disconnected=request.is_disconnected)

    def work(stop=None, progress=None):
        def said(info: dict) -> None:
            # the exact solve's reports (its brackets narrowing, then its
            # answer) in words, on a copy: the answer is the cache's
            if isinstance(info, dict) and info.get("exact"):
                info = dict(info, exact=_exact_words(board, copy.deepcopy(info["exact"]), tr))
            progress(info)
        # the board caches its answers for every reader: words go on a copy
        out = copy.deepcopy(boards.analyse(board, body.at, variation, limit=limit,
                                           seed=body.seed, nodes=nodes, bot=body.bot,
                                           stop=stop, progress=said if progress is not None else None,
                                           inference=inference, kind=body.kind))
        texts = list(out.get("legal", []))
        out["labels"] = _labels(board, texts, tr)
        out["limit"] = applied
        return _in_words(board, out, tr)

    if not body.stream:
        return JSONResponse(_finite(await ctx.pool.run(work,
                                                       disconnected=request.is_disconnected)))
    return _stream(ctx.pool, work, request)


@endpoint
async def step(request: Request) -> Response:
    ctx = context(request)
    body, doc = await body_model(request, ctx.settings.max_body, models.AnalysisStepBody)
    tr = translator(request)
    variation = list(body.variation or ())

    def work(stop=None):
        board = _board(doc)
        _step(board, body)
        try:
            out = boards.drawn(board, body.at, variation, body.show)
        except PositionError as exc:
            raise RequestError.passing(exc, exc.path or "show", bare=True) from None
        return _words(board, out, tr)
    return JSONResponse(_finite(await ctx.pool.run(work, disconnected=request.is_disconnected)))


@endpoint
async def line(request: Request) -> Response:
    ctx = context(request)
    settings = ctx.settings
    body, doc = await body_model(request, settings.max_body, models.AnalysisLineBody)
    tr = translator(request)
    variation = list(body.variation or ())

    def work(stop=None):
        board = _board(doc)
        _step(board, body)
        steps = boards.continuation(board, body.at, variation, plies=body.plies,
                                    nodes=settings.max_nodes, seed=body.seed,
                                    limit=Limit(time=min(0.2, settings.max_time)),
                                    stop=stop, kind=body.kind)
        for s in steps:
            s["kind_words"] = kind_words(board, s.get("kind"), tr)
        return {"at": body.at, "variation": variation, "line": steps,
                "labels": _labels(board, [s["action"] for s in steps], tr)}
    return JSONResponse(_finite(await ctx.pool.run(work, disconnected=request.is_disconnected)))


#: the board's routes for ``app.create_app``'s table: path -> method -> endpoint
ROUTES = {
    "/v1/analysis/open": {"POST": open_board},
    "/v1/analysis/values": {"POST": values},
    "/v1/analysis/step": {"POST": step},
    "/v1/analysis/line": {"POST": line},
}


def _progress_line(info: dict) -> str:
    return json.dumps({"progress": _finite(info)}, allow_nan=False) + "\n"


def _stream(pool, work, request: Request) -> StreamingResponse:
    """``work`` on a worker, answered as JSON lines: ``{"progress": ...}``
    while it runs (the search's own reports, about ten a second, and the
    exact solve's answer as soon as it has one), then ``{"result": ...}``,
    or ``{"error": ..., "path": ..., "status": ...}``.  A client that goes
    away stops the work (the search ends within milliseconds)."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue()

    def progress(info) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, info)

    async def lines():
        job = asyncio.ensure_future(pool.run(work, progress=progress,
                                             disconnected=request.is_disconnected))
        getter: asyncio.Future | None = None
        try:
            while not job.done() or not queue.empty():
                getter = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait({getter, job}, return_when=asyncio.FIRST_COMPLETED)
                if getter in done:
                    yield _progress_line(_slim(getter.result()))
                else:
                    getter.cancel()
            try:
                out = job.result()
            except DixtrixError as exc:
                status = getattr(exc, "status", 422)
                yield json.dumps({"error": str(exc), "path": getattr(exc, "path", None),
                                  "status": status}) + "\n"
                return
            yield json.dumps({"result": _finite(out)}, allow_nan=False) + "\n"
        finally:
            # a client gone during the wait for a line cancels this generator
            # there: the task waiting for the next progress line goes too,
            # else it is left pending for good and the garbage collector logs
            # "Task was destroyed but it is pending!" (at the latest at shutdown)
            if getter is not None and not getter.done():
                getter.cancel()
            if not job.done():
                job.cancel()            # the client went away: Pool.run sets the stop event

    return StreamingResponse(lines(), media_type="application/x-ndjson",
                             headers={"Cache-Control": "no-store"})


def _slim(info: Any) -> Any:
    """A progress report without what the page does not draw (infinite
    intervals as null)."""
    if isinstance(info, dict):
        return {k: _slim(v) for k, v in info.items()}
    if isinstance(info, float) and not math.isfinite(info):
        return None
    return info


__all__ = ["ROUTES", "open_board", "values", "step", "line"]
