"""The batched API: the same games as the state API, step for step, with auto-reset and seeds."""

import numpy as np
import pytest

import teenpatti


def first_decision(game, seed, hand):
    """The state API's hand `hand` of match `seed`, skipping hands settled at the deal (as the
    batch does), with the chips of those hands."""
    skipped = np.zeros(game.num_players())
    while True:
        state = game.new_initial_state(seed=seed, hand=hand)
        if not state.is_terminal():
            return state, hand, skipped
        skipped += state.returns()
        hand += 1


@pytest.mark.parametrize("name,seats", [("closest-555", 3), ("classic", 5), ("lallan-kallan", 4)])
def test_batch_matches_the_state_api_step_for_step(name, seats):
    n, seed = 8, 100
    batch = teenpatti.VecGame(name, seats, n, seed=seed)
    game = teenpatti.Game(name, seats)
    obs, mask, player = batch.reset()
    states, hands, pending = [], [], []
    for i in range(n):
        state, hand, skipped = first_decision(game, seed + i, 0)
        states.append(state), hands.append(hand), pending.append(skipped)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        for i, state in enumerate(states):
            assert player[i] == state.current_player()
            np.testing.assert_array_equal(obs[i], state.observation_tensor(state.current_player()))
            np.testing.assert_array_equal(mask[i], state.legal_actions_mask())
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, mask, player, rewards, dones = batch.step(actions)
        for i in range(n):
            states[i].apply_action(int(actions[i]))
            assert dones[i] == states[i].is_terminal()
            if dones[i]:
                finished += 1
                state, hands[i], skipped = first_decision(game, seed + i, hands[i] + 1)
                np.testing.assert_array_equal(rewards[i], np.array(states[i].returns()) + skipped)
                states[i] = state
            else:
                assert not rewards[i].any()
    assert finished > 20
    assert batch.hands_done >= finished


def test_seeds_reproduce_and_an_illegal_action_moves_no_game():
    a = teenpatti.VecGame("closest-555", 3, 4, seed=7)
    b = teenpatti.VecGame("closest-555", 3, 4, seed=7)
    obs_a, mask_a, _ = a.reset()
    obs_b, _, _ = b.reset()
    np.testing.assert_array_equal(obs_a, obs_b)
    first_legal = mask_a.argmax(axis=1)
    bad = first_legal.copy()
    bad[2] = 9  # refuse: not an action of a swap decision
    with pytest.raises(teenpatti.IllegalActionError, match="game 2: action 9"):
        a.step(bad)
    with pytest.raises(ValueError, match="expected 4 actions"):
        a.step(first_legal[:3])
    out_a, out_b = a.step(first_legal), b.step(first_legal)
    for x, y in zip(out_a, out_b):
        np.testing.assert_array_equal(x, y)
    obs_c, _, _ = a.reset(seed=8)
    assert not np.array_equal(obs_c, obs_a)
    assert teenpatti.VecGame.bytes_per_game() > 0
