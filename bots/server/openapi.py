"""The API's OpenAPI 3.1 document (``GET /v1/openapi.json``) and a plain
HTML rendering of it (``GET /docs``, no script, nothing fetched)."""

from __future__ import annotations

import html as _html
import json

import solver

ERROR = {"$ref": "#/components/schemas/Error"}
POSITION = {"type": "object", "description": "a game record or a seat view "
            "(docs/positions.md); errors name the JSON path under 'position'"}
LIMIT = {"type": "object", "additionalProperties": False,
         "description": "how much to search; each value is capped by the server's settings, "
                        "and the time cap always applies",
         "properties": {"time": {"type": "number", "exclusiveMinimum": 0},
                        "iterations": {"type": "integer", "minimum": 1},
                        "worlds": {"type": "integer", "minimum": 1}}}
SEED = {"type": "integer", "minimum": 0, "description": "search seed (with an iteration or "
        "world count the answer is the same every time)"}


def _errors(*codes) -> dict:
    what = {400: "malformed JSON, an empty body or a bad Content-Length",
            404: "no such table", 409: "not now (not your turn, the match is not over...)",
            413: "the body is over the server's max_body",
            422: "a field, position, limit or action that is refused: 'path' names it",
            503: "every worker busy and the queue full: see Retry-After"}
    return {str(c): {"description": what[c],
                     "content": {"application/json": {"schema": ERROR}}} for c in codes}


def _body(props: dict, required=()) -> dict:
    return {"required": True, "content": {"application/json": {"schema": {
        "type": "object", "additionalProperties": False, "properties": props,
        "required": list(required)}}}}


def _ok(description: str, code: str = "200") -> dict:
    return {code: {"description": description,
                   "content": {"application/json": {"schema": {"type": "object"}}}}}


