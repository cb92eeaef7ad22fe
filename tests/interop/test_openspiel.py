"""Every game as an OpenSpiel game, checked by OpenSpiel's own machinery:
``pyspiel.random_sim_test`` (the C++ checks: legal actions, chance
outcomes, clone, serialization, observations, returns within bounds) and
``GamesSimTest.sim_game`` (pyspiel and pickle serialization), for every
option set the conformance suite uses; resampling; OpenSpiel's Python
ISMCTSBot and MCTSBot to the end of an episode; bad input; what one
observation tensor costs on a learner's hot path."""

from __future__ import annotations

import cProfile
import pickle
import pstats
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import solver  # noqa: E402
from solver.errors import IllegalActionError, OptionError  # noqa: E402
from solver.game import Chance, game_class  # noqa: E402
from solver.interop import openspiel as ospiel  # noqa: E402
from solver.interop.chance import ExplicitChanceState  # noqa: E402

CONFIGS = [(name, cfg) for name in ospiel.adapted_games()
           for cfg in game_class(name).conformance_configs]


def _load(name, cfg=None, **extra):
    params = dict(cfg or {})
    params.update(extra)
    return pyspiel.load_game(ospiel.short_name(name), params)


def _play_random(state, rng, stop=None):
    while not state.is_terminal() and (stop is None or not stop(state)):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("name,cfg", CONFIGS, ids=[f"{n}-{c}" for n, c in CONFIGS])
def test_random_sim_test(name, cfg):
    game = _load(name, cfg)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name,cfg", CONFIGS, ids=[f"{n}-{c}" for n, c in CONFIGS])
def test_games_sim_test_sim_game(name, cfg):
    sim = pytest.importorskip("open_spiel.python.tests.games_sim_test")
    case = sim.GamesSimTest("test_pig")
    case.sim_game(_load(name, cfg))


@pytest.mark.parametrize("name", ["dix", "dix-exchange", "dixie-rook"])
def test_longer_horizon(name):
    cfg = {"dix": {"variant": "seventeen"}, "dix-exchange": {},
           "dixie-rook": {"target": 120, "lose_at": 300}}[name]
    game = _load(name, cfg, horizon=3)
    assert game.max_game_length() == 3 * _load(name, cfg).max_game_length()
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_registered_names_and_parameters():
    names = ospiel.register()
    assert names == sorted(ospiel.short_name(n) for n in solver.registered_games())
    game = pyspiel.load_game("dixtrix_dix(variant=seventeen,horizon=2)")
    assert game.dx_game == solver.load_game("dix", variant="seventeen")
    assert game.horizon == 2
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert _load("trix").get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert _load("dix-exchange", players=7).num_players() == 7


def test_action_space_and_length_are_the_games_own():
    assert ospiel.adapted_games() == solver.registered_games()   # no game left without one
    for name, cfg in CONFIGS + [("dix-exchange", {"players": 7}), ("dixie-rook", {"players": 6})]:
        dx = solver.load_game(name, **cfg)
        game = _load(name, cfg, horizon=2)
        assert game.num_distinct_actions() == dx.num_distinct_actions
        assert game.max_game_length() == 2 * dx.max_deal_length
        assert game.information_state_tensor_shape()[0] == (
            2 * dx.num_players + 2 * game.encoder.card_space
            + 2 * dx.max_deal_length * (dx.num_distinct_actions + 1))


class _Recorder(random.Random):
    """A seeded generator that records every uniform integer it draws."""

    def __init__(self, seed):
        super().__init__(seed)
        self.drawn = []

    def _randbelow(self, n):
        v = super()._randbelow(n)
        self.drawn.append(v)
        return v


@pytest.mark.parametrize("name", ospiel.adapted_games())
def test_chance_outcomes_are_the_seeded_generators_draws(name):
    """Feeding the uniform integers a seeded game drew as chance outcomes
    deals exactly the seeded game's deal: the chance nodes are the game's
    own distribution."""
    game = _load(name)
    dx = game.dx_game
    for seed in (1, 2):
        chance = Chance(seed)
        chance.rng = _Recorder(seed)
        seeded = dx.state_class(dx, chance)
        assert seeded.deal_record() == dx.new_initial_state(seed=seed).deal_record()
        state = game.new_initial_state()
        for v in chance.rng.drawn:
            assert state.is_chance_node()
            assert v in state.legal_actions()
            state.apply_action(v)
        assert not state.is_chance_node()
        assert state.dx_state.deal_record() == seeded.deal_record()
        assert state.current_player() == seeded.current_player()


