"""teenpatti.py: a small helper for writing Teen Patti arena bots in Python.

Python 3 standard library only. Copy this file next to your bot and import it.

What it does for you
--------------------
* Talks the arena's protocol (see protocol/PROTOCOL.md): it reads one JSON object per
  line from stdin, answers `hello`, follows the events of every hand, and when a `request`
  arrives it calls YOUR function `decide(request, state)` and writes the answer, with the
  request's id, as one line on stdout, flushed at once.
* Keeps the state of the hand you are playing (`HandState`): your cards, your swaps, who is
  still in, the pot and stake, and every card that was revealed to you.
* Checks your answer before it is sent. If `decide` raises an exception or returns an action
  that is not in the legal set, the helper logs the problem on stderr and sends the safe
  answer instead (pack / keep / refuse), so a bug costs you one hand and not the match.
* Evaluates hands in the three games (classic, closest-555, lallan-kallan) so that your bot
  can judge its strength, and turns a hand value into a percentile (`StrengthTable`).

A complete bot
--------------
    import teenpatti as tp

    def decide(request, state):
        legal = tp.Legal(request)
        if legal.can("see"):            # classic game: look at the cards first
            return legal.action("see")
        if legal.can("bet"):
            return legal.bet(legal.min_bet())   # always call ("chaal")
        return legal.safe_default()

    tp.run(decide, name="always-call", version="1.0")

stdout belongs to the protocol: never print() to it. Use `tp.log(...)`, which writes to
stderr, the bot's own log.
"""

import itertools
import json
import os
import sys
import traceback
from bisect import bisect_left, bisect_right
from functools import lru_cache

PROTOCOL_VERSION = 1

# ---------------------------------------------------------------------------------------------
# Logging: stderr is the bot's own log. The arena keeps it; stdout is only for the protocol.
# ---------------------------------------------------------------------------------------------


