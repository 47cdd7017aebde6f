#!/usr/bin/env python3
"""other_seat_id.py: answers with a legal action but the id of a request that went to
another seat (the largest id below the current one that this bot was never sent), when there
is one; otherwise it answers correctly.

Request ids come from one counter shared by all seats, so the ids a bot sees have gaps.
Expected: a `wrong_id` fault at once ("request N was never sent to this bot"), never a
`timeout`.
"""
import zoo_common as zoo

received = set()


def answer_other_seat_id(request):
    received.add(request["id"])
    answer = zoo.safe_answer(request)
    others = [i for i in range(request["id"]) if i not in received]
    if others:
        answer["id"] = others[-1]
    zoo.send(answer)


zoo.play("other-seat-id", on_request=answer_other_seat_id)
