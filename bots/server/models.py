"""The request bodies, declared once (Pydantic): the same declarations
check every request (``app.body_model``) and make the OpenAPI document's
schemas (``openapi.document``), so the two cannot disagree.

What no schema can say is checked after them, with the same kind of
answer (422 naming the JSON path): a position must replay under its
game's rules (``position.actions[3]``), an action must be legal now, a
limit's numbers past the server's caps are capped, a bot must fit a table.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

import solver
from solver import position as positions

from .. import levels
from ..base import integer_pattern
from ..registry import settings_pattern
from .table import AWAY, AWAY_RANGE, TABLE_BOTS

#: the largest seed a request may give (the engine's one rule: solver.game)
MAX_SEED = solver.game.MAX_SEED
#: the most players a game has (dix-exchange: 12): seats are 0..MAX_SEATS-1
MAX_SEATS = 12



def _registered(name):
    """A registered game's name, as the registry is at the request (a game
    package registered after this module was imported is served too):
    refused as a ``Literal`` of the games would be."""
    games = solver.registered_games()
    if not isinstance(name, str) or name not in games:
        said = [repr(g) for g in games]
        raise PydanticCustomError("literal_error", "Input should be {expected}",
                                  {"expected": " or ".join(filter(None, (", ".join(said[:-1]),
                                                                         said[-1])))})
    return name


def _games_enum(schema: dict) -> None:
    schema["enum"] = solver.registered_games()


#: a game's name: one of the registered games
GameName = Annotated[str, BeforeValidator(_registered), Field(json_schema_extra=_games_enum)]


def _whole(value):
    """JSON has one number type: ``2.0`` is the integer 2 (JSON Schema says
    so too); a fraction, a bool or a string stays refused."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return int(value)
    return value


def Int(**constraints):
    """An integer as JSON means it (``88`` or ``88.0``) within ``constraints``
    (``ge``, ``le``, ``lt``, ``description``); the constraints come before
    the conversion so that the schema states them."""
    return Annotated[int, Field(**constraints), BeforeValidator(_whole)]


class Body(BaseModel):
    """A request body: a JSON object with only the declared keys, each of
    the declared type (no coercion: ``"1"`` is not a number)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Limit(Body):
    """How much to search; each number past the server's cap gets the cap
    (the answer says what applied), and the time cap always applies."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra={
        "anyOf": [{"required": ["time"]}, {"required": ["iterations"]},
                  {"required": ["worlds"]}]})

    time: Annotated[float, Field(gt=0, allow_inf_nan=False,
                                 description="seconds")] = None
    iterations: Int(ge=1, le=10**9, description="ISMCTS iterations") = None
    worlds: Int(ge=1, le=10**9, description="PIMC worlds") = None
    nodes: Int(ge=1, le=10**12, description="the bound of an exact solve") = None


#: the OpenAPI document's name of each game's position schema
POSITION_REF = "#/components/schemas/Position.{game}"


def position_components() -> dict[str, dict]:
    """Each registered game's position schema (``solver.position.
    position_schema``: its options, deal, match and seats, made from the
    game's declarations), as the document's components: ``Position``
    refers to them by the position's ``game``."""
    return {POSITION_REF.format(game=name).rpartition("/")[2]: positions.position_schema(name)
            for name in solver.registered_games()}


def position_schema(field: dict) -> dict:
    """The schema of a body's ``position`` (``field``: the one Pydantic
    writes, with its description): one of the games' position schemas
    (``position_components``), chosen by ``game``.  Pydantic resolves every
    ``$ref`` it writes, and these point at the document's components, so
    the model marks the field (``POSITION_MARK``) and the document writes
    this in its place (``bots/server/openapi.py``)."""
    games = solver.registered_games()
    out = {k: v for k, v in field.items()
           if k not in ("type", "additionalProperties", POSITION_MARK)}
    out["oneOf"] = [{"$ref": POSITION_REF.format(game=g)} for g in games]
    out["discriminator"] = {"propertyName": "game",
                            "mapping": {g: POSITION_REF.format(game=g) for g in games}}
    return out


#: the mark of a body's ``position`` in the schema Pydantic writes
POSITION_MARK = "x-dixtrix-position"


Position = Annotated[dict, Field(
    description="a game record or a seat view (docs/positions.md): a record gives its "
                "'deal' or a 'seed', a seat view its 'deal'; it must replay under its "
                "game's rules, and a refusal names the JSON path under 'position'",
    json_schema_extra={POSITION_MARK: True})]


def _most_seats(name: str) -> int:
    """The most players the game ``name`` seats (its declarations)."""
    return positions.players_range(name)[1]


def _seat_key(most: int) -> str:
    """The pattern of a seat number written as an object's key, 0..most-1."""
    return f"^(?:{integer_pattern(0, most - 1)})$"


