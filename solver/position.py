"""The position format: game records and seat views (docs/positions.md).

* A **game record** ``{"game", "options", "seed" | "deal", "actions"}``
  describes a game completely: the deal (every chance outcome, or the seed
  that makes them) and every action from the first, in notation.
* A **seat view** adds ``"seat": k`` and leaves out what that seat cannot
  see (unknown hands as counts, unseen cards as ``"?"``, hidden actions as
  ``"?"``).  It is "the position I ask a hint for".

Everything is validated here, once, so nothing below re-checks: unknown game or option,
unknown or duplicate card, wrong hand sizes, an illegal action in the
history (the error names its index and why), a view that claims knowledge
the seat cannot have or that no deal is consistent with.  Errors are
``PositionError`` (or ``OptionError``) with the JSON path of the culprit.

``to_json(from_json(x))`` is a fixed point for every accepted ``x``.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from .errors import (
    MUST_BE_LIST,
    SEAT_RANGE,
    VIEW_NEEDS_DEAL,
    InputLimitError,
    OptionError,
    PositionError,
    ReplayError,
    short_repr,
)
from .front import N_
from .game import (
    ACTION_NOT_STRING,
    MAX_SEED,
    Chance,
    Game,
    InfoState,
    State,
    WorldSampler,
    canonical_json,
    game_class,
    load_game,
)
from .said import Quote, phrase
from .shapes import Fields, Seat, Terms, json_schema

RECORD_KEYS = ("game", "options", "seed", "match", "deal", "actions")
VIEW_KEYS = ("game", "options", "seat", "match", "deal", "actions")


@dataclass
class Record:
    """A validated game record.  ``state()`` gives a fresh replayed state."""

    game: Game
    seed: int | None
    deal: dict[str, Any] | None          # canonical deal object as given (None: seed only)
    actions: list[str]         # canonical notation
    _state: State = field(repr=False)
    match: dict[str, Any] | None = None  # canonical match object of a mid-match record

    @classmethod
    def of(cls, state: State, from_deal: str | None = None) -> Record:
        """The record of a live state, trusted: the state was built by the
        rules, so nothing is parsed or re-validated.  Equal to
        ``record_from_json(to_json(state, from_deal))`` (tests/test_position.py):
        its deal is the explicit deal of every outcome drawn, and
        ``state()`` replays it with no seed (a deal the record does not
        list is drawn from seed 0, as for a loaded record).
        ``from_deal="current"``: the mid-match record from the start of the
        deal in play."""
        game = state.game
        log, actions = list(state.chance.log), state.history()
        if from_deal is not None:
            if from_deal != "current":
                raise OptionError(FROM_DEAL(got=Quote(from_deal)))
            at, first, match = state.deal_start()
            log = [("match", game.parse_match(json.loads(json.dumps(match))))] + log[at:]
            actions = actions[first:]
        replayed = game.replay(actions, chance=Chance(None, log))
        return cls(game, None, game.format_deal(log),
                   [replayed.action_to_string(a) for a in actions], replayed,
                   replayed.match_object())

    def state(self) -> State:
        return self._state.clone()

    def from_current_deal(self) -> Record:
        """This record from the start of the deal in play (a mid-match
        record: the match object, this deal and the actions since)."""
        return Record.of(self._state, from_deal="current")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game.name,
                               "options": self.game.non_default_options()}
        if self.seed is not None:
            out["seed"] = self.seed
        if self.match is not None:
            out["match"] = json.loads(json.dumps(self.match))
        if self.deal is not None:
            out["deal"] = self.deal
        out["actions"] = list(self.actions)
        return out


@dataclass
class SeatView:
    """A validated seat view: ``view`` is its canonical JSON, ``info`` the
    seat's information state (with the derived ``known`` facts).
    ``_state``: a state consistent with the view that was already at hand
    (the live state of ``SeatView.of``, the replay that validated a view
    read from JSON), kept so that nothing below replays the view's
    notation again: its world sampler starts from it
    (``Game.world_sampler``'s ``base``), replacing its hidden cards, which
    may be the true ones, by a completion of the view."""

    game: Game
    seat: int
    view: dict[str, Any]
    info: InfoState = field(repr=False)
    _sampler: WorldSampler | None = field(repr=False, default=None)
    _state: State | None = field(repr=False, default=None, compare=False)

    @classmethod
    def of(cls, state: State, seat: int) -> SeatView:
        """``seat``'s view of a live state, trusted: the state was built by
        the rules, so its information state is taken as it is, with no
        JSON round trip and no re-validation (``view_from_json`` of the
        same view gives an equal ``SeatView``: tests/test_position.py).
        The state is kept (a clone: the caller may play on) for the
        sampler, which then has nothing to replay."""
        info = state.information_state(seat)
        return cls(state.game, seat, info.view, info, _state=state.clone())

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = json.loads(json.dumps(self.view))
        return out

    @property
    def match(self) -> dict[str, Any] | None:
        """The view's match object (None: the view starts at the first deal)."""
        return self.view.get("match")

    def from_current_deal(self) -> SeatView:
        """The same seat's view from the start of the deal in play: the
        match object as the seat knows it, this deal and its actions
        (perfect recall of this deal only)."""
        world = self.any_world()
        return SeatView.of(Record.of(world, from_deal="current").state(), self.seat)

    def world(self, seed: int | None = None) -> State:
        """One complete state consistent with the view, drawn by the game's
        world sampler (exactly uniform among the consistent worlds in every
        game: docs/search.md)."""
        return self.sampler().sample(random.Random(seed))

    def any_world(self) -> State:
        """A complete state consistent with the view, with no draw: the
        sampler's prepared world (``WorldSampler.any_world``), whose
        hidden cards are a completion of the view, never the ones of the
        state kept with it.  Read from it only what every world of the
        view says alike (whose turn, the trick, where the deal starts, the
        notation of an action), as the seat itself could."""
        return self.sampler().any_world()

    def sampler(self) -> WorldSampler:
        """The game's ``WorldSampler`` for this view (prepared once, from
        the state kept with the view where there is one)."""
        if self._sampler is None:
            self._sampler = self.game.world_sampler(self.view, self._state)
        return self._sampler


#: input limits (docs/positions.md, "Limits"): the largest document, the
#: deepest nesting, the most values, the longest integer a position may hold
MAX_DOCUMENT_BYTES = 1 << 20
MAX_DEPTH = 32
MAX_VALUES = 200_000
MAX_INT_DIGITS = 20


# the format's errors (solver/errors.py: a code and its parameters; the
# English template is the message id every face words it from)
NOT_TEXT = phrase("json_not_text", N_("expected JSON text, got {got}"))
TOO_LONG = phrase("json_too_long", N_("the document has {size:,} characters (at most {top:,})"))
NOT_UTF8 = phrase("json_not_utf8", N_("not UTF-8 text: byte {at} ({byte}) cannot be decoded"))
NESTS_DEEP = phrase("json_nests_deep",
                    N_("the document nests more than {top} levels deep (at most {top})"))
MALFORMED_AT = phrase("json_malformed_at", N_("malformed JSON: {why} at line {line} column {column}"))
MALFORMED = phrase("json_malformed", N_("malformed JSON: {why}"))
NESTS_TOO_DEEP = phrase("json_too_deep", N_("the document nests too deep (at most {top})"))
TOO_MANY_VALUES = phrase("json_too_many_values", N_("the document holds more than {top:,} values"))
NESTED_DEEPER = phrase("json_nested_deeper", N_("nested deeper than {top} levels"))
KEY_NOT_STRING = phrase("json_key_not_string", N_("object keys are strings, got {got}"))
INT_TOO_LONG = phrase("json_int_too_long", N_("an integer over {top} digits"))
NOT_NUMBER = phrase("json_not_number", N_("{got} is not a JSON number"))
FROM_DEAL = phrase("from_deal", N_("from_deal is None or 'current', got {got}"))
NOT_JSON = phrase("json_not_value", N_("not a JSON value: {got}"))
INT_DIGITS = phrase("json_int_digits", N_("an integer of {digits} digits (at most {top})"))
WANT_RECORD = phrase("want_record", N_("expected a game record, got the seat view of seat {seat}"))
WANT_VIEW = phrase("want_view", N_("expected a seat view (with 'seat'), got a game record"))
NOT_OBJECT = phrase("position_not_object", N_("a position is a JSON object, got {got}"))
MISSING_GAME = phrase("missing_game", N_("missing 'game'"))
MUST_BE_OBJECT = phrase("not_object", N_("must be an object, got {got}"))
MUST_BE_INT = phrase("not_integer", N_("must be an integer, got {got}"))
RECORD_KEY = phrase("unknown_record_key", N_("unknown key {key} (a record has: {keys}; "
                                             "a seat view adds 'seat')"))
VIEW_KEY = phrase("unknown_view_key", N_("unknown key {key} (a seat view has: {keys})"))
SEED_RANGE = phrase("seed_range", N_("must be 0..2**63-1, got {got}"))
NEEDS_DEAL = phrase("needs_deal", N_("a record needs a 'deal' or a 'seed'"))
MATCH_DISAGREES = phrase("match_disagrees", N_("does not agree with the deal and the actions "
                                               "(seat {seat} would see {want})"))
VIEW_NO_REPLAY = phrase("view_no_replay", N_("the view's actions do not replay"))
SEES_ACTION = phrase("sees_action", N_("seat {seat} sees this action: name it"))
HIDDEN_ACTION = phrase("hidden_action", N_("seat {seat} cannot see this action: give it as '?'"))


def _parse_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise _TooLong(INT_DIGITS(digits=digits, top=MAX_INT_DIGITS))
    return int(text)


def _parse_float(text: str) -> Any:
    """A JSON number with a fraction or an exponent: an integer if it is
    one (``390.0``, ``3.9e2``: JSON has one number type, JSON Schema's
    ``integer`` takes them, and a JavaScript client cannot tell 390.0 from
    390), read exactly; else a float."""
    try:
        exact = Decimal(text)
    except InvalidOperation:           # pragma: no cover - the JSON grammar guards
        return float(text)
    if exact.is_finite() and exact == exact.to_integral_value() and abs(exact) <= MAX_WHOLE:
        return int(exact)
    return float(text)


#: the largest integral float read as an integer (a seed's bound, ``MAX_SEED``)
MAX_WHOLE = MAX_SEED


def whole_numbers(doc: Any) -> Any:
    """``doc`` with each integral float that ``_parse_float`` would read as
    an integer made one (a position given as Python values, not JSON text,
    is read as its JSON would be); the same object where there is none."""
    def whole(value: Any) -> bool:
        return isinstance(value, float) and value.is_integer() and abs(value) <= MAX_WHOLE

    def walk(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v) for v in value]
        return int(value) if whole(value) else value

    stack, found = [doc], False
    while stack and not found:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        else:
            found = whole(value)
    # the walk that copies recurses: only over a document check_values has
    # passed (at most MAX_DEPTH deep)
    return walk(doc) if found else doc