@pytest.mark.parametrize("name", ["dix", "trix", "tricks", "dixie-rook"])
def test_the_second_deal_is_the_seeded_generators_too(name):
    """Across a deal boundary (the action that ends a deal calls for chance:
    the state before it is rebuilt, the draw becomes chance nodes), the
    outcomes a seeded match drew deal the seeded match's second deal."""
    cfg = {"dixie-rook": {"target": 120, "lose_at": 300}}.get(name, {})
    game = _load(name, cfg, horizon=2)
    dx = game.dx_game
    chance = Chance(4)
    chance.rng = _Recorder(4)
    seeded = dx.state_class(dx, chance)
    state = game.new_initial_state()
    used = 0
    while True:
        while state.is_chance_node():
            state.apply_action(chance.rng.drawn[used])
            used += 1
        if state.is_terminal():
            break
        assert _no_cuts(state.dx_state.deal_record()) == _no_cuts(seeded.deal_record())
        a = seeded.legal_actions()[0]
        seeded.apply_action(a)
        state.apply_action(a)
    assert seeded.round_index() == 2 and used < len(chance.rng.drawn)
    key = game_class(name).interop.deal_key
    assert (_no_cuts(state.dx_state.deal_record())[key][:2]
            == _no_cuts(seeded.deal_record())[key][:2])


@pytest.mark.parametrize("name", ["dix", "trix", "tricks", "dixie-rook"])
def test_a_mid_match_state_plays_across_a_deal_boundary(name):
    """A state that starts in the middle of a match (docs/positions.md)
    crosses a deal boundary: the state before the deal's last action is
    rebuilt from its chance log, ``match`` object first; the next deal is
    the seeded match's, the episode returns that match's two deals, and a
    pickle taken at the new deal's chance nodes plays on the same."""
    cfg = {"dixie-rook": {"target": 500, "lose_at": 500}}.get(name, {})
    game = _load(name, cfg, horizon=2)
    dx = game.dx_game
    chance = Chance(2)               # seed 2: no dixie-rook tie cut (its own stream)
    chance.rng = _Recorder(2)
    seeded = dx.state_class(dx, chance)
    while seeded.round_index() < 1:
        seeded.apply_action(seeded.legal_actions()[0])
    used = len(chance.rng.drawn)
    start, _, match = seeded.deal_start()
    outcomes = [("match", dx.parse_match(match))] + seeded._chance.log[start:]
    mid = dx.new_initial_state(match=match, deal=dx.format_deal(outcomes))
    state = ospiel.DixtrixState(game, ExplicitChanceState.wrap(mid, 2))
    pickled = False
    while True:
        while state.is_chance_node():
            if not pickled:
                state, pickled = pickle.loads(pickle.dumps(state)), True
            state.apply_action(chance.rng.drawn[used])
            used += 1
        if state.is_terminal():
            break
        a = seeded.legal_actions()[0]
        seeded.apply_action(a)
        state.apply_action(a)
    assert pickled and seeded.round_index() == 3
    assert state.dx_state.match_object() == match
    key = game_class(name).interop.deal_key
    assert (_no_cuts(state.dx_state.deal_record())[key][:2]
            == _no_cuts(seeded.deal_record())[key][1:3])
    assert state.returns() == [a + b for a, b in zip(seeded.round_returns(1),
                                                      seeded.round_returns(2), strict=True)]


def _no_cuts(deal):
    """A dixie-rook tie cut comes from its own seeded stream (not recorded
    above); as chance nodes it is drawn like any other outcome."""
    for d in deal.get("deals", []):
        if isinstance(d, dict):
            d.pop("cuts", None)
    return deal


@pytest.mark.parametrize("name", ospiel.adapted_games())
def test_resample_from_infostate_keeps_the_information_state(name):
    game = _load(name, horizon=3)
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    moves = 2 if name == "dix-exchange" else 12
    for _ in range(moves):
        _play_random(state, rng, stop=lambda s: not s.is_chance_node())
        state.apply_action(int(rng.choice(state.legal_actions())))
    _play_random(state, rng, stop=lambda s: not s.is_chance_node())
    assert not state.is_terminal()
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    worlds = set()
    for _ in range(5):
        world = state.resample_from_infostate(seat, sampler)
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.legal_actions() == state.legal_actions()
        worlds.add(str(world))
        # the world plays on to the end like any state
        _play_random(world.clone(), rng)
    if name != "dix-exchange":       # a dix-exchange view may allow few worlds
        assert len(worlds) > 1
    a = ospiel.resampler(5)(state, seat)
    b = ospiel.resampler(5)(state, seat)
    assert str(a) == str(b)                       # seeded: the same world


def test_tensors_have_the_declared_shape_and_differ_by_seat():
    game = _load("trix")
    state = _play_random(game.new_initial_state(), np.random.RandomState(0),
                         stop=lambda s: len(s.history()) > 60 and not s.is_chance_node())
    t0 = np.array(state.information_state_tensor(0))
    t1 = np.array(state.information_state_tensor(1))
    assert t0.shape == (game.information_state_tensor_size(),)
    assert np.isfinite(t0).all() and (t0 != t1).any()
    o0 = np.array(state.observation_tensor(0))
    assert o0.shape == (game.observation_tensor_size(),)
    hand = solver.from_json(state.dx_state.information_state(0).view).info.known["hand"]
    enc = game.encoder
    planes = {k: np.zeros(s, np.float32) for k, s in enc.pieces(True)}
    enc.fill(planes, state.dx_state, 0, True)
    assert sorted(np.flatnonzero(planes["hand"])) == sorted(
        solver.cards.FRENCH.parse(c) for c in hand.split())


