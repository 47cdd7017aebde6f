#!/usr/bin/env python3
"""slow.py: answers every request correctly, but only after 3 seconds.

With decision_ms 1000 and a bank of 10000 ms, the first answers draw on the bank; once it is
spent, requests time out. An answer that arrives after its timeout carries the id of an
earlier request: the arena drops it silently.
Expected: `timeout` faults after the bank runs out, no `wrong_id` faults.
"""
import time

import zoo_common as zoo


def answer_late(request):
    time.sleep(3)
    zoo.send(zoo.safe_answer(request))


zoo.play("slow", on_request=answer_late)