def log(*parts):
    """Write one line to stderr (your log). Never use print() without file=sys.stderr."""
    print(*parts, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Cards
#
# A card is a two-character string: rank then suit, e.g. "As" (ace of spades), "Td" (ten of
# diamonds), "7c". Ranks: 2 3 4 5 6 7 8 9 T J Q K A. Suits: c d h s.
# Red suits: hearts and diamonds. Black suits: clubs and spades.
# ---------------------------------------------------------------------------------------------

RANKS = "23456789TJQKA"
SUITS = "cdhs"

# The 52 cards in the arena's canonical order: 2c 2d 2h 2s 3c ... As.
FULL_DECK = [rank + suit for rank in RANKS for suit in SUITS]


def rank_of(card):
    """The rank as a number, ace high: 2 for a two, ..., 10 for a ten, 14 for an ace."""
    return RANKS.index(card[0].upper()) + 2


def suit_of(card):
    return card[1].lower()


def colour_of(card):
    return "red" if suit_of(card) in "hd" else "black"


# ---------------------------------------------------------------------------------------------
# Hand values
#
# Every evaluator returns a tuple, and a bigger tuple is a better hand: compare them with
# < and ==. Equal tuples are an exact tie (suits never break ties). Values are only
# comparable inside one game (and one sequence order).
# ---------------------------------------------------------------------------------------------

# Classic categories, weakest first, so that a bigger number is a better category.
HIGH_CARD, PAIR, COLOUR, SEQUENCE, PURE_SEQUENCE, TRAIL = range(6)
CATEGORY_NAMES = ["high card", "pair", "colour", "sequence", "pure sequence", "trail"]

# The value of a dead Lallan Kallan hand: below every live hand.
DEAD = (-1, 0, 0, 0)


def run_strength(high, middle, low, order="a23-high"):
    """How strong a run (three consecutive ranks) is, or 0 if the ranks are no run.

    The ranks are given high to low, ace as 14. An ordinary run is worth its top rank
    (4-3-2 is 4, K-Q-J is 13). The two top runs, A-2-3 and A-K-Q, are worth 15 and 14 in the
    table's `sequence_order` ("a23-high": A-2-3 is the best run; "akq-high": A-K-Q is).
    There is no wraparound: K-A-2 is no run.
    """
    if high == middle + 1 == low + 2:  # e.g. 9-8-7, or A-K-Q (14-13-12)
        if high == 14 and order == "akq-high":
            return 15
        return high
    if (high, middle, low) == (14, 3, 2):  # A-2-3: the ace plays low
        return 15 if order == "a23-high" else 14
    return 0


def classic_value(cards, order="a23-high"):
    """The classic Teen Patti value of three cards.

    Trail > pure sequence > sequence > colour > pair > high card. Returns
    (category, r1, r2, r3):
      trail, colour, high card: the three ranks high to low;
      pair: (PAIR, pair rank, kicker rank, 0);
      runs: (category, run strength, 0, 0).
    """
    high, middle, low = sorted((rank_of(c) for c in cards), reverse=True)
    one_suit = len({suit_of(c) for c in cards}) == 1
    if high == low:
        return (TRAIL, high, high, high)
    if high == middle:
        return (PAIR, high, low, 0)
    if middle == low:
        return (PAIR, middle, high, 0)
    run = run_strength(high, middle, low, order)
    if run and one_suit:
        return (PURE_SEQUENCE, run, 0, 0)
    if run:
        return (SEQUENCE, run, 0, 0)
    if one_suit:
        return (COLOUR, high, middle, low)
    return (HIGH_CARD, high, middle, low)


# Closest to 555: A = 1, 2..9 face value, T J Q K = 0. Suits do not matter.
DIGIT = {"A": 1, "T": 0, "J": 0, "Q": 0, "K": 0}
DIGIT.update({str(n): n for n in range(2, 10)})


def digit_of(card):
    return DIGIT[card[0].upper()]


def closest555_best(cards):
    """(number, distance): the number the three digits make that is closest to 555.

    Try all six orders of the digits (leading zeros allowed). Do NOT add the digits.
    On an equal distance the lower number is named (546 and 564 are both 9 away).
    """
    best = None
    for a, b, c in itertools.permutations([digit_of(card) for card in cards]):
        number = 100 * a + 10 * b + c
        candidate = (abs(number - 555), number)
        if best is None or candidate < best:
            best = candidate
    distance, number = best
    return number, distance


def closest555_distance(cards):
    """How far the hand is from 555 (0 is perfect, smaller is better)."""
    return closest555_best(cards)[1]


def closest555_value(cards):
    """A value where bigger is better, like the other games: (-distance,)."""
    return (-closest555_distance(cards),)


def lallan_is_dead(cards):
    """Lallan Kallan: three cards of one colour are a dead hand."""
    return len({colour_of(c) for c in cards}) == 1


def lallan_wild(cards):
    """Lallan Kallan: the wild card (the one of the odd colour), or None for a dead hand."""
    if lallan_is_dead(cards):
        return None
    for card in cards:
        others = [c for c in cards if c != card]
        if colour_of(others[0]) == colour_of(others[1]) != colour_of(card):
            return card
    return None  # not reached for three distinct cards


@lru_cache(maxsize=None)
def _best_wild_replacement(natural_a, natural_b, order):
    """The card the wild should become, and the value it gives, by trying every card.

    The wild may stand for any card of any rank and suit, except a copy of one of the two
    natural cards. The answer is cached per pair of naturals (at most 1326 pairs), so this
    brute force over about 50 candidate cards is fast enough.
    """
    best_value, best_card = None, None
    for card in FULL_DECK:
        if card in (natural_a, natural_b):
            continue  # the wild may not copy a natural card
        value = classic_value([natural_a, natural_b, card], order)
        if best_value is None or value > best_value:
            best_value, best_card = value, card
    return best_value, best_card


def lallan_value(cards, order="a23-high"):
    """The Lallan Kallan value: DEAD, or the best classic hand the wild card can make.

    Examples: Kh Kd + wild -> K-K-K trail; 2h 3d + wild -> A-2-3 sequence;
    As 9s + wild -> A-K-9 colour; Kh 5d + wild -> pair of kings with a 5.
    """
    wild = lallan_wild(cards)
    if wild is None:
        return DEAD
    natural_a, natural_b = sorted(c for c in cards if c != wild)
    return _best_wild_replacement(natural_a, natural_b, order)[0]


def hand_value(game, cards, order="a23-high"):
    """The value of `cards` in `game` ("classic", "closest-555" or "lallan-kallan").

    Bigger is better in every game.
    """
    if game == "classic":
        return classic_value(cards, order)
    if game == "closest-555":
        return closest555_value(cards)
    if game == "lallan-kallan":
        return lallan_value(cards, order)
    raise ValueError("unknown game %r" % (game,))


def describe(game, cards, order="a23-high"):
    """The hand in words, for your log: "pair of A with 7", "546, distance 9", ..."""
    if game == "closest-555":
        number, distance = closest555_best(cards)
        return "%03d, distance %d" % (number, distance)
    if game == "lallan-kallan":
        wild = lallan_wild(cards)
        if wild is None:
            return "dead (one colour)"
        naturals = [c for c in cards if c != wild]
        value = lallan_value(cards, order)
        # Several cards may give the best value (Kh Kd + wild: Kc or Ks). Name one of the
        # wild's own suit when possible, as the arena's descriptions do.
        candidates = sorted((c for c in FULL_DECK if c not in naturals),
                            key=lambda c: suit_of(c) != suit_of(wild))
        becomes = next(c for c in candidates if classic_value(naturals + [c], order) == value)
        return "%s (wild %s plays as %s)" % (value_text(value, order), wild, becomes)
    return value_text(classic_value(cards, order), order)


def value_text(value, order="a23-high"):
    """A classic value tuple in words: "trail of K", "sequence A-2-3", "colour A-K-9"."""
    category, first, second, third = value
    name = CATEGORY_NAMES[category]

    def rank(number):
        return RANKS[number - 2]

    if category == TRAIL:
        return "trail of %s" % rank(first)
    if category == PAIR:
        return "pair of %s with %s" % (rank(first), rank(second))
    if category in (SEQUENCE, PURE_SEQUENCE):
        # Run strengths 15 and 14 are the two top runs, in the table's order.
        top_two = ["A-K-Q", "A-2-3"] if order == "a23-high" else ["A-2-3", "A-K-Q"]
        if first >= 14:
            return "%s %s" % (name, top_two[first - 14])
        return "%s %s-%s-%s" % (name, rank(first), rank(first - 1), rank(first - 2))
    return "%s %s-%s-%s" % (name, rank(first), rank(second), rank(third))


def all_hands():
    """All 22100 three-card hands of the pack (each once, cards in canonical order)."""
    return itertools.combinations(FULL_DECK, 3)


class StrengthTable:
    """Turns a hand value into a percentile: how often a random hand is worse.

    Built once per match from all 22100 hands (well under a second). In Lallan Kallan only
    live hands count, since dead hands never play.

        table = StrengthTable("classic")
        table.percentile(["As", "Ad", "7c"])   # about 0.95: a pair of aces is a strong hand
    """

    def __init__(self, game, order="a23-high"):
        self.game = game
        self.order = order
        values = (hand_value(game, hand, order) for hand in all_hands())
        self.values = sorted(v for v in values if v != DEAD)

    def percentile(self, cards):
        """Share of random hands this hand beats, counting exact ties as half (0.0 .. 1.0)."""
        return self.percentile_of_value(hand_value(self.game, cards, self.order))

    def percentile_of_value(self, value):
        worse = bisect_left(self.values, value)
        ties = bisect_right(self.values, value) - worse
        return (worse + 0.5 * ties) / len(self.values)


# ---------------------------------------------------------------------------------------------
# The legal set
#
# Each request lists what you may do, e.g.
#   [{"action":"pack"}, {"action":"bet","min":2,"max":4,"multiple_of":2}, {"action":"show","cost":4}]
# An answer names one of those actions; a bet's amount must lie in [min, max] and be a
# multiple of multiple_of; a swap's card must be one of the listed cards.
# ---------------------------------------------------------------------------------------------


class Legal:
    """The legal set of one request, with helpers that always produce a legal answer."""

    # What the arena does for a bot that faults, and what this helper sends when your
    # decide() fails: pack a betting decision, keep the cards, refuse a sideshow.
    SAFE = {"bet": "pack", "swap": "keep", "sideshow_reply": "refuse"}

    def __init__(self, request):
        self.kind = request.get("kind")
        self.entries = list(request.get("legal", []))

    def names(self):
        """The names of the offered actions, e.g. ["pack", "bet", "show"]."""
        return [entry["action"] for entry in self.entries]

    def can(self, name):
        return self.entry(name) is not None

    def entry(self, name):
        """The legal entry with this name (a dict with its bounds and cost), or None."""
        for entry in self.entries:
            if entry.get("action") == name:
                return entry
        return None

    def action(self, name):
        """An answer for an action without parameters: pack, see, show, sideshow, keep,
        accept or refuse. Raises ValueError if it is not offered."""
        if not self.can(name):
            raise ValueError("%s is not offered; legal: %s" % (name, self.names()))
        return {"action": name}

    # -- bets ------------------------------------------------------------------------------

    def min_bet(self):
        return self.entry("bet")["min"]

    def max_bet(self):
        return self.entry("bet")["max"]

    def clamp(self, amount):
        """The legal bet amount nearest to `amount` (rounded down to multiple_of, then kept
        inside [min, max])."""
        bet = self.entry("bet")
        if bet is None:
            raise ValueError("no bet is offered; legal: %s" % self.names())
        step = bet.get("multiple_of", 1) or 1
        amount = max(bet["min"], min(bet["max"], int(amount)))
        amount -= amount % step
        if amount < bet["min"]:  # min itself is not a multiple: take the next one up
            amount += step
        return amount

    def bet_amounts(self):
        """Every legal bet amount, smallest first (an empty list if no bet is offered)."""
        bet = self.entry("bet")
        if bet is None:
            return []
        step = bet.get("multiple_of", 1) or 1
        first = bet["min"] + (-bet["min"]) % step
        return list(range(first, bet["max"] + 1, step))

    def bet(self, amount):
        """A bet answer, with `amount` clamped to the legal bounds."""
        return {"action": "bet", "amount": self.clamp(amount)}

    # -- swaps (closest-555) ---------------------------------------------------------------

    def swap_cards(self):
        """The cards you may discard (your own three), or [] if no swap is offered."""
        entry = self.entry("swap")
        return list(entry["cards"]) if entry else []

    def swap(self, card):
        if card not in self.swap_cards():
            raise ValueError("cannot swap %s; may swap %s" % (card, self.swap_cards()))
        return {"action": "swap", "card": card}

    # -- mixed answers ---------------------------------------------------------------------

    # The actions of protocol version 1 (a later arena may offer more; instances() skips them).
    ACTIONS = ("pack", "see", "bet", "show", "sideshow", "swap", "keep", "accept", "refuse")

    def instances(self):
        """Every legal answer of this decision: one per action without parameters, one per
        bet amount, one per card you may swap (actions this helper does not know are left
        out)."""
        answers = []
        for name in self.names():
            if name not in self.ACTIONS:
                continue
            if name == "bet":
                answers += [{"action": "bet", "amount": a} for a in self.bet_amounts()]
            elif name == "swap":
                answers += [{"action": "swap", "card": c} for c in self.swap_cards()]
            else:
                answers.append({"action": name})
        return answers

    def mix(self, weighted):
        """A mixed answer: `weighted` is a list of (answer, probability) pairs, e.g.
        [(legal.action("pack"), 0.25), (legal.bet(4), 0.75)], probabilities adding up to 1.
        The arena draws the action it plays (and tells you in the event that follows), so it
        knows your strategy exactly; PROTOCOL.md, "Mixed answers"."""
        return {"mix": [dict(answer, p=p) for answer, p in weighted]}

    # -- checking --------------------------------------------------------------------------

    def safe_default(self):
        """The answer that risks nothing more: pack, keep or refuse."""
        name = self.SAFE.get(self.kind, "pack")
        if self.can(name):
            return {"action": name}
        return {"action": self.names()[0]} if self.entries else {"action": name}

    def allows(self, answer):
        """Whether `answer` (a dict like {"action": "bet", "amount": 4}, or a mix) is legal
        here. A mix is legal when every entry is, no action is given twice and the
        probabilities (each between 0 and 1) add up to 1."""
        if not isinstance(answer, dict):
            return False
        if "mix" in answer:
            entries = answer["mix"]
            if not isinstance(entries, list) or not entries or "action" in answer:
                return False
            seen = set()
            total = 0.0
            for entry in entries:
                if not isinstance(entry, dict):
                    return False
                p = entry.get("p")
                if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
                    return False
                plain = {k: v for k, v in entry.items() if k != "p"}
                key = json.dumps(plain, sort_keys=True)
                if key in seen or not self.allows(plain):
                    return False
                seen.add(key)
                total += p
            return abs(total - 1) <= 1e-6
        entry = self.entry(answer.get("action"))
        if entry is None:
            return False
        if entry["action"] == "bet":
            amount = answer.get("amount")
            if not isinstance(amount, int) or isinstance(amount, bool):
                return False
            step = entry.get("multiple_of", 1) or 1
            return entry["min"] <= amount <= entry["max"] and amount % step == 0
        if entry["action"] == "swap":
            return answer.get("card") in entry["cards"]
        return True


# ---------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------


class PlayerState:
    """What is public about one seat in the current hand."""

    def __init__(self):
        self.in_hand = True   # not packed, not dead
        self.seen = False     # classic: has looked at the cards (always True in the others)
        self.dead = False     # lallan-kallan: a one-colour hand
        self.put_in = 0       # chips put in the pot this hand
        self.turns = 0        # betting turns completed
        self.swaps = 0        # closest-555: cards swapped (which cards is secret)

    def __repr__(self):
        return "PlayerState(%r)" % self.__dict__


class HandState:
    """Everything the bot knows: the match (from hello) and the hand being played.

    Match facts (from hello): game, settings, seat, seats, hands, first_hand, seed,
    players (names), time, order (the sequence order).
    Hand facts (reset at every hand_started): hand, dealer, pot, stake, boot, my_cards,
    my_discards, players (a list of PlayerState), known (seat -> cards revealed to you),
    sideshow_asker, sideshow_refusals, events (this hand's events, as dicts), result (the
    hand_ended event, once the hand is over).
    Across hands: totals (your net chips so far), hands_played.
    """

    def __init__(self, hello):
        self.hello = hello
        self.game = hello.get("game")
        self.settings = hello.get("settings", {})
        self.order = self.settings.get("sequence_order", "a23-high")
        self.seat = hello.get("seat", 0)
        self.seats = hello.get("seats", 2)
        self.hands = hello.get("hands", 0)
        self.first_hand = hello.get("first_hand", 0)
        self.seed = hello.get("seed", 0)
        self.names = hello.get("players", [])
        self.time = hello.get("time", {})
        self.totals = 0
        self.hands_played = 0
        self.new_hand(None)

    def new_hand(self, hand):
        self.hand = hand
        self.dealer = None
        self.pot = 0
        self.stake = 0
        self.boot = self.settings.get("boot", 1)
        self.my_cards = None      # None until you know them (classic: until you "see")
        self.my_discards = []     # closest-555: cards you threw away (they never come back)
        self.players = [PlayerState() for _ in range(self.seats)]
        self.known = {}           # other seats' current cards revealed to you
        self.sideshow_asker = None  # who asked the last sideshow (a sideshow_reply request
                                    # does not say; the sideshow_asked event before it does)
        self.sideshow_refusals = set()  # (asker, target) pairs of refused sideshows
        self.events = []
        self.result = None

    # -- what helpers and strategies often need ---------------------------------------------

    def me(self):
        return self.players[self.seat]

    def opponents_in_hand(self):
        """Seats other than yours still in the hand."""
        return [s for s, p in enumerate(self.players) if p.in_hand and s != self.seat]

    def unseen_cards(self):
        """Cards you have not seen anywhere: not yours, not discarded by you, not revealed."""
        visible = set(self.my_cards or []) | set(self.my_discards)
        for cards in self.known.values():
            visible |= set(cards)
        return [c for c in FULL_DECK if c not in visible]

    # -- updates --------------------------------------------------------------------------

    def apply_event(self, message):
        """Follow one event (an arena message with "type": "event")."""
        kind = message.get("event")
        if kind == "hand_started":
            self.new_hand(message.get("hand"))
        self.events.append(message)
        if kind == "hand_started":
            self.dealer = message.get("dealer")
            self.pot = message.get("pot", 0)
            self.stake = message.get("stake", 0)
            self.boot = message.get("boot", self.boot)
            for player in self.players:
                player.put_in = self.boot
            # Everyone plays seen except in the classic game.
            for player in self.players:
                player.seen = self.game != "classic"
        elif kind == "dealt":
            if message.get("seat") == self.seat:
                self.my_cards = message.get("cards")  # None in the classic game (blind)
        elif kind == "dead":
            for seat in message.get("seats", []):
                self._player(seat).dead = True
                self._player(seat).in_hand = False
        elif kind == "redeal":
            # Lallan Kallan: every hand was dead; new cards for everyone, same pot.
            self.pot = message.get("pot", self.pot)
            self.my_cards = None
            for player in self.players:
                player.dead = False
                player.in_hand = True
        elif kind == "saw":
            self._player(message.get("seat")).seen = True
            if message.get("seat") == self.seat and message.get("cards"):
                self.my_cards = message["cards"]
        elif kind == "swapped":
            seat = message.get("seat")
            self._player(seat).swaps += 1
            self.pot += message.get("cost", 0)
            self._player(seat).put_in += message.get("cost", 0)
            self.known.pop(seat, None)  # their cards changed: what we knew is stale
            if seat == self.seat and message.get("discarded") and self.my_cards:
                discarded, drawn = message["discarded"], message.get("drawn")
                self.my_discards.append(discarded)
                self.my_cards = [drawn if c == discarded else c for c in self.my_cards]
        elif kind == "bet":
            player = self._player(message.get("seat"))
            player.put_in += message.get("amount", 0)
            player.turns += 1
            self.stake = message.get("stake", self.stake)
            self.pot = message.get("pot", self.pot)
        elif kind == "packed":
            self._player(message.get("seat")).in_hand = False
        elif kind in ("show_asked", "sideshow_asked"):
            self._player(message.get("seat")).put_in += message.get("cost", 0)
            self.pot = message.get("pot", self.pot)
            if kind == "sideshow_asked":
                self.sideshow_asker = message.get("seat")
        elif kind == "sideshow_refused":
            self.sideshow_refusals.add((message.get("seat"), message.get("target")))
        elif kind == "sideshow_compared":
            # Only the two players of a sideshow get the cards.
            if message.get("seat_cards") and message.get("seat") != self.seat:
                self.known[message["seat"]] = message["seat_cards"]
            if message.get("target_cards") and message.get("target") != self.seat:
                self.known[message["target"]] = message["target_cards"]
        elif kind == "revealed":
            for shown in message.get("hands", []):
                if shown.get("seat") != self.seat:
                    self.known[shown["seat"]] = shown["cards"]
        elif kind == "hand_ended":
            self.result = message
            payoffs = message.get("payoffs", [])
            if self.seat < len(payoffs):
                self.totals += payoffs[self.seat]
            self.hands_played += 1
        # Unknown event kinds are ignored: the protocol may add new ones.

    def apply_request(self, request):
        """A request carries the authoritative public state: take it over."""
        self.hand = request.get("hand", self.hand)
        self.pot = request.get("pot", self.pot)
        self.stake = request.get("stake", self.stake)
        if request.get("cards"):
            self.my_cards = list(request["cards"])
        for seat, view in enumerate(request.get("players", [])):
            player = self._player(seat)
            for field in ("in_hand", "seen", "dead", "put_in", "turns", "swaps"):
                if field in view:
                    setattr(player, field, view[field])
        # JSON object keys are strings: {"1": ["2c", "2d", "9s"]}.
        self.known = {int(seat): cards for seat, cards in request.get("known", {}).items()}

    def _player(self, seat):
        while seat >= len(self.players):  # defensive: never index out of range
            self.players.append(PlayerState())
        return self.players[seat]


# ---------------------------------------------------------------------------------------------
# The main loop
# ---------------------------------------------------------------------------------------------


def send(message):
    """Write one message as one line of JSON on stdout, and flush so the arena gets it now."""
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def run(decide, name, version="1.0", on_hello=None, on_event=None, on_fault=None,
        on_match_end=None, debug=None):
    """Play a whole match on stdin/stdout. Returns when the match ends (or stdin closes).

    decide(request, state) -> an answer dict such as {"action": "bet", "amount": 4}
        Called for every request. `request` is the request message as a dict; `state` is
        the HandState. Do not add the id: the helper does.
    on_hello(state)             called after each hello (a restarted bot gets a new one).
    on_event(message, state)    called after each event has been applied to the state.
    on_fault(message, state)    called when the arena reports a fault of yours.
    on_match_end(message, state)
    debug: when true (or when the environment variable TEENPATTI_DEBUG is set), every line
        received and sent is copied to stderr.
    """
    if debug is None:
        debug = bool(os.environ.get("TEENPATTI_DEBUG"))
    state = None
    stdin = sys.stdin.buffer
    while True:
        raw = stdin.readline()
        if not raw:
            log("[teenpatti] stdin closed; exiting")
            return
        try:
            message = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as error:
            log("[teenpatti] ignoring a line that is not JSON: %r (%s)" % (raw[:200], error))
            continue
        if not isinstance(message, dict):
            continue
        if debug:
            log("[recv]", raw.decode("utf-8").rstrip("\n"))
        kind = message.get("type")

        if kind == "hello":
            state = HandState(message)
            if on_hello:
                on_hello(state)
            reply = {"type": "hello", "name": name, "version": version,
                     "protocol": PROTOCOL_VERSION}
            send(reply)
            log("[teenpatti] %s %s: seat %s of %s, game %s, hands %s from %s, seed %s" % (
                name, version, state.seat, state.seats, state.game, state.hands,
                state.first_hand, state.seed))
        elif state is None:
            log("[teenpatti] ignoring %r before hello" % (kind,))
        elif kind == "event":
            state.apply_event(message)
            if on_event:
                on_event(message, state)
        elif kind == "request":
            answer = _decide_safely(decide, message, state)
            if debug:
                log("[send]", json.dumps(answer, separators=(",", ":")))
            send(answer)
        elif kind == "fault":
            log("[teenpatti] FAULT %s on request %s: %s (arena applied %s)" % (
                message.get("fault"), message.get("id"), message.get("detail"),
                message.get("applied")))
            if on_fault:
                on_fault(message, state)
        elif kind == "match_end":
            log("[teenpatti] match over after %s hands; totals %s" % (
                message.get("hands"), message.get("totals")))
            if on_match_end:
                on_match_end(message, state)
            return
        # Any other type is ignored: newer arenas may send messages this helper does not know.


def _decide_safely(decide, request, state):
    """Call decide() and return a legal answer carrying the request's id, whatever happens."""
    state.apply_request(request)
    legal = Legal(request)
    try:
        answer = decide(request, state)
    except Exception:
        log("[teenpatti] decide() raised; sending the safe answer instead:\n"
            + traceback.format_exc())
        answer = legal.safe_default()
    if not legal.allows(answer):
        log("[teenpatti] decide() returned %r, which is not legal here (legal: %s); "
            "sending the safe answer instead" % (answer, json.dumps(legal.entries)))
        answer = legal.safe_default()
    answer = dict(answer)
    answer["id"] = request["id"]
    return answer
