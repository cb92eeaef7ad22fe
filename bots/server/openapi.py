"""The API's OpenAPI 3.1 document (``GET /v1/openapi.json``) and a plain
HTML rendering of it (``GET /docs``, no script, nothing fetched).

Every request body's schema is the Pydantic model that checks it
(``models``), so the document and the server cannot disagree about what a
request may hold; the routes, their parameters, their security and the
answers they may give are listed here beside the routes' own table
(``app.ROUTES`` names the same paths, a test checks both ways).
"""

from __future__ import annotations

import html as _html
import json

import solver

from . import i18n, models

ERROR = {"$ref": "#/components/schemas/Error"}
BEARER: list[dict[str, list[str]]] = [{"token": []}]
OPTIONAL_BEARER: list[dict[str, list[str]]] = [{}, {"token": []}]

WHAT = {400: "malformed JSON, an empty body or a bad Content-Length",
        401: "no token where the route needs one (a seat's, or the admin's)",
        403: "a token that does not give this (another table's, another seat's, a seat's "
             "token to delete)",
        404: "no such table",
        409: "not now (not your turn, the match is not over, the table moved on: a move's "
             "'version' that is not the table's, and 'version' in the answer says which is)",
        413: "the body is over the server's max_body",
        422: "a field, position, limit or action that is refused: 'path' names it",
        503: "every worker busy and the queue full, or the table limit: see Retry-After"}


def _errors(*codes) -> dict:
    out = {}
    for c in codes:
        out[str(c)] = {"description": WHAT[c], "content": {"application/json": {
            "schema": ERROR}}}
        if c == 503:
            out[str(c)]["headers"] = {"Retry-After": {"schema": {"type": "string"},
                                                      "description": "seconds"}}
        if c == 401:
            out[str(c)]["headers"] = {"WWW-Authenticate": {"schema": {"type": "string"}}}
    return out


#: what a new table's answer holds for the routes of the table (the view's
#: other fields are the table's payload, as GET /v1/tables/{table_id} gives it)
CREATED = {"type": "object", "required": ["table", "admin_token", "invitations"],
           "properties": {
               "table": {"type": "string", "description": "the table's id"},
               "admin_token": {"type": "string", "description": "the table's admin token"},
               "invitations": {"type": "array", "items": {
                   "type": "object", "required": ["seat", "token", "link"],
                   "properties": {"seat": {"type": "integer"}, "name": {"type": "string"},
                                  "token": {"type": "string"},
                                  "link": {"type": "string"}}}}}}


#: the lobby's answer (GET /v1/tables)
LOBBY = {"type": "object", "required": ["tables"], "properties": {"tables": {
    "type": "array", "description": "the public tables not ended with an open seat, the "
                                    "newest first (at most 100)",
    "items": {"type": "object",
              "required": ["table", "game", "title", "options", "players", "open",
                           "persons", "bots", "seeded", "away", "created", "age"],
              "properties": {
                  "table": {"type": "string", "description": "the table's id"},
                  "game": {"type": "string"}, "title": {"type": "string"},
                  "options": {"type": "object"}, "players": {"type": "integer"},
                  "open": {"type": "array", "items": {"type": "integer"},
                           "description": "the seats a joiner may take"},
                  "persons": {"type": "array", "items": {"type": "integer"},
                              "description": "every person seat (taken or open)"},
                  "bots": {"type": "object", "description": "seat -> its bot and level",
                           "additionalProperties": {
                               "type": "object", "required": ["bot", "level"],
                               "properties": {"bot": {"type": "string"},
                                              "level": {"type": ["string", "null"]}}}},
                  "seeded": {"type": "boolean"}, "seed": {"type": "integer"},
                  "away": {"type": ["number", "null"], "description": "seconds a person's "
                           "turn waits before a bot plays the seat"},
                  "created": {"type": "number", "description": "seconds since 1970"},
                  "age": {"type": "number", "description": "seconds since it was made"}}}}}}

#: the answer to joining: the seat's token and link, with the table as it sees it
JOINED = {"type": "object", "required": ["table", "seat", "token", "link"],
          "properties": {"table": {"type": "string"}, "seat": {"type": "integer"},
                         "token": {"type": "string", "description": "your seat's token"},
                         "link": {"type": "string", "description": "your seat's link"}}}

