"""The table store ``--db`` names (``store.TableStore``): a module of its
own, above both stores, since the PostgreSQL one builds on the SQLite
one's module (``store.SqlStore``) and is imported only when asked for."""

from __future__ import annotations

from solver.errors import OptionError
from solver.front import N_
from solver.said import phrase

from .store import SqliteStore, TableStore

# the error raised here (solver/errors.py: a code and its parameters)
NEEDS_POSTGRES = phrase("server_needs_postgres", N_("--db {scheme}://... needs the postgres "
                                                    "extra: pip install '.[postgres]' (psycopg "
                                                    "3): {reason}"))


def is_postgres(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


def open_store(db: str) -> TableStore:
    """The store ``--db`` names: a ``postgresql://`` URL (the ``postgres``
    extra) or an SQLite file (``:memory:`` keeps none)."""
    if is_postgres(db):
        try:
            # psycopg, under the optional [postgres] extra, is needed only for PostgreSQL
            from .pgstore import PostgresStore
        except ImportError as exc:
            raise OptionError(NEEDS_POSTGRES(scheme=db.split("://")[0], reason=str(exc))) from None
        return PostgresStore(db)
    return SqliteStore(db)


__all__ = ["open_store", "is_postgres"]
