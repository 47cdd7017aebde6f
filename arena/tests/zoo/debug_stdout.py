#!/usr/bin/env python3
"""debug_stdout.py: answers hello and every request correctly, but first prints a debug line
on stdout (a student's `print`), where only protocol lines belong.

Expected: a `malformed` fault at the first request (the debug line); the correct answer that
follows it arrives while the next request waits (a `wrong_id` in a match).
"""
import zoo_common as zoo


def answer_after_debug(request):
    zoo.send_raw(f"thinking about request {request['id']}\n".encode())
    zoo.send(zoo.safe_answer(request))


zoo.play("debug-stdout", on_request=answer_after_debug)
