#!/usr/bin/env python3
"""A bot that breaks the protocol on purpose, once each way, then plays properly.

Used to record `classic.*` transcripts with `fault` notices (see README.md here).
Its first four answers to `bet` requests are, in order:
  1. a bet above the legal maximum            -> fault "illegal"   (valid JSON shape)
  2. {"action":"fly"}                         -> fault "malformed" (fails the schema)
  3. a legal action under a wrong id          -> fault "wrong_id"  (valid JSON shape)
  4. {"action":"bet"} without an amount       -> fault "malformed" (fails the schema)
After that it sees at once, bets the minimum, shows when it can and accepts sideshows.
"""
import json
import sys

bad_answers_left = ["too_much", "fly", "wrong_id", "no_amount"]


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        send({"type": "hello", "name": "faulty-bot", "version": "1.0", "protocol": 1})
    elif kind == "request":
        legal = {entry["action"]: entry for entry in message["legal"]}
        rid = message["id"]
        if message["kind"] == "bet" and bad_answers_left and "bet" in legal:
            bad = bad_answers_left.pop(0)
            if bad == "too_much":
                send({"id": rid, "action": "bet", "amount": legal["bet"]["max"] + 1000})
            elif bad == "fly":
                send({"id": rid, "action": "fly"})
            elif bad == "wrong_id":
                send({"id": rid + 1000, "action": "pack"})
            else:
                send({"id": rid, "action": "bet"})
            continue
        if "see" in legal:
            answer = {"action": "see"}
        elif "show" in legal:
            answer = {"action": "show"}
        elif "bet" in legal:
            answer = {"action": "bet", "amount": legal["bet"]["min"]}
        elif "keep" in legal:
            answer = {"action": "keep"}
        elif "accept" in legal:
            answer = {"action": "accept"}
        else:
            answer = {"action": "pack"}
        send({"id": rid, **answer})
    elif kind == "fault":
        print("fault:", message, file=sys.stderr)
    elif kind == "match_end":
        break
