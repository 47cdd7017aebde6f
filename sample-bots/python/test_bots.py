"""Self test of the sample bots against a fake arena (Python standard library only).

Run from the repository root:
    python3 -m unittest discover -s sample-bots/python -p 'test_*.py'

Each bot runs as a real subprocess, exactly as the arena runs it. The fake arena writes
scripted message sequences for each game (hello, events, requests of every kind, a fault,
unknown messages and fields, match_end) and checks that
  * the bot answers hello with a hello of its own,
  * every request gets exactly one line: JSON, the request's id, an action of the legal
    set within its bounds (this file checks legality itself, independently of teenpatti.py),
  * the bot writes nothing else, and exits (status 0) soon after match_end.

The fake arena follows a few rules of the real one so that the scripts stay believable:
  * when the bot answers "see" (classic), it sends the `saw` event with the cards and a new
    request for the same seat, now as seen;
  * it echoes the bot's own action as the event everyone would get (bet, packed, swapped...);
  * once the bot has packed it gets no more requests in that hand, and after asking for a
    show the rest of the hand is skipped up to `hand_ended`.
"""

import json
import os
import random
import selectors
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BOTS = ["random_bot.py", "strength_bot.py", "minimal_bot.py"]
GAMES = ["classic", "closest-555", "lallan-kallan"]

RANKS = "23456789TJQKA"
DECK = [r + s for r in RANKS for s in "cdhs"]


def settings_for(game, **changes):
    """The settings object of hello, with the defaults of the rules notes."""
    settings = {"variant": game, "boot": 1, "max_stake": 64, "pot_limit": 1024,
                "sideshow": True, "sequence_order": "a23-high", "blind_limit": 4,
                "swap_cost": 0, "max_turns": 500}
    settings.update(changes)
    return settings


def hello(game, seat, seats, hands=3, seed=123, first_hand=0, **setting_changes):
    return {"type": "hello", "protocol": 1, "game": game,
            "settings": settings_for(game, **setting_changes), "seat": seat, "seats": seats,
            "hands": hands, "first_hand": first_hand, "seed": seed,
            "players": ["bot%d" % i for i in range(seats)],
            "time": {"startup_ms": 5000, "decision_ms": 1000, "bank_ms": 10000}}


def event(hand, kind, **fields):
    message = {"type": "event", "hand": hand, "event": kind}
    message.update(fields)
    return message


def player(in_hand=True, seen=True, dead=False, put_in=1, turns=0, swaps=0):
    return {"in_hand": in_hand, "seen": seen, "dead": dead, "put_in": put_in,
            "turns": turns, "swaps": swaps}


def request(hand, kind, legal, pot, stake, players, cards=None, known=None):
    """A request template; the fake arena fills in the id (and `cards` if left as None)."""
    message = {"type": "request", "hand": hand, "kind": kind, "legal": legal, "pot": pot,
               "stake": stake, "players": players, "time_ms": 1000, "bank_ms": 10000}
    if cards is not None:
        message["cards"] = cards
    if known:
        message["known"] = known
    return message


def seen_bet_legal(stake, show=False, sideshow_target=None, max_stake=64):
    legal = [{"action": "pack"},
             {"action": "bet", "min": 2 * stake, "max": min(4 * stake, 2 * max_stake),
              "multiple_of": 2}]
    if show:
        legal.append({"action": "show", "cost": 2 * stake})
    if sideshow_target is not None:
        legal.append({"action": "sideshow", "cost": 2 * stake, "target": sideshow_target})
    return legal


def blind_bet_legal(stake, show=False, max_stake=64):
    legal = [{"action": "pack"}, {"action": "see"},
             {"action": "bet", "min": stake, "max": min(2 * stake, max_stake), "multiple_of": 1}]
    if show:
        legal.append({"action": "show", "cost": stake})
    return legal


def swap_legal(cost=0):
    return [{"action": "swap", "cards": None, "cost": cost}, {"action": "keep"}]


REPLY_LEGAL = [{"action": "accept"}, {"action": "refuse"}]


# ---------------------------------------------------------------------------------------------
# Independent legality check (deliberately not using teenpatti.Legal)
# ---------------------------------------------------------------------------------------------


