#!/usr/bin/env python3
"""bad_mix.py: answers every request with a mixed answer that is wrong in a way given on the
command line (PROTOCOL.md, "Mixed answers"):

  illegal  a mix of the safe answer and a bet of one chip more than allowed (or a swap of a
           card the bot does not hold): an `illegal` fault, the mix refused whole;
  sum      probabilities adding up to 0.9: a `malformed` fault.

Expected: a fault at every request (the arena applies pack / keep / refuse).
"""
import sys

import zoo_common as zoo

how = sys.argv[1] if len(sys.argv) > 1 else "illegal"


def answer(request):
    safe = zoo.safe_answer(request)
    del safe["id"]
    if how == "sum":
        mix = [dict(safe, p=0.9)]
    elif request["kind"] == "swap":
        held = request.get("cards") or []
        card = next(c for c in ("2c", "3c", "4c", "5c") if c not in held)
        mix = [dict(safe, p=0.5), {"action": "swap", "card": card, "p": 0.5}]
    else:
        bet = next((e for e in request["legal"] if e["action"] == "bet"), None)
        wrong = {"action": "bet", "amount": (bet["max"] if bet else 0) + 1}
        mix = [dict(safe, p=0.5), dict(wrong, p=0.5)]
    zoo.send({"id": request["id"], "mix": mix})


zoo.play("bad_mix", on_request=answer)
