#!/usr/bin/env python3
"""reused_id.py: answers each request with a legal action but the id of the previous request
it was sent (the common mistake of echoing a stale id); its very first request is answered
correctly.

Expected: a `wrong_id` fault at once for every other request ("request N was already
answered"), never a `timeout`: the arena does not wait for an answer that cannot come.
"""
import zoo_common as zoo

previous = None


def answer_previous_id(request):
    global previous
    answer = zoo.safe_answer(request)
    if previous is not None:
        answer["id"] = previous
    previous = request["id"]
    zoo.send(answer)


zoo.play("reused-id", on_request=answer_previous_id)