def _parse_constant(text: str) -> Any:
    raise _TooLarge(NOT_NUMBER(got=text))


class _TooLarge(ValueError):
    pass


class _TooLong(ValueError):
    pass


def parse_json(text: object) -> Any:
    """JSON text to Python values, within the input limits: a document over
    ``MAX_DOCUMENT_BYTES``, nested deeper than ``MAX_DEPTH``, with an
    integer over ``MAX_INT_DIGITS`` digits, NaN/Infinity, bad UTF-8 or bad
    syntax gets a ``PositionError`` saying which."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise PositionError(NOT_TEXT(got=type(text).__name__))
    if len(text) > MAX_DOCUMENT_BYTES:
        raise PositionError(TOO_LONG(size=len(text), top=MAX_DOCUMENT_BYTES))
    if isinstance(text, (bytes, bytearray)):
        raw = bytes(text)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PositionError(NOT_UTF8(at=exc.start, byte=repr(raw[exc.start:exc.start + 1])))\
                from None
    if _nesting(text) > MAX_DEPTH:
        # the scan stops at the first level too many: say no more than it knows
        raise InputLimitError(NESTS_DEEP(top=MAX_DEPTH))
    try:
        return json.loads(text, parse_int=_parse_int, parse_float=_parse_float,
                          parse_constant=_parse_constant)
    except json.JSONDecodeError as exc:
        raise PositionError(MALFORMED_AT(why=exc.msg, line=exc.lineno, column=exc.colno))\
            from None
    except _TooLarge as exc:
        raise PositionError(MALFORMED(why=exc.args[0])) from None
    except _TooLong as exc:
        raise InputLimitError(exc.args[0]) from None
    except RecursionError:                       # pragma: no cover - _nesting guards
        raise PositionError(NESTS_TOO_DEEP(top=MAX_DEPTH)) from None


_STRUCTURE = re.compile(r'[\[\]{}"\\]')


def _nesting(text: str) -> int:
    """The deepest nesting of ``[`` / ``{`` outside strings (one linear scan
    of the structural characters, so that a hostile document can make
    neither the parser recurse nor this check take quadratic time)."""
    depth = best = 0
    in_string = False
    skip = -1
    for m in _STRUCTURE.finditer(text):
        j = m.start()
        if j < skip:
            continue
        ch = text[j]
        if in_string:
            if ch == "\\":
                skip = j + 2                # the escaped character
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "[" or ch == "{":
            depth += 1
            if depth > best:
                best = depth
                if best > MAX_DEPTH:
                    return best
        elif ch == "]" or ch == "}":
            depth -= 1
    return best


def check_values(doc: Any, path: str = "") -> None:
    """The input limits on already-parsed values (a dict given to
    ``from_json``): nesting depth, number of values, integer size, and only
    JSON's types; ``PositionError`` naming the path of the culprit.  An
    iterative walk: a hostile value cannot make it recurse."""
    stack = [(doc, 0, path)]
    count = 0
    while stack:
        value, depth, where = stack.pop()
        count += 1
        if count > MAX_VALUES:
            raise PositionError(TOO_MANY_VALUES(top=MAX_VALUES))
        if depth > MAX_DEPTH:
            raise PositionError(NESTED_DEEPER(top=MAX_DEPTH), where or None)
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise PositionError(KEY_NOT_STRING(got=Quote(key)), where or None)
                stack.append((item, depth + 1, f"{where}.{key}" if where else key))
        elif isinstance(value, (list, tuple)):
            for i, item in enumerate(value):
                stack.append((item, depth + 1, f"{where}[{i}]"))
        elif isinstance(value, bool) or value is None or isinstance(value, str):
            continue
        elif isinstance(value, int):
            if len(str(abs(value))) > MAX_INT_DIGITS if value.bit_length() < 300 else True:
                raise PositionError(INT_TOO_LONG(top=MAX_INT_DIGITS), where or None)
        elif isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                raise PositionError(NOT_NUMBER(got=str(value)), where or None)
        else:
            raise PositionError(NOT_JSON(got=type(value).__name__), where or None)


def loads(text: str | bytes | bytearray) -> Record | SeatView:
    """Parse a JSON string (``PositionError`` for malformed JSON or a
    document over the input limits, see ``parse_json``)."""
    return from_json(parse_json(text))


def dumps(obj: Record | SeatView | State, indent: int | None = None) -> str:
    return json.dumps(to_json(obj), indent=indent, ensure_ascii=False)


def to_json(obj: Record | SeatView | State, from_deal: str | None = None) -> dict[str, Any]:
    """JSON of a ``Record``, a ``SeatView``, or a ``State`` (a full record
    with the explicit deal of every chance outcome drawn so far).  With
    ``from_deal="current"`` a state is written from the start of the deal in
    play: a mid-match record (``match``, this deal, the actions since)."""
    if from_deal not in (None, "current"):
        raise OptionError(FROM_DEAL(got=Quote(from_deal)))
    if from_deal is not None and not isinstance(obj, State):
        raise TypeError("to_json(..., from_deal='current') takes a State "
                        "(use Record.from_current_deal or SeatView.from_current_deal)")
    if isinstance(obj, (Record, SeatView)):
        return obj.to_json()
    if isinstance(obj, State):
        game = obj.game
        out: dict[str, Any] = {"game": game.name, "options": game.non_default_options()}
        log, labels = obj.chance.log, _labels(obj)
        if from_deal is not None:
            at, first, match = obj.deal_start()
            log = [("match", match)] + log[at:]
            labels = labels[first:]
        if log and log[0][0] == "match":
            out["match"] = json.loads(json.dumps(log[0][1]))
        out["deal"] = game.format_deal(log)
        out["actions"] = [obj.action_to_string(a) for a in labels]
        return out
    raise TypeError(f"to_json expects a Record, SeatView or State, got {type(obj).__name__}")


def _labels(state: State) -> list[int]:
    return state.history()


def record_of(state: State) -> Record:
    """The record of a state, with its explicit deal (``Record.of``)."""
    return Record.of(state)


def record_from_json(doc: Any) -> Record:
    """``from_json`` for a document that must be a game record
    (``PositionError`` for a seat view)."""
    position = from_json(doc)
    if not isinstance(position, Record):
        raise PositionError(WANT_RECORD(seat=position.seat),
                            "seat")
    return position


def view_from_json(doc: Any) -> SeatView:
    """``from_json`` for a document that must be a seat view
    (``PositionError`` for a record: it has no ``seat``)."""
    position = from_json(doc)
    if not isinstance(position, SeatView):
        raise PositionError(WANT_VIEW())
    return position


def from_json(doc: Any) -> Record | SeatView:
    """Validate a record or a seat view (a dict, or JSON text); the input
    limits of ``parse_json`` / ``check_values`` hold for both."""
    if isinstance(doc, (str, bytes, bytearray)):
        return loads(doc)
    if not isinstance(doc, dict):
        raise PositionError(NOT_OBJECT(got=type(doc).__name__))
    check_values(doc)
    doc = whole_numbers(doc)
    if "game" not in doc:
        raise PositionError(MISSING_GAME())
    name = doc["game"]
    options = doc.get("options", {})
    if not isinstance(options, dict):
        raise PositionError(MUST_BE_OBJECT(got=type(options).__name__), "options")
    try:
        game = load_game(name, **options)
    except OptionError as exc:
        where = "options" if isinstance(name, str) else "game"
        raise OptionError(exc.as_message(), f"{where}: {exc.where}" if exc.where else where)\
            from None
    actions = doc.get("actions", [])
    if not isinstance(actions, list):
        raise PositionError(MUST_BE_LIST(got=type(actions).__name__), "actions")
    for i, a in enumerate(actions):
        if not isinstance(a, str):
            raise PositionError(ACTION_NOT_STRING(got=Quote(a)), f"actions[{i}]")
    if "seat" in doc:
        return _load_view(game, doc, actions)
    return _load_record(game, doc, actions)


def _json_repr(value: Any) -> str:
    """A value as the JSON reader wrote it (``null``, ``true``)."""
    return {None: "null", True: "true", False: "false"}.get(value, short_repr(value)) \
        if value is None or isinstance(value, bool) else short_repr(value)


def _load_record(game: Game, doc: dict[str, Any], actions: list[str]) -> Record:
    for key in doc:
        if key not in RECORD_KEYS:
            raise PositionError(RECORD_KEY(key=Quote(key), keys=", ".join(RECORD_KEYS)))
    seed = doc.get("seed")
    if "seed" in doc and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise PositionError(MUST_BE_INT(got=_json_repr(seed)), "seed")
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise PositionError(SEED_RANGE(got=Quote(seed)), "seed")
    deal = doc.get("deal")
    if "deal" in doc and not isinstance(deal, dict):
        # null too: a record without its deal leaves the key out
        raise PositionError(MUST_BE_OBJECT(got=_json_repr(deal)), "deal")
    if seed is None and deal is None:
        raise PositionError(NEEDS_DEAL())
    match = _match_object(doc)
    state, labels = _replay(game, seed, deal, actions, strict_deal=seed is None, match=match)
    canon_deal = None
    canon_match = state.match_object()
    if deal is not None:
        if match is None:
            canon_deal = game.format_deal(game.parse_deal(deal))
        else:
            canon_deal = game.format_deal([("match", canon_match)] +
                                          game.parse_deal(deal, mid=True))
    return Record(game, seed, canon_deal, labels, state, canon_match)


def _match_object(doc: dict[str, Any]) -> dict[str, Any] | None:
    if "match" not in doc:
        return None
    match = doc["match"]
    if not isinstance(match, dict):
        raise PositionError(MUST_BE_OBJECT(got=type(match).__name__), "match")
    return match


def _replay(game: Game, seed: int | None, deal: dict[str, Any] | None, actions: list[str],
            strict_deal: bool, match: dict[str, Any] | None = None) -> tuple[State, list[str]]:
    """``game.replay`` with its errors at their JSON path (``actions[i]``),
    and the actions' canonical notation."""
    try:
        state = game.replay(actions, seed=seed, deal=deal, match=match, strict_deal=strict_deal)
    except ReplayError as exc:
        raise PositionError(exc.as_message(), f"actions[{exc.index}]", reason=exc.reason)\
            from None
    return state, [state.action_to_string(a) for a in state.history()]


def _load_view(game: Game, doc: dict[str, Any], actions: list[str]) -> SeatView:
    for key in doc:
        if key not in VIEW_KEYS:
            raise PositionError(VIEW_KEY(key=Quote(key), keys=", ".join(VIEW_KEYS)))
    seat = doc["seat"]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
        raise PositionError(SEAT_RANGE(top=game.num_players - 1, got=Quote(seat)), "seat")
    if "deal" not in doc:
        raise PositionError(VIEW_NEEDS_DEAL(), "deal")
    view = {"game": game.name, "options": game.non_default_options(), "seat": seat,
            "deal": doc["deal"], "actions": list(actions)}
    match = _match_object(doc)
    if match is not None:
        view["match"] = game.parse_match(match, seat=seat)
    record = game.complete_record(view, random.Random(0))
    state, _ = _replay(game, None, record["deal"], record["actions"], strict_deal=True,
                       match=record.get("match"))
    info = state.information_state(seat)
    _check_view_matches(view, info.view, game)
    # the replay that validated the view is one of its worlds: its sampler
    # starts from it rather than replaying the completion a second time.
    # Only for a view given in canonical form: the completion is drawn from
    # the view as given, and the sampler's own (without a state) from the
    # canonical one, so only then are they the same world
    return SeatView(game, seat, info.view, info, _state=state if view == info.view else None)


def _check_view_matches(given: dict[str, Any], derived: dict[str, Any], game: Game) -> None:
    """The view rebuilt from a consistent world must say what the given view
    says about public actions; the game's ``complete_view`` has already
    checked the deal part (own cards, counts, seen cards)."""
    if given.get("match") != derived.get("match"):
        raise PositionError(MATCH_DISAGREES(seat=given["seat"],
                                            want=short_repr(canonical_json(derived.get("match")))),
                            "match")
    if len(given["actions"]) != len(derived["actions"]):
        raise PositionError(VIEW_NO_REPLAY(), "actions")
    for i, (a, b) in enumerate(zip(given["actions"], derived["actions"], strict=True)):
        if b != "?" and a == "?":
            raise PositionError(SEES_ACTION(seat=given["seat"]), f"actions[{i}]")
        if b == "?" and a != "?":
            raise PositionError(HIDDEN_ACTION(seat=given["seat"]), f"actions[{i}]")


# --------------------------------------------------------------------------
# the JSON Schema of a game's positions (the HTTP API's document states it)


def players_range(name: str) -> tuple[int, int]:
    """The fewest and the most players of the game ``name``, whatever its
    options (``Game.interop``; a game not exported: its default's)."""
    cls = game_class(name)
    if cls.interop is not None:
        return cls.interop.min_players, cls.interop.max_players
    n = load_game(name).num_players
    return n, n


def _terms(game: Game, view: bool) -> Terms:
    """What the game's shapes are written in (``solver/shapes.py``): its
    card names and players from its declarations (``Game.interop``), the
    deck's size from the game with its default options."""
    spec = game.interop
    least, most = players_range(game.name)
    if spec is None:        # a game not exported: no card names, any token
        return Terms((), 64, least, most, view)
    if spec.deck is not None:
        names = tuple(spec.deck.to_string(c) for c in spec.deck.cards)
        size = spec.deck.size
    else:
        names, size = tuple(spec.values), game.max_chance_outcomes()
    return Terms(names, size, least, most, view)


def options_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of the game ``name``'s options object: its options
    only, each typed with its choices or range (``Option.json_schema``);
    what one option asks of another (``Game.check_options``) is the game's
    to refuse."""
    spec = game_class(name).options_spec
    return {"type": "object", "additionalProperties": False,
            "properties": {k: o.json_schema() for k, o in spec.items()}}


def position_schema(name: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a record or a seat view of the
    game ``name``, made from its declarations: its options
    (``Game.options_spec``: each typed, with its choices or range), its
    deal (``Game.deal_fields``, the keys ``Game.deal_required`` by the kind
    of position), its match object (``Game.match_fields``), its seats.
    What the schema cannot say (the position must replay under the rules,
    a hand holds as many cards as these options deal) is refused by
    ``from_json`` with the JSON path of the culprit."""
    game = load_game(name)
    seat = json_schema(Seat(), _terms(game, False))
    required = game.deal_required

    def deal(view: bool, mid: bool) -> dict[str, Any]:
        kind = ("mid_" if mid else "") + ("view" if view else "record")
        fields = {k: v for k, v in game.deal_fields.items()
                  if not (mid and k in game.deal_before_match)}
        out = {"type": "object", "properties": {k: json_schema(v, _terms(game, view))
                                                for k, v in fields.items()},
               "additionalProperties": False}
        if required.get(kind):
            out["required"] = list(required[kind])
        return out

    def kind(view: bool) -> dict[str, Any]:
        first = {"properties": {"deal": deal(view, False)}}
        if not game.match_fields:
            return first
        match = json_schema(Fields(dict(game.match_fields), game.match_optional),
                            _terms(game, view))
        return {"if": {"required": ["match"]},
                "then": {"properties": {"deal": deal(view, True), "match": match}},
                "else": first}

    properties: dict[str, Any] = {
        "game": {"const": name},
        "options": options_schema(name),
        "seed": {"type": "integer", "minimum": 0, "maximum": MAX_SEED},
        "deal": {"type": "object"},
        "actions": {"type": "array", "items": {"type": "string"}},
        "seat": seat}
    if game.match_fields:
        properties["match"] = {"type": "object"}
    return {
        "type": "object", "required": ["game"], "properties": properties,
        # the keys of a record or a view (RECORD_KEYS, VIEW_KEYS): no other
        "additionalProperties": False,
        # a record gives its deal or a seed; a seat view (it has 'seat')
        # gives its deal, never a seed
        "anyOf": [{"required": ["deal"]}, {"required": ["seed"]}],
        "allOf": [{"if": {"required": ["seat"]},
                   "then": {"not": {"required": ["seed"]}, **kind(True)},
                   "else": kind(False)}]}


__all__ = ["Record", "SeatView", "from_json", "record_from_json", "view_from_json", "to_json",
           "loads", "dumps", "record_of", "whole_numbers", "position_schema", "options_schema",
           "players_range", "canonical_json"]
