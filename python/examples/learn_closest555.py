#!/usr/bin/env python3
"""Learns a two-seat Closest to 555 policy by self-play, in plain numpy, then plays it in the arena.

    python learn_closest555.py train policy.npz [--seconds 60 | --hands N]   # self-play on one core
    python learn_closest555.py play policy.npz                   # a protocol bot (teenpatti.serve)

The abstraction. A betting decision is summed up by three numbers read from the seat's
observation tensor: the strength of its hand (the share of all 22,100 hands it beats, by the
engine's own hand values, in 8 buckets), how many betting turns it has taken (0, 1, 2+) and the
stake in boots (1, 2-3, 4-15, 16+). The policy chooses among four abstract actions there: pack,
chaal (the smallest bet), raise (the largest bet) and show (when it is legal). Swaps are not
learnt: the seat swaps the card whose replacement, averaged over every card it cannot see,
raises its hand's value most, or keeps (the same rule montecarlo-bot uses).

The learning. Monte Carlo control with an epsilon-greedy policy: both seats of every game of a
`teenpatti.VecGame` play the current table of action values, and when a hand ends every
(situation, action) a seat chose is moved towards the chips that seat won. Exploration decays
over the run. No opponent model, no reference bot in the loop: the policy only ever meets itself.
"""

import argparse
import itertools
import sys
import time

import numpy as np

import teenpatti

GAME, SEATS = "closest-555", 2
PACK, CHAAL, RAISE, SHOW = range(4)
STRENGTH_BUCKETS, TURN_BUCKETS, STAKE_BUCKETS = 8, 3, 4
RANKS, SUITS = "23456789TJQKA", "cdhs"


def card_name(index):
    return RANKS[index // 4] + SUITS[index % 4]


class Abstraction:
    """Reads the tensor's fields (python/README.md, "The observation") into table indices."""

    def __init__(self, game):
        self.game = game
        fields = {name: offset for name, offset, _ in game.observation_fields()}
        self.turns_at = fields["players"] + 4  # the viewer's own turns (relative seat 0)
        self.stake_at = fields["pot_stake"] + 1
        # Every hand's strength: the share of all hands with a lower engine value.
        combos = list(itertools.combinations(range(52), 3))
        values = np.array([game.hand_value([card_name(i) for i in c]) for c in combos])
        order = np.sort(values)
        self.strength = {c: np.searchsorted(order, v) / len(order) for c, v in zip(combos, values)}
        self.values = dict(zip(combos, values))

    def own_cards(self, obs):
        return tuple(int(i) for i in np.flatnonzero(obs[:52]))

    def situation(self, obs):
        strength = self.strength[self.own_cards(obs)]
        s = min(int(strength * STRENGTH_BUCKETS), STRENGTH_BUCKETS - 1)
        t = min(int(obs[self.turns_at]), TURN_BUCKETS - 1)
        stake = obs[self.stake_at]
        k = 0 if stake < 2 else 1 if stake < 4 else 2 if stake < 16 else 3
        return (s * TURN_BUCKETS + t) * STAKE_BUCKETS + k

    def swap(self, obs):
        """The swap id (5, 6, 7: the cards in index order, as the tensor lists them) or keep (4)."""
        mine = self.own_cards(obs)
        unseen = [c for c in range(52) if c not in mine]
        best, choice = self.values[mine], 4
        for slot in range(3):
            kept = [c for j, c in enumerate(mine) if j != slot]
            mean = np.mean([self.values[tuple(sorted(kept + [c]))] for c in unseen])
            if mean > best:
                best, choice = mean, 5 + slot
        return choice


def concrete(abstract, mask):
    """The action id of an abstract action, or None if it is not legal here."""
    bets = np.flatnonzero(mask[10:])
    if abstract == PACK:
        return 0 if mask[0] else None
    if abstract == SHOW:
        return 2 if mask[2] else None
    if len(bets) == 0:
        return None
    return 10 + int(bets[0] if abstract == CHAAL else bets[-1])


def choose(q, abstraction, obs, mask, rng, epsilon):
    """(action id, situation, abstract action); situation is None for a swap decision."""
    if mask[4]:  # a swap decision: keep is always offered there
        return abstraction.swap(obs), None, None
    s = abstraction.situation(obs)
    legal = [a for a in range(4) if concrete(a, mask) is not None]
    if rng.random() < epsilon:
        a = legal[rng.integers(len(legal))]
    else:
        a = max(legal, key=lambda x: q[s, x])
    return concrete(a, mask), s, a


def train(path, seconds=None, hands_wanted=None, envs=256, seed=0):
    """Self-play until `hands_wanted` hands are played (the same table every time: the batch
    and the exploration are seeded) or, without it, for `seconds` of CPU time."""
    game = teenpatti.Game(GAME, SEATS)
    abstraction = Abstraction(game)
    situations = STRENGTH_BUCKETS * TURN_BUCKETS * STAKE_BUCKETS
    q, visits = np.zeros((situations, 4)), np.zeros((situations, 4))
    batch = teenpatti.VecGame(GAME, SEATS, envs, seed=seed)
    rng = np.random.default_rng(seed)
    obs, mask, player = batch.reset()
    trails = [[[], []] for _ in range(envs)]
    start, hands = time.process_time(), 0

    def progress():
        if hands_wanted is not None:
            return hands / hands_wanted
        return (time.process_time() - start) / seconds

    while (done := progress()) < 1:
        epsilon = max(0.02, 0.3 * (1 - done))
        actions = np.empty(envs, dtype=np.int64)
        for i in range(envs):
            actions[i], s, a = choose(q, abstraction, obs[i], mask[i], rng, epsilon)
            if s is not None:
                trails[i][player[i]].append((s, a))
        obs, mask, player, rewards, dones = batch.step(actions)
        for i in np.flatnonzero(dones):
            hands += 1
            for seat in range(SEATS):
                for s, a in trails[i][seat]:
                    visits[s, a] += 1
                    # A step size that forgets early, exploratory play slowly.
                    q[s, a] += (rewards[i, seat] - q[s, a]) / min(visits[s, a], 2000)
            trails[i] = [[], []]
    np.savez(path, q=q, visits=visits)
    print(f"{hands} self-play hands in {time.process_time() - start:.0f} s of CPU; table saved to {path}", file=sys.stderr)


def play(path):
    game = teenpatti.Game(GAME, SEATS)
    abstraction = Abstraction(game)
    q = np.load(path)["q"]
    rng = np.random.default_rng(0)

    def policy(obs, mask):
        return choose(q, abstraction, obs, mask, rng, epsilon=0.0)[0]

    teenpatti.serve(policy, name="learnt-555")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train")
    t.add_argument("path")
    t.add_argument("--seconds", type=float, default=60.0)
    t.add_argument("--hands", type=int, help="play this many self-play hands instead (reproducible)")
    p = sub.add_parser("play")
    p.add_argument("path")
    args = parser.parse_args()
    if args.command == "train":
        train(args.path, args.seconds, args.hands)
    else:
        play(args.path)


if __name__ == "__main__":
    main()
