#!/usr/bin/env python3
"""fault_notice.py: breaks on the arena's `fault` notice. Its first answer is an illegal bet;
every later request gets the safe answer, until a `fault` message arrives (PROTOCOL.md: the
arena says what it played in the bot's place): then it logs the notice and exits with code 3,
as a bot that cannot parse that message would crash in a match.

Expected: an `illegal` fault at the first request, then a crash once the notice is read.
"""
import sys

import zoo_common as zoo

answered = 0

while True:
    message = zoo.read_message()
    if message is None:
        break
    kind = message.get("type")
    if kind == "hello":
        zoo.send(zoo.hello_answer("fault_notice"))
    elif kind == "request":
        answered += 1
        if answered == 1:
            zoo.send({"id": message["id"], "action": "bet", "amount": 999999})
        else:
            zoo.send(zoo.safe_answer(message))
    elif kind == "fault":
        zoo.log("fault notice: %s for request %s, applied %s" % (message.get("fault"), message.get("id"), message.get("applied")))
        sys.exit(3)
    elif kind == "match_end":
        break
