"""The position format: game records and seat views (docs/positions.md).

* A **game record** ``{"game", "options", "seed" | "deal", "actions"}``
  describes a game completely: the deal (every chance outcome, or the seed
  that makes them) and every action from the first, in notation.
* A **seat view** adds ``"seat": k`` and leaves out what that seat cannot
  see (unknown hands as counts, unseen cards as ``"?"``, hidden actions as
  ``"?"``).  It is "the position I ask a hint for".

Everything is validated here, once (STYLE 5): unknown game or option,
unknown or duplicate card, wrong hand sizes, an illegal action in the
history (the error names its index and why), a view that claims knowledge
the seat cannot have or that no deal is consistent with.  Errors are
``PositionError`` (or ``OptionError``) with the JSON path of the culprit.

``to_json(from_json(x))`` is a fixed point for every accepted ``x``.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalActionError, NotationError, OptionError, PositionError
from .game import Game, InfoState, State, canonical_json, load_game

RECORD_KEYS = ("game", "options", "seed", "deal", "actions")
VIEW_KEYS = ("game", "options", "seat", "deal", "actions")


@dataclass
class Record:
    """A validated game record.  ``state()`` gives a fresh replayed state."""

    game: Game
    seed: int | None
    deal: dict | None          # canonical deal object as given (None: seed only)
    actions: list[str]         # canonical notation
    _state: State = field(repr=False, default=None)

    def state(self) -> State:
        return self._state.clone()

    def to_json(self) -> dict:
        out: dict[str, Any] = {"game": self.game.name,
                               "options": self.game.non_default_options()}
        if self.seed is not None:
            out["seed"] = self.seed
        if self.deal is not None:
            out["deal"] = self.deal
        out["actions"] = list(self.actions)
        return out


@dataclass
class SeatView:
    """A validated seat view: ``view`` is its canonical JSON, ``info`` the
    seat's information state (with the derived ``known`` facts)."""

    game: Game
    seat: int
    view: dict
    info: InfoState = field(repr=False, default=None)
    _sampler: object = field(repr=False, default=None)

    def to_json(self) -> dict:
        return json.loads(json.dumps(self.view))

    def world(self, seed: int | None = None) -> State:
        """One complete state consistent with the view, drawn by the game's
        world sampler (exactly uniform among the consistent worlds in every
        game: docs/search.md)."""
        return self.sampler().sample(random.Random(seed))

    def sampler(self):
        """The game's ``WorldSampler`` for this view (prepared once)."""
        if self._sampler is None:
            self._sampler = self.game.world_sampler(self.view)
        return self._sampler


