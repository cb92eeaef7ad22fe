"""The process's double-dummy sessions, as the modules below the session
reach them.

The module-level solve functions (``solver.dd.trick.solve_position``,
``solver.dd.dix.solve_dix``, ``solver.dd.solve.solve`` and
``principal_line``, and the one-call tables when no solver is passed) run
on a ``solver.dd.session.Solver``.  The ``Solver`` is built on those very
modules (its methods solve through them), so they cannot import it
without an import circle.  Instead ``solver.dd.session`` installs its two
constructors here when it is imported, and ``solver/dd/__init__.py``
imports it before anything can be solved: every import of a
``solver.dd`` module runs the package's ``__init__`` first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_default: Callable[[int], Any] | None = None
_fresh: Callable[[], Any] | None = None


def install(default: Callable[[int], Any], fresh: Callable[[], Any]) -> None:
    """``default(tt_mb)``: the process's shared session of that table size;
    ``fresh()``: a new session (``solver.dd.session`` calls this once)."""
    global _default, _fresh
    _default, _fresh = default, fresh


def default_solver(tt_mb: int) -> Any:
    """The process's session with tables of ``tt_mb`` MiB
    (``solver.dd.session.default_solver``)."""
    if _default is None:
        raise RuntimeError("solver.dd.session has not installed its sessions: import solver.dd")
    return _default(tt_mb)


def fresh_solver() -> Any:
    """A new ``solver.dd.Solver`` with its default table size."""
    if _fresh is None:
        raise RuntimeError("solver.dd.session has not installed its sessions: import solver.dd")
    return _fresh()


__all__ = ["install", "default_solver", "fresh_solver"]
