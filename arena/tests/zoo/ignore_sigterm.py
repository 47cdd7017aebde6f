#!/usr/bin/env python3
"""ignore_sigterm.py: ignores SIGTERM, plays legally (pack / keep / refuse) until
match_end, and then, instead of exiting, sleeps forever.

Expected: no fault during the match; at the end the arena's grace period runs out, SIGTERM
does nothing, and the arena must escalate to SIGKILL.
"""
import signal
import time

import zoo_common as zoo

signal.signal(signal.SIGTERM, signal.SIG_IGN)
zoo.play("ignore-sigterm")
zoo.log("ignore_sigterm: match over, but I am staying")
while True:
    time.sleep(3600)