def legality_problem(request, answer):
    """None if `answer` is a legal answer to `request`, else a description of the problem."""
    if not isinstance(answer, dict):
        return "the answer is not a JSON object"
    if answer.get("id") != request["id"]:
        return "id %r, expected %r" % (answer.get("id"), request["id"])
    offered = {entry["action"]: entry for entry in request["legal"]}
    name = answer.get("action")
    if name not in offered:
        return "action %r not offered (offered: %s)" % (name, sorted(offered))
    entry = offered[name]
    if name == "bet":
        amount = answer.get("amount")
        if type(amount) is not int:
            return "bet amount %r is not an integer" % (amount,)
        if not entry["min"] <= amount <= entry["max"]:
            return "bet %d outside [%d, %d]" % (amount, entry["min"], entry["max"])
        if amount % entry["multiple_of"]:
            return "bet %d not a multiple of %d" % (amount, entry["multiple_of"])
    if name == "swap" and answer.get("card") not in entry["cards"]:
        return "swap of %r, not one of %s" % (answer.get("card"), entry["cards"])
    return None


def mix_problem(request, answer):
    """None if `answer` is a legal mixed answer to `request` (PROTOCOL.md, "Mixed answers"):
    every entry a legal answer with a probability p in [0, 1], no action twice, the
    probabilities adding up to 1; else a description of the problem."""
    if answer.get("id") != request["id"]:
        return "id %r, expected %r" % (answer.get("id"), request["id"])
    if "action" in answer:
        return "both an action and a mix"
    entries = answer["mix"]
    if not isinstance(entries, list) or not entries:
        return "mix %r is not a non-empty list" % (entries,)
    seen = []
    for i, entry in enumerate(entries):
        p = entry.get("p") if isinstance(entry, dict) else None
        if type(p) not in (int, float) or not 0 <= p <= 1:
            return "mix[%d] has no probability between 0 and 1: %r" % (i, entry)
        plain = {k: v for k, v in entry.items() if k != "p"}
        problem = legality_problem(request, dict(plain, id=request["id"]))
        if problem:
            return "mix[%d]: %s" % (i, problem)
        if plain in seen:
            return "mix[%d] repeats an action" % i
        seen.append(plain)
    total = sum(entry["p"] for entry in entries)
    if abs(total - 1) > 1e-6:
        return "the probabilities add up to %r" % total
    return None


def answer_problem(request, answer):
    """None if `answer` is a legal answer to `request`, plain or mixed."""
    if isinstance(answer, dict) and "mix" in answer:
        return mix_problem(request, answer)
    return legality_problem(request, answer)


def draw(request, answer):
    """The action the fake arena plays for a mixed answer (drawn from the request id, so a
    script plays the same way every run)."""
    u = random.Random(request["id"]).random()
    cumulative = 0.0
    for entry in answer["mix"]:
        cumulative += entry["p"]
        if u < cumulative:
            break
    return dict({k: v for k, v in entry.items() if k != "p"}, id=answer["id"])


# ---------------------------------------------------------------------------------------------
# The bot process
# ---------------------------------------------------------------------------------------------


