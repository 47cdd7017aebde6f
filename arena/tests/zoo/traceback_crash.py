#!/usr/bin/env python3
"""traceback_crash.py: answers hello, then at its first request dies of an uncaught KeyError
(a bug a bot author makes: a key the request does not have), so Python prints a traceback on
stderr and exits with status 1. Every restart of it does the same again.

Expected: a `crashed` fault whose report shows the end of the traceback
("KeyError: 'opponent_cards'"), wherever the arena reports the crash.
"""
import zoo_common as zoo


def strategy(request):
    return request["opponent_cards"]  # no such key: KeyError


def crash(request):
    zoo.send({"id": request["id"], "action": strategy(request)})


zoo.play("traceback-crash", on_request=crash)