def _seat_of_the_position_s_game(key: str):
    """A body's seat field ``key`` among the seats of its position's game
    (the document's schema; the server's check says the same with 422)."""
    def extra(schema: dict) -> None:
        schema["allOf"] = [{"if": {"properties": {"position": {
                                "properties": {"game": {"const": name}}, "required": ["game"]}},
                                "required": ["position"]},
                            "then": {"properties": {key: {"maximum": _most_seats(name) - 1}}}}
                           for name in solver.registered_games()]
    return extra


Seed = Int(ge=0, le=MAX_SEED, description="a seed: the same seed, the same answer (with a "
                                          "count limit)")


Inference = Annotated[Literal["on", "off"], Field(
    description="weigh the search's worlds by what the other seats chose (the beliefs, "
                "docs/search.md) or draw them alike; absent: the game's default")]
#: the kind of exact value asked of the solver (solver/dd/solve.py
#: ``ASKED_KINDS``); where two sides play the value is minimax whatever is asked
ExactKind = Annotated[Literal["paranoid", "maxn"], Field(
    description="the kind of exact value where the seats play each for itself (trix, tricks "
                "without partners): 'paranoid' (the seat to move against the others as one "
                "side) or 'maxn' (every seat for its own score, where that search finishes); "
                "absent: the game's own (paranoid); two sides: minimax")]
Beliefs = Annotated[bool, Field(description="also answer where the cards the seat cannot "
                                            "see are (each one's chance with each holder)")]
Prior = Annotated[Literal["rules", "learned", "none"], Field(
    description="the ISMCTS tree prior: the rules bot's move favoured, the game's learned "
                "policy at every card node (docs/search.md, Learned play), or none; absent: "
                "the game's. The answer's search.guided says what was used")]


Leaf = Annotated[Literal["value", "playout"], Field(
    description="how the ISMCTS play-outs end: the game's learned value after a few tricks "
                "(docs/search.md, The value at the leaf) or the deal's end; absent: the "
                "game's. The answer's search.guided says what was used")]


class HintBody(Body):
    position: Position
    limit: Limit = None
    bot: Literal["ismcts", "pimc"] = "ismcts"
    seed: Seed = 0
    inference: Inference = None
    beliefs: Beliefs = False
    prior: Prior = None
    leaf: Leaf = None


class SolveBody(Body):
    position: Position
    line: Int(ge=0, le=16, description="plies of the expected line") = 8


class EvaluateBody(Body):
    position: Position
    limit: Limit = None
    policy: Literal["rules", "random"] = "rules"
    seed: Seed = 0
    inference: Inference = None


Deal = Int(ge=1, le=10**6, description="the deal to review (1 = the record's first; default: "
                                         "its last)")
SearchBot = Literal["ismcts", "pimc"]


class ReviewBody(Body):
    model_config = ConfigDict(extra="forbid", strict=True,
                              json_schema_extra=_seat_of_the_position_s_game("seat"))

    position: Position
    deal: Deal = None
    seat: Int(ge=0, lt=MAX_SEATS, description="review this seat only (a seat view: its "
                                              "own)") = None
    limit: Limit = None
    bot: SearchBot = "ismcts"
    seed: Seed = 0


#: a level, or a bot a table takes with ``key=value`` settings: the pattern
#: is made from each bot's declared settings (``Bot.settings_spec``: name,
#: type, range), the ones ``make_bot`` checks, so a string the schema allows
#: names only settings the bot has, each with a value of its type and range
#: (what no pattern says -- the server's caps, a game without a rules bot --
#: is refused with 422 naming the bot)
BotSpec = Annotated[str, Field(
    min_length=1, max_length=1000,
    pattern=settings_pattern(TABLE_BOTS),
    description=f"a level ({', '.join(levels.LEVELS)}) or a bot settings string "
                f"('rules', 'ismcts:iterations=2000'); a search must fit the server's caps")]


def _per_game_table(schema: dict) -> None:
    """A table's ``options`` as its game takes them (``solver.position.
    options_schema``), its person seats and its bots' seats among the
    game's seats, chosen by the body's ``game``."""
    schema["allOf"] = [{"if": {"properties": {"game": {"const": name}}, "required": ["game"]},
                        "then": {"properties": {
                            "options": positions.options_schema(name),
                            "seats": {"items": {"maximum": _most_seats(name) - 1}},
                            "bots": {"propertyNames": {"pattern": _seat_key(
                                _most_seats(name))}}}}}
                       for name in solver.registered_games()]


