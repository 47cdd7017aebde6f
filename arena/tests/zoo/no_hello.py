#!/usr/bin/env python3
"""no_hello.py: reads everything the arena writes and never writes anything, not even the
hello answer. Leaves when stdin closes.

Expected: a `startup` fault after startup_ms.
"""
import sys

for _line in sys.stdin.buffer:
    pass