class BotProcess:
    """A bot running as a subprocess, with line reads that time out."""

    def __init__(self, script, *args):
        self.stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(HERE, script)] + list(args),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, bufsize=0)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.process.stdout, selectors.EVENT_READ)
        self.buffer = b""
        self.transcript = []

    def send(self, message):
        line = json.dumps(message, separators=(",", ":"))
        self.transcript.append("> " + line)
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def read_line(self, timeout=10.0):
        """The next line the bot writes (without the newline), or None on timeout or EOF."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not self.selector.select(left):
                return None
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        self.transcript.append("< " + line.decode("utf-8", "replace"))
        return line.decode("utf-8")

    def log(self):
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.selector.close()
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self.stderr.close()


# ---------------------------------------------------------------------------------------------
# The fake arena
# ---------------------------------------------------------------------------------------------


class Ask:
    """A request to the bot inside a script.

    request: the request as the bot gets it when it has seen its cards (or in 555 / LK).
    blind: (classic) the request to send instead while the bot is still blind.
    after_see: (classic) {"cards": ..., "request": ...}: after a "see" answer, the saw event
        carries these cards and this request follows (the same seat decides again). Just a
        list of cards means that `request` follows.
    draw: (555) the card drawn if the bot swaps.
    then: {action name: [messages]}: what happens after that answer (instead of the echo).
    """

    def __init__(self, request, blind=None, after_see=None, draw=None, then=None):
        self.request = request
        self.blind = blind
        self.after_see = after_see
        self.draw = draw
        self.then = then or {}


class FakeArena:
    def __init__(self, test, bot, seat, game):
        self.test = test
        self.bot = bot
        self.seat = seat
        self.game = game
        self.next_id = 1
        self.answers = []
        self.reset_hand()

    def reset_hand(self):
        self.cards = None
        self.seen = self.game != "classic"
        self.out = False

    def fail(self, text):
        self.test.fail("%s\n--- transcript ---\n%s\n--- bot stderr ---\n%s" % (
            text, "\n".join(self.bot.transcript[-30:]), self.bot.log()[-3000:]))

    def play(self, script):
        skipping = False  # after a show: skip to hand_ended
        for step in script:
            if isinstance(step, Ask):
                blind_and_no_blind_form = not self.seen and step.blind is None
                if not skipping and not self.out and not blind_and_no_blind_form:
                    skipping = self.ask(step)
                continue
            kind = step.get("event")
            if skipping and kind != "hand_ended":
                continue
            skipping = False
            self.deliver(step)

    def deliver(self, message):
        """Send an event or other message, keeping track of the bot's own hand."""
        kind = message.get("event")
        if kind == "hand_started":
            self.reset_hand()
        if kind == "dealt" and message.get("seat") == self.seat and message.get("cards"):
            self.cards = list(message["cards"])
        if kind == "dead" and self.seat in message.get("seats", []):
            self.out = True
        if kind == "redeal":
            self.out = False
        if kind == "packed" and message.get("seat") == self.seat:
            self.out = True
        self.bot.send(message)

    def ask(self, step):
        """Send one request and check the answer. Returns True if the hand should be
        skipped up to hand_ended (the bot asked for a show)."""
        template = step.request if self.seen or step.blind is None else step.blind
        request = json.loads(json.dumps(template))  # a deep copy
        request["id"] = self.next_id
        self.next_id += 1
        if self.seen and request.get("cards", "missing") is None:
            request["cards"] = list(self.cards)
        if not self.seen:
            request.pop("cards", None)
        for entry in request["legal"]:
            if entry["action"] == "swap":
                entry["cards"] = list(self.cards)
        self.bot.send(request)
        line = self.bot.read_line()
        if line is None:
            self.fail("no answer to request %d" % request["id"])
        try:
            answer = json.loads(line)
        except ValueError:
            self.fail("answer is not JSON: %r" % line)
        problem = answer_problem(request, answer)
        if problem:
            self.fail("illegal answer to request %d: %s" % (request["id"], problem))
        if "mix" in answer:
            answer = draw(request, answer)
        self.answers.append((request, answer))
        return self.follow(step, request, answer)

    def follow(self, step, request, answer):
        """What the arena does after a legal answer."""
        name = answer["action"]
        hand = request["hand"]
        if name in step.then:
            for message in step.then[name]:
                self.deliver(message)
            return name == "show"
        if name == "see":
            after_see = step.after_see
            if isinstance(after_see, list):  # just the cards: the seen request follows
                after_see = {"cards": after_see, "request": step.request}
            self.seen = True
            self.cards = list(after_see["cards"])
            self.deliver(event(hand, "saw", seat=self.seat, cards=self.cards))
            return self.ask(Ask(after_see["request"], then=step.then))
        if name == "pack":
            self.deliver(event(hand, "packed", seat=self.seat, reason="chose"))
        elif name == "bet":
            blind = not self.seen
            stake = answer["amount"] if blind else answer["amount"] // 2
            self.deliver(event(hand, "bet", seat=self.seat, amount=answer["amount"],
                               blind=blind, stake=stake, pot=request["pot"] + answer["amount"]))
        elif name == "keep":
            self.deliver(event(hand, "kept", seat=self.seat))
        elif name == "swap":
            drawn = step.draw
            self.cards = [drawn if c == answer["card"] else c for c in self.cards]
            self.deliver(event(hand, "swapped", seat=self.seat, cost=0,
                               discarded=answer["card"], drawn=drawn))
        elif name == "show":
            cost = next(e["cost"] for e in request["legal"] if e["action"] == "show")
            against = next(seat for seat, p in enumerate(request["players"])
                           if p["in_hand"] and seat != self.seat)
            self.deliver(event(hand, "show_asked", seat=self.seat, against=against, cost=cost,
                               pot=request["pot"] + cost))
            return True
        elif name == "sideshow":
            entry = next(e for e in request["legal"] if e["action"] == "sideshow")
            self.deliver(event(hand, "sideshow_asked", seat=self.seat, target=entry["target"],
                               cost=entry["cost"], pot=request["pot"] + entry["cost"]))
            self.deliver(event(hand, "sideshow_refused", seat=self.seat,
                               target=entry["target"]))
        return False

    def finish(self, totals):
        """Send match_end; the bot must exit with status 0 and have written nothing more."""
        self.bot.send({"type": "match_end", "hands": 3, "totals": totals})
        try:
            status = self.bot.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.fail("the bot did not exit within 5 s of match_end")
        extra = self.bot.read_line(timeout=0.5)
        if extra is not None:
            self.fail("the bot wrote a line nobody asked for: %r" % extra)
        if status != 0:
            self.fail("the bot exited with status %d" % status)


