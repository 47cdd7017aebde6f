#!/usr/bin/env python3
"""numbers.py MODE: bets the minimum (packs, keeps or refuses when it cannot bet), writing its
numbers in one odd way:
  whole     "id":17.0 and "amount":2.0: whole numbers written as floats, which the arena
            reads as 17 and 2 (as JSON Schema does). Expected: no fault.
  fraction  "amount": the minimum plus 0.5. Expected: `malformed` ("is not a whole number").
  huge      "amount":18446744073709551616 (2^64). Expected: `malformed`, the number echoed
            exactly.
"""
import sys

import zoo_common as zoo

MODE = sys.argv[1]


def answer(request):
    bet = next((e for e in request["legal"] if e["action"] == "bet"), None)
    if bet is None:
        zoo.send(zoo.safe_answer(request))
        return
    if MODE == "whole":
        line = '{"id":%d.0,"action":"bet","amount":%d.0}' % (request["id"], bet["min"])
    elif MODE == "fraction":
        line = '{"id":%d,"action":"bet","amount":%d.5}' % (request["id"], bet["min"])
    else:
        line = '{"id":%d,"action":"bet","amount":18446744073709551616}' % request["id"]
    zoo.send_raw((line + "\n").encode())


zoo.play("numbers-" + MODE, on_request=answer)
