#!/usr/bin/env python3
"""garbage.py: answers hello correctly, then answers every request with a line that is not
JSON.

Expected: a `malformed` fault at every request (the arena applies pack / keep / refuse).
"""
import zoo_common as zoo


def answer_garbage(request):
    zoo.send_raw(b"this is not JSON {{{ pack please\n")


zoo.play("garbage", on_request=answer_garbage)
