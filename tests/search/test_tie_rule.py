"""One rule among equal actions (``State.tie_key``), the same on every face:
the solver's ``best_actions`` (every action of the best value, the one the
rule plays first), the decision service's exact advice, the exact bot's
choice, the omniscient bot, ``dixtrix solve``'s document and its expected line, and the review
(which reads ``bots.exact``)."""

import random
from typing import Any

import pytest

import solver
from bots import make_bot
from bots.exact import exact, solve_doc
from solver.dd import solve
from solver.search import Limit, best_move
from tests.search.test_equivalence import ENDINGS, _endings, ending_ids


def _dix_after_the_stock(seed: int, rng_seed: int) -> Any:
    """The issue's ending: a dix deal played on at random to the start of
    trick 14, the stock empty, every card known."""
    state: Any = solver.load_game("dix").new_initial_state(seed=seed)
    rng = random.Random(rng_seed)
    while state.tricks_done < 13:
        state.apply_action(rng.choice(state.legal_actions()))
    while state.trick:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _in_tie_order(state, names) -> list:
    return sorted(names, key=lambda a: state.tie_key(state.string_to_action(a)))


def test_dix_keeps_the_joker_among_cards_of_one_value():
    # seven cards reach the best value (+4, the round won) and the joker is
    # one of them: every card of the value is best, the joker the last of
    # them, trumps and tens before it; nothing the values do not show
    # separates them (the raw tie-break's ten-tricks do not count once the
    # round's winner is settled)
    state = _dix_after_the_stock(8007, 1)
    sol = solve(state)
    top = max(sol.action_values.values())
    assert sorted(sol.best_actions) == sorted(a for a, v in sol.action_values.items() if v == top)
    assert len(sol.best_actions) == 7 and "JK" in sol.best_actions
    assert list(sol.best_actions) == _in_tie_order(state, sol.best_actions)
    assert sol.best_actions[-1] == "JK"
    assert sol.best_actions[0] != "JK"

    advice = best_move(state, Limit(iterations=200), seed=1)       # every card known: exact
    assert advice.action == sol.best_actions[0]
    assert set(advice.equal) == set(sol.best_actions)
    assert exact(state).best == sol.best_actions
    doc = solve_doc(state, plies=1)
    assert doc["best_actions"] == list(sol.best_actions)
    assert doc["line"][0]["action"] == sol.best_actions[0]


def test_the_rule_parts_with_the_card_least_worth_keeping():
    dix = _dix_after_the_stock(8007, 1)
    trump = dix.trump
    cards = dix.legal_actions()
    key = dix.tie_key
    joker = [c for c in cards if dix.action_to_string(c) == "JK"][0]
    assert max(cards, key=key) == joker
    plain = [c for c in cards if c != joker and dix.table[c] != trump]
    trumps = [c for c in cards if c != joker and dix.table[c] == trump]
    assert all(key(p) < key(t) for p in plain for t in trumps)
    # the trick contracts part with the highest of equal cards, the low
    # card being the exit a player keeps; the auction and other choices go
    # by the game's order
    trix = _endings("trix", {}, 5, 1, seed=3)[0]
    hand = sorted(trix.legal_actions(), key=trix.tie_key)
    assert [c & 15 for c in hand] == sorted((c & 15 for c in hand), reverse=True)


@pytest.mark.parametrize("name,options,left", ENDINGS, ids=ending_ids(ENDINGS))
def test_every_face_names_the_same_first_best_action(name, options, left):
    for state in _endings(name, options, min(left, 4), 4, seed=21):
        sol = solve(state)
        top = max(sol.action_values.values())
        if name != "dix":         # dix's value is the score with the winner beside it
            assert set(sol.best_actions) == {a for a, v in sol.action_values.items() if v == top}
        assert list(sol.best_actions) == _in_tie_order(state, sol.best_actions)
        first = sol.best_actions[0]
        # the seat's own advice is exact where it sees every card (dix
        # after the stock); the omniscient bot's everywhere
        advice = best_move(state, Limit(iterations=200), seed=1)
        if advice.bot == "exact":
            assert advice.action == first
        cheat = make_bot("cheat:exact=on", state.game, state.current_player(), seed=1)
        assert state.action_to_string(cheat.step(state)) == first
        assert exact(state).best[0] == first
        doc = solve_doc(state, plies=1)
        assert doc["best_actions"][0] == first
        assert doc["line"][0]["action"] == first
