"""The throwaway PostgreSQL server of the server tests (``pg_server``):
one a pytest process (each xdist worker starts its own, in about a
second), stopped at the end of the session; each test takes a fresh
database in it.  Where no server can be had, the tests that need one
skip, saying why."""

from __future__ import annotations

import pytest

from .pg_server import PostgresServer


@pytest.fixture(scope="session")
def postgres_server():
    why = PostgresServer.unavailable()
    if why:
        pytest.skip(why)
    try:
        server = PostgresServer()
    except RuntimeError as exc:
        pytest.skip(f"PostgreSQL could not be started: {exc}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture()
def pg_url(postgres_server):
    """The URL of a fresh, empty database."""
    return postgres_server.new_database()
