"""The errors the server answers with a status of its own (the others are
the solver's typed errors, mapped in ``app.error_response``).

A ``RequestError``'s message is an English message id with ``{name}``
placeholders and its parameters apart, so the answer can be given in the
request's language (``i18n``): ``RequestError("missing {key}", "key",
key="game")``.  ``str(exc)`` is the English text.
"""

from __future__ import annotations

from solver.errors import DixtrixError
from solver.said import phrase

from .i18n import N_


class RequestError(DixtrixError):
    """A request the server refuses: ``status`` (400, 401, 403, 404, 409,
    413, 422...) and the JSON ``path`` of the culprit in the body, when
    there is one."""

    status = 422
    #: the solver's error this refusal passes on (``passing``), else None
    inner: DixtrixError | None = None
    bare = False

    def __init__(self, message: str, path: str | None = None, status: int | None = None,
                 **params):
        self.message = message
        self.params = params
        super().__init__(message.format(**params) if params else message)
        self.path = path
        if status is not None:
            self.status = status

    @classmethod
    def passing(cls, exc: DixtrixError, path: str | None, status: int | None = None,
                bare: bool = False) -> RequestError:
        """A refusal that passes on the solver's error ``exc`` at ``path``:
        its English (``bare``: without the path the solver wrote before
        it, where the answer reports the path beside the message), its
        ``code`` and ``data``, and its words in the request's language."""
        err = cls("{why}", path, status, why=exc.words(bare=bare))
        err.inner, err.bare = exc, bare
        err.code, err.data = exc.code, exc.data
        return err

    def translated(self, tr) -> str:
        if self.inner is not None:
            return self.inner.words(tr, self.bare)
        return tr(self.message, **self.params)


class TableNotFound(RequestError):
    """No table of that id (never made, deleted after it ended, or expired)."""

    status = 404


class Unauthorized(RequestError):
    """No token where the route needs one (401, with ``WWW-Authenticate``)."""

    status = 401


class Forbidden(RequestError):
    """A token that does not give what the request asks (403)."""

    status = 403


class StaleVersion(RequestError):
    """A move sent for a version of the table that is not its version now
    (409): the table moved on since the client looked (a move sent again
    after it was played, or from a stale view), or the version sent is
    ahead of the table's, which it has never reached: that is said as such,
    not as the table having moved on.  Nothing is played; the answer
    carries the table's ``version`` now."""

    status = 409

    def __init__(self, sent: int, now: int):
        if sent > now:
            message = N_("the table is at version {now}, not {sent}: it has never reached "
                         "version {sent}, and nothing was played; look at the table again")
        else:
            message = N_("the table is at version {now}, not {sent}: it moved on since "
                         "you looked (a move sent again, or from an old view), and nothing "
                         "was played; look at the table again")
        super().__init__(message, "version", now=now, sent=sent)
        self.version = now


__all__ = ["RequestError", "TableNotFound", "Unauthorized", "Forbidden", "StaleVersion"]


# the table database's errors, raised by its stores (bots/server/store.py,
# bots/server/pgstore.py): a code and its parameters (solver/errors.py);
# ``db`` names the database (a file name as Python quotes it, a URL without
# its password), ``reason`` is the database's own words
CANNOT_OPEN = phrase("store_cannot_open", N_("cannot open the table database {db}: {reason}"))
DUPLICATE = phrase("store_duplicate", N_("the table database refused a duplicate: {reason}"))
FAILED = phrase("store_failed", N_("the table database {db} failed: {reason}"))
NEWER_SCHEMA = phrase("store_newer_schema", N_("the table database {db} has schema {version}, "
                                               "newer than this server's {supported}: upgrade "
                                               "dixtrix"))
MOVES_STORED = phrase("store_moves_stored", N_("table {table}: {stored} moves stored, expected "
                                               "{expected}"))
