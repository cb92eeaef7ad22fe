"""The Cython kernel and its pure-Python twin (``solver/reference/cardset.py``)
run the same cases, so either can stand in for the other."""

import importlib
import random
from types import ModuleType

import pytest

from solver import cardset
from solver.cards import DIX, JOKER, mask_of
from solver.reference import cardset as pure

IMPLS: list[ModuleType] = [pure]
native: ModuleType | None
try:
    native = importlib.import_module("solver._cardset")
    IMPLS.append(native)
except ImportError:  # pragma: no cover - the twin alone without a build
    native = None

ids = [m.IMPLEMENTATION for m in IMPLS]


def test_dispatcher_uses_the_native_kernel_unless_forced():
    import os
    forced = os.environ.get("DIXTRIX_PUREPYTHON", "") not in ("", "0")
    assert cardset.IMPLEMENTATION == ("python" if forced or native is None else "cython")


@pytest.mark.parametrize("impl", IMPLS, ids=ids)
def test_masks(impl):
    rng = random.Random(1)
    for _ in range(300):
        cards = rng.sample(DIX.cards, rng.randrange(0, 20))
        m = mask_of(cards)
        assert impl.popcount(m) == len(cards)
        assert impl.cards_of(m) == sorted(cards)
        assert impl.lowest_bit(m) == (min(cards) if cards else -1)
        for suit in range(4):
            assert impl.cards_of(impl.suit_cards(m, suit)) == sorted(
                c for c in cards if c >> 4 == suit and c != JOKER)


@pytest.mark.parametrize("impl", IMPLS, ids=ids)
def test_dix_pips(impl):
    expect = {"AS": 1, "2S": 2, "9H": 9, "TD": 10, "JC": 0, "QS": 0, "KH": 0, "JK": 0}
    for text, pips in expect.items():
        assert impl.dix_pips(DIX.parse(text)) == pips
    assert impl.dix_trick_pips([DIX.parse("9C"), DIX.parse("AS")]) == 10


@pytest.mark.parametrize("impl", IMPLS, ids=ids)
def test_trick_winner_with_joker_under_8h(impl):
    # 8H turned up: hearts are trumps and the joker ranks between 7H and 9H
    table = cardset.make_rank_table(2, 8)
    p = DIX.parse
    assert impl.trick_winner([p("JK"), p("7H")], 2, table) == 0
    assert impl.trick_winner([p("JK"), p("9H")], 2, table) == 1
    assert impl.trick_winner([p("AS"), p("JK")], 2, table) == 1      # joker trumps
    assert impl.trick_winner([p("AS"), p("2S")], 2, table) == 0
    assert impl.trick_winner([p("2S"), p("AD")], 2, table) == 0      # discard loses
    assert impl.trick_winner([p("2S"), p("2H")], 2, table) == 1      # trump wins
    # four-card no-trump trick: highest of the suit led
    nt = cardset.make_rank_table()
    assert impl.trick_winner([p("5C"), p("AD"), p("9C"), p("KC")], -1, nt) == 3


@pytest.mark.parametrize("impl", IMPLS, ids=ids)
def test_kernels_agree_on_random_tricks(impl):
    rng = random.Random(2)
    for _ in range(2000):
        trump = rng.randrange(-1, 4)
        table = cardset.make_rank_table(trump, rng.randrange(2, 15)) if trump >= 0 \
            else cardset.make_rank_table()
        n = rng.choice((2, 4, 6))
        cards = rng.sample(DIX.cards[1:], n)
        assert impl.trick_winner(cards, trump, table) == pure.trick_winner(cards, trump, table)


@pytest.mark.parametrize("impl", IMPLS, ids=ids)
def test_bad_arguments(impl):
    table = cardset.make_rank_table()
    with pytest.raises(ValueError, match="1..16"):
        impl.trick_winner([], -1, table)
    with pytest.raises(ValueError, match="out of range"):
        impl.trick_winner([70, 3], -1, table)
    with pytest.raises(ValueError, match="128"):
        impl.trick_winner([3, 4], -1, bytes(10))
