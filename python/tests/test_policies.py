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


def play_against_program(game, name, command, seed, hands, events=False):
    """Plays hands where `name` in process and the program both answer every request of seat
    0 (the others play randomly); returns the two lists of answers. With `events`, the program
    is also told seat 0's events, as the arena tells them."""
    rng = np.random.default_rng(seed)
    policy = teenpatti.Policy(name, game, 0, seed=seed)
    lines, ours = [json.dumps(hello(game, 0, seed))], []
    next_id = 1
    for hand in range(hands):
        state = game.new_initial_state(seed=seed, hand=hand)
        told = 0
        while True:
            if events:
                seen = state.events(0)
                lines += [json.dumps({"type": "event", "hand": hand, **e}) for e in seen[told:]]
                told = len(seen)
            if state.is_terminal():
                break
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


@pytest.mark.parametrize("name,seats", [("closest-555", 3), ("classic", 3), ("lallan-kallan", 4)])
def test_strength_policy_is_strength_bot_py(name, seats):
    """The same answers as strength_bot.py, told the same events, but for the bluff: the Python
    bot runs with --no-bluff, and the in-process one now and then calls (bets) where it packs."""
    game = teenpatti.Game(name, seats)
    script = str(REPO / "sample-bots" / "python" / "strength_bot.py")
    ours, theirs = play_against_program(game, "strength", ["python3", script, "--no-bluff"], seed=8, hands=150,
                                        events=True)
    assert len(ours) > 100 and len(ours) == len(theirs)
    bluffs = [(a, b) for a, b in zip(ours, theirs) if a != b]
    assert all(a["action"] == "bet" and b["action"] == "pack" for a, b in bluffs), bluffs
    packs = sum(b["action"] == "pack" for b in theirs)
    assert len(bluffs) <= max(3, packs // 4), (len(bluffs), packs)


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
    with pytest.raises(ValueError, match="random, passive, strength, montecarlo"):
        teenpatti.Policy("strongest", game, 0)