#: the answer to a rematch: the new table as the caller sees it
REMATCH = {"type": "object", "required": ["table", "created"],
           "properties": {"table": {"type": "string", "description": "the rematch's id "
                                    "(every token of the table works there)"},
                          "created": {"type": "boolean", "description": "this request made "
                                      "it (false: another player asked first)"}}}


_PAIR = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}
#: the exact part of a step's values (POST /v1/analysis/values' 'exact',
#: bots/analysis.py ``exact_values``): a finished solve's values, or what a
#: solve stopped at its budget proved of each action (docs/solver.md,
#: "Brackets")
EXACT_VALUES = {
    "type": ["object", "null"], "required": ["finished"],
    "description": "the true deal's double-dummy values for the seat to move (a record); "
                   "null where no solver takes the position",
    "properties": {
        "finished": {"type": "boolean", "description": "whether the solve ended within "
                     "its budget (if not: 'brackets')"},
        "stopped": {"type": "boolean", "description": "the client went away first"},
        "seat": {"type": "integer"}, "nodes": {"type": "integer"},
        "budget": {"type": "integer", "description": "the node budget of this solve (a "
                   "streamed report's: a share of the request's)"},
        "unit": {"type": "string", "description": "the deal's result, in words"},
        "value": {"type": "number"},
        "values": {"type": "object", "additionalProperties": {"type": "number"}},
        "ranking": {"type": "array", "items": {"type": "string"}},
        "best": {"type": "array", "items": {"type": "string"}},
        "kind": {"enum": ["minimax", "paranoid", "maxn"], "description": "which value: "
                 "solver/dd/solution.py KINDS (an unfinished max^n solve's brackets are "
                 "the paranoid value's)"},
        "kind_words": {"type": "object", "required": ["kind", "label", "words"],
                       "properties": {"kind": {"type": "string"},
                                      "label": {"type": "string"},
                                      "words": {"type": "string"}}},
        "span": {**_PAIR, "type": ["array", "null"], "description": "an unfinished "
                 "solve: the game's own range of the value from here, in 'unit'"},
        "brackets": {"type": "object", "additionalProperties": _PAIR,
                     "description": "an unfinished solve: each legal action -> [lo, hi], "
                                    "its value proved to lie in it, in 'unit', within "
                                    "'span'; a streamed report within the one before"},
        "words": {"type": "object", "additionalProperties": {"type": "string"},
                  "description": "an unfinished solve: each bracket in the reader's words "
                                 "('between -25 and 0', 'at least 9', 'exactly 3')"}}}

#: a step's values (POST /v1/analysis/values)
ANALYSIS_VALUES = {
    "type": "object", "required": ["at", "variation", "over", "seat", "search", "exact"],
    "properties": {
        "at": {"type": "integer"}, "variation": {"type": "array", "items": {"type": "string"}},
        "over": {"type": "boolean"}, "seat": {"type": ["integer", "null"]},
        "hidden": {"type": "boolean", "description": "another seat of a seat view is to "
                   "move: nothing valued"},
        "legal": {"type": "array", "items": {"type": "string"}},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "search": {"type": ["object", "null"], "description": "the advice from the mover's "
                   "view, as POST /v1/hint"},
        "exact": EXACT_VALUES, "cached": {"type": "boolean"},
        "returns": {"type": "array", "items": {"type": "number"}},
        "limit": {"type": "object"}}}


#: a sentence the solver says, as its code and parameters (solver/said.py;
#: docs/server.md, "What the solver says")
SAID = {"type": "object", "required": ["code", "params"], "additionalProperties": False,
        "properties": {"code": {"type": "string", "description": "search.few, fact.hand..."},
                       "params": {"type": "object", "description": "numbers, strings, "
                                  "records, lists, {seat}, {message, context}, {action, "
                                  "capital}"}}}
_SAID, _WORDS = {"$ref": "#/components/schemas/Said"}, {"type": "string"}
#: a hint (POST /v1/hint, a table's hint): its words and, beside them, the
#: same as codes; the rest as docs/server.md lists it
HINT_OK = {"200": {"description": "the hint", "content": {"application/json": {"schema": {
    "type": "object", "required": ["action", "ranking", "facts", "fact_codes", "advice",
                                   "advice_codes"],
    "properties": {
        "action": _WORDS, "ranking": {"type": "array", "items": _WORDS},
        "facts": {"type": "array", "items": _WORDS}, "advice": _WORDS, "note": _WORDS,
        "fact_codes": {"type": "array", "items": _SAID}, "note_code": _SAID,
        "advice_codes": {"type": "array", "items": _SAID, "description": "a sentence each"},
        "search": {"type": "object", "properties": {
            "reasons": {"type": "object", "additionalProperties": _WORDS},
            "reason_codes": {"type": "object", "additionalProperties": _SAID},
            "equal_test": _WORDS, "equal_test_code": _SAID}},
        "exact": {"type": "object", "properties": {
            "winners": {"type": "object", "additionalProperties": _WORDS},
            "winner_seats": {"type": "object",
                             "additionalProperties": {"type": "integer"}}}}}}}}}}


