"""A request body that stalls is cut (``dixtrix serve --body-timeout``).

``serve.header_timeout_protocol`` closes a connection whose request
header does not arrive in time; once the header is in, the request is the
application's, and a client that sends a ``Content-Length`` and then
stops would hold the connection (and a request in flight) for as long as
it likes.  ``BodyTimeout`` wraps the application (a plain ASGI
middleware, so it works under any server and in the test client): from
the moment a request's header is in, its whole body must arrive within
``seconds``.  When it does not, the client is answered **408** with a
JSON error in its language and ``Connection: close`` -- so the server
(uvicorn's h11 protocol) closes the connection once the answer is sent
-- and the application's own read ends as if the client had gone
(``http.disconnect``); whatever the application answers after that is
dropped, the client having had its 408.

The bound is on the body alone: the answer may take as long as its route
takes (a search, the bots' turns), and a request whose body is complete
(every GET, and a POST once read) is never timed.  A body the
application never reads is not timed either: the answer is sent and
uvicorn's keep-alive timeout closes the connection.
"""

from __future__ import annotations

import asyncio
import json
import logging
from urllib.parse import parse_qs

from . import i18n
from .i18n import N_, Translator

log = logging.getLogger("dixtrix.server")

#: the 408 answer's message (translated into the request's language)
MESSAGE = N_("the request's body did not arrive within {seconds} s of its header: the "
             "connection is closed")


def _language(scope) -> str:
    query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", [None])[0]
    headers = dict(scope.get("headers") or ())
    accept = headers.get(b"accept-language", b"").decode("latin-1") or None
    return i18n.negotiate(query, accept)


class BodyTimeout:
    """ASGI middleware: a request's body arrives within ``seconds`` of its
    header, or the client gets 408 and the connection is closed (module
    docstring)."""

    def __init__(self, app, seconds: float):
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.seconds
        state = {"complete": False, "cut": False, "started": False}

        async def timed_receive():
            if state["cut"]:
                return {"type": "http.disconnect"}
            if state["complete"]:
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(deadline - loop.time(), 0.0))
            except asyncio.TimeoutError:
                await cut()
                return {"type": "http.disconnect"}
            if message["type"] != "http.request" or not message.get("more_body", False):
                state["complete"] = True
            return message

        async def cut():
            state["cut"] = True
            log.info("answered 408 to %s %s: its body did not arrive within %g s of its "
                     "header", scope.get("method"), scope.get("path"), self.seconds)
            if state["started"]:
                # an answer under way (no route of this server starts one
                # before its body is read): the connection ends with it
                return
            tr = Translator(_language(scope))
            body = json.dumps({"error": tr(MESSAGE, seconds=f"{self.seconds:g}"),
                               "status": 408}, ensure_ascii=False).encode()
            await send({"type": "http.response.start", "status": 408,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode()),
                                    (b"connection", b"close")]})
            await send({"type": "http.response.body", "body": body})

        async def guarded_send(message):
            if state["cut"]:
                return                      # the client had its 408
            if message["type"] == "http.response.start":
                state["started"] = True
            await send(message)

        await self.app(scope, timed_receive, guarded_send)


__all__ = ["BodyTimeout", "MESSAGE"]
