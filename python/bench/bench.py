#!/usr/bin/env python3
"""Throughput of the teenpatti package on one core, side by side with the common benchmarks
where they are installed (PettingZoo texas_holdem_v4, RLCard limit-holdem, OpenSpiel's
leduc_poker). Run from a venv holding a release build:

    python3 -m venv target/benchenv
    target/benchenv/bin/pip install ./python pettingzoo gymnasium rlcard open_spiel
    taskset -c 0 target/benchenv/bin/python python/bench/bench.py

Every figure is decisions (steps) per second of uniformly random legal play, the policy's
choice included, per second of this process's CPU time (``time.process_time``: on a shared
machine, time spent waiting for a core is not counted), the best of five runs.
"""

import argparse
import random
import time

import numpy as np

import teenpatti


def best_rate(run, repeats=5):
    """Steps per second: the best of `repeats` runs of `run()`, which returns its steps."""
    best = 0.0
    for _ in range(repeats):
        start = time.process_time()
        steps = run()
        best = max(best, steps / (time.process_time() - start))
    return best


def state_api(name, seats, hands=3000):
    game, rng = teenpatti.Game(name, seats), random.Random(0)

    def run():
        steps = 0
        for hand in range(hands):
            state = game.new_initial_state(seed=1, hand=hand)
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps

    return best_rate(run)


def timed_replays(fresh_states, histories, repeats=5):
    """apply_action alone: recorded histories replayed on states made before the clock starts
    (so neither the deal nor new_initial_state is counted), the best of `repeats`."""
    best = 0.0
    for _ in range(repeats):
        states = fresh_states()
        start = time.process_time()
        for state, history in zip(states, histories):
            apply = state.apply_action
            for action in history:
                apply(action)
        spent = time.process_time() - start
        best = max(best, sum(map(len, histories)) / spent)
    return best


def state_apply_only(name, seats, hands=3000):
    game, rng = teenpatti.Game(name, seats), random.Random(0)
    histories = []
    for hand in range(hands):
        state = game.new_initial_state(seed=1, hand=hand)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        histories.append(state.history())
    return timed_replays(lambda: [game.new_initial_state(seed=1, hand=h) for h in range(hands)], histories)


def aec_steps(env, hands=300):
    """PettingZoo's AEC loop (agent_iter, last, step) with a random legal action from the mask."""
    rng = random.Random(0)

    def run():
        steps = 0
        env.reset(seed=0)
        for _ in range(hands):
            env.reset()  # the next hand (a seeded reset re-seeds, which texas_holdem makes slow)
            for _agent in env.agent_iter():
                obs, _, termination, truncation, _ = env.last()
                if termination or truncation:
                    env.step(None)
                else:
                    env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
                    steps += 1
        return steps

    return best_rate(run)


def batched(name, seats, envs=1024, steps=200):
    batch = teenpatti.VecGame(name, seats, envs, seed=0)
    rng = np.random.default_rng(0)
    # A few noise matrices used in turn: random enough for play, small enough for the cache.
    noise = rng.random((16, envs, batch.num_distinct_actions()), dtype=np.float32)

    def run():
        _, mask, _ = batch.reset()
        for k in range(steps):
            # A random legal action per game, chosen in numpy: the largest noise under the mask.
            actions = np.where(mask, noise[k % 16], -1.0).argmax(axis=1)
            _, mask, _, _, _ = batch.step(actions)
        return steps * envs

    def step_only():
        # The same play with the choice's numpy work left out of the clock.
        _, mask, _ = batch.reset()
        spent, done = 0.0, 0
        for k in range(steps):
            actions = np.where(mask, noise[k % 16], -1.0).argmax(axis=1)
            start = time.process_time()
            _, mask, _, _, _ = batch.step(actions)
            spent += time.process_time() - start
            done += envs
        return done / spent

    return best_rate(run), max(step_only() for _ in range(5))


def rlcard_limit_holdem(hands=2000):
    import rlcard

    env = rlcard.make("limit-holdem", config={"seed": 0})
    rng = random.Random(0)

    def run():
        steps = 0
        for _ in range(hands):
            state, player = env.reset()
            while not env.is_over():
                state, player = env.step(rng.choice(list(state["legal_actions"].keys())))
                steps += 1
        return steps

    return best_rate(run)


def pyspiel_leduc(hands=20000):
    import pyspiel

    game, rng = pyspiel.load_game("leduc_poker"), random.Random(0)

    def run():
        steps = 0
        for _ in range(hands):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes())
                    state.apply_action(rng.choices(outcomes, probs)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps

    return best_rate(run)


def pyspiel_leduc_apply_only(hands=50000):
    """pyspiel's apply_action alone, as ``state_apply_only`` (its chance outcomes are actions
    of the history, and count)."""
    import pyspiel

    game, rng = pyspiel.load_game("leduc_poker"), random.Random(0)
    histories = []
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        histories.append(state.history())
    return timed_replays(lambda: [game.new_initial_state() for _ in range(hands)], histories)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands (a smoke run)")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    rows = []
    for name, seats in [("closest-555", 2), ("classic", 2), ("lallan-kallan", 2), ("closest-555", 6)]:
        rows.append((f"state API, random play ({name}, {seats} seats)", state_api(name, seats, 10000 // scale)))
        rows.append((f"state API, apply_action only ({name}, {seats} seats)", state_apply_only(name, seats, 10000 // scale)))
    import teenpatti.pettingzoo as tpz

    for name, seats in [("closest-555", 2), ("classic", 2)]:
        rows.append((f"AEC env ({name}, {seats} seats)", aec_steps(tpz.env(game=name, seats=seats), 5000 // scale)))
    for name, seats in [("closest-555", 2), ("classic", 2), ("lallan-kallan", 2), ("closest-555", 6)]:
        with_choice, step_alone = batched(name, seats, steps=500 // scale)
        rows.append((f"VecGame x1024, numpy choice included ({name}, {seats} seats)", with_choice))
        rows.append((f"VecGame x1024, step() alone ({name}, {seats} seats)", step_alone))
    try:
        from pettingzoo.classic import texas_holdem_v4

        rows.append(("PettingZoo texas_holdem_v4 AEC env (2 players)", aec_steps(texas_holdem_v4.env(), 1000 // scale)))
    except ImportError as error:
        rows.append((f"PettingZoo texas_holdem_v4: not installed ({error})", None))
    try:
        rows.append(("RLCard limit-holdem env (2 players)", rlcard_limit_holdem(5000 // scale)))
    except ImportError as error:
        rows.append((f"RLCard: not installed ({error})", None))
    try:
        rows.append(("OpenSpiel pyspiel leduc_poker, random play (chance nodes counted)", pyspiel_leduc(50000 // scale)))
        rows.append(("OpenSpiel pyspiel leduc_poker, apply_action only", pyspiel_leduc_apply_only(50000 // scale)))
    except ImportError as error:
        rows.append((f"OpenSpiel pyspiel: not installed ({error})", None))
    width = max(len(label) for label, _ in rows)
    for label, rate in rows:
        print(f"{label:<{width}}  {'' if rate is None else f'{rate:>12,.0f} steps/s'}")


if __name__ == "__main__":
    main()
