#!/usr/bin/env python3
"""cpu_spin.py: answers hello, then at its first request spins the CPU forever.

Expected: a `timeout` fault (the decision time and the bank run out); the arena must keep
its own timing despite a busy neighbour, and kill the bot at the end.
"""
import zoo_common as zoo


def spin(request):
    while True:
        pass


zoo.play("cpu-spin", on_request=spin)
