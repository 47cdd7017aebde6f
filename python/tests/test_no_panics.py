"""Garbage in, a Python exception out: every entry point given extreme or wrong values raises
an ordinary Exception (never PyO3's PanicException, a BaseException that a Rust panic would
become) and the interpreter survives."""

import random

import numpy as np
import pytest

import teenpatti

EXTREMES = [0, 1, -1, 2, 9, 10, 16, 17, 73, 74, 2**31, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), 10**30]


def call(function, *args, **kwargs):
    """Calls; returns the result or the exception, which must be an ordinary Exception."""
    try:
        return function(*args, **kwargs)
    except Exception as error:  # noqa: BLE001  (any ordinary exception is fine here)
        return error


@pytest.mark.parametrize("name", teenpatti.GAMES)
def test_extreme_values_never_panic(name):
    rng = random.Random(0)
    for seats in EXTREMES:
        call(teenpatti.Game, name, seats)
    for setting in teenpatti.SETTING_NAMES:
        for value in EXTREMES + [True, "x", 1.5, None, [1]]:
            call(teenpatti.Game, name, 3, **{setting: value})
    game = teenpatti.Game(name, 3)
    for seed in EXTREMES:
        for hand in EXTREMES:
            state = call(game.new_initial_state, seed, hand)
            if isinstance(state, Exception):
                continue
            for _ in range(30):
                value = rng.choice(EXTREMES)
                for method in (state.apply_action, state.observation_tensor, state.observation_json, state.observe,
                               state.cards, state.events, state.action_to_string, state.legal_actions, game.action_to_string):
                    call(method, value)
                call(state.apply, value, rng.choice(EXTREMES))
                call(state.action_from_json, rng.choice(['{"action":"bet","amount":-1}', '{"action":"swap","card":"Zz"}', "{", "[]", '{"action":"bet","amount":1e400}']))
                if not state.is_terminal():
                    state.apply_action(rng.choice(state.legal_actions()))
    for n in [0, -1, 2**40, 2**70]:
        call(teenpatti.VecGame, name, 3, n)
    batch = teenpatti.VecGame(name, 3, 4)
    for actions in [np.array([2**62] * 4), np.array([-5] * 4), np.zeros(0), np.zeros(5), np.array([1.5] * 4), "abc", None]:
        call(batch.step, actions)
    call(game.request_observation, 0, "{}")
    call(game.request_observation, 99, game.new_initial_state(1).observation_json(0))
    call(game.answer, "{}", 0)
    call(game.hand_value, ["As", "As", "Kd"])
    call(game.hand_value, ["As"])
    call(teenpatti.Policy, "random", game, 2**70)
    call(teenpatti.Policy, "random", game, -1)