# ---------------------------------------------------------------------------------------------
# Scripts: believable hands of each game, with a request of every kind
# ---------------------------------------------------------------------------------------------


def classic_script():
    """Classic game, 3 seats, the bot in seat 1. Blind play, see, sideshow both ways."""
    s = 1
    script = []
    # Hand 0: dealer 0, so seat 1 (the bot) acts first, blind.
    h = 0
    script += [event(h, "hand_started", dealer=0, seats=3, boot=1, pot=3, stake=1),
               event(h, "dealt", seat=1, redeal=0), event(h, "dealt", seat=2, redeal=0),
               event(h, "dealt", seat=0, redeal=0)]
    blind3 = [player(seen=False)] * 3
    script.append(Ask(
        request(h, "bet", seen_bet_legal(1), 3, 1, blind3, cards=None),
        blind=request(h, "bet", blind_bet_legal(1), 3, 1, blind3),
        after_see={"cards": ["As", "Ad", "7c"],
                   "request": request(h, "bet", seen_bet_legal(1), 3, 1,
                                      [player(seen=False), player(), player(seen=False)],
                                      cards=None)}))
    script += [event(h, "saw", seat=2),
               event(h, "bet", seat=2, amount=2, blind=False, stake=1, pot=7),
               event(h, "saw", seat=0),
               event(h, "bet", seat=0, amount=4, blind=False, stake=2, pot=11)]
    players = [player(put_in=5, turns=1), player(put_in=3, turns=1),
               player(put_in=3, turns=1)]
    script.append(Ask(
        request(h, "bet", seen_bet_legal(2, sideshow_target=0), 11, 2, players, cards=None),
        blind=request(h, "bet", blind_bet_legal(2), 11, 2,
                      [players[0], player(seen=False, put_in=2, turns=1), players[2]]),
        after_see=["As", "Ad", "7c"]))
    # Seat 2 asks the bot (the previous seat still in) for a sideshow.
    script.append(event(h, "sideshow_asked", seat=2, target=1, cost=4, pot=19))
    script.append(Ask(
        request(h, "sideshow_reply", REPLY_LEGAL, 19, 2, players, cards=None),
        blind=None,  # never asked while blind; see the skip below
        then={"accept": [
                  event(h, "sideshow_compared", seat=2, target=1, loser=2,
                        seat_cards=["Kc", "Qd", "2h"], target_cards=["As", "Ad", "7c"]),
                  event(h, "packed", seat=2, reason="lost_sideshow")],
              "refuse": [event(h, "sideshow_refused", seat=2, target=1)]}))
    script.append(Ask(
        request(h, "bet", seen_bet_legal(2, show=True), 19, 2,
                [player(put_in=5, turns=1), player(put_in=7, turns=2),
                 player(in_hand=False, put_in=7, turns=2)],
                cards=None, known={"2": ["Kc", "Qd", "2h"]})))
    script += [event(h, "bet", seat=0, amount=8, blind=False, stake=4, pot=31),
               event(h, "show_asked", seat=0, against=1, cost=8, pot=39),
               event(h, "revealed", reason="show", hands=[
                   {"seat": 0, "cards": ["9h", "9d", "2c"],
                    "value": {"kind": "ranked", "category": "pair",
                              "cards": ["9h", "9d", "2c"]}},
                   {"seat": 1, "cards": ["As", "Ad", "7c"],
                    "value": {"kind": "ranked", "category": "pair",
                              "cards": ["As", "Ad", "7c"]}}]),
               event(h, "hand_ended", reason="show", winners=[1], pot=39,
                     payoffs=[-21, 25, -4])]
    # Hand 1: dealer 1; seat 2 packs; seat 0 bets blind; the bot may show blind.
    h = 1
    script += [event(h, "hand_started", dealer=1, seats=3, boot=1, pot=3, stake=1),
               event(h, "dealt", seat=2, redeal=0), event(h, "dealt", seat=0, redeal=0),
               event(h, "dealt", seat=1, redeal=0),
               event(h, "packed", seat=2, reason="chose"),
               event(h, "bet", seat=0, amount=2, blind=True, stake=2, pot=5)]
    two_blind = [player(seen=False, put_in=3, turns=1), player(seen=False),
                 player(in_hand=False, seen=False, turns=1)]
    script.append(Ask(
        request(h, "bet", seen_bet_legal(2), 5, 2, two_blind, cards=None),
        blind=request(h, "bet", blind_bet_legal(2, show=True), 5, 2, two_blind),
        after_see={"cards": ["2c", "3d", "Ah"],
                   # A seen player may not ask a blind one for a show: no show here.
                   "request": request(h, "bet", seen_bet_legal(2), 5, 2, two_blind,
                                      cards=None)}))
    script += [event(h, "saw", seat=0),
               event(h, "bet", seat=0, amount=8, blind=False, stake=4, pot=17)]
    after = [player(put_in=11, turns=2), player(put_in=5, turns=1),
             player(in_hand=False, seen=False, turns=1)]
    script.append(Ask(
        request(h, "bet", seen_bet_legal(4, show=True), 17, 4, after, cards=None),
        blind=request(h, "bet", blind_bet_legal(4, show=True), 17, 4,
                      [after[0], player(seen=False, put_in=5, turns=1), after[2]]),
        after_see=["2c", "3d", "Ah"]))
    script += [event(h, "packed", seat=0, reason="chose"),
               event(h, "hand_ended", reason="last_standing", winners=[1], pot=25,
                     payoffs=[-11, 13, -2])]
    return hello("classic", s, 3, hands=2), script, [14, 38, -6]