class CreateTable(Body):
    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=_per_game_table)

    game: GameName
    options: Annotated[dict[str, bool | Int(ge=-10 ** 9, le=10 ** 9)
                            | Annotated[str, Field(max_length=1000)]
                            | dict[str, Int(ge=0, le=10 ** 6)]],
                       Field(description="the game's options (GET /v1/games): each game says "
                                         "which it takes")] = None
    seats: Annotated[list[Int(ge=0, lt=MAX_SEATS)], Field(
        max_length=MAX_SEATS, json_schema_extra={"uniqueItems": True},
        description="the seats people take, each with its own token (default [0]; [] for a "
                    "table of bots that people watch)")] = None
    bots: Annotated[BotSpec | Annotated[dict[Annotated[str, Field(pattern=_seat_key(MAX_SEATS))],
                                             BotSpec],
                                        Field(json_schema_extra={"additionalProperties": False})],
                    Field(description="every other seat's bot: one for all, or an object "
                                      "seat -> bot")] = None
    seed: Int(ge=0, le=MAX_SEED, description=(
        "deals every deal (a seeded table is reproducible: for practice and tests; "
        "without one the deal comes from 128 random bits)")) = None
    public: Annotated[bool, Field(description=(
        "listed in the lobby (GET /v1/tables): the creator takes the first person seat and "
        "the others are open, each taken by whoever joins it; default false, a private "
        "table whose seats are taken only by their invitation links"))] = None
    away: Annotated[float, Field(
        ge=AWAY_RANGE[0], le=AWAY_RANGE[1], allow_inf_nan=False, description=(
            f"seconds a person's turn waits before a bot plays the seat (the person takes "
            f"it back when they return); default {AWAY:g}"))] = None


Action = Annotated[str, Field(min_length=1, max_length=100, pattern=r"\S",
                              description="an action in the game's notation ('QS', 'bid 85', "
                                          "'pass'); a table's 'legal' lists them")]
Seat = Int(ge=0, lt=MAX_SEATS, description="your seat (your token's; optional)")


#: the table's version the client saw (GET /v1/tables/{table_id} and every
#: answer give it): a move is played only at that version
Version = Int(ge=0, le=10**9, description=(
    "the table's version you saw ('version' of your last view of the table): the action "
    "is played only if the table is still at that version, else 409 and nothing is played, "
    "so a move sent twice (a retry) or for a stale view is never played twice"))


class ActBody(Body):
    seat: Seat = None
    action: Action
    version: Version


class JoinBody(Body):
    seat: Int(ge=0, lt=MAX_SEATS, description="the open seat to take (default: the first "
                                             "open one)") = None


class SeatBody(Body):
    away: Annotated[bool, Field(description=(
        "true: a bot plays the seat (the admin token, or the seat's own); false: its person "
        "plays it again (the seat's own token)"))]
    bot: BotSpec = None


class TableHintBody(Body):
    seat: Seat = None
    limit: Limit = None
    bot: Literal["ismcts", "pimc"] = "ismcts"
    seed: Seed = 0
    inference: Inference = None
    beliefs: Beliefs = False


class TableReviewBody(Body):
    seat: Int(ge=0, lt=MAX_SEATS, description="the seat reviewed: your token's (optional); "
                                             "with the admin token, once the match is over, "
                                             "any seat (default: every seat)") = None
    deal: Int(ge=1, le=10**6, description="a finished deal (1 = the table's first; default: "
                                         "the last finished)") = None
    limit: Limit = None
    bot: SearchBot = "ismcts"
    seed: Seed = 0


# ---- the analysis board (bots/analysis.py, bots/server/analysis.py) --------

Step = Int(ge=0, le=10**6, description="a step of the line: the number of its actions "
                                       "played (0: the start)")
Variation = Annotated[list[Annotated[str, Field(max_length=100)]], Field(
    max_length=2000, description="actions played from the step on instead of the line's "
                                 "(what-if), in the game's notation; each is checked")]


class AnalysisOpenBody(Body):
    position: Position


class AnalysisValuesBody(Body):
    position: Position
    at: Step
    variation: Variation = None
    limit: Limit = None
    bot: SearchBot = "ismcts"
    seed: Seed = 0
    nodes: Int(ge=1, le=10**10, description="the node budget of the exact solve of the "
                                            "true deal (a record)") = None
    inference: Inference = None
    kind: ExactKind = None
    stream: Annotated[bool, Field(description="answer as JSON lines: progress while it "
                                              "computes, then the result")] = False


class AnalysisLineBody(Body):
    position: Position
    at: Step
    variation: Variation = None
    plies: Int(ge=1, le=52, description="the most actions of the line") = 12
    seed: Seed = 0
    kind: ExactKind = None


class AnalysisStepBody(Body):
    model_config = ConfigDict(extra="forbid", strict=True,
                              json_schema_extra=_seat_of_the_position_s_game("show"))

    position: Position
    at: Step
    variation: Variation = None
    show: Annotated[Literal["all"] | Int(ge=0, le=MAX_SEATS - 1), Field(
        description="whose cards are drawn: a seat (0-based), or 'all' (a record only; "
                    "its default); a seat view shows its own seat")] = None


__all__ = ["Body", "Limit", "HintBody", "SolveBody", "EvaluateBody", "ReviewBody",
           "CreateTable", "ActBody", "JoinBody", "SeatBody", "TableHintBody", "TableReviewBody", "MAX_SEED",
           "AnalysisOpenBody", "AnalysisValuesBody", "AnalysisLineBody", "AnalysisStepBody"]
