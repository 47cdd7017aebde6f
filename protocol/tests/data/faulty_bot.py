#!/usr/bin/env python3
"""A bot that breaks the protocol on purpose, then plays properly.

Used to record transcripts with `fault` notices (see README.md next to this file).
Usage: python3 faulty_bot.py [FAULT ...]

Its first `bet` requests are answered with one fault each, in the order given:
  too_much   a bet above the legal maximum      -> fault "illegal"   (well-formed answer)
  fly        {"action":"fly"}                   -> fault "malformed" (fails the schema)
  wrong_id   a legal action under a wrong id    -> fault "wrong_id"  (well-formed answer)
  no_amount  {"action":"bet"} without an amount -> fault "malformed" (fails the schema)
  late       the right answer, but too late     -> fault "timeout"; the late line is read
             (and dropped) while the next request is pending
  crash      exit without answering             -> fault "crashed"; the arena starts the
             bot again for the next hand (that process makes no more faults)
Default: too_much fly wrong_id no_amount.
After that it sees at once, shows when it can, else bets the minimum, and accepts sideshows.
"""
import json
import sys
import time

faults = sys.argv[1:] or ["too_much", "fly", "wrong_id", "no_amount"]
late_seconds = 1.0  # set from hello: a little more than the decision time plus the bank


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def good_answer(legal):
    if "see" in legal:
        return {"action": "see"}
    if "show" in legal:
        return {"action": "show"}
    if "bet" in legal:
        return {"action": "bet", "amount": legal["bet"]["min"]}
    if "keep" in legal:
        return {"action": "keep"}
    if "accept" in legal:
        return {"action": "accept"}
    return {"action": "pack"}


for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        time_limits = message["time"]
        late_seconds = (time_limits["decision_ms"] + time_limits["bank_ms"]) / 1000 + 0.1
        if message["first_hand"] > 0:
            faults = []  # a restarted process behaves
        send({"type": "hello", "name": "faulty-bot", "version": "1.0", "protocol": 1})
    elif kind == "request":
        legal = {entry["action"]: entry for entry in message["legal"]}
        rid = message["id"]
        if message["kind"] == "bet" and faults and "bet" in legal:
            fault = faults.pop(0)
            if fault == "too_much":
                send({"id": rid, "action": "bet", "amount": legal["bet"]["max"] + 1000})
            elif fault == "fly":
                send({"id": rid, "action": "fly"})
            elif fault == "wrong_id":
                send({"id": rid + 1000, "action": "pack"})
            elif fault == "no_amount":
                send({"id": rid, "action": "bet"})
            elif fault == "late":
                time.sleep(late_seconds)
                send({"id": rid, **good_answer(legal)})
            elif fault == "crash":
                sys.exit(3)
            continue
        send({"id": rid, **good_answer(legal)})
    elif kind == "fault":
        print("fault:", message, file=sys.stderr)
    elif kind == "match_end":
        break