def closest555_script():
    """Closest to 555, 2 seats, the bot in seat 0: two swap decisions, bets, a show."""
    script = []
    h = 0  # dealer 1: the bot acts first
    script += [event(h, "hand_started", dealer=1, seats=2, boot=1, pot=2, stake=1),
               event(h, "dealt", seat=0, redeal=0, cards=["5s", "Kd", "9h"]),
               event(h, "dealt", seat=1, redeal=0)]
    script.append(Ask(request(h, "swap", swap_legal(), 2, 1, [player(), player()],
                              cards=None), draw="5c"))
    script.append(Ask(request(h, "bet", seen_bet_legal(1, show=True), 2, 1,
                              [player(), player()], cards=None)))
    script += [event(h, "swapped", seat=1, cost=0),
               event(h, "bet", seat=1, amount=4, blind=False, stake=2, pot=8)]
    script.append(Ask(request(h, "swap", swap_legal(), 8, 2,
                              [player(put_in=3, turns=1), player(put_in=5, turns=1, swaps=1)],
                              cards=None), draw="4d"))
    script.append(Ask(request(h, "bet", seen_bet_legal(2, show=True), 8, 2,
                              [player(put_in=3, turns=1), player(put_in=5, turns=1, swaps=1)],
                              cards=None)))
    script += [event(h, "kept", seat=1),
               event(h, "show_asked", seat=1, against=0, cost=4, pot=16),
               event(h, "revealed", reason="show", hands=[
                   {"seat": 0, "cards": ["5s", "5c", "4d"],
                    "value": {"kind": "closest555", "number": 554, "distance": 1}},
                   {"seat": 1, "cards": ["6c", "6d", "Ts"],
                    "value": {"kind": "closest555", "number": 606, "distance": 51}}]),
               event(h, "hand_ended", reason="show", winners=[0], pot=16, payoffs=[9, -9])]
    h = 1  # dealer 0: seat 1 first; a paid swap (swap_cost 1 in this match's settings)
    script += [event(h, "hand_started", dealer=0, seats=2, boot=1, pot=2, stake=1),
               event(h, "dealt", seat=1, redeal=0),
               event(h, "dealt", seat=0, redeal=0, cards=["Ac", "2d", "Jh"]),
               event(h, "kept", seat=1),
               event(h, "bet", seat=1, amount=2, blind=False, stake=1, pot=4)]
    script.append(Ask(request(h, "swap", swap_legal(cost=1), 4, 1,
                              [player(), player(put_in=3, turns=1)], cards=None), draw="Qs"))
    script.append(Ask(request(h, "bet", seen_bet_legal(1, show=True), 4, 1,
                              [player(), player(put_in=3, turns=1)], cards=None)))
    script += [event(h, "swapped", seat=1, cost=1),
               event(h, "packed", seat=1, reason="chose"),
               event(h, "hand_ended", reason="last_standing", winners=[0], pot=7,
                     payoffs=[3, -3])]
    return hello("closest-555", 0, 2, hands=2, swap_cost=1), script, [12, -12]


