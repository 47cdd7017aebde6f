"""The OpenSpiel-shaped game/state API: play, clone, history, returns, and every kind of bad
input raising an exception that names the problem and the legal choices."""

import json
import random

import numpy as np
import pytest

import teenpatti
from conftest import random_states

TABLES = [("closest-555", 2), ("closest-555", 10), ("classic", 2), ("classic", 17), ("lallan-kallan", 3), ("lallan-kallan", 16)]


@pytest.mark.parametrize("name,seats", TABLES)
def test_random_hands_end_zero_sum_and_replay_from_their_history(name, seats):
    game = teenpatti.Game(name, seats)
    rng = random.Random(1)
    for hand in range(200):
        state = game.new_initial_state(seed=99, hand=hand)
        assert state.dealer == hand % seats
        while not state.is_terminal():
            assert 0 <= state.current_player() < seats
            legal = state.legal_actions()
            mask = state.legal_actions_mask()
            assert list(np.flatnonzero(mask)) == legal
            state.apply_action(rng.choice(legal))
        assert state.current_player() == teenpatti.TERMINAL
        assert sum(state.returns()) == 0
        again = game.new_initial_state(seed=99, hand=hand)
        for seat, action in state.full_history():
            again.apply(seat, action)
        assert again.events() == state.events() and again.returns() == state.returns()
        assert state.history() == [a for _, a in state.full_history()]


def test_clone_is_independent_and_equal():
    game = teenpatti.Game("classic", 4)
    state = game.new_initial_state(seed=5)
    state.apply_action(state.legal_actions()[-1])
    copy = state.clone()
    assert copy.history() == state.history() and str(copy) == str(state)
    copy.apply_action(copy.legal_actions()[0])
    assert len(copy.history()) == len(state.history()) + 1


def test_action_space_is_fixed_and_documented():
    game = teenpatti.Game("classic", 3, boot=2, max_stake=10)
    amounts = game.bet_amounts()
    # Blind bets: every amount from the boot to the chaal limit; seen bets above it: even only.
    assert amounts == list(range(2, 11)) + [12, 14, 16, 18, 20]
    assert game.num_distinct_actions() == 10 + len(amounts)
    names = [game.action_to_string(i) for i in range(10)]
    assert names == ["pack", "see", "show", "sideshow", "keep", "swap #0", "swap #1", "swap #2", "accept", "refuse"]
    assert game.action_to_string(10) == "bet 2"
    assert teenpatti.Game("closest-555", 2, boot=1, max_stake=4).bet_amounts() == [2, 4, 6, 8]


def test_table_settings_use_the_tournament_files_names():
    game = teenpatti.Game("lallan-kallan", 6, boot=2, max_stake=32, pot_limit=500, sideshow=False,
                          sequence_order="akq-high", blind_limit=2, swap_cost=1, max_turns=50)
    settings = json.loads(game.settings_json())
    assert settings == {"variant": "lallan-kallan", "boot": 2, "max_stake": 32, "pot_limit": 500, "sideshow": False,
                        "sequence_order": "akq-high", "blind_limit": 2, "swap_cost": 1, "max_turns": 50}
    assert sorted(teenpatti.SETTING_NAMES) == sorted(k for k in settings if k != "variant")


@pytest.mark.parametrize("args,kwargs,words", [
    (("poker", 2), {}, ["unknown game", "closest-555"]),
    (("closest-555", 11), {}, ["2 to 10"]),
    (("lallan-kallan", 17), {}, ["2 to 16"]),
    (("classic", 1), {}, ["2 to 17"]),
    (("classic", -3), {}, ["seats"]),
    (("classic", 2), {"boot": 0}, ["setting boot"]),
    (("classic", 2), {"boot": 1.5}, ["setting boot", "1.5"]),
    (("classic", 2), {"sideshow": "yes"}, ["setting sideshow", "True or False"]),
    (("classic", 2), {"sequence_order": "high"}, ["a23-high", "akq-high"]),
    (("classic", 2), {"bootie": 1}, ["unknown table setting", "max_stake"]),
    (("classic", 2), {"max_stake": 2**40}, ["setting max_stake", "action space"]),
    (("classic", 2), {"max_stake": 2**70}, ["setting max_stake"]),
    (("classic", 2), {"pot_limit": 2}, ["setting pot_limit"]),
])
def test_bad_tables_raise_value_errors_naming_the_setting(args, kwargs, words):
    with pytest.raises(ValueError) as error:
        teenpatti.Game(*args, **kwargs)
    for word in words:
        assert word in str(error.value)


