"""The errors the server answers with a status of its own (the others are
the solver's typed errors, mapped in ``app.error_response``)."""

from __future__ import annotations

from solver.errors import DixtrixError


class RequestError(DixtrixError):
    """A request the server refuses: ``status`` (400, 404, 409, 413, 422...)
    and the JSON ``path`` of the culprit in the body, when there is one."""

    status = 422

    def __init__(self, message: str, path: str | None = None, status: int | None = None):
        super().__init__(message)
        self.path = path
        if status is not None:
            self.status = status


class TableNotFound(RequestError):
    """No table of that id (never made, deleted after it ended, or expired)."""

    status = 404


__all__ = ["RequestError", "TableNotFound"]
