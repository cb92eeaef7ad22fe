"""Running the app under uvicorn (``dixtrix serve``)."""

from __future__ import annotations

import importlib
import signal
import socket
import sys

from solver.errors import OptionError


def serve(settings, host: str = "127.0.0.1", port: int = 8000, access_log: bool = False) -> int:
    """Bind ``host:port`` (port 0: any free port), print the address on
    one line (``dixtrix serve: listening on http://HOST:PORT/``) and serve
    until SIGINT/SIGTERM, which end the searches under way and close."""
    try:
        import uvicorn
        importlib.import_module("starlette")
    except ImportError:
        raise OptionError("dixtrix serve needs the server extra: pip install '.[server]' "
                          "(starlette and uvicorn)") from None
    from .app import create_app
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise OptionError(f"--port must be 0..65535, got {port!r}")
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
        raise OptionError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    print(f"dixtrix serve: listening on http://{shown}:{bound}/ (tables in {settings.db}; "
          f"{settings.workers} workers, queue {settings.queue})", flush=True)
    config = uvicorn.Config(app, log_level="warning", access_log=access_log,
                            lifespan="on", timeout_graceful_shutdown=5,
                            backlog=2048)
    pool = app.state.pool

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):
            # end the searches under way at once, so that the graceful
            # shutdown waits for their answers, not for their time limits
            pool.stop_all()
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
    print("dixtrix serve: stopped", file=sys.stderr, flush=True)
    return 0


__all__ = ["serve"]
