"""Every game as a PettingZoo AEC environment, checked by PettingZoo's own
``api_test`` and ``seed_test`` for every option set the conformance suite
uses; the Gymnasium seat environment (bots/gym_env.py) by Gymnasium's
``check_env``; bad actions."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")
gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import solver  # noqa: E402
from solver.errors import IllegalActionError, OptionError  # noqa: E402
from solver.game import game_class  # noqa: E402
from solver.interop.common import adapted_games  # noqa: E402
from solver.interop.pettingzoo import DixtrixEnv, env  # noqa: E402

CONFIGS = [(name, cfg) for name in adapted_games() for cfg in game_class(name).conformance_configs]


@pytest.mark.parametrize("name,cfg", CONFIGS, ids=[f"{n}-{c}" for n, c in CONFIGS])
def test_api_test(name, cfg):
    api_test(env(name, **cfg), num_cycles=300)


@pytest.mark.parametrize("name,cfg", CONFIGS, ids=[f"{n}-{c}" for n, c in CONFIGS])
def test_seed_test(name, cfg):
    seed_test(lambda: env(name, **cfg), num_cycles=300)


def test_perfect_recall_observation_and_longer_horizon():
    e = env("dix", variant="seventeen", horizon=2, perfect_recall=True)
    api_test(e, num_cycles=100)
    e.reset(seed=3)
    n = 0
    for _agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term:
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        n += 1
    assert n == 2 * 34          # two deals of 17 tricks


def test_an_episode_returns_the_deals_results():
    e = env("trix")
    e.reset(seed=5)
    rewards = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term:
            rewards[agent] = reward
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    state = e.state_
    assert [rewards[f"seat_{s}"] for s in range(4)] == state.round_returns(0)
    assert state.round_index() == 1                  # the next deal started, unseen
    assert not e.agents


def test_the_same_seed_deals_the_same_as_the_game():
    e = env("dixie-rook", target=120, lose_at=300)
    e.reset(seed=11)
    assert e.state_.deal_record() == solver.load_game(
        "dixie-rook", target=120, lose_at=300).new_initial_state(seed=11).deal_record()


def test_bad_actions_raise():
    e = env("dix", variant="seventeen")
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = e.information_state_string(e.agent_selection)
    with pytest.raises(IllegalActionError, match="illegal action"):
        e.step(illegal)
    with pytest.raises(IllegalActionError) as err:
        e.step(1.5)
    # the reason is coded: the agent and the action space as data
    assert err.value.reason_said is not None and err.value.reason_said.code == "agent_action_int"
    with pytest.raises(IllegalActionError) as err:
        e.step("AS")
    assert err.value.data is not None and err.value.data["reason"] == {
        "code": "agent_action_range",
        "params": {"agent": e.agent_selection, "top": e.num_actions - 1}}
    assert e.information_state_string(e.agent_selection) == before
    with pytest.raises(OptionError, match="horizon"):
        env("dix", horizon=0)
    with pytest.raises(OptionError, match="variant"):
        env("dix", variant="nope")
    with pytest.raises(OptionError, match="unknown game"):
        DixtrixEnv("chess")


def test_dead_agents_take_only_none():
    e = env("dix-exchange")
    e.reset(seed=2)
    for _agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term:
            with pytest.raises(ValueError, match="None"):
                e.step(0)
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_gym_seat_env_against_bots():
    from gymnasium.utils import env_checker

    from bots.gym_env import SeatEnv
    genv = SeatEnv("dix", seat=1, opponents="rules", variant="seventeen")
    # Gymnasium's checks (check_env itself steps unmasked random actions,
    # which a card game refuses: its reset and space checks, run one by one)
    env_checker.check_observation_space(genv.observation_space)
    env_checker.check_action_space(genv.action_space)
    env_checker.check_reset_return_type(genv)
    env_checker.check_reset_seed_determinism(genv)
    env_checker.check_reset_options(genv)
    obs, info = genv.reset(seed=4)
    total, steps, done = 0.0, 0, False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        assert (genv.action_masks() == obs["action_mask"].astype(bool)).all()
        obs, reward, done, trunc, info = genv.step(int(legal[0]))
        total += reward
        steps += 1
    assert steps == 17
    again = SeatEnv("dix", seat=1, opponents="rules", variant="seventeen")
    obs2, _ = again.reset(seed=4)
    first = []
    while True:
        a = int(np.flatnonzero(obs2["action_mask"])[0])
        obs2, r2, d2, _, _ = again.step(a)
        first.append(r2)
        if d2:
            break
    assert sum(first) == total                     # seeded: bots and deal repeat
    with pytest.raises(OptionError, match="episode is over"):
        again.step(0)
    with pytest.raises(OptionError, match="seat"):
        SeatEnv("dix", seat=2)
    with pytest.raises(OptionError, match="opponents"):
        SeatEnv("trix", seat=0, opponents=["rules"])
    four = SeatEnv("trix", seat=2, opponents=["random", "rules", "random"])
    obs, _ = four.reset(seed=1)
    assert obs["action_mask"].any()


def test_resets_after_a_seeded_one_repeat():
    a, b = env("trix"), env("trix")
    a.reset(seed=3)
    b.reset(seed=3)
    a.reset()
    b.reset()
    assert a.state_.deal_record() == b.state_.deal_record()
    c = env("trix")
    c.reset(seed=3)
    assert c.state_.deal_record() != a.state_.deal_record()


def test_a_custom_dix_exchange_deck_stays_in_its_space():
    e = env("dix-exchange", players=5, deck="10:4 9:4 5:8 0:4 CJ:2")
    assert e.observation_space("seat_0")["observation"].high.max() == 2.0
    api_test(e, num_cycles=200)


def test_every_registered_game_has_an_env_with_its_action_space():
    from solver.interop.pettingzoo import ENVS
    assert sorted(ENVS) == solver.registered_games()
    for name in ENVS:
        e = ENVS[name]()
        space = e.action_space(e.possible_agents[0])
        assert space.n == solver.load_game(name).num_distinct_actions
        e.close()


def test_pettingzoos_own_wrappers():
    from solver.interop.pettingzoo import ENVS
    e = ENVS["dix"](variant="seventeen")
    with pytest.raises(AssertionError, match="reset"):
        e.step(0)                                  # OrderEnforcingWrapper
    assert isinstance(e.unwrapped, DixtrixEnv)
    # illegal_reward: an illegal action ends the episode, as in PettingZoo's
    # classic games (TerminateIllegalWrapper)
    e = env("trix", illegal_reward=-500)
    api_test(env("trix", illegal_reward=-500), num_cycles=100)
    e.reset(seed=1)
    agent = e.agent_selection
    obs = e.observe(agent)
    e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(e.terminations.values())
    assert e.rewards[agent] == -500
