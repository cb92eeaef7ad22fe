"""The shapes a game declares its deal and match objects in
(``solver/shapes.py``) and the JSON Schema written from them and from the
options (``Option.json_schema``): each says what the game's reading takes,
no more and no less where a schema can say it."""

from __future__ import annotations

import jsonschema
import pytest

import solver
from solver import position
from solver.errors import OptionError
from solver.games.dix_exchange.notation import DeckOption
from solver.shapes import (
    Card,
    Cards,
    CardText,
    Fields,
    Flag,
    ListOf,
    MapOf,
    PerSeat,
    Seat,
    Terms,
    Text,
    Whole,
    Word,
    card_list_pattern,
    conforms,
    described,
    json_schema,
    spelled,
)

CARDS = ("AS", "KS", "10", "1")
RECORD = Terms(CARDS, 4, 2, 3)
VIEW = Terms(CARDS, 4, 2, 3, view=True)


def valid(shape, terms, value) -> bool:
    return jsonschema.Draft202012Validator(json_schema(shape, terms)).is_valid(value)


def test_a_card_list_is_text_or_a_list_of_the_game_s_card_names():
    for value in ("AS KS", " AS\tKS ", "", ["AS", "10"], [], "10 1"):
        assert valid(Cards(), RECORD, value), value
    for value in ("AS QS", "ASKS", ["AS", "QS"], ["AS", None], 2, ["?"], "?",
                  ["AS"] * 5, {"AS": 1}):
        assert not valid(Cards(), RECORD, value), value
    # a seat view: "?" for an unseen card, counts of them in a list, or the count alone
    for value in ("? AS", ["?", "AS", 2], 3, 0, ["?"]):
        assert valid(Cards(), VIEW, value), value
    for value in (5, -1, ["AS", 0], ["AS", 5], True):
        assert not valid(Cards(), VIEW, value), value
    # at least one card
    assert not valid(Cards(least=1), RECORD, "") and not valid(Cards(least=1), RECORD, [])
    assert not valid(Cards(least=1), VIEW, 0) and valid(Cards(least=1), VIEW, 1)
    # the longest name first: "10" is one card, not "1" and a stray "0"
    assert card_list_pattern(CARDS).count("10") == 2


#: a value of each shape the facts of a seat use, and one that is not
FACT_VALUES = [
    (Seat(none=True), -1, -2), (Seat(), 1, -1), (Card(), "KS", "KS AS"),
    (CardText(), "AS KS", ["AS"]), (Flag(), False, 0), (Text(), "", 1),
    (Whole(), -1000, 1.5), (ListOf(Whole()), [1, -2], [1, True]),
    (PerSeat(Flag()), [True, False], [True]), (ListOf(Text()), ["a"], "a"),
    (MapOf(Card(), Seat()), {"AS": 1}, {"AS": -1}), (ListOf(Card()), ["AS"], ["AS KS"]),
]


@pytest.mark.parametrize("shape,good,bad", FACT_VALUES, ids=lambda v: repr(v)[:30])
def test_a_value_conforms_to_its_shape_as_its_schema_says(shape, good, bad):
    """The facts of a seat are declared in the shapes (solver/facts.py):
    ``conforms`` (a game's values, two seats here) and the JSON Schema
    agree on a value of each and one that is not; each shape is
    described in words and spelled as Python writes it."""
    assert conforms(shape, good, 2) and valid(shape, RECORD, good)
    assert not conforms(shape, bad, 2) and not valid(shape, RECORD, bad)
    assert described(shape) and eval(spelled(shape)) == shape


def test_shapes_in_words():
    assert described(Seat(none=True)) == "a seat, counted from 0 (-1: none yet)"
    assert described(ListOf(Whole())) == "a list, each item a whole number"
    assert described(Whole(0, 10, 5)) == "a whole number (at least 0, at most 10, a multiple of 5)"
    assert spelled(MapOf(Card(), Seat(none=True))) == "MapOf(Card(), Seat(none=True))"
    assert spelled(Whole(1, 5)) == "Whole(low=1, high=5)"


