#!/usr/bin/env python3
"""illegal.py: answers every request with well-formed JSON and the right id, but an illegal
action. It alternates between two kinds of mistake:
  * odd requests: impossible parameters: a bet of 999999 chips (far above any max), a swap
    of a real card that it does not hold; to a sideshow, where nothing has parameters, it
    answers a bet of 999999;
  * even requests: an action that is not offered at all
    (accept when betting, show when swapping, sideshow when replying to a sideshow).

Expected: an `illegal` fault at every request (the arena applies pack / keep / refuse).
"""
import zoo_common as zoo

count = 0

OUT_OF_BOUNDS = {
    "bet": {"action": "bet", "amount": 999999},
    "swap": {"action": "swap"},  # the card is filled in below
    "sideshow_reply": {"action": "bet", "amount": 999999},
}
NOT_OFFERED = {
    "bet": {"action": "accept"},
    "swap": {"action": "show"},
    "sideshow_reply": {"action": "sideshow"},
}


def answer_illegally(request):
    global count
    count += 1
    kind = request.get("kind", "bet")
    answer = dict((OUT_OF_BOUNDS if count % 2 else NOT_OFFERED).get(kind, {"action": "fly"}))
    if kind == "swap" and count % 2:
        # A real card, but not one of ours: one that is not in the offered swap set.
        held = next((e["cards"] for e in request["legal"] if e["action"] == "swap"), [])
        answer["card"] = next(c for c in ("As", "Ks", "Qs", "Js") if c not in held)
    answer["id"] = request["id"]
    zoo.send(answer)


zoo.play("illegal", on_request=answer_illegally)
