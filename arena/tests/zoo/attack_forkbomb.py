#!/usr/bin/env python3
"""attack_forkbomb.py BOUND: at hello, forks as fast as it can for 2 seconds (at most 1000
forks; every child sleeps 120 s, then exits), then plays legally (pack / keep / refuse).

Logs "ATTACK fork-bomb SUCCEEDED: N forks" when N >= BOUND, else "ATTACK fork-bomb failed:
N forks, then <error>". Expected: the arena's process limit per bot stops it well before
BOUND, the match goes on, and every child is gone when the match is over.
"""
import os
import sys
import time

import attack_common as attack
import zoo_common as zoo

bound = int(sys.argv[1]) if len(sys.argv) > 1 else 300


def bomb(hello):
    forks, refusals, error = 0, 0, None
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline and forks < 1000 and refusals < 200:
        try:
            pid = os.fork()
        except OSError as failure:
            refusals += 1
            error = error or failure
            continue
        if pid == 0:
            try:
                time.sleep(120)
            finally:
                os._exit(0)
        forks += 1
    if forks >= bound:
        attack.succeeded("fork-bomb", "%d forks (bound %d), %d refused" % (forks, bound, refusals))
    else:
        attack.failed("fork-bomb", "%d forks, then %s" % (forks, error))


zoo.play("attack-forkbomb", on_hello=bomb)
