"""Every bot returns a legal action in random positions of every game
(every kind of decision the game has), deterministically by seed: 150
positions a game by default, 1000 with DIXTRIX_FULL_TESTS=1 (marked
slow: 30,000 bot decisions in the full run)."""

import random

import pytest

import solver
from bots import make_bot
from solver.search.heuristics import has_heuristic as has_rules_bot

#: positions a game: the default run, and the full one (DIXTRIX_FULL_TESTS=1)
POSITIONS, FULL_POSITIONS = 150, 1000


#: positions taken from one game at most: many short stretches of play
#: rather than one long match, since a fair bot rebuilds its view from the
#: first deal and a position deep in a match costs far more to set up
PER_GAME = 60


def _positions(game, count, seed=0):
    """``count`` positions reached by random play over several seeded games
    (every kind of decision: the positions of a game start at a random
    point of its match)."""
    rng = random.Random(seed)
    out = []
    g = 0
    while len(out) < count:
        state = game.new_initial_state(seed=seed * 1000 + g)
        g += 1
        skip = rng.randrange(200)
        taken = 0
        while not state.is_terminal() and len(out) < count and taken < PER_GAME:
            if skip > 0:
                skip -= 1
            elif rng.random() < 0.3:
                out.append(state.clone())
                taken += 1
            state.apply_action(rng.choice(state.legal_actions()))
    return out


def _specs(name):
    specs = ["random", "ismcts:iterations=4",
             # one world, a small solve bound, random rollouts: every path of
             # pimc (solver, aborted solve, rollouts) at a test's cost
             "pimc:worlds=1,nodes=20000,policy=random", "cheat:nodes=20000,policy=random"]
    if has_rules_bot(solver.load_game(name)):
        specs += ["rules", "ismcts:iterations=4,policy=rules,prior=rules"]
    return specs


@pytest.mark.slow
@pytest.mark.parametrize("name", solver.registered_games())
def test_every_bot_is_legal_everywhere(name, sample):
    game = solver.load_game(name)
    positions = _positions(game, sample(POSITIONS, FULL_POSITIONS))
    for spec in _specs(name):
        for i, state in enumerate(positions):
            seat = state.current_player()
            bot = make_bot(spec, game, seat, seed=i)
            action = bot.step(state)
            assert action in state.legal_actions(), (spec, i, action)


@pytest.mark.parametrize("name", solver.registered_games())
def test_bots_are_deterministic(name):
    game = solver.load_game(name)
    for state in _positions(game, 20, seed=3):
        seat = state.current_player()
        for spec in _specs(name):
            a = make_bot(spec, game, seat, seed=5).step(state)
            b = make_bot(spec, game, seat, seed=5).step(state)
            assert a == b, spec