def test_seats_cards_lists_and_objects():
    assert valid(Seat(), RECORD, 2) and not valid(Seat(), RECORD, 3)
    assert not valid(Seat(), RECORD, -1) and not valid(Seat(), RECORD, "1")
    assert valid(Card(), RECORD, "KS") and not valid(Card(), RECORD, "KS AS")
    assert valid(PerSeat(Seat()), RECORD, [0, 1]) and valid(PerSeat(Seat()), RECORD, [0, 1, 2])
    assert not valid(PerSeat(Seat()), RECORD, [0]) and not valid(PerSeat(Seat()), RECORD,
                                                                   [0, 1, 2, 0])
    assert valid(Whole(-10, 10, 5), RECORD, -5) and not valid(Whole(-10, 10, 5), RECORD, 3)
    assert not valid(Whole(-10, 10), RECORD, 11) and not valid(Whole(-10, 10), RECORD, 1.5)
    assert valid(Word(("a", "b")), RECORD, "a") and not valid(Word(("a", "b")), RECORD, "c")
    distinct = ListOf(Word(("a", "b")), 0, 1, distinct=True)
    assert valid(distinct, RECORD, ["a"]) and not valid(distinct, RECORD, ["a", "b"])
    assert not valid(ListOf(Seat(), distinct=True), RECORD, [1, 1])
    obj = Fields({"hands": PerSeat(Cards()), "turn_up": Card()}, optional=("turn_up",))
    assert valid(obj, RECORD, {"hands": ["AS", "KS"]})
    assert not valid(obj, RECORD, {"turn_up": "AS"})                  # hands is required
    assert not valid(obj, RECORD, {"hands": ["AS", "KS"], "nest": "1"})   # closed
    # a game that names no cards: any tokens
    anything = Terms((), 64, 4, 4)
    assert valid(Cards(), anything, "X Y") and valid(Cards(), anything, ["X"])
    assert not valid(Cards(), anything, ["X Y"]) and valid(Card(), anything, "Z")
    with pytest.raises(TypeError, match="not a shape"):
        json_schema("cards", RECORD)


@pytest.mark.parametrize("name", solver.registered_games())
def test_every_option_s_schema_takes_what_its_check_takes(name):
    """Each option's schema holds its default and refuses what its check
    refuses among values of every JSON type and past its range."""
    spec = solver.game.game_class(name).options_spec
    for key, option in spec.items():
        check = jsonschema.Draft202012Validator(option.json_schema())
        assert check.is_valid(option.default), (key, option.default)
        probes = [True, 0, -1, 1, 10**6, "x", None, [], {}, 2.5]
        probes += [option.min - 1] if option.min is not None else []
        probes += [option.max + 1] if option.max is not None else []
        probes += list(option.choices or ())
        for value in probes:
            try:
                option.check(name, key, value)
                taken = True
            except OptionError:
                taken = False
            if not taken:
                assert not check.is_valid(value), (key, value)
            elif not isinstance(option, DeckOption):
                assert check.is_valid(value), (key, value)


def test_the_deck_option_s_schema():
    check = jsonschema.Draft202012Validator(DeckOption("standard", "").json_schema())
    for value in ("standard", " default", "10:4 9:4 CJ:3", "10x4,9=4", {"10": 4, "CJ": 3}):
        assert check.is_valid(value), value
        DeckOption("standard", "").check("dix-exchange", "deck", value)
    for value in ("", "lots", "11:4", "10:100", {}, {"11": 4}, {"10": 100}, {"10": "4"}, 4):
        assert not check.is_valid(value), value


def test_a_game_s_position_schema_is_its_declarations():
    """dix's schema, read back: its options closed and typed, its seats
    0..1, its deal's keys and the card names of its deck."""
    schema = position.position_schema("dix")
    props = schema["properties"]
    assert props["game"] == {"const": "dix"} and props["seat"]["maximum"] == 1
    assert props["options"]["additionalProperties"] is False
    assert props["options"]["properties"]["target"] == {"type": "integer", "minimum": 1,
                                                        "maximum": 100000}
    check = jsonschema.Draft202012Validator(schema)
    for doc, ok in (({"game": "dix", "seed": 1}, True),
                    ({"game": "dix", "seed": 1, "options": {"variant": "seventeen"}}, True),
                    ({"game": "dix", "seed": 1, "options": {"variant": "eighteen"}}, False),
                    ({"game": "dix", "deal": {"first_dealer": 2, "rounds": []}}, False),
                    ({"game": "dix", "deal": {"first_dealer": 1, "rounds": [
                        {"hands": ["AS", "KS"], "turn_up": "JK"}]}}, True),
                    ({"game": "dix", "deal": {"first_dealer": 1, "rounds": [
                        {"hands": ["AS", "KS"], "turn_up": "ZZ"}]}}, False),
                    ({"game": "dix", "seed": 1, "match": {"round": 2, "dealer": 1,
                                                          "totals": [1, 2]},
                      "deal": {"rounds": []}}, True),
                    ({"game": "dix", "seed": 1, "match": {"round": 2, "dealer": 1,
                                                          "totals": [1, 2], "x": 0},
                      "deal": {"rounds": []}}, False),
                    ({"game": "dix", "seed": 1, "match": {"round": 2, "dealer": 1,
                                                          "totals": [1, 2]},
                      "deal": {"first_dealer": 0, "rounds": []}}, False)):
        assert check.is_valid(doc) is ok, doc
