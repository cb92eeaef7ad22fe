import pytest

from solver.cards import DIX, FRENCH, JOKER, ROOK
from solver.errors import NotationError


def test_canonical_and_aliases():
    assert DIX.parse("10H") == DIX.parse("TH") == DIX.parse("th") == DIX.parse("10h")
    assert DIX.to_string(DIX.parse("10h")) == "TH"
    assert DIX.parse("jk") == JOKER
    assert DIX.format_cards(DIX.parse_cards("2c jk as 10h kh")) == "JK AS KH TH 2C"
    assert ROOK.to_string(ROOK.parse("r14")) == "R14"
    assert ROOK.format_cards(ROOK.parse_cards("G5 R1 R14")) == "R14 R1 G5"


def test_every_card_round_trips():
    for deck in (DIX, FRENCH, ROOK):
        for c in deck.cards:
            assert deck.parse(deck.to_string(c)) == c
        assert len(deck.cards) == {"dix": 53, "french": 52, "rook": 56}[deck.name]


def test_unknown_card_names_token_and_position():
    with pytest.raises(NotationError) as err:
        DIX.parse_cards("AS KH 1H QS")
    assert "'1H'" in str(err.value) and "position 2" in str(err.value)
    assert err.value.token == "1H" and err.value.index == 2
    with pytest.raises(NotationError, match="'JK'"):
        FRENCH.parse("JK")          # no joker in the plain deck
    with pytest.raises(NotationError, match="'R15'"):
        ROOK.parse("R15")


def test_duplicate_card_names_both_positions():
    with pytest.raises(NotationError) as err:
        DIX.parse_cards(["AS", "KH", "as"])
    assert "duplicate card AS" in str(err.value) and "0 and 2" in str(err.value)


def test_notation_error_is_a_value_error():
    with pytest.raises(ValueError):
        DIX.parse("ZZ")
    with pytest.raises(NotationError, match="must be a string"):
        DIX.parse(5)
