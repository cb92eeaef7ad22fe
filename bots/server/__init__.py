"""``dixtrix serve``: the HTTP API and the web table (docs/server.md).

* :mod:`bots.server.app` -- the Starlette application: routes, request
  checking, error answers, the settings that cap every request;
* :mod:`bots.server.pool` -- the bounded worker pool searches run in, off
  the event loop (a full queue answers 503 with ``Retry-After``);
* :mod:`bots.server.tables` -- tables: a match of any game, the seats a
  person takes, the bots that play the others, each seat's view;
* :mod:`bots.server.store` -- tables kept in SQLite (WAL), rebuilt by
  replaying their record after a restart;
* ``static/`` -- the web page (plain HTML, CSS and JavaScript).

Starlette and uvicorn come with the ``server`` extra
(``pip install ".[server]"``); nothing under ``solver`` imports this.
"""
