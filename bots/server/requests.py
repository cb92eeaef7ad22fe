"""Reading a request and answering a refusal, for every route of the
server (``app``'s and the analysis board's): the request's language, the
body read within ``max_body`` and checked by its declared model, the
position and limit fields, and the typed answer of a refusal (docs/server.md).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from pydantic import ValidationError
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from solver import position
from solver.errors import (
    DixtrixError,
    IllegalActionError,
    InputLimitError,
    LimitError,
    PositionError,
    short_repr,
)
from solver.search import Limit

from ..registry import check_settings, parse_settings
from . import i18n
from .errors import RequestError, StaleVersion
from .i18n import N_, Translator
from .pool import Busy
from .settings import Settings
from .store import StoreError
from .table import not_at_table
from .tables import TABLE_BOTS

log = logging.getLogger("dixtrix.server")


# --------------------------------------------------------------------------
# answers


def translator(request: Request) -> Translator:
    return Translator(i18n.negotiate(request.query_params.get("lang"),
                                     request.headers.get("accept-language")))


def error_response(exc: Exception, tr: Translator | None = None) -> JSONResponse:
    """The answer to a refused request: ``{"error", "status", "path"?,
    "reason"?, "code"?, "data"?}``, the error in the request's language
    where it is the server's own message; ``code`` and ``data`` where the
    error is given as data too (``DixtrixError``: a page words it)."""
    headers = {}
    if isinstance(exc, RequestError) and tr is not None:
        text = exc.translated(tr)
    elif isinstance(exc, DixtrixError) and tr is not None:
        text = exc.words(tr)
    else:
        text = str(exc)
    body: dict = {"error": " ".join(text.split())[:2000]}
    if isinstance(exc, Busy):
        status = 503
        headers["Retry-After"] = str(exc.retry_after)
    elif isinstance(exc, StoreError):       # the database failed: try again later
        status = 503
        headers["Retry-After"] = "1"
    elif isinstance(exc, RequestError):
        status = exc.status
        if status == 401:
            headers["WWW-Authenticate"] = 'Bearer realm="dixtrix table"'
    elif isinstance(exc, DixtrixError):
        status = 422
    else:                                   # pragma: no cover - guarded by callers
        status = 500
    path = getattr(exc, "path", None)
    if path:
        body["path"] = path
    if isinstance(exc, IllegalActionError):
        body["reason"] = exc.reason_said.words(tr) if exc.reason_said and tr else exc.reason
        body["action"] = str(exc.action)
    if isinstance(exc, StaleVersion):
        body["version"] = exc.version
    if isinstance(exc, DixtrixError) and exc.code:
        body["code"] = exc.code
        body["data"] = exc.data or {}
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
            return error_response(exc, translator(request))
        except ClientDisconnect:
            # the client went away before its request was read: nobody to answer
            log.info("client disconnected during %s %s", request.method, request.url.path)
            return Response(status_code=400)
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
            raise RequestError("bad Content-Length {got}", status=400, got=short_repr(length))
        if int(length) > max_body:
            raise RequestError("the body has {size} bytes (at most {top})", status=413,
                               size=f"{int(length):,}", top=f"{max_body:,}")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > max_body:
            raise RequestError("the body is over {top} bytes", status=413, top=f"{max_body:,}")
        chunks.append(chunk)
    return b"".join(chunks)


def _json_path(loc) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


#: pydantic's error types as the server's messages (message ids: translated)
_MESSAGES = {
    "int_type": N_("an integer, got {got}"), "int_parsing": N_("an integer, got {got}"),
    "float_type": N_("a number, got {got}"), "string_type": N_("a string, got {got}"),
    "dict_type": N_("a JSON object, got {got}"), "model_type": N_("a JSON object, got {got}"),
    "model_attributes_type": N_("a JSON object, got {got}"),
    "list_type": N_("a list, got {got}"), "bool_type": N_("true or false, got {got}"),
    "literal_error": N_("one of {expected}, got {got}"),
    "greater_than": N_("more than {gt}, got {got}"), "greater_than_equal": N_("at least {ge}, got {got}"),
    "less_than": N_("less than {lt}, got {got}"), "less_than_equal": N_("at most {le}, got {got}"),
    "string_too_short": N_("at least {min_length} characters, got {got}"),
    "string_too_long": N_("at most {max_length} characters, got {got}"),
    "string_pattern_mismatch": N_("a string that is not blank (pattern {pattern}), got {got}"),
    "too_long": N_("at most {max_length} items, got {got}"),
    "finite_number": N_("a finite number, got {got}"),
}


def _bot_refusal(spec: str, path: str) -> RequestError:
    """Why a bot string fails its schema (``models.BotSpec``, made from the
    bots' declared settings): a bot no table takes, else what ``make_bot``'s
    own check says of its settings (the setting named, the bot's settings
    listed), else a value written other than plainly (``iterations=05``)."""
    name = spec.partition(":")[0].strip()
    if name not in TABLE_BOTS:
        # in the words the table's own check uses (table.check_bot)
        return not_at_table(name, path)
    try:
        check_settings(name, parse_settings(spec)[1])
    except DixtrixError as exc:
        return RequestError.passing(exc, path)
    return RequestError("bot {name}: a settings string is name:key=value,key=value, each "
                        "value written plainly (5, 0.5, on), got {got}", path,
                        name=short_repr(name), got=short_repr(spec))


def _refusal(errors: list, doc: dict, model) -> RequestError:
    """The first of pydantic's errors as a ``RequestError`` naming its path."""
    def clean(err) -> list:
        # the loc's parts that are the request's own keys and indices; the
        # others name a union's members ("constrained-str", "dict[...]")
        out, cur = [], doc
        for i, part in enumerate(err["loc"]):
            if isinstance(cur, dict) and part in cur:
                out.append(part)
                cur = cur[part]
            elif isinstance(cur, list) and isinstance(part, int) and 0 <= part < len(cur):
                out.append(part)
                cur = cur[part]
            elif err["type"] == "missing" and i == len(err["loc"]) - 1:
                out.append(part)
        return out
    # unknown keys first (as a reader would fix them first); then, of a
    # union's errors, the one that reaches deepest (the member the value is)
    err = max(errors, key=lambda e: (e["type"] == "extra_forbidden", len(clean(e))))
    loc = clean(err)
    path = _json_path(loc)
    if err["type"] == "extra_forbidden":
        return RequestError("unknown key {key} (this route takes: {keys})", path,
                            key=short_repr(err["loc"][-1]), keys=", ".join(map(repr, model.model_fields)))
    if err["type"] == "missing":
        return RequestError("missing {key}", path, key=repr(err["loc"][-1]))
    if err["type"] == "string_pattern_mismatch" and loc and loc[0] == "bots":
        return _bot_refusal(str(err.get("input")), path)
    message = _MESSAGES.get(err["type"])
    if message is None:
        return RequestError("{why}", path, why=err["msg"])
    params: dict[str, Any] = {k: str(v) for k, v in (err.get("ctx") or {}).items()}
    params.setdefault("expected", "")
    return RequestError(message, path, got=short_repr(err.get("input")), **params)


async def body_model(request: Request, max_body: int, model):
    """The body, checked by ``model``: ``(the model, the JSON object)``."""
    raw = await read_body(request, max_body)
    if not raw.strip():
        raise RequestError("the body is empty: send a JSON object", status=400)
    if len(raw) > position.MAX_DOCUMENT_BYTES:
        raise RequestError("the body has {size} bytes (a JSON document is at most {top})",
                           status=413, size=f"{len(raw):,}",
                           top=f"{position.MAX_DOCUMENT_BYTES:,}")
    try:
        doc = position.parse_json(raw)
    except InputLimitError as exc:       # well-formed, but a value past the limits
        raise RequestError.passing(exc, None, status=422) from None
    except PositionError as exc:
        raise RequestError.passing(exc, None, status=400) from None
    if not isinstance(doc, dict):
        raise RequestError("the body is a JSON object, got {got}", "",
                           got=type(doc).__name__)
    try:
        return model.model_validate(doc), doc
    except ValidationError as exc:
        raise _refusal(exc.errors(), doc, model) from None


def read_position(doc: dict):
    """The ``position`` field: a record or a seat view (docs/positions.md);
    its errors name the path under ``position``."""
    value = doc["position"]
    try:
        return position.from_json(value)
    except PositionError as exc:
        raise position_refused(exc) from None
    except DixtrixError as exc:
        raise RequestError.passing(exc, "position") from None


def under_position(path: str | None) -> str:
    """A path of the position as a path of the body (``position.deal...``)."""
    if not path:
        return "position"
    return "position" + ("" if path.startswith("[") else ".") + path


def position_refused(exc: PositionError, bare: bool = False) -> RequestError:
    """The refusal of a body's bad ``position``: the solver's error
    (``bare``: without its path before it) at the culprit's path under
    ``position``, with its code and data, the paths among the data under
    ``position`` too."""
    err = RequestError.passing(exc, under_position(exc.path), bare=bare)
    if exc.data is not None:
        err.data = {k: [under_position(p) for p in v] if k == "paths" else
                    under_position(v) if k == "also" else v for k, v in exc.data.items()}
    return err


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
        # number of the field's type: a count is an integer (JSON's 501.0 is
        # read as 501: solver.position.parse_json), so 501.5 iterations is
        # refused as 400.5 is, not taken for the cap
        top = caps.to_dict()

        def over_cap(k, v):
            kinds = (int, float) if k == "time" else int
            return k in top and isinstance(v, kinds) and not isinstance(v, bool) \
                and v > top[k]
        value = {k: (top[k] if over_cap(k, v) else v) for k, v in value.items()}
    try:
        limit = default if value is None else Limit.from_mapping(value, "limit")
    except LimitError as exc:
        raise RequestError.passing(exc, exc.path or "limit", bare=True) from None
    limit, _ = limit.capped(caps)
    return limit, given, limit.to_dict()


def limit_of(body) -> dict:
    """The ``limit`` a body gave, as a mapping (its numbers as checked)."""
    if body.limit is None:
        return {}
    return {"limit": body.limit.model_dump(exclude_none=True)}


__all__ = ["translator", "error_response", "internal_error", "endpoint", "read_body",
           "body_model", "read_position", "position_refused", "under_position", "read_limit",
           "limit_of"]
