"""Protocol bot programs as opponents in Python (teenpatti.Subprocess)."""

import sys

import numpy as np
import pytest

import teenpatti
import teenpatti.gym
from conftest import REPO

STRENGTH = REPO / "sample-bots" / "python" / "strength_bot.py"


@pytest.mark.parametrize("name,seats", [("closest-555", 3), ("classic", 2), ("lallan-kallan", 4)])
def test_random_bot_program_plays_as_its_in_process_policy(random_bot, name, seats):
    game = teenpatti.Game(name, seats)
    rng = np.random.default_rng(1)
    program = teenpatti.Subprocess([random_bot], game, 0, seed=33)
    policy = teenpatti.Policy("random", game, 0, seed=33)
    decisions = 0
    with program:
        for hand in range(80):
            state = game.new_initial_state(seed=2, hand=hand)
            while not state.is_terminal():
                if state.current_player() == 0:
                    action = program.action(state)
                    assert action == policy.action(state)
                    decisions += 1
                else:
                    action = int(rng.choice(state.legal_actions()))
                state.apply_action(action)
            program.observe(state)
    assert decisions > 50


def test_strength_bot_py_is_a_gym_opponent():
    game = teenpatti.Game("closest-555", 2)
    with teenpatti.Subprocess([sys.executable, str(STRENGTH)], game, 1, seed=5, name="strength") as strength:
        env = teenpatti.gym.SingleAgentEnv("closest-555", 2, seat=0, opponents=[strength])
        obs, info = env.reset(seed=7)
        hands = 0
        while hands < 30:
            obs, reward, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            if terminated:
                hands += 1
                obs, info = env.reset()


def test_a_broken_bot_raises_naming_its_line_and_stderr(tmp_path):
    bot = tmp_path / "broken.py"
    bot.write_text(
        "import sys\n"
        "print('{\"type\":\"hello\",\"name\":\"b\"}', flush=True)\n"
        "sys.stdin.readline(); sys.stdin.readline()\n"
        "print('thinking hard...', file=sys.stderr, flush=True)\n"
        "print('not json', flush=True)\n"
        "sys.stdin.read()\n"
    )
    game = teenpatti.Game("classic", 2)
    state = game.new_initial_state(seed=0)
    with teenpatti.Subprocess([sys.executable, str(bot)], game, state.current_player(), name="broken") as broken:
        with pytest.raises(teenpatti.BotError, match="wrote b'not json'") as error:
            broken.action(state)
        assert "thinking hard..." in str(error.value)
    silent = tmp_path / "silent.py"
    silent.write_text("import sys\nsys.stdin.read()\n")
    with pytest.raises(teenpatti.BotError, match="gave no hello within 0.5 s"):
        teenpatti.Subprocess([sys.executable, str(silent)], game, 0, startup_ms=500).close()
