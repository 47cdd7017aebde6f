#!/usr/bin/env python3
"""lifetime.py: a well-behaved bot that logs when it started and when its match ended
(`LIFETIME start NS` and `LIFETIME end NS`, the machine's real-time clock in nanoseconds), so
that a test can tell which matches ran at the same time.
"""
import time

import zoo_common as zoo

zoo.log("LIFETIME start %d" % time.time_ns())
zoo.play("lifetime")
zoo.log("LIFETIME end %d" % time.time_ns())
