#!/usr/bin/env python3
"""The smallest complete bot: sees at once, always bets the minimum, keeps, refuses."""
import json
import sys


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()  # without the flush the arena never gets the line


for line in sys.stdin:  # one JSON object per line
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        send({"type": "hello", "name": "minimal-bot", "version": "1.0", "protocol": 1})
    elif kind == "request":
        legal = {entry["action"]: entry for entry in message["legal"]}
        if "see" in legal:  # classic game: look at the cards first
            answer = {"action": "see"}
        elif "bet" in legal:  # bet the minimum ("chaal")
            answer = {"action": "bet", "amount": legal["bet"]["min"]}
        elif "keep" in legal:  # closest-555: keep the three cards
            answer = {"action": "keep"}
        elif "refuse" in legal:  # someone asked us for a sideshow
            answer = {"action": "refuse"}
        else:
            answer = {"action": "pack"}
        answer["id"] = message["id"]  # the answer carries the request's id
        send(answer)
    elif kind == "fault":
        print("fault:", message, file=sys.stderr)  # stderr is the bot's log
    elif kind == "match_end":
        break
    # Events, and message types this bot does not know, are simply ignored.