def _table_link(operation: str, description: str, token: str) -> dict:
    return {"operationId": operation, "description": description,
            "parameters": {"path.table_id": "$response.body#/table",
                           "header.Authorization": f"Bearer {{$response.body#/{token}}}"}}


_SEAT = "invitations/0/token"
#: the new table's routes, with its id and a token from the answer (OpenAPI
#: links: a client, or a fuzzer's stateful phase, follows them)
TABLE_LINKS = {
    "GetTable": _table_link("getTable", "the table as the first invited seat sees it", _SEAT),
    "PlayAction": _table_link("playAction", "an action for the first invited seat", _SEAT),
    "TableHint": _table_link("tableHint", "a hint for the first invited seat", _SEAT),
    "TableReview": _table_link("tableReview", "a review for the first invited seat", _SEAT),
    "TableEvents": _table_link("tableEvents", "the table's live updates", _SEAT),
    "TableRecord": {"operationId": "tableRecord", "description": "the record, once over",
                    "parameters": {"path.table_id": "$response.body#/table"}},
    "SeatAway": {**_table_link("seatAway", "the first invited seat handed to a bot, or taken "
                               "back", _SEAT),
                 "parameters": {"path.table_id": "$response.body#/table",
                                "path.seat": "$response.body#/invitations/0/seat",
                                "header.Authorization": f"Bearer {{$response.body#/{_SEAT}}}"}},
    "Rematch": _table_link("rematch", "a rematch, once over", _SEAT),
    "JoinTable": {"operationId": "joinTable", "description": "an open seat, if public",
                  "parameters": {"path.table_id": "$response.body#/table"}},
    "DeleteTable": _table_link("deleteTable", "delete the table (the admin token)",
                               "admin_token"),
}


def _ok(description: str, code: str = "200", **extra) -> dict:
    return {code: {"description": description,
                   "content": {"application/json": {"schema": {"type": "object"}}}, **extra}}


def _tidy(schema):
    """A model's schema without Pydantic's titles and its ``"default": null``
    (an absent field, not a null one: null is refused where the type says so),
    and a body's ``position`` as one of the games' positions
    (``models.position_schema``)."""
    if isinstance(schema, dict):
        if schema.get(models.POSITION_MARK):
            return models.position_schema(_tidy({k: v for k, v in schema.items()
                                                 if k != models.POSITION_MARK}))
        return {k: _tidy(v) for k, v in schema.items()
                if k != "title" and not (k == "default" and v is None)}
    if isinstance(schema, list):
        return [_tidy(v) for v in schema]
    return schema


