"""The Cython searches try one card of each run of equivalent cards below
their root (csrc/search/ismcts.pyx, ``*_reduce``): every card a kernel
drops has the same exact value as a card it keeps of the same suit,
checked against the double-dummy solver on random endings with every
hand in place; at the root a search tries the first card of each class
of ``card_classes`` and the advice still values every card."""

import pytest

from solver.dd import solve
from solver.position import from_json
from solver.search import Limit, best_move
from solver.search.equivalence import card_classes
from solver.search.native import ALL_CARDS, native_search, root_keep
from tests.search.test_equivalence import _endings, ending_ids

native = pytest.importorskip("solver.search._ismcts")

#: game, options, tricks left; dix 26-card endings hide nothing (no search)
ENDINGS = [("dix", {"variant": "seventeen"}, 6), ("trix", {}, 6),
           ("trix", {"partners": True}, 6), ("tricks", {}, 6), ("dixie-rook", {}, 5)]


def _hands(state):
    if state.game.name in ("trix", "tricks"):
        return list(state.log.play.hands)
    return list(state.hands)


def _suit(state, card):
    if state.game.name == "dix":
        return state.table[card]
    return card >> 4


@pytest.mark.parametrize("name,options,left", ENDINGS,
                         ids=ending_ids(ENDINGS))
def test_cards_a_kernel_drops_are_worth_a_kept_one(name, options, left):
    dropped = 0
    for state in _endings(name, options, left, 25, seed=5):
        seat = state.current_player()
        view = from_json(state.information_state(seat).view)
        search = native_search(state.game, view.sampler())
        assert search is not None
        legal, kept = search.moves(_hands(state))
        assert sorted(c for c in range(64) if legal >> c & 1) == state.legal_actions()
        assert kept & ~legal == 0 and kept
        values = solve(state).action_values
        name_of = state.action_to_string
        for c in state.legal_actions():
            if kept >> c & 1:
                continue
            dropped += 1
            twins = [k for k in state.legal_actions() if kept >> k & 1 and
                     _suit(state, k) == _suit(state, c) and
                     values[name_of(k)] == values[name_of(c)]]
            assert twins, (name_of(c), values)
    assert dropped >= 5                 # the check was not vacuous


def test_equivalence_off_searches_every_card():
    state = _endings("trix", {}, 6, 1, seed=5)[0]
    view = from_json(state.information_state(state.current_player()).view)
    legal, kept = native_search(state.game, view.sampler(), "rules", ALL_CARDS,
                                equivalence=False).moves(_hands(state))
    assert kept == legal


def test_the_root_tries_one_card_a_class_and_advice_values_them_all():
    for state in _endings("trix", {}, 9, 10, seed=3):
        legal = state.legal_actions()
        classes = card_classes(state, legal)
        if all(len(m) == 1 for m in classes):
            continue
        keep = root_keep(classes)
        assert {c for c in range(64) if keep >> c & 1} == {m[0] for m in classes}
        res = best_move(state, Limit(iterations=3000), seed=1)
        names = [state.action_to_string(a) for a in legal]
        assert set(res.values) == set(names)
        for members in classes:
            got = {res.values[state.action_to_string(a)] for a in members}
            assert len(got) == 1
        return
    pytest.fail("no trix position with equivalent cards")
