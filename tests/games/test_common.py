"""The helpers the games share (solver/games/common.py and the mid-match
mechanism of solver/game.py): one card-list parser for decks and for
dix-exchange's card values, counts of unseen cards bounded by the deck,
and the deal mark that apply_action places after the action that starts a
deal."""

from __future__ import annotations

import pytest

import solver
from solver.cards import DIX
from solver.errors import NotationError, PositionError
from solver.games.common import match_number, parse_card_list
from solver.games.dix_exchange.notation import _parse_values


class Letters:
    """A token parser of three cards named a, b, c."""

    size = 3

    def parse(self, token, index=None):
        if token not in ("a", "b", "c"):
            raise NotationError(f"not a letter: {token!r}", token, index)
        return "abc".index(token)


def _error(*args, **kwargs) -> PositionError:
    with pytest.raises(PositionError) as exc:
        parse_card_list(*args, **kwargs)
    return exc.value


def test_any_token_parser():
    assert parse_card_list(Letters(), "a c", "p") == [0, 2]
    assert parse_card_list(Letters(), ["?", 1, "b"], "p", unknown_ok=True) == [None, None, 1]
    err = _error(Letters(), ["a", "z"], "p")
    assert (err.path, str(err)) == ("p[1]", "p[1]: not a letter: 'z'")
    err = _error(Letters(), 3.5, "p", what="a word")
    assert (err.path, str(err)) == ("p", "p: expected a word, got float")


def test_counts_are_bounded_by_the_deck():
    assert parse_card_list(DIX, DIX.size, "p", unknown_ok=True) == [None] * DIX.size
    assert _error(DIX, DIX.size + 1, "p", unknown_ok=True).path == "p"
    assert len(parse_card_list(DIX, ["AS", DIX.size - 1], "p", unknown_ok=True)) == DIX.size
    err = _error(DIX, ["AS", DIX.size], "p", unknown_ok=True)
    assert err.path == "p[1]" and f"1..{DIX.size - 1}" in str(err)
    err = _error(Letters(), ["a", "b", "c", "a", 1], "p", unknown_ok=True, unit="cards")
    assert err.path == "p[4]" and "no unseen cards are left" in str(err)


def test_dix_exchange_values_share_the_parser():
    game = solver.load_game("dix-exchange")
    assert _parse_values(game, "10 CJ ?", "s", True) == [0, 14, None]
    with pytest.raises(PositionError) as exc:
        _parse_values(game, ["10", "11"], "s", False)
    assert exc.value.path == "s[1]" and "unknown card value '11'" in str(exc.value)
    assert _parse_values(game, game.size, "s", True) == [None] * game.size
    with pytest.raises(PositionError) as exc:
        _parse_values(game, ["?", game.size], "s", True)
    assert exc.value.path == "s[1]" and f"unseen cards must be 1..{game.size - 1}" in str(exc.value)
    with pytest.raises(PositionError, match="5 cards 10, the deck has 4"):
        _parse_values(game, "10 10 10 10 10", "s", False)


def test_match_number():
    assert match_number({"round": 3}, "round") == 3
    for bad in (0, 1_000_001):
        with pytest.raises(PositionError) as exc:
            match_number({"hand": bad}, "hand")
        assert exc.value.path == "match.hand" and "a hand number 1..1000000" in str(exc.value)


@pytest.mark.parametrize("name", ["dix", "dixie-rook", "dix-exchange", "trix"])
def test_a_deal_started_by_an_action_starts_after_it(name):
    state = solver.load_game(name).new_initial_state(seed=5)
    assert state.deal_start()[1] == 0
    first = state.round_index()
    while state.round_index() == first:
        state.apply_action(state.legal_actions()[0])
    at, start, _ = state.deal_start()
    assert start == len(state.history())          # the action that ended the deal is before it
    assert 0 < at <= len(state._chance.log)      # dix-exchange may carry its stock on
    assert state.clone().deal_start()[1] == start
