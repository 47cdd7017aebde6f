#!/usr/bin/env python3
"""strength_bot.py: plays by the strength of its hand, in all three games.

The whole strategy fits in one idea: estimate the chance that my hand is the best one at
the table ("win chance"), then
  * raise with a high win chance, more when it is higher;
  * ask for a show (two players left) or a sideshow when the hand is good;
  * call (bet the minimum, "chaal") when the win chance pays for the price of calling;
  * pack otherwise.

How the win chance is estimated
  1. At hello, every one of the 22100 possible three-card hands is valued once
     (teenpatti.StrengthTable). The percentile of my hand is the share of random hands it
     beats: 0.5 is an average hand, 0.99 is nearly unbeatable.
  2. Against k opponents whose cards I do not know, I win if I beat all of them:
     win chance = percentile ** k (as if their hands were random and independent).
  3. An opponent whose cards I know (after a show, a sideshow or a group reveal) counts as
     1 if I beat them, 0 if they beat me (a tie counts half).
  This ignores what the opponents' bets say about their hands: a good first improvement.

Game by game
  * classic: the bot looks at its cards at its first turn ("see") and then plays seen.
  * closest-555: at each swap decision it tries each of its three cards: the expected
    distance to 555 if that card is thrown away and a random unseen card is drawn. It swaps
    the card with the best expectation if that beats keeping the hand as it is.
  * lallan-kallan: the evaluator resolves the wild card; dead hands never get a request.

Deterministic: the only randomness (an occasional bluff call) comes from a generator seeded
from hello's seed and the seat, or from `--seed N`. `--no-bluff` leaves the bluff out (it packs
instead): then it decides exactly as the Rust `strength-bot --no-bluff`, the same strategy
written once in Rust for the arena's in-process opponents (sample-bots/rust).

Run:  python3 sample-bots/python/strength_bot.py [--seed N] [--no-bluff]
Its log (stderr) has one line per decision explaining the choice.
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import teenpatti as tp  # noqa: E402  (the helper module next to this file)

# ---- The knobs of the strategy. Change them and watch the results. ---------------------------

RAISE_FROM = 0.55      # win chance above which the bot bets more than the minimum ...
RAISE_FULL = 0.90      # ... rising to the maximum bet at this win chance
SHOW_FROM = 0.50       # ask for a show (two left) when the win chance is at least this
SIDESHOW_FROM = 0.65   # ask for a sideshow when my percentile is at least this
ACCEPT_FROM = 0.60     # accept a sideshow when my percentile is at least this
LOOSENESS = 0.10       # call a bit more often than the pot odds say (bets are not all-in)
BLUFF_RATE = 0.05      # now and then, call with a hand that should pack
SWAP_COST_WEIGHT = 5   # closest-555 with a paid swap: 1 chip is worth this much distance

rng = random.Random(0)
seed_override = None
bluff = True  # False with --no-bluff
table = None  # the StrengthTable of the game being played (built at hello)


def on_hello(state):
    global table
    seed = state.seed if seed_override is None else seed_override
    rng.seed("strength-bot:%s:%s:%s" % (seed, state.seat, state.first_hand))
    table = tp.StrengthTable(state.game, state.order)
    tp.log("strength-bot: %s, value table of %d hands ready" % (state.game, len(table.values)))


# ---- Estimating the win chance ----------------------------------------------------------------


def win_chance(state, request):
    """The chance that my hand beats every opponent still in the hand (see the top)."""
    my_cards = request["cards"]
    mine = tp.hand_value(state.game, my_cards, state.order)
    p = table.percentile(my_cards)
    chance = 1.0
    for seat in state.opponents_in_hand():
        if seat in state.known:  # their cards were revealed to me: compare exactly
            theirs = tp.hand_value(state.game, state.known[seat], state.order)
            chance *= 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        else:
            chance *= p
    return chance


# ---- Decisions ----------------------------------------------------------------------------------


def decide(request, state):
    kind = request["kind"]
    if kind == "swap":
        return decide_swap(request, state)
    if kind == "sideshow_reply":
        return decide_sideshow_reply(request, state)
    return decide_bet(request, state)


def decide_bet(request, state):
    legal = tp.Legal(request)
    hand = request["hand"]

    # Classic game: a blind seat does not know its cards. Look at once: the same seat then
    # gets a new request, now as a seen player, with its cards in request["cards"].
    if legal.can("see"):
        tp.log("hand %s: blind, I look at my cards" % hand)
        return legal.action("see")
    if not legal.can("bet"):  # not expected once seen, but never assume
        return legal.safe_default()

    cards = request["cards"]
    p = table.percentile(cards)
    chance = win_chance(state, request)
    cost = legal.min_bet()
    price = cost / (request["pot"] + cost)  # the share of the final pot my call pays for
    why = "hand %s: %s (%s) percentile %.2f, win chance %.2f, call %d into %d" % (
        hand, " ".join(cards), tp.describe(state.game, cards, state.order), p, chance,
        cost, request["pot"])

    # Two players left: a good hand asks for a show and ends the hand. A near-certain winner
    # does not: it raises instead (below), so that the other player keeps paying.
    if legal.can("show") and SHOW_FROM <= chance < RAISE_FULL:
        tp.log(why, "-> show")
        return legal.action("show")

    if legal.can("sideshow"):
        target = legal.entry("sideshow")["target"]
        if (state.seat, target) in state.sideshow_refusals:
            good = False  # they refused me once this hand: asking again only costs chips
        elif target in state.known:  # rare: I already know the target's cards
            good = tp.hand_value(state.game, cards, state.order) > tp.hand_value(
                state.game, state.known[target], state.order)
        else:
            good = p >= SIDESHOW_FROM
        if good:
            tp.log(why, "-> sideshow with seat %s" % target)
            return legal.action("sideshow")

    if chance > RAISE_FROM:
        # Bet more with a stronger hand: from the minimum at RAISE_FROM to the maximum
        # at RAISE_FULL, in between in proportion.
        share = min(1.0, (chance - RAISE_FROM) / (RAISE_FULL - RAISE_FROM))
        amount = legal.min_bet() + share * (legal.max_bet() - legal.min_bet())
        answer = legal.bet(amount)
        tp.log(why, "-> bet %d" % answer["amount"])
        return answer

    if chance + LOOSENESS >= price:
        tp.log(why, "-> call")
        return legal.bet(cost)
    if bluff and rng.random() < BLUFF_RATE:
        tp.log(why, "-> call (bluff)")
        return legal.bet(cost)
    tp.log(why, "-> pack")
    return legal.action("pack")


def decide_sideshow_reply(request, state):
    """Someone who is seen asks to compare with me in private; the worse hand packs."""
    legal = tp.Legal(request)
    cards = request["cards"]
    asker = state.sideshow_asker
    if asker in state.known:
        mine = tp.hand_value(state.game, cards, state.order)
        accept = mine > tp.hand_value(state.game, state.known[asker], state.order)
    else:
        # The asker chose to ask, so their hand is probably good: accept only a good hand.
        accept = table.percentile(cards) >= ACCEPT_FROM
    answer = "accept" if accept else "refuse"
    tp.log("hand %s: sideshow asked by seat %s; %s (percentile %.2f) -> %s" % (
        request["hand"], asker, " ".join(cards), table.percentile(cards), answer))
    return legal.action(answer)


def decide_swap(request, state):
    """Closest to 555: throw away the card whose replacement is expected to help most."""
    legal = tp.Legal(request)
    cards = legal.swap_cards()  # my three cards
    now = tp.closest555_distance(cards)
    # Cards I have not seen: the next card of the stock is one of them, each equally likely
    # as far as I can tell (cards in other players' hands are among them too).
    unseen = [c for c in state.unseen_cards() if c not in cards]

    best_card, best_expected = None, None
    for card in cards:
        kept = [c for c in cards if c != card]
        distances = [tp.closest555_distance(kept + [new]) for new in unseen]
        expected = sum(distances) / max(1, len(distances))
        if best_expected is None or expected < best_expected:
            best_card, best_expected = card, expected

    penalty = SWAP_COST_WEIGHT * legal.entry("swap").get("cost", 0) / max(1, state.boot)
    why = "hand %s: %s is %d away from 555; swapping %s would give %.1f on average" % (
        request["hand"], " ".join(cards), now, best_card, best_expected)
    if best_expected + penalty < now:
        tp.log(why, "-> swap %s" % best_card)
        return legal.swap(best_card)
    tp.log(why, "-> keep")
    return legal.action("keep")


def main():
    global seed_override, bluff
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, help="replace the seed given in hello")
    parser.add_argument("--name", default="strength-bot", help="the name sent in hello")
    parser.add_argument("--no-bluff", action="store_true",
                        help="never bluff: pack where the bluff would have been drawn")
    args = parser.parse_args()
    seed_override = args.seed
    bluff = not args.no_bluff
    tp.run(decide, name=args.name, version="1.0", on_hello=on_hello)


if __name__ == "__main__":
    main()
