#!/usr/bin/env python3
"""close_stdout.py: answers hello, then at its first request closes its stdout and keeps
running (reading stdin, sleeping) without ever exiting by itself.

Expected: a `crashed` fault (the arena sees end of file on the bot's stdout), the bot packs
that hand, its process group is killed, and it is restarted for the next hand.
"""
import os
import sys
import time

import zoo_common as zoo


def close_and_linger(request):
    sys.stdout.flush()
    os.close(1)
    zoo.log("close_stdout: stdout closed, still running")
    while True:
        time.sleep(1)


zoo.play("close_stdout", on_request=close_and_linger)
