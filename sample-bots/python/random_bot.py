#!/usr/bin/env python3
"""random_bot.py: plays a random legal action at every decision.

A baseline opponent, and a check that the arena accepts everything the legal set offers.
It plays every game (classic, closest-555, lallan-kallan) without knowing their rules: it
only reads the legal set of each request.

How it picks (documented, because "random" can mean several things):
  1. It chooses uniformly among the NAMES of the offered actions. With
     [pack, bet, show] on offer that is 1/3 each; a blind classic seat with
     [pack, see, bet] also packs 1/3 of the time. So it packs often and its hands are short.
     This is on purpose: every action is exercised equally, whatever the bounds.
  2. Then it fills in the parameters uniformly: a bet amount among every legal amount
     (from min to max, in steps of multiple_of); a swap card among the offered cards.

Who draws: by default the bot answers with a MIX (PROTOCOL.md, "Mixed answers"): every
legal answer with its probability from the two steps above, and the arena draws the action.
The arena then knows this bot's strategy exactly (the replay records it), which is what an
estimate needs to take the variance of these coin flips out of a result (BENCHMARKS.md,
section 6), and the draws are as reproducible as the deal.

`--seed N` makes the bot draw itself instead, with a generator seeded from N (else hello's
seed), its seat and the hand it joins at (so the same match plays the same way again): for
arenas without mixed answers, and for two copies that must not play alike outside a
tournament. It also draws itself when a decision has more legal answers than a mix may hold
(1024: a bet under a huge max_stake).

Run:  python3 sample-bots/python/random_bot.py [--seed N]
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import teenpatti as tp  # noqa: E402  (the helper module next to this file)

rng = random.Random(0)
seed_override = None
# The most entries a mix may have (PROTOCOL.md); with a huge max_stake a bet can offer more
# amounts, and the bot then draws itself.
MAX_MIX_ENTRIES = 1024


def on_hello(state):
    """Seed the generator (used when the bot draws itself). Called at every hello (a bot
    restarted mid-match gets a new one)."""
    seed = state.seed if seed_override is None else seed_override
    # A string seed is hashed the same way on every run and every Python 3 version.
    rng.seed("random-bot:%s:%s:%s" % (seed, state.seat, state.first_hand))


def policy(legal):
    """The two steps as probabilities: each name 1/len(names), shared among its instances."""
    answers = legal.instances()
    per_name = {}
    for a in answers:
        per_name[a["action"]] = per_name.get(a["action"], 0) + 1
    return [(a, 1.0 / len(per_name) / per_name[a["action"]]) for a in answers]


def decide(request, state):
    legal = tp.Legal(request)
    weighted = policy(legal)
    if seed_override is None and len(weighted) <= MAX_MIX_ENTRIES:
        return legal.mix(weighted)             # the arena draws
    name = rng.choice(legal.names())           # step 1: the action, uniformly by name
    if name == "bet":
        return legal.bet(rng.choice(legal.bet_amounts()))    # step 2: the amount
    if name == "swap":
        return legal.swap(rng.choice(legal.swap_cards()))    # step 2: the card to discard
    return legal.action(name)


def main():
    global seed_override
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, help="replace the seed given in hello")
    parser.add_argument("--name", default="random-bot", help="the name sent in hello")
    args = parser.parse_args()
    seed_override = args.seed
    tp.run(decide, name=args.name, version="1.0", on_hello=on_hello)


if __name__ == "__main__":
    main()
