#!/usr/bin/env python3
"""wrong_id.py: answers every request with a legal action but the id plus 1000.

Expected: a `wrong_id` fault at every request (an id that was never sent is not a late
answer, so it is not dropped silently).
"""
import zoo_common as zoo


def answer_wrong_id(request):
    answer = zoo.safe_answer(request)
    answer["id"] = request["id"] + 1000
    zoo.send(answer)


zoo.play("wrong-id", on_request=answer_wrong_id)
