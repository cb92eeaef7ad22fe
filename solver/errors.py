"""Typed errors.  Every error a user can cause is a ``DixtrixError``; the
input errors are also ``ValueError`` so ``except ValueError`` works as with
python-chess.  Messages name the culprit (token, position, JSON path,
action) so a typo never surfaces as an ``IndexError`` from deep inside.

An error a person meets is raised with a ``solver.said.Said`` instead of
English: a phrase declared once by the module that raises it (``phrase(
"unknown_card", N_("unknown card {token}{where} for the {deck} deck"))``)
called with its parameters (numbers, seats counted from 0, cards and
actions in notation, JSON paths, a user's value quoted by
``short_repr``).  The error's ``code`` is the phrase's code, its ``data``
the parameters as JSON (``error_data``), ``str`` its English (the
template filled in, the path before it), and ``words(words)`` the same in
a face's words: the HTTP API answers in the request's language, the
command line prints ``str``.  docs/positions.md lists the codes.
"""

from __future__ import annotations

from collections.abc import Mapping
from string import Formatter
from typing import Any

from .front import N_
from .said import ENGLISH, PHRASES, Act, Quote, Said, Seat, Word, Words, phrase
from .said import short_repr as short_repr  # where the errors' users import it from

#: the command that installs an optional extra: dixtrix is installed from
#: its checkout (the package index has no ``dixtrix``), so the command names
#: the checkout, as README.md does; said inside the errors that need an extra
INSTALL = phrase("install_extra", N_("pip install \".[{extra}]\" (in the dixtrix checkout)"))


def install_hint(extra: str) -> str:
    """``INSTALL``'s English, for the messages still written as text."""
    return INSTALL(extra=extra).english()


#: an action the rules refuse (``reason``: the rules' phrase, or English)
ILLEGAL_ACTION = phrase("illegal_action", N_("illegal action {action}: {reason}"))

# the phrases several layers raise (the position format, the games'
# records and views, the solvers' positions): declared once, here
SEAT_RANGE = phrase("seat_range", N_("must be a seat 0..{top}, got {got}"))
NAMED_SEAT = phrase("named_seat", N_("{name} must be a seat 0..{top}, got {got}"))
NOT_AN_OBJECT = phrase("not_an_object", N_("expected an object"))
HANDS_COUNT = phrase("hands_count", N_("expected {want} hands, got {got}"))
#: a hand of the wrong size (``seat`` counted from 0, as in the JSON)
HAND_SIZE = phrase("hand_size", N_("seat {seat} must hold {want} cards, got {got}"))
MUST_BE_LIST = phrase("not_list", N_("must be a list, got {got}"))
VIEW_NEEDS_DEAL = phrase("view_needs_deal", N_("a seat view needs the deal as the seat sees it"))


def error_data(said: Said) -> dict[str, Any]:
    """A coded error's parameters as JSON: numbers and strings as they
    are, a nested phrase (an illegal action's reason) as ``{"code",
    "params"}``, a seat as its number, an action as its notation, a word
    as its message id."""
    return {key: _json(value) for key, value in said.params.items()}


def _json(value: Any) -> Any:
    if isinstance(value, Said):
        return {"code": value.code, "params": error_data(value)}
    if isinstance(value, Seat):
        return value.seat
    if isinstance(value, Act):
        return value.action
    if isinstance(value, Word):
        return value.message
    if isinstance(value, Quote):
        return value.quoted()
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _json(v) for k, v in value.items()}
    return value


def codes_table() -> str:
    """docs/errors.md: every error's code (and every reason's, the codes
    without a dot; the dotted ones are the search's and the advice's,
    docs/server.md) with its parameters and its English, by the module
    that declares it, of the phrases declared so far (import the modules
    first: ``python -m bots.server.extract --codes`` does).  A game
    package from outside keeps its codes with its own words (its
    ``locale/``): only the phrases of ``solver`` and ``bots`` are listed,
    whichever outside game a process has imported."""
    rows = []
    for ph in sorted(PHRASES.values(), key=lambda p: (p.module, p.code)):
        if "." in ph.code or ph.module.split(".")[0] not in ("solver", "bots"):
            continue
        names = [f for _, f, _, _ in Formatter().parse(ph.template) if f]
        params = ", ".join(f"`{n}`" for n in dict.fromkeys(
            names + (["n"] if ph.plural is not None else [])))
        english = ph.template.replace("|", "\\|")
        rows.append(f"| `{ph.code}` | {params or '-'} | {english} | `{ph.module}` |")
    return CODES_HEAD + "\n".join(rows) + "\n"


#: the page ``codes_table`` writes, before its table
CODES_HEAD = """# Error codes

Every error a person meets (a position, a card or an action's notation,
a game and its options, a limit, a bot's settings) and every reason the
rules give for refusing an action carries a code and its parameters
(`solver/errors.py`): `exc.code`, `exc.data` (the parameters as JSON:
seats counted from 0, cards and actions in notation, JSON paths, a
user's value as given), and in the HTTP API `code` and `data` beside
`error`, which is worded in the request's language. An illegal action's
`data.reason` is its reason's record, `{"code", "params"}`. The English
is the template below, its parameters filled in (the JSON path before
it where the error names one); the template is also the message id the
catalogues translate (`bots/server/locale/`). A count `n` takes the
language's plural form.

Written by `python -m bots.server.extract --codes docs/errors.md`;
`tests/test_docs.py` checks that it is up to date.

| code | parameters | English | declared in |
|---|---|---|---|
"""


