"""The table store ``--db`` names (``store.TableStore``): a module of its
own, above both stores, since the PostgreSQL one builds on the SQLite
one's module (``store.SqlStore``) and is imported only when asked for."""

from __future__ import annotations

from solver.errors import OptionError

from .store import SqliteStore, TableStore


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
            raise OptionError(f"--db {db.split('://')[0]}://... needs the postgres extra: pip "
                              f"install '.[postgres]' (psycopg 3): {exc}") from None
        return PostgresStore(db)
    return SqliteStore(db)


__all__ = ["open_store", "is_postgres"]