def document(settings) -> dict:
    seat_q = [{"name": "seat", "in": "query", "schema": {"type": "integer"},
               "description": "one of your seats (default: your first)"}]
    tid = [{"name": "table_id", "in": "path", "required": True, "schema": {"type": "string"}}]
    search_errors = _errors(400, 413, 422, 503)
    paths = {
        "/healthz": {"get": {"summary": "liveness: status, version, the pool's load",
                             "responses": _ok("the server is up")}},
        "/v1/games": {"get": {"summary": "the games, their options (default, type, choices, "
                                         "range), the bots a table takes, the server's caps",
                              "responses": _ok("games and options")}},
        "/v1/hint": {"post": {
            "summary": "every legal action's value for the seat to move, with 95% intervals, "
                       "and one line of advice (the content of dixtrix hint --json); exact "
                       "values when every card is known and no limit is given",
            "requestBody": _body({"position": POSITION, "limit": LIMIT,
                                  "bot": {"enum": ["ismcts", "pimc"]}, "seed": SEED},
                                 ["position"]),
            "responses": {**_ok("the hint"), **search_errors}}},
        "/v1/solve": {"post": {
            "summary": "exact values of a complete record (every card known), the expected "
                       "line of play",
            "requestBody": _body({"position": POSITION,
                                  "line": {"type": "integer", "minimum": 0, "maximum": 16}},
                                 ["position"]),
            "responses": {**_ok("the solution"), **search_errors}}},
        "/v1/evaluate": {"post": {
            "summary": "the expected result of the deal per seat, with 95% intervals",
            "requestBody": _body({"position": POSITION, "limit": LIMIT,
                                  "policy": {"enum": ["rules", "random"]}, "seed": SEED},
                                 ["position"]),
            "responses": {**_ok("the evaluation"), **search_errors}}},
        "/v1/review": {"post": {
            "summary": "one deal of a game record judged decision by decision (the content "
                       "of dixtrix review --json): each decision from its seat's view with the "
                       "expected loss of the action played, in hindsight by the exact solver, "
                       "a summary per seat and the deal's values after every trick; a seat "
                       "view reviews that seat's decisions without hindsight",
            "requestBody": _body({"position": POSITION,
                                  "deal": {"type": "integer", "minimum": 1, "maximum": 10**6,
                                           "description": "the deal to review (1 = the "
                                                          "record's first; default: its "
                                                          "last)"},
                                  "seat": {"type": "integer", "minimum": 0, "maximum": 63,
                                           "description": "review this seat only"},
                                  "limit": LIMIT, "bot": {"enum": ["ismcts", "pimc"]},
                                  "seed": SEED}, ["position"]),
            "responses": {**_ok("the review"), **search_errors}}},
        "/v1/tables": {"post": {
            "summary": "start a match: the game and options, the seats you take, the bots "
                       "for the others; answers your first seat's view",
            "requestBody": _body({
                "game": {"enum": solver.registered_games()},
                "options": {"type": "object"},
                "seats": {"type": "array", "items": {"type": "integer"}},
                "bots": {"oneOf": [{"type": "string"}, {"type": "object"}],
                         "description": "one bot settings string for every other seat, or "
                                        "seat -> settings string; bots: random, rules, "
                                        "ismcts, pimc"},
                "seed": {"type": "integer", "minimum": 0}}, ["game"]),
            "responses": {**_ok("the table as your first seat sees it", "201"),
                          **search_errors}}},
        "/v1/tables/{table_id}": {
            "get": {"summary": "the table as one of your seats sees it (bots that are to "
                               "move play first)", "parameters": tid + seat_q,
                    "responses": {**_ok("the seat's view"), **_errors(404, 422, 503)}},
            "delete": {"summary": "end and delete the table", "parameters": tid,
                       "responses": {"204": {"description": "deleted"}, **_errors(404)}}},
        "/v1/tables/{table_id}/actions": {"post": {
            "summary": "play an action for one of your seats; the bots answer; returns the "
                       "seat's new view (illegal: 422 with the reason)", "parameters": tid,
            "requestBody": _body({"seat": {"type": "integer"}, "action": {"type": "string"}},
                                 ["action"]),
            "responses": {**_ok("the seat's view"), **_errors(400, 404, 413, 422, 503)}}},
        "/v1/tables/{table_id}/hint": {"post": {
            "summary": "the hint for your seat to move (as /v1/hint)", "parameters": tid,
            "requestBody": _body({"seat": {"type": "integer"}, "limit": LIMIT,
                                  "bot": {"enum": ["ismcts", "pimc"]}, "seed": SEED}),
            "responses": {**_ok("the hint"), **_errors(400, 404, 409, 413, 422, 503)}}},
        "/v1/tables/{table_id}/record": {"get": {
            "summary": "the full record with every hand, once the match is over",
            "parameters": tid, "responses": {**_ok("the record"), **_errors(404, 409)}}},
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "dixtrix", "version": solver.__version__,
                 "description": "Hints, solving and evaluation for dix, trix, tricks, "
                                "dixie-rook and dix-exchange, and tables to play them "
                                "against bots. Caps: "
                                f"time {settings.max_time} s, iterations "
                                f"{settings.max_iterations}, worlds {settings.max_worlds}, "
                                f"nodes {settings.max_nodes}, body {settings.max_body} "
                                f"bytes."},
        "paths": paths,
        "components": {"schemas": {"Error": {
            "type": "object", "required": ["error", "status"],
            "properties": {"error": {"type": "string"}, "status": {"type": "integer"},
                           "path": {"type": "string", "description": "JSON path of the "
                                    "culprit in the request"},
                           "reason": {"type": "string", "description": "why an action is "
                                      "illegal"}}}}},
    }


def html(doc: dict) -> str:
    """The document as a readable page."""
    esc = _html.escape
    parts = [f"<!doctype html><meta charset=utf-8><meta name=viewport "
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
    return "\n".join(parts)


__all__ = ["document", "html"]