def _body(model, defs: dict) -> dict:
    schema = _tidy(model.model_json_schema(ref_template="#/components/schemas/{model}"))
    for name, sub in schema.pop("$defs", {}).items():
        defs[name] = sub
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def document(settings) -> dict:
    defs: dict = {}
    lang_q = {"name": "lang", "in": "query", "required": False,
              "schema": {"type": "string"},
              "description": "the language of the words in the answer: en, ar or fr "
                             "(else Accept-Language, else English)"}
    seat_q = {"name": "seat", "in": "query", "required": False,
              "schema": {"type": "integer", "minimum": 0, "maximum": models.MAX_SEATS - 1},
              "description": "your seat (it must be your token's; without it the token "
                             "says which)"}
    tid = {"name": "table_id", "in": "path", "required": True,
           "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{8,64}$"}}
    searching = _errors(400, 413, 422, 503)
    paths = {
        "/healthz": {"get": {"summary": "liveness: status, whether the table database "
                                        "answers, version, the pool's load",
                             "responses": {**_ok("the server is up and its database answers"),
                                           **_ok("the table database does not answer "
                                                 "(its error in 'database')", "503")}}},
        "/metrics": {"get": {"summary": "Prometheus metrics: requests and their seconds by "
                                        "route, searches running, queue, tables open",
                             "responses": {"200": {"description": "the Prometheus text format",
                                                   "content": {"text/plain": {
                                                       "schema": {"type": "string"}}}}}}},
        "/v1/games": {"get": {
            "summary": "the games, their options (default, type, choices, range), the bot "
                       "levels and bots a table takes, the server's caps",
            "parameters": [lang_q], "responses": _ok("games, options and levels")}},
        "/v1/i18n/{lang}": {"get": {
            "summary": "the page's words in one language (a JSON catalogue: English -> "
                       "the language)",
            "parameters": [{"name": "lang", "in": "path", "required": True,
                            "schema": {"enum": list(i18n.LANGS)}}],
            "responses": {**_ok("the catalogue"), **_errors(404)}}},
        "/v1/hint": {"post": {
            "summary": "the decision service's advice for the seat to move: every legal "
                       "action in the order it prefers them (the advice first), values with "
                       "95% intervals and visits, the actions as good, the reasons in words "
                       "(the content of dixtrix hint --json)",
            "parameters": [lang_q], "requestBody": _body(models.HintBody, defs),
            "responses": {**HINT_OK, **searching}}},
        "/v1/solve": {"post": {
            "summary": "exact values of a complete record (every card known), the expected "
                       "line of play",
            "requestBody": _body(models.SolveBody, defs),
            "responses": {**_ok("the solution"), **searching}}},
        "/v1/evaluate": {"post": {
            "summary": "the expected result of the deal per seat, with 95% intervals",
            "requestBody": _body(models.EvaluateBody, defs),
            "responses": {**_ok("the evaluation"), **searching}}},
        "/v1/review": {"post": {
            "summary": "one deal of a game record judged decision by decision (the content "
                       "of dixtrix review --json): each decision from its seat's view with the "
                       "expected loss of the action played, in hindsight by the exact solver, "
                       "a summary per seat and the deal's values after every trick; a seat "
                       "view reviews that seat's decisions without hindsight",
            "requestBody": _body(models.ReviewBody, defs),
            "responses": {**_ok("the review"), **searching}}},
        "/v1/analysis/open": {"post": {
            "summary": "the analysis board: a record or a seat view opened as a line of "
                       "moves (who played each, its deal and trick; a view's hidden actions "
                       "as '?'), each action in words",
            "parameters": [lang_q], "requestBody": _body(models.AnalysisOpenBody, defs),
            "responses": {**_ok("the board's line"), **searching}}},
        "/v1/analysis/values": {"post": {
            "summary": "every legal action's value at a step of the line (or of a variation "
                       "from it) for the seat to move: the advice from its view (as "
                       "/v1/hint) and, for a record, the exact double-dummy values of the "
                       "true deal within a node budget (a seat view where another seat "
                       "is to move: 'hidden', no legal list, nothing valued); with "
                       "'stream': JSON lines of progress, then the result",
            "parameters": [lang_q], "requestBody": _body(models.AnalysisValuesBody, defs),
            "responses": {"200": {
                "description": "the values (or JSON lines: {progress}..., the exact solve's "
                               "first, each as 'exact' above, then {result} or {error})",
                "content": {"application/json": {"schema": ANALYSIS_VALUES},
                            "application/x-ndjson": {"schema": {"type": "string"}}}},
                **searching}}},
        "/v1/analysis/step": {"post": {
            "summary": "what lies on the table at a step of the line (or of a variation): "
                       "each seat's name and card count, the hands the shown seat knows (or "
                       "every hand of a record), the trick, trumps, the contract and kingdom, "
                       "the layout's rows, the scores so far and who is to move, in words",
            "parameters": [lang_q], "requestBody": _body(models.AnalysisStepBody, defs),
            "responses": {**_ok("the drawing of the step"), **searching}}},
        "/v1/analysis/line": {"post": {
            "summary": "the engine's suggested continuation from a step: the exact line "
                       "where the true deal is solved in time, else the advice played out",
            "parameters": [lang_q], "requestBody": _body(models.AnalysisLineBody, defs),
            "responses": {**_ok("the line"), **searching}}},
        "/v1/tables": {"get": {
            "summary": "the lobby: the public tables not ended with an open seat, each with "
                       "its game, options, open seats, bots, and when it was made (a private "
                       "table is reached only by its invitations)",
            "operationId": "lobby", "parameters": [lang_q],
            "responses": {"200": {"description": "the open public tables",
                                  "content": {"application/json": {"schema": LOBBY}}},
                          **_errors(503)}},
                       "post": {
            "summary": "start a match: the game and options, the seats people take, the "
                       "bots (levels) for the others; answers the admin token, an invitation "
                       "(a seat token) for each person seat, and the first person's view",
            "operationId": "createTable",
            "parameters": [lang_q], "requestBody": _body(models.CreateTable, defs),
            "responses": {"201": {
                "description": "the table, the admin token and the invitations",
                "headers": {"Location": {"schema": {"type": "string"}}},
                "content": {"application/json": {"schema": CREATED}},
                "links": TABLE_LINKS},
                          **searching}}},
        "/v1/tables/{table_id}": {
            "get": {"summary": "the table as your seat sees it (your token), or as a "
                               "spectator sees it (no token); bots that are to move play "
                               "first", "operationId": "getTable",
                    "parameters": [tid, seat_q, lang_q],
                    "security": OPTIONAL_BEARER,
                    "responses": {**_ok("the view"), **_errors(401, 403, 404, 409, 422,
                                                               503)}},
            "delete": {"summary": "delete the table (the admin token)",
                       "operationId": "deleteTable", "parameters": [tid], "security": BEARER,
                       "responses": {"204": {"description": "deleted"},
                                     **_errors(401, 403, 404, 503)}}},
        "/v1/tables/{table_id}/actions": {"post": {
            "summary": "play an action for your seat (your token) at the table's version you "
                       "saw ('version': a retried or stale move gets 409 and is never played "
                       "twice); the bots answer; returns your seat's new view (illegal: 422 "
                       "with the reason)",
            "operationId": "playAction", "parameters": [tid, lang_q], "security": BEARER,
            "requestBody": _body(models.ActBody, defs),
            "responses": {**_ok("your seat's view"),
                          **_errors(400, 401, 403, 404, 409, 413, 422, 503)}}},
        "/v1/tables/{table_id}/join": {"post": {
            "summary": "take an open seat of a public table (the first open one, or 'seat'): "
                       "answers its token and link, and the table as it sees it",
            "operationId": "joinTable", "parameters": [tid, lang_q],
            "requestBody": _body(models.JoinBody, defs),
            "responses": {"200": {"description": "your seat, its token and the table",
                                  "content": {"application/json": {"schema": JOINED}}},
                          **_errors(400, 403, 404, 409, 413, 422, 503)}}},
        "/v1/tables/{table_id}/seats/{seat}": {"post": {
            "summary": "a person seat handed to a bot ('away': true; the admin token or the "
                       "seat's own) or taken back by its person ('away': false; the seat's "
                       "own token); answers the table as the caller sees it",
            "operationId": "seatAway",
            "parameters": [tid, {"name": "seat", "in": "path", "required": True,
                                 "schema": {"type": "integer", "minimum": 0,
                                            "maximum": models.MAX_SEATS - 1}}, lang_q],
            "security": BEARER, "requestBody": _body(models.SeatBody, defs),
            "responses": {**_ok("the table as the caller sees it"),
                          **_errors(400, 401, 403, 404, 409, 413, 422, 503)}}},
        "/v1/tables/{table_id}/rematch": {"post": {
            "summary": "once the match is over, the same people and bots at a new table "
                       "dealt by the next seed (a seat's token or the admin's: every token "
                       "of the table works at the rematch); asked again, the same table",
            "operationId": "rematch", "parameters": [tid, lang_q], "security": BEARER,
            "responses": {"201": {"description": "the rematch, made now",
                                  "headers": {"Location": {"schema": {"type": "string"}}},
                                  "content": {"application/json": {"schema": REMATCH}}},
                          "200": {"description": "the rematch another player made first",
                                  "headers": {"Location": {"schema": {"type": "string"}}},
                                  "content": {"application/json": {"schema": REMATCH}}},
                          **_errors(401, 403, 404, 409, 503)}}},
        "/v1/tables/{table_id}/hint": {"post": {
            "summary": "the hint for your seat to move (your token), as /v1/hint",
            "operationId": "tableHint", "parameters": [tid, lang_q], "security": BEARER,
            "requestBody": _body(models.TableHintBody, defs),
            "responses": {**HINT_OK,
                          **_errors(400, 401, 403, 404, 409, 413, 422, 503)}}},
        "/v1/tables/{table_id}/review": {"post": {
            "summary": "a finished deal of the table reviewed as /v1/review: your seat's "
                       "decisions from your view (your token), or every seat's with the exact "
                       "solver's hindsight (the admin token, once the match is over); every "
                       "action named also in words (played_label, best_label)",
            "operationId": "tableReview", "parameters": [tid, lang_q], "security": BEARER,
            "requestBody": _body(models.TableReviewBody, defs),
            "responses": {**_ok("the review"),
                          **_errors(400, 401, 403, 404, 409, 413, 422, 503)}}},
        "/v1/tables/{table_id}/events": {"get": {
            "summary": "live updates: a server-sent event stream, one 'table' event with the "
                       "table's version whenever it changes (then GET the view), 'deleted' "
                       "when it is gone", "operationId": "tableEvents", "parameters": [tid],
            "security": OPTIONAL_BEARER,
            "responses": {"200": {"description": "text/event-stream",
                                  "content": {"text/event-stream": {"schema": {
                                      "type": "object", "required": ["data"],
                                      "properties": {
                                          "event": {"enum": ["table", "deleted", "closed"]},
                                          "data": {"type": "string", "description": (
                                              '{"version": n}: the table\'s version')}}}}}},
                          **_errors(403, 404)}}},
        "/v1/tables/{table_id}/record": {"get": {
            "summary": "the full record with every hand, once the match is over",
            "operationId": "tableRecord", "parameters": [tid],
            "responses": {**_ok("the record"), **_errors(404, 409, 503)}}},
    }
    # each game's position (the bodies' 'position' is one of them, by its 'game')
    defs.update(models.position_components(), Said=SAID)
    defs["Error"] = {
        "type": "object", "required": ["error", "status"],
        "properties": {"error": {"type": "string"}, "status": {"type": "integer"},
                       "path": {"type": "string", "description": "JSON path of the culprit "
                                "in the request"},
                       "reason": {"type": "string", "description": "why an action is illegal"},
                       "action": {"type": "string"},
                       "version": {"type": "integer", "description": "the table's version "
                                   "now, when a move was sent for another (409)"},
                       "code": {"type": "string", "description": "the error as data, where "
                                "it is given so (docs/errors.md: duplicate_card, hand_size, "
                                "unknown_card_at, illegal_action...)"},
                       "data": {"type": "object", "description": "the parameters of 'code' "
                                "(an illegal action's reason as {code, params})"}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "dixtrix", "version": solver.__version__,
                 "description": "Hints, solving and evaluation for dix, trix, tricks, "
                                "dixie-rook and dix-exchange, and tables where people and "
                                "bots play them. Caps: "
                                f"time {settings.max_time} s, iterations "
                                f"{settings.max_iterations}, worlds {settings.max_worlds}, "
                                f"nodes {settings.max_nodes}, body {settings.max_body} "
                                f"bytes."},
        "paths": paths,
        "components": {"schemas": defs, "securitySchemes": {"token": {
            "type": "http", "scheme": "bearer",
            "description": "a seat's token (from its invitation link) or the table's admin "
                           "token (given to its creator)"}}},
    }


