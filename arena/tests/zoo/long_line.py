#!/usr/bin/env python3
"""long_line.py: answers hello, then at its first request writes 100 MB without a newline
(the protocol's limit is 64 KiB per line) and sleeps forever.

Expected: a `line_too_long` fault as soon as the arena has read past the limit, without the
arena buffering the whole 100 MB; the bot must then be killed.
"""
import time

import zoo_common as zoo

MEGABYTE = b"x" * (1 << 20)


def flood(request):
    try:
        for _ in range(100):
            zoo.send_raw(MEGABYTE)
    except BrokenPipeError:
        pass
    while True:
        time.sleep(3600)


zoo.play("long-line", on_request=flood)