class DixtrixError(Exception):
    """Base class of every error raised on purpose by dixtrix.  ``path``:
    where in the input the culprit is (a JSON path, an argument's name)
    when the raiser names it (the HTTP API reports it beside the message).
    ``code`` and ``data``: the error as data where it is raised with a
    ``Said`` (``"duplicate_card"``, ``{"card": "QS", "paths": [...]}``),
    so a face can word it in its reader's language and numbering instead
    of parsing the English message (the module docstring).  ``where``: the
    text written before the message (``"deal.hands[1]: ..."``), None when
    nothing is."""

    path: str | None = None
    code: str | None = None
    data: dict[str, Any] | None = None
    said: Said | None = None
    where: str | None = None

    def __init__(self, message: str | Said = "", where: str | None = None):
        if isinstance(message, Said):
            self.said = message
            self.code = message.code
            self.data = error_data(message)
            message = message.english()
        if where:
            self.where = where
            message = f"{where}: {message}"
        super().__init__(message)

    def as_message(self) -> str | Said:
        """The error as another error's message (a card's ``NotationError``
        raised again as a ``PositionError`` at its JSON path): its phrase,
        else its English."""
        return self.said if self.said is not None else str(self)

    def words(self, words: Words = ENGLISH, bare: bool = False) -> str:
        """The error in ``words`` (a face's translator), ``where`` before it
        as in English; ``bare``: without ``where`` (a face that reports the
        path beside the message).  An error raised as English is English."""
        if self.said is not None:
            text = self.said.words(words)
        else:
            text = str(self)
            if self.where:
                text = text[len(self.where) + 2:]
        return f"{self.where}: {text}" if self.where and not bare else text


class NotationError(DixtrixError, ValueError):
    """A card or action string that cannot be parsed.

    ``token`` is the offending text, ``index`` its position in the input
    (0-based token index), when known."""

    def __init__(self, message: str | Said, token: str | None = None,
                 index: int | None = None):
        super().__init__(message)
        self.token = token
        self.index = index


class OptionError(DixtrixError, ValueError):
    """Unknown game, unknown option, or an option value out of range
    (``where``: what the message is about, written before it: ``"options"``)."""


class PositionError(DixtrixError, ValueError):
    """A game record or seat view that cannot be loaded.

    ``path`` is the JSON path of the culprit, e.g. ``deal.rounds[0].hands[1]``
    or ``actions[12]``; ``reason``, for an illegal action of a record, why
    the rules refuse it (the ``IllegalActionError``'s reason), else None."""

    def __init__(self, message: str | Said, path: str | None = None,
                 reason: str | None = None):
        super().__init__(message, path)
        self.path = path
        self.reason = reason


class InputLimitError(PositionError):
    """Well-formed JSON past the position format's input limits (an integer
    of more than 20 digits, nesting deeper than 32 levels: docs/positions.md,
    "Limits"): a value refused, not malformed text, so a face that tells the
    two apart (the HTTP API: 422 against 400) can."""


class IllegalActionError(DixtrixError, ValueError):
    """An action that the rules do not allow in the current state.

    ``action`` is the action (int or string as given), ``reason`` why, in
    English (``reason_said``: the same as a phrase, where the rules give
    one; the error's data carries it as ``{"code", "params"}``)."""

    def __init__(self, action: int | str, reason: str | Said):
        super().__init__(ILLEGAL_ACTION(action=Quote(action), reason=reason))
        self.action = action
        self.reason = str(reason)
        self.reason_said = reason if isinstance(reason, Said) else None


class ReplayError(DixtrixError, ValueError):
    """An action of a replayed history that cannot be played
    (``Game.replay``): ``index`` is its place in the history (0-based),
    ``reason`` why the rules refuse it when it is illegal, else None.  The
    position format turns it into a ``PositionError`` at ``actions[index]``."""

    def __init__(self, message: str | Said, index: int, reason: str | None = None):
        super().__init__(message)
        self.index = index
        self.reason = reason


class LimitError(DixtrixError, ValueError):
    """A search limit that makes no sense (negative, absurd, wrong type).

    ``path`` names the field at fault where the limit came from a document
    (``limit.time`` in an HTTP request), else None."""

    def __init__(self, message: str | Said, path: str | None = None):
        super().__init__(message, path)
        self.path = path


class SearchAborted(LimitError):
    """A search stopped at its node limit (``max_nodes``) before it had an
    exact answer; ``nodes`` is the work done.  An aborted double-dummy
    solve has no value, only what its finished null-window questions
    proved: ``brackets`` (None where the solver proves none) maps each
    legal action to ``(lo, hi)``, its value's proved interval, in the
    solver's answer's units and names (``solver.dd.solve.solve_within``
    says where); ``span`` is the game's own range of values from here."""

    def __init__(self, message: str | Said, nodes: int = 0,
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
