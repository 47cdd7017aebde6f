"""Protocol bot programs as opponents in Python (teenpatti.Subprocess), run through the arena's
sandbox (`arena run-bot`, the debug build scripts/test makes) unless sandbox=None."""

import sys

import numpy as np
import pytest

import teenpatti
import teenpatti.gym
import teenpatti.subprocess_bot
from conftest import REPO

STRENGTH = REPO / "sample-bots" / "python" / "strength_bot.py"


@pytest.fixture(autouse=True)
def arena_program(arena, monkeypatch):
    """Every Subprocess here finds the arena built for the tests through ARENA."""
    monkeypatch.setenv("ARENA", arena)
    return arena


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


def test_a_broken_bot_raises_naming_its_line_and_stderr(bot_dir):
    bot = bot_dir / "broken.py"
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
    silent = bot_dir / "silent.py"
    silent.write_text("import sys\nsys.stdin.read()\n")
    with pytest.raises(teenpatti.BotError, match="gave no hello within 0.5 s"):
        teenpatti.Subprocess([sys.executable, str(silent)], game, 0, startup_ms=500).close()


def reporting_bot(folder):
    """A bot that says on stderr whether it sees TEENPATTI_TEST_MARK in its environment, then
    answers hello and writes a line that is not JSON at its first request."""
    bot = folder / "reporting.py"
    bot.write_text(
        "import os, sys\n"
        "print('{\"type\":\"hello\",\"name\":\"r\"}', flush=True)\n"
        "sys.stdin.readline(); sys.stdin.readline()\n"
        "print('sees', os.environ.get('TEENPATTI_TEST_MARK'), file=sys.stderr, flush=True)\n"
        "print('not json', flush=True)\n"
        "sys.stdin.read()\n"
    )
    return bot


def test_the_bot_runs_in_the_arena_and_sandbox_none_runs_it_directly(bot_dir, random_bot, monkeypatch):
    monkeypatch.setenv("TEENPATTI_TEST_MARK", "visible")
    bot = reporting_bot(bot_dir)
    game = teenpatti.Game("classic", 2)
    state = game.new_initial_state(seed=0)
    seat = state.current_player()
    # Through the arena the bot's environment is cleared, as in a match.
    with teenpatti.Subprocess(["python3", str(bot)], game, seat) as sandboxed:
        with pytest.raises(teenpatti.BotError, match="wrote b'not json'") as error:
            sandboxed.action(state)
        assert "sees None" in str(error.value)
    # sandbox=None: started by Python as before, as the user, with the user's environment.
    with teenpatti.Subprocess([sys.executable, str(bot)], game, seat, sandbox=None) as direct:
        with pytest.raises(teenpatti.BotError, match="wrote b'not json'") as error:
            direct.action(state)
        assert "sees visible" in str(error.value)
    # And a real bot plays unsandboxed as it did.
    rng = np.random.default_rng(3)
    with teenpatti.Subprocess([random_bot], game, 0, seed=4, sandbox=None) as program:
        policy = teenpatti.Policy("random", game, 0, seed=4)
        for hand in range(10):
            state = game.new_initial_state(seed=5, hand=hand)
            while not state.is_terminal():
                if state.current_player() == 0:
                    action = program.action(state)
                    assert action == policy.action(state)
                else:
                    action = int(rng.choice(state.legal_actions()))
                state.apply_action(action)
            program.observe(state)


def test_the_arenas_limits_apply_and_its_options_pass_through(bot_dir):
    hog = bot_dir / "hog.py"
    hog.write_text(
        "import sys\n"
        "sys.stdin.readline()\n"
        "kept = bytearray(400 << 20)\n"
        "print('{\"type\":\"hello\",\"name\":\"hog\"}', flush=True)\n"
        "sys.stdin.read()\n"
    )
    game = teenpatti.Game("classic", 2)
    with pytest.raises(teenpatti.BotError, match="MemoryError|memory limit"):
        teenpatti.Subprocess(["python3", str(hog)], game, 0, arena_args=["--memory-mb", "64"])
    with pytest.raises(ValueError, match="'isolated' is not one of 'default', 'bwrap', 'limits', 'none'"):
        teenpatti.Subprocess(["python3", str(hog)], game, 0, sandbox="isolated")


def test_without_an_arena_the_error_says_how_to_give_one(tmp_path, monkeypatch):
    monkeypatch.delenv("ARENA")
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(teenpatti.subprocess_bot, "_checkouts", lambda: [])
    game = teenpatti.Game("classic", 2)
    with pytest.raises(FileNotFoundError) as error:
        teenpatti.Subprocess(["python3", str(STRENGTH)], game, 0)
    for words in ["arena=", "ARENA", "PATH", "cargo build --release -p arena", "sandbox=None", "unsandboxed"]:
        assert words in str(error.value)
    missing = tmp_path / "no-arena-here"
    with pytest.raises(FileNotFoundError, match=f"arena={str(missing)!r} is not an executable program"):
        teenpatti.Subprocess(["python3", str(STRENGTH)], game, 0, arena=missing)
    # Found in a checkout, as the repository's own build.
    monkeypatch.undo()
    monkeypatch.delenv("ARENA", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert teenpatti.subprocess_bot.find_arena().endswith("/arena")
