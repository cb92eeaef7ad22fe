"""Equivalent cards (solver/search/equivalence.py): the classes are exact
(every card of a class has the same double-dummy value, checked against the
solver on random endings of every card-play game) and the advice pools them
(the recommended card is the first of its class, every member valued alike)."""

import math
import random

import pytest

import solver
from bots import make_bot
from solver.dd import solve
from solver.search import Limit, best_move
from solver.search.equivalence import card_classes, pool

#: game, options, how many tricks are left when an ending is solved
ENDINGS = [("dix", {}, 7), ("dix", {"variant": "seventeen"}, 5), ("trix", {}, 5),
           ("trix", {"partners": True}, 5), ("tricks", {}, 5), ("dixie-rook", {}, 4)]


def _card_play(state) -> bool:
    name = state.game.name
    if name == "dix":
        return state.tricks_done >= 13 or state.game.options["variant"] == "seventeen"
    if name in ("trix", "tricks"):
        from solver.games.contract_match.state import TRICKS
        return state.phase == TRICKS
    from solver.games.dixie_rook import PLAY
    return state.phase == PLAY


def _tricks_left(state) -> int:
    if state.game.name in ("trix", "tricks"):
        return 13 - state.log.play.tricks_done
    return state.game.hand_size - state.tricks_done if state.game.name == "dixie-rook" \
        else state.game.tricks_per_round - state.tricks_done


def ending_ids(endings) -> list[str]:
    """Test ids for ``(game, options, tricks left)`` rows."""
    return [f"{n}-{'-'.join(map(str, o.values())) or 'default'}" for n, o, _ in endings]


def _trix_deal(contract: str):
    """Trix, seat 0 to play the first card of ``contract`` (chosen by seat
    0, nothing doubled): seat 0 holds AS KS QS JS 9S 8S AH 7H..2H, TS is
    seat 1's."""
    game = solver.load_game("trix")
    state = game.new_initial_state(deal={"first_owner": 0, "deals": [[
        "AS KS QS JS 9S 8S AH 7H 6H 5H 4H 3H 2H",
        "TS 7S 6S 5S KH QH JH TH 9H 8H 2D 3D 4D",
        "4S 3S 2S AD KD QD JD TD 9D 8D 7D 6D 5D",
        "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"]]})
    state.apply_action_string(f"contract {contract}")
    done = [a for a in state.legal_actions() if state.action_to_string(a) == "reveal done"]
    while done:                                     # no doubling
        state.apply_action(done[0])
        done = [a for a in state.legal_actions() if state.action_to_string(a) == "reveal done"]
    return state


def _endings(name, options, left, n, seed):
    game = solver.load_game(name, **options)
    rng = random.Random(seed)
    out, deal = [], 0
    while len(out) < n:
        state = game.new_initial_state(seed=seed * 100 + deal)
        bots = [make_bot("rules", game, s, seed=deal * 7 + s) for s in range(game.num_players)]
        deal += 1
        while not state.is_terminal():
            if _card_play(state) and _tricks_left(state) <= left and len(state.legal_actions()) > 1 \
                    and rng.random() < 0.5:
                out.append(state.clone())
                break
            state.apply_action(bots[state.current_player()].step(state))
    return out


@pytest.mark.parametrize("name,options,left", ENDINGS,
                         ids=ending_ids(ENDINGS))
def test_equivalent_cards_have_equal_exact_values(name, options, left):
    multi = 0
    for state in _endings(name, options, left, 25, seed=11):
        legal = state.legal_actions()
        classes = card_classes(state, legal)
        assert sorted(a for m in classes for a in m) == legal      # a partition
        values = solve(state).action_values
        for members in classes:
            if len(members) > 1:
                multi += 1
                got = {state.action_to_string(a): values[state.action_to_string(a)]
                       for a in members}
                assert len(set(got.values())) == 1, got
    assert multi >= 5                   # the check was not vacuous


