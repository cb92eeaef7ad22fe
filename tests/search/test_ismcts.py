import random

import pytest

import solver
from bots import make_bot
from bots.searchbots import ISMCTSBot
from solver.errors import LimitError


def _midgame(seed=2, n=20, **opts):
    game = solver.load_game("dix", **opts)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(n):
        state.apply_action(rng.choice(state.legal_actions()))
    return game, state


def test_ismcts_plays_legal_moves_and_reports_root_values():
    game, state = _midgame()
    seat = state.current_player()
    bot = ISMCTSBot(game, seat, seed=1, iterations=150)
    action = bot.step(state)
    assert action in state.legal_actions()
    stats = bot.last
    assert stats.iterations == 150
    assert set(stats.visits) == {state.action_to_string(a) for a in state.legal_actions()}
    assert sum(stats.visits.values()) == 150
    assert all(-30 <= v <= 30 for v in stats.values.values())


def test_ismcts_is_deterministic_by_seed():
    game, state = _midgame(seed=4)
    seat = state.current_player()
    a = ISMCTSBot(game, seat, seed=9, iterations=120)
    b = ISMCTSBot(game, seat, seed=9, iterations=120)
    assert a.step(state) == b.step(state)
    assert a.last.visits == b.last.visits and a.last.values == b.last.values


def test_ismcts_never_peeks_the_state_passed_in():
    # two states with the same view of the searching seat (different hidden
    # cards) give the same search
    from solver import position
    game, state = _midgame(seed=6, n=9)
    seat = state.current_player()
    other_world = position.from_json(state.information_state(seat).view).world(seed=3)
    assert other_world.hands[1 - seat] != state.hands[1 - seat]
    a = ISMCTSBot(game, seat, seed=2, iterations=80)
    b = ISMCTSBot(game, seat, seed=2, iterations=80)
    assert a.step(state) == b.step(other_world)
    assert a.last.values == b.last.values


def test_ismcts_in_the_perfect_information_endgame_finds_the_obvious():
    # trick 14 on: a single world; the search sees the true hands
    from tests.games.test_dix import DEAL, SCRIPT
    game = solver.load_game("dix")
    state = game.new_initial_state(deal=DEAL)
    for lead, follow, _, _ in SCRIPT[:13]:
        state.apply_action_string(lead)
        state.apply_action_string(follow)
    state.apply_action_string("AD")
    # seat 1 must beat AD with a trump; 9H would make a ten (1 + 9): any other
    # trump wins a plain trick
    bot = ISMCTSBot(game, 1, seed=0, iterations=400)
    choice = state.action_to_string(bot.step(state))
    assert choice != "9H"


def test_bad_limits():
    game = solver.load_game("dix")
    for bad in ({"iterations": 0}, {"iterations": -5}, {"time": 0}, {"time": -1.0},
                {"time": 1e9}, {"c": -1}):
        with pytest.raises(LimitError):
            ISMCTSBot(game, 0, **bad)
    with pytest.raises(LimitError):
        make_bot("ismcts:iterations=0", game, 0)


def test_rules_play_outs_in_python_searches():
    from solver.errors import OptionError
    game = solver.load_game("dix-exchange")
    state = game.new_initial_state(seed=4)
    rng = random.Random(4)
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    a = make_bot("ismcts:iterations=60,policy=rules", game, seat, seed=2).step(state)
    b = make_bot("ismcts:iterations=60,policy=rules", game, seat, seed=2).step(state)
    assert a == b and a in state.legal_actions()
    with pytest.raises(OptionError, match="policy"):
        make_bot("ismcts:policy=greedy", game, seat, seed=2)


def test_puct_prior_follows_the_heuristic_until_the_search_disagrees():
    from solver.search.ismcts import _Node, _select_puct
    node = _Node()
    # nothing tried yet: the favoured action first, whatever its number
    a, child = _select_puct(node, [3, 5, 9], 9, 1.5)
    assert a == 9 and child is node.children[9] and all(node.children[x].avail == 1
                                                       for x in (3, 5, 9))
    # the favoured action tried and bad, another good: the good one wins
    node.children[9].visits, node.children[9].total = 10, -9.0
    node.children[5].visits, node.children[5].total = 3, 2.5
    a, _ = _select_puct(node, [3, 5, 9], 9, 1.5)
    assert a == 5
    # an action never tried is valued at the mean of the tried ones
    # (first-play urgency), so a large c tries it
    a, _ = _select_puct(node, [3, 5, 9], 9, 50.0)
    assert a == 3


def test_rules_prior_in_python_searches():
    from solver.errors import OptionError
    game = solver.load_game("dixie-rook")
    state = game.new_initial_state(seed=3)
    seat = state.current_player()
    spec = "ismcts:iterations=80,policy=rules,prior=rules,c=1.5"
    a = make_bot(spec, game, seat, seed=2)
    b = make_bot(spec, game, seat, seed=2)
    assert a.step(state) == b.step(state) and a.last.values == b.last.values
    # the visits concentrate on the rules bid (the prior) in a short search
    rules = state.action_to_string(make_bot("rules", game, seat).step(state))
    assert max(a.last.visits, key=a.last.visits.get) == rules
    assert a.last.iterations == 80 and sum(a.last.visits.values()) == 80
    with pytest.raises(OptionError, match="prior"):
        make_bot("ismcts:prior=expert", game, seat, seed=2)
