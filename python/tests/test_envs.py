"""The PettingZoo AEC environments and the Gymnasium single-agent environment, through the
libraries' own checkers, plus what the checkers do not look at: illegal moves, rewards, render."""

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo", reason="pip install teenpatti[test]")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import teenpatti  # noqa: E402
import teenpatti.gym  # noqa: E402
import teenpatti.pettingzoo  # noqa: E402

TABLES = [("closest-555", 2), ("closest-555", 10), ("classic", 3), ("classic", 17), ("lallan-kallan", 2), ("lallan-kallan", 16)]


@pytest.mark.parametrize("game,seats", TABLES)
def test_aec_env_passes_pettingzoos_api_and_seed_tests(game, seats):
    api_test(teenpatti.pettingzoo.env(game=game, seats=seats), num_cycles=300)
    seed_test(lambda: teenpatti.pettingzoo.env(game=game, seats=seats), num_cycles=300)


def test_aec_rewards_are_the_hands_chips_and_illegal_moves_end_it_with_minus_one():
    env = teenpatti.pettingzoo.env(game="classic", seats=3, boot=2)
    env.reset(seed=4)
    total = {a: 0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        total[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    state = env.unwrapped.state
    assert list(total.values()) == state.returns() and sum(total.values()) == 0

    env.reset(seed=4)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1 and sum(env.rewards.values()) == -1


def test_raw_env_raises_on_an_illegal_move():
    env = teenpatti.pettingzoo.raw_env(game="closest-555", seats=2)
    env.reset(seed=1)
    with pytest.raises(teenpatti.IllegalActionError, match="legal now"):
        env.step(0)  # pack at a swap decision


def test_reset_without_seed_plays_the_matchs_next_hand():
    env = teenpatti.pettingzoo.raw_env(game="closest-555", seats=3)
    env.reset(seed=8)
    env.reset()
    assert (env.unwrapped.state.seed, env.unwrapped.state.hand) == (8, 1)


def test_ansi_render_shows_the_public_table():
    env = teenpatti.pettingzoo.env(game="closest-555", seats=2, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert "closest-555 hand 0" in text and "seat 1" in text
    with pytest.raises(ValueError, match="render_mode"):
        teenpatti.pettingzoo.env(game="closest-555", seats=2, render_mode="human")


@pytest.mark.parametrize("game,seats,opponents", [
    ("closest-555", 2, "random"), ("classic", 4, ["passive", "random", "montecarlo"]), ("lallan-kallan", 3, "montecarlo"),
    ("closest-555", 3, "strength"),
])
def test_gym_env_passes_the_env_checker(game, seats, opponents):
    env = teenpatti.gym.SingleAgentEnv(game, seats, opponents=opponents, render_mode="ansi")
    check_env(env, skip_render_check=False)


def test_gym_env_plays_whole_hands_against_the_reference_bots():
    env = teenpatti.gym.SingleAgentEnv("closest-555", 3, seat=1, opponents=["passive", "montecarlo"])
    obs, info = env.reset(seed=3)
    chips = info["skipped_chips"]
    hands = 0
    while hands < 50:
        action = int(np.flatnonzero(info["action_mask"])[-1])
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated and "illegal_action" not in info
        if terminated:
            chips += reward
            hands += 1
            obs, info = env.reset()
            chips += info["skipped_chips"]
    assert env.state.hand >= 50 and chips != 0


def test_gym_env_illegal_action_terminates_or_raises():
    env = teenpatti.gym.SingleAgentEnv("closest-555", 2)
    obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and "not legal" in info["illegal_action"]
    env = teenpatti.gym.SingleAgentEnv("closest-555", 2, illegal="raise")
    env.reset(seed=0)
    with pytest.raises(teenpatti.IllegalActionError):
        env.step(illegal)
    with pytest.raises(ValueError, match="unknown opponent"):
        teenpatti.gym.SingleAgentEnv("closest-555", 2, opponents="genius")


def test_gym_env_takes_python_policies_as_opponents():
    seen = []

    def last_legal(observation, action_mask):
        seen.append(observation.shape)
        return int(np.flatnonzero(action_mask)[-1])

    env = teenpatti.gym.SingleAgentEnv("classic", 3, opponents=[last_legal, "passive"])
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=1)
    while True:
        obs, reward, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated:
            break
    assert seen and all(shape == obs.shape for shape in seen)
