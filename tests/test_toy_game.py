"""A game from outside ``solver/games``: the toy trick game of
tests/toygame/, registered with one line, gets everything a built-in game
gets -- the conformance checks, hints from both searches, the exact solver
(checked against a brute force over the protocol), the OpenSpiel and
PettingZoo exports under their own API checks -- and needs no file outside
its package (docs/architecture.md, "Adding a game")."""

from __future__ import annotations

import importlib.util
import pathlib
import random

import pytest

import solver
import solver.games
from solver import position
from solver.game import TERMINAL

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = "tests.toygame"
NAME = "toy"


@pytest.fixture(scope="module", autouse=True)
def toy():
    """The toy game, registered for this module's tests only: the rest of
    the run sees the built-in games."""
    solver.games.register_package(PACKAGE)
    yield solver.load_game(NAME)
    solver.games.unregister_package(PACKAGE)


def _conformance():
    """tests/conformance/test_conformance.py, whose checks take a game's
    name: run here on the toy game."""
    path = ROOT / "tests" / "conformance" / "test_conformance.py"
    spec = importlib.util.spec_from_file_location("toy_conformance", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_it_is_registered_and_loads(toy):
    assert NAME in solver.registered_games()
    assert PACKAGE in solver.games.registered_packages()
    assert toy.num_players == 4 and toy.round_scale == 4.0


@pytest.mark.parametrize("check", ["test_random_playouts_reach_the_end",
                                   "test_action_strings_round_trip", "test_determinism_by_seed",
                                   "test_clone_consistency", "test_records_and_views_round_trip",
                                   "test_information_states_never_leak"])
def test_the_conformance_checks_pass(toy, check, sample):
    run = getattr(_conformance(), check)
    for cfg in toy.conformance_configs:
        if "sample" in run.__code__.co_varnames[:run.__code__.co_argcount]:
            run(NAME, cfg, sample)
        else:
            run(NAME, cfg)


def test_a_played_deal_scores_its_tricks(toy):
    state = toy.new_initial_state(seed=4)
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.current_player() == TERMINAL
    assert sum(state.returns()) == 4 and state.returns() == state.round_returns()


def _brute(state, seat):
    """The most tricks ``seat`` takes against the three others (paranoid
    minimax over the protocol: every legal card of every seat tried)."""
    if state.is_terminal():
        return state.returns()[seat]
    values = []
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        values.append(_brute(child, seat))
    return max(values) if state.current_player() == seat else min(values)


def _brute_actions(state, seat):
    out = {}
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        out[state.action_to_string(a)] = _brute(child, seat)
    return out


@pytest.mark.parametrize("seed,played", [(1, 4), (2, 5), (3, 6), (5, 7), (8, 8)])
def test_the_exact_solver_agrees_with_a_brute_force(toy, seed, played):
    state = toy.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(played):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    sol = solver.solve(state)
    want = _brute_actions(state, seat)
    assert dict(sol.action_values) == want
    assert sol.value == max(want.values()) and sol.kind == "paranoid"
    # the value of another seat's side of the same position
    other = (seat + 1) % 4
    assert solver.solve(state, seat=other).value == _brute(state, other)


def test_a_whole_deal_solves_at_once(toy):
    sol = solver.solve(toy.new_initial_state(seed=9))
    assert sol.nodes < 20_000 and sol.time < 1.0
    assert 0 <= sol.value <= 4


@pytest.mark.parametrize("bot,limit", [("ismcts", solver.Limit(iterations=300)),
                                       ("pimc", solver.Limit(worlds=30))])
def test_best_move_gives_a_hint(toy, bot, limit):
    state = toy.new_initial_state(seed=6)
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    view = position.SeatView.of(state, state.current_player())
    res = solver.best_move(view, limit, bot=bot, seed=1)
    assert res.action in {state.action_to_string(a) for a in state.legal_actions()}
    assert set(res.values) == {state.action_to_string(a) for a in state.legal_actions()}
    assert res.unit == toy.round_unit


@pytest.mark.parametrize("seed,played", [(6, 3), (7, 6), (10, 9)])
def test_the_world_sampler_counts_the_worlds_exactly(toy, seed, played):
    """Every deal of the other seats' unseen cards whose replay gives the
    seat the same information state is a world: the sampler counts them
    all, and its draws are such worlds."""
    import itertools

    from tests.toygame import TOY
    state = toy.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(played):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    info = state.information_state_string(seat)
    dealt = toy.parse_deal(state.deal_record())[0][1]
    unseen = [c for c in TOY.cards if c not in dealt[seat] and c not in state.history()]
    # what each other seat played is public: its hand is that and unseen cards
    others = [s for s in range(4) if s != seat]
    played_by = {s: [c for c in dealt[s] if c in state.history()] for s in others}
    worlds = 0
    a, b = (4 - len(played_by[s]) for s in others[:2])
    for first in itertools.combinations(unseen, a):
        rest = [c for c in unseen if c not in first]
        for second in itertools.combinations(rest, b):
            third = [c for c in rest if c not in second]
            deal = list(dealt)
            for s, extra in zip(others, (first, second, third), strict=True):
                deal[s] = played_by[s] + list(extra)
            record = {"deals": [{"hands": [TOY.format_cards(h) for h in deal]}]}
            try:
                world = toy.replay(state.history(), deal=record)
            except solver.errors.ReplayError:
                continue
            worlds += world.information_state_string(seat) == info
    view = position.SeatView.of(state, seat)
    assert view.sampler().worlds() == worlds
    for w in range(5):
        assert view.world(seed=w).information_state_string(seat) == info