def lallan_script():
    """Lallan Kallan, 3 seats, the bot in seat 2: dead hands, a redeal, a sideshow."""
    script = []
    h = 0  # dealer 2: seat 0 first. Seat 1 is dead.
    script += [event(h, "hand_started", dealer=2, seats=3, boot=1, pot=3, stake=1),
               event(h, "dealt", seat=0, redeal=0), event(h, "dealt", seat=1, redeal=0),
               event(h, "dealt", seat=2, redeal=0, cards=["Kh", "Kd", "5s"]),
               event(h, "dead", seats=[1]),
               event(h, "bet", seat=0, amount=2, blind=False, stake=1, pot=5)]
    players = [player(put_in=3, turns=1), player(in_hand=False, dead=True), player()]
    script.append(Ask(request(h, "bet", seen_bet_legal(1, show=True), 5, 1, players,
                              cards=None)))
    script += [event(h, "packed", seat=0, reason="chose"),
               event(h, "hand_ended", reason="last_standing", winners=[2], pot=7,
                     payoffs=[-3, -1, 4])]
    h = 1  # dealer 0: all dead, a redeal, then seat 1 first
    script += [event(h, "hand_started", dealer=0, seats=3, boot=1, pot=3, stake=1),
               event(h, "dealt", seat=1, redeal=0),
               event(h, "dealt", seat=2, redeal=0, cards=["2h", "4h", "9d"]),
               event(h, "dealt", seat=0, redeal=0),
               event(h, "dead", seats=[0, 1, 2]),
               event(h, "redeal", redeal=1, pot=3),
               event(h, "dealt", seat=1, redeal=1),
               event(h, "dealt", seat=2, redeal=1, cards=["2h", "3d", "9c"]),
               event(h, "dealt", seat=0, redeal=1),
               event(h, "bet", seat=1, amount=2, blind=False, stake=1, pot=5)]
    players = [player(), player(put_in=3, turns=1), player()]
    script.append(Ask(request(h, "bet", seen_bet_legal(1, sideshow_target=1), 5, 1, players,
                              cards=None)))
    script.append(event(h, "sideshow_asked", seat=0, target=2, cost=2, pot=9))
    script.append(Ask(
        request(h, "sideshow_reply", REPLY_LEGAL, 9, 1,
                [player(put_in=3), player(put_in=3, turns=1), player(put_in=3, turns=1)],
                cards=None),
        then={"accept": [event(h, "sideshow_compared", seat=0, target=2, loser=0,
                               seat_cards=["8h", "8c", "3s"],
                               target_cards=["2h", "3d", "9c"]),
                         event(h, "packed", seat=0, reason="lost_sideshow")],
              "refuse": [event(h, "sideshow_refused", seat=0, target=2)]}))
    script.append(Ask(request(h, "bet", seen_bet_legal(1, show=True), 9, 1,
                              [player(in_hand=False, put_in=3, turns=1),
                               player(put_in=3, turns=1), player(put_in=3, turns=1)],
                              cards=None, known={"0": ["8h", "8c", "3s"]})))
    script += [event(h, "show_asked", seat=1, against=2, cost=2, pot=11),
               event(h, "revealed", reason="show", hands=[]),
               event(h, "hand_ended", reason="show", winners=[2], pot=11,
                     payoffs=[-3, -5, 8])]
    h = 2  # the bot's hand is dead; the others play on without it
    script += [event(h, "hand_started", dealer=1, seats=3, boot=1, pot=3, stake=1),
               event(h, "dealt", seat=2, redeal=0, cards=["2s", "7c", "Jc"]),
               event(h, "dealt", seat=0, redeal=0), event(h, "dealt", seat=1, redeal=0),
               event(h, "dead", seats=[2]),
               event(h, "bet", seat=0, amount=4, blind=False, stake=2, pot=7),
               event(h, "packed", seat=1, reason="chose"),
               event(h, "hand_ended", reason="last_standing", winners=[0], pot=7,
                     payoffs=[4, -3, -1])]
    return hello("lallan-kallan", 2, 3, hands=3), script, [-2, -9, 11]


SCRIPTS = {"classic": classic_script, "closest-555": closest555_script,
           "lallan-kallan": lallan_script}


# ---------------------------------------------------------------------------------------------
# Random requests: many believable requests of every kind, to reach every branch of a bot
# ---------------------------------------------------------------------------------------------