def test_a_card_between_on_the_table_or_unseen_splits_a_run():
    # trix Ltoosh, seat 0 holds AS KS QS and JS; TS is unseen: AS..JS one class
    state = _trix_deal("ltoosh")
    name = state.action_to_string
    classes = [[name(a) for a in m] for m in card_classes(state, state.legal_actions())]
    assert ["JS", "QS", "KS", "AS"] in classes        # TS unseen: 9S and 8S apart
    assert ["8S", "9S"] in classes
    assert ["2H", "3H", "4H", "5H", "6H", "7H"] in classes   # KH..8H are out there
    assert ["AH"] in classes
    # seat 1 wins a heart and leads TS: on the table it still splits JS from 9S
    for card in ("2H", "8H", "5D", "2C", "TS", "2S", "3C"):
        state.apply_action_string(card)
    assert state.current_player() == 0
    classes = [[name(a) for a in m] for m in card_classes(state, state.legal_actions())]
    assert classes == [["8S", "9S"], ["JS", "QS", "KS", "AS"]]
    # once the trick is over TS is out of play: 8S..KS are one class
    state.apply_action_string("AS")
    classes = [[name(a) for a in m] for m in card_classes(state, state.legal_actions())]
    assert ["8S", "9S", "JS", "QS", "KS"] in classes


def test_pool_weights_by_visits():
    visits, values, ci = pool([(1, 2), (3,)], {1: 30, 2: 10, 3: 5},
                              {1: 1.0, 2: 3.0, 3: 0.0}, {1: 0.2, 2: 0.4, 3: float("inf")})
    assert visits == {1: 40, 2: 40, 3: 5}
    assert values[1] == values[2] == pytest.approx(1.5)
    assert ci[1] == pytest.approx(((30 * 0.2) ** 2 + (10 * 0.4) ** 2) ** 0.5 / 40)
    assert ci[3] == float("inf")


@pytest.mark.parametrize("bot,limit", [("ismcts", Limit(iterations=3000)),
                                       ("pimc", Limit(worlds=8))])
def test_advice_names_the_first_card_of_its_class_by_the_tie_rule(bot, limit):
    """Equivalent cards are one choice; the advice is the one the game's
    rule among equal actions plays first (``State.tie_key``: in a trix
    trick contract the highest, a low card being the exit kept)."""
    for state in _endings("trix", {}, 6, 3, seed=4):
        view = state.information_state(state.current_player()).view
        res = best_move(view, limit, bot=bot, seed=1)
        for members in res.same:
            assert len({res.values[a] for a in members}) == 1
            assert all(a in res.equal for a in members) or res.action not in members
            if res.action in members:
                assert res.action == min(
                    members, key=lambda a: state.tie_key(state.string_to_action(a)))


def _evidence(values, visits, classes=None, se=None, scale=200.0, floor=True):
    from solver.search.advice import Evidence
    from solver.stats import Z95
    legal = sorted(set(values) | set(visits))
    classes = classes or [(a,) for a in legal]
    se = se or {a: 0.1 for a in values}

    def diff_half(a, b):
        return Z95 * math.hypot(se[a], se[b])

    return Evidence(legal, classes, values, {a: Z95 * se[a] for a in values}, visits,
                    diff_half, scale, visit_floor=floor)


def test_tie_break_is_a_fixed_rule_among_near_ties():
    from solver.search.advice import TIE_SE, decide
    # 2 leads; 1 is within a standard error of it: a tie, and ties go to the
    # first action; 5 is far below; 4 was tried too little to be advised
    se = {a: 1.0 / math.sqrt(2) for a in range(1, 6)}        # the difference's se is 1
    values = {1: 10.0 - TIE_SE / 2, 2: 10.0, 3: 10.0, 4: 10.0, 5: 10.0 - 3 * TIE_SE}
    visits = {1: 100, 2: 90, 3: 10, 4: 20, 5: 80}
    classes = [(1,), (2, 3), (4,), (5,)]
    advice = decide(_evidence(values, visits, classes, se))
    assert advice.action == 1 and advice.ranking[0] == 1
    visits[1] = 10                              # now 1 is tried too little
    advice = decide(_evidence(values, visits, classes, se))
    assert advice.action == 2                   # a class's first card
    assert advice.ranking[:2] == [2, 3]         # its equivalent card follows it
    # PIMC (every action valued in every world): no visit floor
    assert decide(_evidence(values, visits, classes, se, floor=False)).action == 1


