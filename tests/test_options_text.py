"""Options and settings typed as text are read in one place: ``key=value``
lists by ``solver.game.parse_pairs``, each game option's value by its own
``Option.parse``; the command line, the ladder's game specs and the bots'
settings strings all go through them, so they accept and refuse the same
text with errors that name the culprit."""

from __future__ import annotations

import argparse

import pytest

import solver
from bots.cli import _load_game
from bots.ladder.schedule import parse_game_spec
from bots.registry import make_bot
from solver.errors import OptionError
from solver.game import Option, options_from_text, parse_pairs


def test_option_parse_reads_the_options_type_and_checks_it():
    spec = solver.load_game("dix").options_spec
    assert spec["target"].parse("dix", "target", " 10 ") == 10
    assert spec["free_play_while_stock"].parse("dix", "free_play_while_stock", "True") is True
    assert spec["variant"].parse("dix", "variant", "seventeen") == "seventeen"
    # the option and the game are named, and what was typed
    with pytest.raises(OptionError, match=r"dix: option 'target' must be an integer.*'ten'"):
        spec["target"].parse("dix", "target", "ten")
    with pytest.raises(OptionError, match=r"dix: option 'target' must be >= 1"):
        spec["target"].parse("dix", "target", "0")
    with pytest.raises(OptionError, match=r"dix: option 'variant' must be one of"):
        spec["variant"].parse("dix", "variant", "17")
    with pytest.raises(OptionError, match=r"g: option 'flag' must be true or false"):
        Option(False, "a flag").parse("g", "flag", "yes")


def test_a_games_own_option_class_parses_too():
    # dix-exchange's deck option reads its own text and stores it canonically
    spec = solver.load_game("dix-exchange").options_spec["deck"]
    assert spec.parse("dix-exchange", "deck", "9x4, 10=4") == "10:4 9:4"


def test_parse_pairs():
    assert parse_pairs([" target = 10", "", "variant=seventeen "], "here") == {
        "target": "10", "variant": "seventeen"}
    for bad in ("target", "=10"):
        with pytest.raises(OptionError, match=f"here: expected key=value, got '{bad}'"):
            parse_pairs([bad], "here")


def test_options_from_text_leaves_unknown_keys_to_load_game():
    assert options_from_text("DIX", {"target": "7", "colour": "red"}) == {
        "target": 7, "colour": "red"}
    with pytest.raises(OptionError, match="unknown option 'colour'"):
        solver.load_game("dix", **options_from_text("dix", {"colour": "red"}))


def _cli(*options: str, game: str = "dix") -> solver.Game:
    return _load_game(argparse.Namespace(game=game, option=list(options), players=None))


def test_every_front_door_reads_the_same_text_the_same_way():
    # the same option text gives the same game from the command line and
    # from the ladder's game spec
    assert _cli("target=7", "variant=seventeen").options == solver.load_game(
        "dix", **parse_game_spec("dix:target=7,variant=seventeen")[1]).options
    for text, message in (("target=ten", "option 'target' must be an integer"),
                          ("target", "expected key=value, got 'target'")):
        with pytest.raises(OptionError, match=message):
            _cli(text)
        with pytest.raises(OptionError, match=message):
            parse_game_spec(f"dix:{text}")
    with pytest.raises(OptionError, match="--option: expected key=value"):
        _cli("oops")
    # a bot's settings string is split by the same reader
    game = solver.load_game("dix")
    with pytest.raises(OptionError, match="bot settings 'random:fast': expected key=value"):
        make_bot("random:fast", game, 0)
    assert make_bot("ismcts: iterations = 30 ", game, 0).limit.iterations == 30