def random_requests(game, rng, count):
    """(messages before the request, request template, after_see) triples for `game`."""
    seats = 4
    for hand in range(count):
        stake = rng.choice([1, 1, 2, 4, 8, 32, 64])
        pot = seats + rng.randrange(0, 60) * stake
        cards = rng.sample(DECK, 3)
        while game == "lallan-kallan" and len({c[1] in "hd" for c in cards}) == 1:
            cards = rng.sample(DECK, 3)  # a dead hand never gets a request
        in_hand = [True] + [rng.random() < 0.7 for _ in range(seats - 1)]
        if sum(in_hand) < 2:
            in_hand[1] = True
        players = [player(in_hand=i, put_in=1 + rng.randrange(20) * stake,
                          turns=rng.randrange(3)) for i in in_hand]
        known = {}
        if rng.random() < 0.3:
            other = rng.choice([s for s in range(1, seats) if in_hand[s]])
            known[str(other)] = rng.sample([c for c in DECK if c not in cards], 3)
        before = [event(hand, "hand_started", dealer=seats - 1, seats=seats, boot=1,
                        pot=seats, stake=1),
                  event(hand, "dealt", seat=0, redeal=0,
                        cards=None if game == "classic" else cards)]
        kind = rng.choice(["bet", "bet", "sideshow_reply"] + (["swap"] * 2
                                                             if game == "closest-555" else []))
        two_left = sum(in_hand) == 2
        after_see = None
        if kind == "swap":
            legal = [{"action": "swap", "cards": cards, "cost": rng.choice([0, 0, 1])},
                     {"action": "keep"}]
        elif kind == "sideshow_reply":
            legal = list(REPLY_LEGAL)
            asker = next(s for s in range(1, seats) if in_hand[s])
            before.append(event(hand, "sideshow_asked", seat=asker, target=0,
                                cost=2 * stake, pot=pot))
        elif game == "classic" and rng.random() < 0.5:
            legal = blind_bet_legal(stake, show=two_left)
            seen_legal = seen_bet_legal(stake, show=two_left and rng.random() < 0.5)
            after_see = {"cards": cards,
                         "request": request(hand, "bet", seen_legal, pot, stake, players,
                                            cards=cards, known=known)}
            players = [dict(p, seen=False) for p in players]
            yield before, request(hand, "bet", legal, pot, stake, players, known=known), \
                after_see
            continue
        else:
            target = None
            if not two_left and rng.random() < 0.6:
                target = max(s for s in range(seats) if in_hand[s])
            legal = seen_bet_legal(stake, show=two_left and rng.random() < 0.7,
                                   sideshow_target=target)
        yield before, request(hand, kind, legal, pot, stake, players, cards=cards,
                              known=known), None


# ---------------------------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------------------------


