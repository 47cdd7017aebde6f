#!/usr/bin/env python3
"""cpu_timed.py MS: an honest bot that needs MS milliseconds of CPU for every decision (a
busy loop on its own process time) and measures how long, in wall time, each one took.

Logs on stderr, for each request, "DECISION cpu_ms=<used> wall_ms=<taken>" (from reading the
request to answering it), and at the end "DECISIONS n=<count> median_wall_ms=<m>
max_wall_ms=<m>". Plays show when it may, else the cheapest bet, keep, refuse: hands end
quickly, and it is asked at least once a hand against a bot that never packs.
"""
import sys
import time

import zoo_common as zoo

need = float(sys.argv[1]) / 1000.0 if len(sys.argv) > 1 else 0.020
walls = []


def think(request):
    wall = time.monotonic()
    cpu = time.process_time()
    while time.process_time() - cpu < need:
        pass
    legal = {entry["action"]: entry for entry in request["legal"]}
    if "show" in legal:
        answer = {"id": request["id"], "action": "show"}
    elif "bet" in legal:
        answer = {"id": request["id"], "action": "bet", "amount": legal["bet"]["min"]}
    else:
        answer = zoo.safe_answer(request)
    used = time.process_time() - cpu
    taken = time.monotonic() - wall
    walls.append(taken)
    zoo.log("DECISION cpu_ms=%.1f wall_ms=%.1f" % (used * 1000, taken * 1000))
    zoo.send(answer)


zoo.play("cpu-timed", on_request=think)
if walls:
    walls.sort()
    zoo.log(
        "DECISIONS n=%d median_wall_ms=%.1f max_wall_ms=%.1f"
        % (len(walls), walls[len(walls) // 2] * 1000, walls[-1] * 1000)
    )