def html(doc: dict) -> str:
    """The document as a readable page."""
    esc = _html.escape
    parts = [f"<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport "
             f"content='width=device-width'><title>{esc(doc['info']['title'])} API</title>"
             "<style>body{font:15px/1.4 system-ui,sans-serif;max-width:60em;margin:auto;"
             "padding:1em}code,pre{background:#f3f3f3}pre{padding:.5em;overflow:auto}"
             "h3{margin-bottom:.2em}</style>",
             f"<h1>{esc(doc['info']['title'])} {esc(doc['info']['version'])}</h1>",
             f"<p>{esc(doc['info']['description'])}</p>",
             "<p>Machine-readable: <a href='/v1/openapi.json'>/v1/openapi.json</a>. "
             "The web table: <a href='/'>/</a>.</p>"]
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            parts.append(f"<h3><code>{method.upper()} {esc(path)}</code></h3>"
                         f"<p>{esc(op['summary'])}</p>")
            if "requestBody" in op:
                schema = op["requestBody"]["content"]["application/json"]["schema"]
                parts.append("<pre>" + esc(json.dumps(schema, indent=1)) + "</pre>")
            codes = ", ".join(f"{c} {esc(r['description'])}"
                              for c, r in op["responses"].items())
            parts.append(f"<p><small>{codes}</small></p>")
    if doc.get("components", {}).get("schemas"):
        parts.append("<h2>Schemas</h2><pre>" + esc(json.dumps(doc["components"]["schemas"],
                                                              indent=1)) + "</pre>")
    return "\n".join(parts)


__all__ = ["document", "html"]