def loads(text: str) -> Record | SeatView:
    """Parse a JSON string (``PositionError`` for malformed JSON)."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise PositionError(f"expected JSON text, got {type(text).__name__}")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PositionError(f"malformed JSON: {exc.msg} at line {exc.lineno} "
                            f"column {exc.colno}") from None
    return from_json(doc)


def dumps(obj, indent: int | None = None) -> str:
    return json.dumps(to_json(obj), indent=indent, ensure_ascii=False)


def to_json(obj) -> dict:
    """JSON of a ``Record``, a ``SeatView``, or a ``State`` (a full record
    with the explicit deal of every chance outcome drawn so far)."""
    if isinstance(obj, (Record, SeatView)):
        return obj.to_json()
    if isinstance(obj, State):
        return {"game": obj.game.name, "options": obj.game.non_default_options(),
                "deal": obj.deal_record(),
                "actions": [obj.action_to_string(a) for a in _labels(obj)]}
    raise TypeError(f"to_json expects a Record, SeatView or State, got {type(obj).__name__}")


def _labels(state: State) -> list[int]:
    return state.history()


def record_of(state: State) -> Record:
    """The record of a state, with its explicit deal."""
    return from_json(to_json(state))


def from_json(doc: Any) -> Record | SeatView:
    """Validate a record or a seat view (a dict, or JSON text)."""
    if isinstance(doc, (str, bytes, bytearray)):
        return loads(doc)
    if not isinstance(doc, dict):
        raise PositionError(f"a position is a JSON object, got {type(doc).__name__}")
    if "game" not in doc:
        raise PositionError("missing 'game'")
    name = doc["game"]
    options = doc.get("options", {})
    if not isinstance(options, dict):
        raise PositionError(f"must be an object, got {type(options).__name__}", "options")
    try:
        game = load_game(name, **options)
    except OptionError as exc:
        raise OptionError(f"{'options' if isinstance(name, str) else 'game'}: {exc}") from None
    actions = doc.get("actions", [])
    if not isinstance(actions, list):
        raise PositionError(f"must be a list, got {type(actions).__name__}", "actions")
    for i, a in enumerate(actions):
        if not isinstance(a, str):
            raise PositionError(f"an action is a string, got {a!r}", f"actions[{i}]")
    if "seat" in doc:
        return _load_view(game, doc, actions)
    return _load_record(game, doc, actions)


def _load_record(game: Game, doc: dict, actions: list[str]) -> Record:
    for key in doc:
        if key not in RECORD_KEYS:
            raise PositionError(f"unknown key {key!r} (a record has: {', '.join(RECORD_KEYS)};"
                                f" a seat view adds 'seat')")
    seed = doc.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise PositionError(f"must be an integer, got {seed!r}", "seed")
    deal = doc.get("deal")
    if seed is None and deal is None:
        raise PositionError("a record needs a 'deal' or a 'seed'")
    state, labels = _replay(game, seed, deal, actions, strict_deal=seed is None)
    canon_deal = None
    if deal is not None:
        canon_deal = game.format_deal(game.parse_deal(deal))
    return Record(game, seed, canon_deal, labels, state)


def _replay(game: Game, seed, deal, actions: list[str], strict_deal: bool):
    """Build the state and apply the actions, naming the culprit on error.
    With ``strict_deal`` an action may not be played in a deal that the
    record does not list (there is no seed to make it)."""
    state = game.new_initial_state(seed=seed, deal=deal)
    scripted = len(state._chance.scripted)
    labels = []
    for i, text in enumerate(actions):
        if strict_deal and len(state._chance.log) > scripted:
            raise PositionError("this action is played in a deal the record does not list "
                                "(add it to 'deal', or give a 'seed')", f"actions[{i}]")
        if state.is_terminal():
            raise PositionError(f"{text!r}: the game is already over", f"actions[{i}]")
        try:
            a = state.string_to_action(text)
        except NotationError as exc:
            raise PositionError(str(exc), f"actions[{i}]") from None
        try:
            state.apply_action(a)
        except IllegalActionError as exc:
            err = PositionError(str(exc), f"actions[{i}]")
            err.reason = exc.reason
            raise err from None
        labels.append(state.action_to_string(a))
    return state, labels


def _load_view(game: Game, doc: dict, actions: list[str]) -> SeatView:
    for key in doc:
        if key not in VIEW_KEYS:
            raise PositionError(f"unknown key {key!r} (a seat view has: "
                                f"{', '.join(VIEW_KEYS)})")
    seat = doc["seat"]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
        raise PositionError(f"must be a seat 0..{game.num_players - 1}, got {seat!r}", "seat")
    if "deal" not in doc:
        raise PositionError("a seat view needs the deal as the seat sees it", "deal")
    view = {"game": game.name, "options": game.non_default_options(), "seat": seat,
            "deal": doc["deal"], "actions": list(actions)}
    record = game.complete_view(view, random.Random(0))
    state, _ = _replay(game, None, record["deal"], record["actions"], strict_deal=True)
    info = state.information_state(seat)
    _check_view_matches(view, info.view, game)
    return SeatView(game, seat, info.view, info)


def _check_view_matches(given: dict, derived: dict, game: Game) -> None:
    """The view rebuilt from a consistent world must say what the given view
    says about public actions; the game's ``complete_view`` has already
    checked the deal part (own cards, counts, seen cards)."""
    if len(given["actions"]) != len(derived["actions"]):
        raise PositionError("the view's actions do not replay", "actions")
    for i, (a, b) in enumerate(zip(given["actions"], derived["actions"])):
        if b != "?" and a == "?":
            raise PositionError(f"seat {given['seat']} sees this action: name it",
                                f"actions[{i}]")
        if b == "?" and a != "?":
            raise PositionError(f"seat {given['seat']} cannot see this action: give it as "
                                f"'?'", f"actions[{i}]")


__all__ = ["Record", "SeatView", "from_json", "to_json", "loads", "dumps", "record_of",
           "canonical_json"]
