"""``dixtrix serve``: the HTTP API and the web table (docs/server.md).

* :mod:`bots.server.app` -- the Starlette application, its routes by what
  they serve (``service_routes``, ``search_routes``, ``table_routes``,
  ``analysis``) around one ``context.Context``; ``requests`` reads a
  request and answers a refusal, ``settings`` caps every request;
* :mod:`bots.server.pool` -- the bounded worker pool searches run in, off
  the event loop (a full queue answers 503 with ``Retry-After``);
* :mod:`bots.server.tables` -- tables: a match of any game, the seats a
  person takes, the bots that play the others, each seat's view;
* :mod:`bots.server.store` -- the table store's interface and SQLite
  (WAL); :mod:`bots.server.pgstore` -- PostgreSQL, which several server
  processes share; a table is rebuilt by replaying its record after a
  restart, and caught up with the moves other processes stored;
* :mod:`bots.server.live` -- live updates (across processes by
  PostgreSQL's NOTIFY); :mod:`bots.server.observe` -- metrics, request ids
  and JSON log lines;
* ``static/`` -- the web page (plain HTML, CSS and JavaScript).

Starlette and uvicorn come with the ``server`` extra
(``pip install ".[server]"``), psycopg with the ``postgres`` extra;
nothing under ``solver`` imports this.
"""
