"""The in-process reference bots are the bot programs' own strategies: given the same requests
and seed they answer what the programs answer."""

import json
import subprocess

import numpy as np
import pytest

import teenpatti
from conftest import REPO


def hello(game, seat, seed):
    settings = json.loads(game.settings_json())
    return {"type": "hello", "protocol": 1, "game": settings["variant"], "settings": settings, "seat": seat,
            "seats": game.num_players(), "hands": 1000, "first_hand": 0, "seed": seed,
            "players": ["x"] * game.num_players(), "time": {"startup_ms": 5000, "decision_ms": 1000, "bank_ms": 10000}}


def play_against_program(game, name, command, seed, hands):
    """Plays hands where `name` in process and the program both answer every request of seat
    0 (the others play randomly); returns the two lists of answers."""
    rng = np.random.default_rng(seed)
    policy = teenpatti.Policy(name, game, 0, seed=seed)
    lines, ours = [json.dumps(hello(game, 0, seed))], []
    next_id = 1
    for hand in range(hands):
        state = game.new_initial_state(seed=seed, hand=hand)
        while not state.is_terminal():
            if state.current_player() == 0:
                request = json.loads(state.observation_json(0))
                request["id"] = next_id
                next_id += 1
                lines.append(json.dumps(request))
                action = policy.action(state)
                ours.append(json.loads(game.answer(json.dumps(request), action)))
            else:
                action = int(rng.choice(state.legal_actions()))
            state.apply_action(action)
    lines.append(json.dumps({"type": "match_end", "hands": hands, "totals": [0] * game.num_players()}))
    out = subprocess.run(command, input="\n".join(lines) + "\n", capture_output=True, text=True, check=True, timeout=300)
    theirs = [json.loads(line) for line in out.stdout.splitlines()[1:]]
    return ours, theirs


@pytest.mark.parametrize("name,seats", [("closest-555", 3), ("classic", 4), ("lallan-kallan", 5)])
def test_random_policy_is_random_bot(random_bot, name, seats):
    game = teenpatti.Game(name, seats)
    ours, theirs = play_against_program(game, "random", [random_bot], seed=21, hands=150)
    assert len(ours) > 100 and ours == theirs


@pytest.mark.parametrize("name,seats", [("closest-555", 2), ("classic", 3), ("lallan-kallan", 4)])
def test_passive_policy_is_minimal_bot_py(name, seats):
    game = teenpatti.Game(name, seats)
    script = str(REPO / "sample-bots" / "python" / "minimal_bot.py")
    ours, theirs = play_against_program(game, "passive", ["python3", script], seed=5, hands=150)
    assert len(ours) > 100 and ours == theirs


def test_montecarlo_policy_plays_legal_actions_and_beats_random():
    game = teenpatti.Game("closest-555", 2)
    chips = 0.0
    for hand in range(300):
        bots = [teenpatti.Policy("montecarlo", game, 0, seed=hand), teenpatti.Policy("random", game, 1, seed=hand)]
        state = game.new_initial_state(seed=77, hand=hand)
        while not state.is_terminal():
            action = bots[state.current_player()].action(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        chips += state.returns()[0]
    assert chips > 0


def test_policy_refuses_another_seats_turn_and_unknown_names():
    game = teenpatti.Game("closest-555", 2)
    state = game.new_initial_state(seed=0)
    other = 1 - state.current_player()
    with pytest.raises(teenpatti.IllegalActionError, match=f"plays seat {other}"):
        teenpatti.Policy("random", game, other).action(state)
    with pytest.raises(ValueError, match="random, passive, montecarlo"):
        teenpatti.Policy("strongest", game, 0)