def _episode(game, bots, seed):
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            bot = bots[state.current_player()]
            state.apply_action(int(bot.step(state)))
            moves += 1
    return state, moves


EPISODES = [("dix", {"variant": "seventeen"}), ("trix", {}), ("tricks", {}),
            ("dixie-rook", {"target": 120, "lose_at": 300}), ("dix-exchange", {"players": 5})]


@pytest.mark.parametrize("name,cfg", EPISODES, ids=[n for n, _ in EPISODES])
def test_openspiel_ismcts_and_mcts_play_to_the_end(name, cfg):
    from open_spiel.python.algorithms import ismcts, mcts
    game = _load(name, cfg)
    ev = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = []
    for p in range(game.num_players()):
        if p % 2 == 0:
            bot = ismcts.ISMCTSBot(game, ev, uct_c=game.max_utility(), max_simulations=3,
                                   random_state=np.random.RandomState(p))
            bot.set_resampler(ospiel.resampler(p))
        else:
            bot = mcts.MCTSBot(game, uct_c=game.max_utility(), max_simulations=3, evaluator=ev,
                               random_state=np.random.RandomState(p))
        bots.append(bot)
    state, moves = _episode(game, bots, 1)
    assert moves >= game.num_players() and len(state.returns()) == game.num_players()
    assert game.min_utility() <= min(state.returns()) <= max(state.returns()) <= game.max_utility()
    assert state.returns() == [float(v) for v in state.dx_state.round_returns(0)]


def test_bad_actions_raise_spiel_errors():
    game = _load("dix", {"variant": "seventeen"})
    state = game.new_initial_state()
    with pytest.raises(pyspiel.SpielError):
        state.apply_action(5)                    # a chance node: outcomes 0..1
    with pytest.raises(IllegalActionError):
        state.apply_action(-2)
    _play_random(state, np.random.RandomState(0), stop=lambda s: not s.is_chance_node())
    illegal = next(a for a in range(64) if a not in state.legal_actions())
    with pytest.raises(pyspiel.SpielError, match="illegal action"):
        state.apply_action(illegal)
    with pytest.raises(pyspiel.SpielError):
        state.apply_action_with_legality_check(illegal)
    before = str(state)
    with pytest.raises(IllegalActionError):
        state.apply_action(illegal)
    assert str(state) == before and not state.is_chance_node()   # nothing applied
    chance = game.new_initial_state()
    with pytest.raises(ospiel.ResampleError, match="chance node"):
        chance.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))


def test_bad_options_raise_clear_errors():
    with pytest.raises(OptionError, match="variant"):
        pyspiel.load_game("dixtrix_dix(variant=fortytwo)")
    with pytest.raises(OptionError, match="horizon"):
        pyspiel.load_game("dixtrix_dix(horizon=0)")
    with pytest.raises(Exception, match="nknown parameter|unknown option"):
        pyspiel.load_game("dixtrix_trix(bogus=1)")


def test_pickle_of_a_chance_node_mid_deal():
    game = _load("trix")
    state = game.new_initial_state()
    for _ in range(10):
        state.apply_action(0)
    back = pickle.loads(pickle.dumps(state))
    assert str(back) == str(state) and back.legal_actions() == state.legal_actions()
    rng = np.random.RandomState(2)
    a = _play_random(back, np.random.RandomState(2))
    b = _play_random(state, rng)
    assert a.returns() == b.returns()


@pytest.mark.parametrize("name", sorted(ospiel.GAME_TYPES))
def test_an_observation_tensor_builds_one_seat_view_and_parses_no_card_twice(name):
    """The observer's ``set_from`` on every decision node of a seeded random
    episode, every seat, both tensors: one ``information_state`` call a
    tensor, and once the encoder has met a deal's card tokens no token is
    parsed again (counted by cProfile over a second pass, as a long
    training run meets the same tokens; docs/interop.md, tensors)."""
    game = ospiel.GAME_CLASSES[name]({"horizon": 1})
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    nodes = []
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            nodes.append(state.clone())
            state.apply_action(int(rng.choice(state.legal_actions())))
    seats = game.num_players()
    for info in (False, True):
        observer = ospiel._Observer(game, info=info)

        def run(observer=observer):
            for node in nodes:
                for seat in range(seats):
                    observer.set_from(node, seat)

        run()
        prof = cProfile.Profile()
        prof.enable()
        run()
        prof.disable()
        stats = pstats.Stats(prof).stats      # the raw table: (file, line, name) -> counts

        def calls(fn, stats=stats):
            return sum(v[1] for k, v in stats.items() if k[2] == fn)

        tensors = len(nodes) * seats
        assert calls("information_state") == tensors, (info, calls("information_state"))
        assert calls("parse") == 0, info
