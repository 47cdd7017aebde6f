#!/usr/bin/env python3
"""attack_fds.py BOUND: at hello, opens /dev/null until it is refused and keeps every
descriptor open, then plays legally (pack / keep / refuse).

Logs "ATTACK fd-exhaustion SUCCEEDED: N" when it opened N >= BOUND descriptors (at most
100000 are tried), else "ATTACK fd-exhaustion failed: N opened, then <error>".
"""
import os
import sys

import attack_common as attack
import zoo_common as zoo

bound = int(sys.argv[1]) if len(sys.argv) > 1 else 300
held = []


def exhaust(hello):
    error = None
    while len(held) < 100000:
        try:
            held.append(os.open("/dev/null", os.O_RDONLY))
        except OSError as failure:
            error = failure
            break
    if len(held) >= bound:
        attack.succeeded("fd-exhaustion", "%d descriptors (bound %d)" % (len(held), bound))
    else:
        attack.failed("fd-exhaustion", "%d opened, then %s" % (len(held), error))


zoo.play("attack-fds", on_hello=exhaust)
