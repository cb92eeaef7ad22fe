"""Typed errors.  Every error a user can cause is a ``DixtrixError``; the
input errors are also ``ValueError`` so ``except ValueError`` works as with
python-chess.  Messages name the culprit (token, position, JSON path,
action) so a typo never surfaces as an ``IndexError`` from deep inside."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: characters of a user's value that an error message quotes
QUOTE_LIMIT = 60


def install_hint(extra: str) -> str:
    """The command that installs an optional extra: dixtrix is installed from
    its checkout (the package index has no ``dixtrix``), so the command names
    the checkout, as README.md does."""
    return f'pip install ".[{extra}]" (in the dixtrix checkout)'


def short_repr(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A bounded, non-recursive description of a user's value for an error
    message: scalars by ``repr`` cut to ``limit`` characters, an integer too
    long to print by its size, a container by its type and length (never a
    recursive ``repr``, which a deeply nested value turns into a
    ``RecursionError`` and a huge one into a huge message)."""
    if isinstance(value, bool) or value is None or isinstance(value, float):
        text = repr(value)
    elif isinstance(value, int):
        if value.bit_length() > 200:
            return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
        text = repr(value)
    elif isinstance(value, (str, bytes, bytearray)):
        text = repr(value[:limit + 1])
    elif isinstance(value, (list, tuple, dict, set, frozenset)):
        kind = type(value).__name__
        return f"a {kind} of {len(value)} item{'s' if len(value) != 1 else ''}"
    else:
        text = f"<{type(value).__name__} object>"
    if len(text) > limit:
        text = text[:limit - 3] + "..."
    return text


class DixtrixError(Exception):
    """Base class of every error raised on purpose by dixtrix.  ``path``:
    where in the input the culprit is (a JSON path, an argument's name)
    when the raiser names it (the HTTP API reports it beside the message).
    ``code`` and ``data``: the error as data where the raiser gives it
    (``"duplicate_card"``, ``{"card": "QS", "paths": [...]}``), so a face
    can word it in its reader's language and numbering instead of
    parsing the English message (docs/positions.md lists the codes)."""

    path: str | None = None
    code: str | None = None
    data: dict[str, Any] | None = None


class NotationError(DixtrixError, ValueError):
    """A card or action string that cannot be parsed.

    ``token`` is the offending text, ``index`` its position in the input
    (0-based token index), when known."""

    def __init__(self, message: str, token: str | None = None, index: int | None = None):
        super().__init__(message)
        self.token = token
        self.index = index


class OptionError(DixtrixError, ValueError):
    """Unknown game, unknown option, or an option value out of range."""


class PositionError(DixtrixError, ValueError):
    """A game record or seat view that cannot be loaded.

    ``path`` is the JSON path of the culprit, e.g. ``deal.rounds[0].hands[1]``
    or ``actions[12]``; ``reason``, for an illegal action of a record, why
    the rules refuse it (the ``IllegalActionError``'s reason), else None."""

    def __init__(self, message: str, path: str | None = None, reason: str | None = None,
                 code: str | None = None, data: dict[str, Any] | None = None):
        if path:
            message = f"{path}: {message}"
        super().__init__(message)
        self.path = path
        self.reason = reason
        self.code = code
        self.data = data


class InputLimitError(PositionError):
    """Well-formed JSON past the position format's input limits (an integer
    of more than 20 digits, nesting deeper than 32 levels: docs/positions.md,
    "Limits"): a value refused, not malformed text, so a face that tells the
    two apart (the HTTP API: 422 against 400) can."""


class IllegalActionError(DixtrixError, ValueError):
    """An action that the rules do not allow in the current state.

    ``action`` is the action (int or string as given), ``reason`` why."""

    def __init__(self, action: int | str, reason: str):
        super().__init__(f"illegal action {short_repr(action)}: {reason}")
        self.action = action
        self.reason = reason


class ReplayError(DixtrixError, ValueError):
    """An action of a replayed history that cannot be played
    (``Game.replay``): ``index`` is its place in the history (0-based),
    ``reason`` why the rules refuse it when it is illegal, else None.  The
    position format turns it into a ``PositionError`` at ``actions[index]``."""

    def __init__(self, message: str, index: int, reason: str | None = None):
        super().__init__(message)
        self.index = index
        self.reason = reason


class LimitError(DixtrixError, ValueError):
    """A search limit that makes no sense (negative, absurd, wrong type).

    ``path`` names the field at fault where the limit came from a document
    (``limit.time`` in an HTTP request), else None."""

    def __init__(self, message: str, path: str | None = None):
        if path:
            message = f"{path}: {message}"
        super().__init__(message)
        self.path = path


class SearchAborted(LimitError):
    """A search stopped at its node limit (``max_nodes``) before it had an
    exact answer; ``nodes`` is the work done.  An aborted double-dummy
    solve has no value, only what its finished null-window questions
    proved: ``brackets`` (None where the solver proves none) maps each
    legal action to ``(lo, hi)``, its value's proved interval, in the
    solver's answer's units and names (``solver.dd.solve.solve_within``
    says where); ``span`` is the game's own range of values from here."""

    def __init__(self, message: str, nodes: int = 0,
                 brackets: Mapping[Any, tuple[int, int]] | None = None,
                 span: tuple[int, int] | None = None):
        super().__init__(message)
        self.nodes = nodes
        self.brackets = brackets
        self.span = span


class HiddenInformationError(DixtrixError, ValueError):
    """A perfect-information solver was given a position with unknown cards
    (a seat view): use the sampling search (``best_move`` / ``evaluate``)."""


class UnsupportedPositionError(DixtrixError, ValueError):
    """A position the asked-for solver does not handle (a game without a
    double-dummy adapter, a dix position while the stock lasts, a finished
    game, a position too large for the pure-Python oracle)."""