class SampleBotTests(unittest.TestCase):
    def start(self, script, *args):
        bot = BotProcess(script, *args)
        self.addCleanup(bot.close)
        return bot

    def handshake(self, bot, hello_message):
        bot.send(hello_message)
        line = bot.read_line()
        self.assertIsNotNone(line, "no hello answer; stderr:\n" + bot.log())
        answer = json.loads(line)
        self.assertEqual(answer.get("type"), "hello", line)
        self.assertIsInstance(answer.get("name"), str)
        self.assertTrue(answer["name"])
        self.assertEqual(answer.get("protocol"), 1)
        return answer

    def play_script(self, script_name, game, *args):
        hello_message, script, totals = SCRIPTS[game]()
        bot = self.start(script_name, *args)
        self.handshake(bot, hello_message)
        arena = FakeArena(self, bot, hello_message["seat"], game)
        arena.play(script)
        arena.finish(totals)
        self.assertTrue(arena.answers, "the script asked nothing")
        return arena.answers

    def test_scripted_matches_every_bot_every_game(self):
        for script_name in BOTS:
            for game in GAMES:
                for seed in range(4):  # several seeds reach more branches of random_bot
                    with self.subTest(bot=script_name, game=game, seed=seed):
                        self.play_script(script_name, game, "--seed", str(seed))

    def test_random_requests_every_bot_every_game(self):
        for script_name in BOTS:
            for game in GAMES:
                with self.subTest(bot=script_name, game=game):
                    rng = random.Random("%s:%s" % (script_name, game))
                    bot = self.start(script_name)
                    self.handshake(bot, hello(game, 0, 4, hands=150))
                    arena = FakeArena(self, bot, 0, game)
                    kinds = set()
                    for before, template, after_see in random_requests(game, rng, 150):
                        for message in before:
                            arena.deliver(message)
                        arena.cards = template.get("cards") or (
                            after_see["cards"] if after_see else None)
                        arena.seen = "see" not in [e["action"] for e in template["legal"]]
                        visible = set(arena.cards or [])
                        for cards in template.get("known", {}).values():
                            visible |= set(cards)
                        draw = next(c for c in DECK if c not in visible)
                        arena.ask(Ask(template, after_see=after_see, draw=draw))
                        kinds.add(template["kind"])
                    arena.finish([0, 0, 0, 0])
                    expected = {"bet", "sideshow_reply"} | (
                        {"swap"} if game == "closest-555" else set())
                    self.assertEqual(kinds, expected)

    def test_same_seed_same_answers_and_seed_flag_changes_them(self):
        def answers(*args):
            played = self.play_script("random_bot.py", "closest-555", *args)
            return [json.dumps(answer, sort_keys=True) for _, answer in played]

        for script_name in BOTS:
            with self.subTest(bot=script_name):
                first = self.play_script(script_name, "classic")
                second = self.play_script(script_name, "classic")
                self.assertEqual([a for _, a in first], [a for _, a in second])
        runs = {tuple(answers("--seed", str(seed))) for seed in range(6)}
        self.assertGreater(len(runs), 1, "--seed does not change the random bot's play")

    def test_tolerates_faults_unknown_messages_and_unknown_fields(self):
        for script_name in BOTS:
            with self.subTest(bot=script_name):
                bot = self.start(script_name)
                greeting = hello("closest-555", 0, 2)
                greeting["future_field"] = {"nested": [1, 2]}
                self.handshake(bot, greeting)
                bot.send({"type": "chat", "text": "a message type from a newer arena"})
                bot.send(event(0, "hand_started", dealer=1, seats=2, boot=1, pot=2, stake=1,
                               table="future"))
                bot.send(event(0, "dealt", seat=0, redeal=0, cards=["5s", "5d", "Th"]))
                bot.send(event(0, "a_new_event_kind", seat=1))
                template = request(0, "bet", seen_bet_legal(1, show=True), 2, 1,
                                   [player(), player()], cards=["5s", "5d", "Th"])
                template["legal"].append({"action": "future_action", "x": 1})
                template["hint"] = "unknown fields are ignored"
                template["id"] = 41
                bot.send(template)
                line = bot.read_line()
                self.assertIsNotNone(line, bot.log())
                answer = json.loads(line)
                self.assertEqual(answer["id"], 41)
                self.assertIsNone(answer_problem(template, answer), line)
                offered = [e.get("action") for e in answer.get("mix", [answer])]
                self.assertNotIn("future_action", offered)
                bot.send({"type": "fault", "id": 41, "fault": "timeout",
                          "detail": "no answer within 1000 ms + bank", "applied":
                          {"action": "pack"}})
                bot.send(event(0, "packed", seat=0, reason="chose"))
                bot.send(event(0, "hand_ended", reason="last_standing", winners=[1], pot=4,
                               payoffs=[-2, 2]))
                arena = FakeArena(self, bot, 0, "closest-555")
                arena.finish([-2, 2])

    def test_a_restarted_bot_joins_mid_match(self):
        for script_name in BOTS:
            with self.subTest(bot=script_name):
                bot = self.start(script_name)
                self.handshake(bot, hello("lallan-kallan", 1, 2, hands=100, first_hand=57))
                bot.send(event(57, "hand_started", dealer=1, seats=2, boot=1, pot=2, stake=1))
                bot.send(event(57, "dealt", seat=0, redeal=0))
                bot.send(event(57, "dealt", seat=1, redeal=0, cards=["Qs", "Qh", "Qd"]))
                template = request(57, "bet", seen_bet_legal(1, show=True), 2, 1,
                                   [player(), player()], cards=["Qs", "Qh", "Qd"])
                template["id"] = 900
                bot.send(template)
                answer = json.loads(bot.read_line())
                self.assertIsNone(answer_problem(template, answer))

    def test_the_minimal_bot_in_protocol_md_is_minimal_bot_py(self):
        spec = os.path.join(HERE, "..", "..", "protocol", "PROTOCOL.md")
        if not os.path.exists(spec):
            self.skipTest("protocol/PROTOCOL.md not found")
        with open(spec, encoding="utf-8") as handle:
            text = handle.read()
        section = text.split("## A complete bot in Python", 1)[1]
        block = section.split("```python\n", 1)[1].split("```", 1)[0]
        with open(os.path.join(HERE, "minimal_bot.py"), encoding="utf-8") as handle:
            self.assertEqual(block, handle.read())

    def test_exits_when_stdin_closes(self):
        for script_name in BOTS:
            with self.subTest(bot=script_name):
                bot = self.start(script_name)
                self.handshake(bot, hello("classic", 0, 2))
                bot.process.stdin.close()
                self.assertEqual(bot.process.wait(timeout=5), 0)


if __name__ == "__main__":
    unittest.main()