def test_the_ranking_puts_the_advice_first_and_explains_higher_means():
    from solver.search.advice import REASON_AS_GOOD, REASON_FEW, TIE_RULE, decide
    values = {1: 9.95, 2: 10.0, 3: 4.0, 4: 12.0}
    visits = {1: 1000, 2: 1000, 3: 900, 4: 10}
    advice = decide(_evidence(values, visits))
    assert advice.action == 1                   # tied with 2: the first in order
    assert advice.ranking == [1, 4, 2, 3]       # then by mean
    # each reason a code with its parameters (solver/said.py), said in English
    assert advice.reasons[2] == REASON_AS_GOOD(rule=TIE_RULE())
    assert TIE_RULE.template in str(advice.reasons[2])
    assert advice.reasons[4] == REASON_FEW(visits=10)
    assert "searched too little (10)" in str(advice.reasons[4])
    assert 3 not in advice.reasons              # below the advice: nothing to explain
    assert set(advice.equal) == {1, 2}


def test_values_within_tie_points_are_a_tie_whatever_their_intervals():
    """Differences below ``TIE_POINTS`` of the round scale are ties even
    when a long search separates them by many standard errors (the first is
    advised); up to ``EQUAL_POINTS`` they are marked as good; beyond, and
    with the rule off, the search's own leader stands."""
    from solver.search import advice as rule
    t = rule.TIE_POINTS * 200.0
    assert rule.EQUAL_POINTS == 2 * rule.TIE_POINTS
    values = {1: 10.0 - 0.5 * t, 2: 10.0, 3: 10.0 - 1.5 * t, 4: 10.0 - 3 * t}
    visits = {1: 1000, 2: 1100, 3: 1000, 4: 1000}
    tight = {a: 1e-6 for a in values}
    res = rule.decide(_evidence(values, visits, se=tight))
    assert res.action == 1
    assert set(res.equal) == {1, 2, 3}          # 4 is 2.5 t from 1
    old = rule.TIE_POINTS, rule.EQUAL_POINTS
    try:
        rule.TIE_POINTS = rule.EQUAL_POINTS = 0.0
        res = rule.decide(_evidence(values, visits, se=tight))
    finally:
        rule.TIE_POINTS, rule.EQUAL_POINTS = old
    assert res.action == 2 and res.equal == [2]


def test_own_cards_between_do_not_split_a_class():
    # trix Queens, seat 0 holds AS KS QS JS: QS scores apart, but as seat
    # 0's own card it never shares a trick with JS, KS or AS: they are one
    # class, QS its own
    state = _trix_deal("queens")
    name = state.action_to_string
    classes = [[name(a) for a in m] for m in card_classes(state, state.legal_actions())]
    assert ["JS", "KS", "AS"] in classes and ["QS"] in classes
    assert ["8S", "9S"] in classes                  # TS unseen between 9S and JS
    values = solve(state).action_values
    assert values["JS"] == values["KS"] == values["AS"]


def test_dix_pips_that_cannot_make_ten_do_not_split_a_class():
    from solver.cardset import dix_pips
    found = 0
    # rare: the other hand must hold no card making ten with either pip
    for state in _endings("dix", {}, 10, 40, seed=2):
        legal = state.legal_actions()
        for members in card_classes(state, legal):
            if len({dix_pips(c) for c in members}) > 1:
                found += 1
                values = solve(state).action_values
                assert len({values[state.action_to_string(c)] for c in members}) == 1
    assert found >= 3


