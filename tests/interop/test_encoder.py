"""The observation encoder (``solver.interop.common.Encoder``) needs no
framework: its card planes, and a clear error for a token that is no card."""

import numpy as np
import pytest

import solver
from solver.errors import OptionError, PositionError
from solver.game import InfoState
from solver.interop.common import Encoder


def _planes(enc, info=True):
    return {name: np.zeros(shape, np.float32) for name, shape in enc.pieces(info)}


def test_hand_and_seen_planes_are_the_seats_cards():
    game = solver.load_game("dix")
    state = game.new_initial_state(seed=3)
    enc = Encoder(game, 1)
    seat = state.current_player()
    planes = _planes(enc)
    enc.fill(planes, state, seat, True, to_move=seat)
    hand = solver.cards.DIX.parse_cards(state.information_state(seat).known["hand"])
    assert sorted(np.flatnonzero(planes["hand"])) == sorted(hand)
    # seen: the seat's own hand and the turn-up, nothing of the other hand
    assert set(hand) < set(np.flatnonzero(planes["seen"]))
    assert planes["to_move"][seat] == 1.0 and planes["player"][seat] == 1.0


def _tampered(state, seat, view=None, known=None):
    real = state.information_state(seat)
    fake = InfoState(seat, view if view is not None else real.view,
                     known if known is not None else real.known)
    state.information_state = lambda s: fake
    return real


def test_a_token_that_is_no_card_is_an_error_naming_it_and_where():
    game = solver.load_game("dix")
    enc = Encoder(game, 1)
    state = game.new_initial_state(seed=3)
    seat = state.current_player()
    real = _tampered(state, seat, known={"hand": "AS XX"})
    with pytest.raises(PositionError, match=r"known\.hand: dix: 'XX' is not a card of the dix deck"):
        enc.fill(_planes(enc), state, seat, True)
    view = dict(real.view, deal={"rounds": [dict(real.view["deal"]["rounds"][0], turn_up="ZZ")]})
    state = game.new_initial_state(seed=3)
    _tampered(state, seat, view=view)
    with pytest.raises(PositionError, match=r"deal\.rounds\[0\]\.turn_up: dix: 'ZZ'"):
        enc.fill(_planes(enc), state, seat, False)


def test_a_dix_exchange_value_that_is_no_value_is_an_error():
    game = solver.load_game("dix-exchange")
    enc = Encoder(game, 1)
    state = game.new_initial_state(seed=1)
    seat = state.current_player()
    known = dict(state.information_state(seat).known)
    key = "hand" if "hand" in known else "card"
    known[key] = "11"
    _tampered(state, seat, known=known)
    with pytest.raises(PositionError, match=rf"known\.{key}: dix-exchange: '11' is not a card value"):
        enc.fill(_planes(enc), state, seat, True)


def test_a_game_without_an_adapter_is_named():
    class Unadapted:
        name = "solitaire"
        interop = None          # what ``Game.interop`` declares by default
    with pytest.raises(OptionError, match="'solitaire' has no interop adapter"):
        Encoder(Unadapted(), 1)
