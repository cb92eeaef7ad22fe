"""Running the app under uvicorn (``dixtrix serve``)."""

from __future__ import annotations

import importlib
import logging
import signal
import socket
import sys

from solver.errors import INSTALL, OptionError
from solver.front import N_
from solver.said import Quote, phrase

log = logging.getLogger("dixtrix.server")

# the errors raised here (solver/errors.py: a code and its parameters)
NEEDS_SERVER = phrase("server_needs_extra", N_("dixtrix serve needs the server extra: {install} "
                                               "(starlette, uvicorn, prometheus-client): "
                                               "{reason}"))
PORT = phrase("server_port", N_("--port must be 0..65535, got {got}"))
CANNOT_LISTEN = phrase("server_cannot_listen", N_("cannot listen on {host}:{port}: {reason}"))


def header_timeout_protocol(seconds: float):
    """uvicorn's h11 protocol with a header read timeout: a connection that
    has not sent a request's whole header ``seconds`` after it opened, or
    after the first byte of its next request, is closed (a slow-header
    client cannot hold a connection open forever; uvicorn's keep-alive
    timeout covers only the wait between requests)."""
    # h11 and uvicorn are the optional [server] extra (serve checks for it)
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol  # the same extra

    class HeaderTimeout(H11Protocol):
        _header_timer = None

        def connection_made(self, transport):
            super().connection_made(transport)
            self._arm()

        def _arm(self):
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(seconds, self._timed_out)

        def _disarm(self):
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def data_received(self, data: bytes) -> None:
            if self.conn.their_state is h11.IDLE:
                self._arm()                 # a request begins: its header has `seconds`
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:
                self._disarm()

        def connection_lost(self, exc):
            self._disarm()
            super().connection_lost(exc)

        def _timed_out(self):
            self._header_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                log.info("closed a connection whose request header did not arrive "
                         "within %g s", seconds)
                self.transport.close()

    return HeaderTimeout


def serve(settings, host: str = "127.0.0.1", port: int = 8000, access_log: bool = False,
          header_timeout: float = 10.0) -> int:
    """Bind ``host:port`` (port 0: any free port), print the address on
    one line (``dixtrix serve: listening on http://HOST:PORT/``) and serve
    until SIGINT/SIGTERM, which end the searches under way and close: a
    table's bots finish the decision they are making, save it and hand the
    rest of their turns back (another process, or this one restarted,
    goes on with them)."""
    try:
        # the optional [server] extra: its absence is answered in words here
        import uvicorn
        importlib.import_module("starlette")
        importlib.import_module("prometheus_client")
    except ImportError as exc:
        raise OptionError(NEEDS_SERVER(install=INSTALL(extra="server"), reason=str(exc))) from None
    # the app needs starlette, of the [server] extra checked just above
    from .app import create_app
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise OptionError(PORT(got=Quote(port)))
    # prometheus-client, of the [server] extra checked above
    from .observe import configure_logging
    configure_logging(settings.log_format)
    app = create_app(settings)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets whose proto
    # says TCP, and the connections accepted inherit it; with proto 0 every
    # answer on a kept-alive connection waited ~40 ms for a delayed ACK
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise OptionError(CANNOT_LISTEN(host=host, port=port,
                                        reason=exc.strerror or str(exc))) from None
    sock.listen(2048)
    sock.set_inheritable(True)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    where = app.state.store.description       # a database URL without its password
    print(f"dixtrix serve: listening on http://{shown}:{bound}/ (tables in {where}; "
          f"{settings.workers} workers, queue {settings.queue})", flush=True)
    # JSON logs: uvicorn keeps the handlers configure_logging set (log_config
    # None), so that its lines are JSON too
    # uvicorn, of the [server] extra checked above
    from uvicorn.config import LOGGING_CONFIG
    config = uvicorn.Config(app, log_level="warning", access_log=access_log,
                            lifespan="on", timeout_graceful_shutdown=5,
                            backlog=2048, http=header_timeout_protocol(header_timeout),
                            log_config=None if settings.log_format == "json" else LOGGING_CONFIG)
    if access_log:
        # log_level "warning" (set by the Config above) applies to the access
        # logger too, whose lines are INFO: --access-log would print nothing
        logging.getLogger("uvicorn.access").setLevel(logging.INFO)
    pool = app.state.pool
    hub = app.state.hub

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):
            # end the searches under way at once, so that the graceful
            # shutdown waits for their answers, not for their time limits
            pool.stop_all()
            hub.close()                     # the event streams end, so nothing waits on them
            super().handle_exit(sig, frame)

    server = Server(config)
    # uvicorn re-raises the signal that stopped it once it has shut down;
    # handled here, so that a stop by SIGTERM or Ctrl-C exits with status 0
    caught = []
    previous = {sig: signal.signal(sig, lambda signum, frame: caught.append(signum))
                for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        server.run(sockets=[sock])
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if settings.log_format == "json":
        log.warning("dixtrix serve: stopped")        # a JSON line like every other
    else:
        print("dixtrix serve: stopped", file=sys.stderr, flush=True)
    return 0


__all__ = ["serve"]