def test_bad_actions_raise_naming_the_legal_ones_and_change_nothing():
    game = teenpatti.Game("closest-555", 3)
    state = game.new_initial_state(seed=42)
    before = (state.history(), str(state))
    legal = ", ".join(f"{a} {game.action_to_string(a)}" for a in state.legal_actions())
    for bad, words in [(999, ["outside", "0 to 73"]), (-1, ["outside"]), (2**70, []), (10, ["bet 2", "not legal"]),
                       (0, ["pack", "not legal"])]:
        with pytest.raises((teenpatti.IllegalActionError, OverflowError)) as error:
            state.apply_action(bad)
        if isinstance(error.value, teenpatti.IllegalActionError):
            assert legal in str(error.value)
            for word in words:
                assert word in str(error.value)
    wrong = (state.current_player() + 1) % 3
    with pytest.raises(teenpatti.IllegalActionError, match=f"seat {wrong} is not the one to decide"):
        state.apply(wrong, state.legal_actions()[0])
    assert (state.history(), str(state)) == before
    with pytest.raises(ValueError, match="seat 7 does not exist"):
        state.observation_tensor(7)
    with pytest.raises(ValueError, match="seat -1 does not exist"):
        state.observation_json(-1)
    with pytest.raises(teenpatti.IllegalActionError):
        game.action_to_string(74)
    assert issubclass(teenpatti.IllegalActionError, ValueError)


def test_a_finished_hand_refuses_every_action():
    game = teenpatti.Game("classic", 2)
    state = game.new_initial_state(seed=3)
    while not state.is_terminal():
        state.apply_action(0)  # pack, always legal at a bet
    assert state.legal_actions() == [] and not state.legal_actions_mask().any()
    with pytest.raises(teenpatti.IllegalActionError, match="the hand is over"):
        state.apply_action(0)


def test_a_bet_out_of_bounds_names_the_amounts_offered():
    game = teenpatti.Game("classic", 2)
    state = game.new_initial_state(seed=3)
    # A blind seat at stake 1 may bet 1 or 2; 3 is in the space but not offered now.
    three = 10 + game.bet_amounts().index(3)
    with pytest.raises(teenpatti.IllegalActionError, match=r"amounts offered are 1\.\.2") as error:
        state.apply_action(three)
    assert "10 bet 1, 11 bet 2" in str(error.value)


def test_observation_json_is_the_protocols_request():
    game = teenpatti.Game("lallan-kallan", 4)
    for state in random_states(game, 30, seed=2):
        if state.is_terminal():
            continue
        seat = state.current_player()
        request = json.loads(state.observation_json(seat))
        assert request["type"] == "request" and request["hand"] == state.hand
        assert request["pot"] == state.pot and request["stake"] == state.stake
        assert len(request["legal"]) > 0
        other = json.loads(state.observation_json((seat + 1) % 4))
        assert other["type"] == "view" and other["legal"] == [] and "kind" not in other


def test_swap_ids_name_the_cards_in_the_tensors_order():
    # Swap #0, #1, #2 are the seat's cards by card index (2c=0 ... As=51): the order of the
    # tensor's own_cards bits, so a policy that sees only the tensor knows what each id swaps.
    ranks, suits = "23456789TJQKA", "cdhs"
    game = teenpatti.Game("closest-555", 4)
    for seed in range(50):
        state = game.new_initial_state(seed=seed)
        seat = state.current_player()
        bits = np.flatnonzero(state.observation_tensor(seat)[:52])
        in_tensor_order = [ranks[i // 4] + suits[i % 4] for i in bits]
        named = [state.action_to_string(5 + k).split("(")[1].rstrip(")") for k in range(3)]
        assert named == in_tensor_order
        state.apply_action(5 + seed % 3)
        swapped = [e for e in state.events() if e["event"] == "swapped"][0]
        assert swapped["discarded"] == in_tensor_order[seed % 3]
