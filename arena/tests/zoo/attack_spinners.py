#!/usr/bin/env python3
"""attack_spinners.py N: at hello, starts N children that each call setsid() (so that each
is a scheduler autogroup of its own, as much CPU as a whole bot without a cpu cgroup) and spin
until killed; then plays on (the cheapest bet, never pack nor show, so that its opponent is
asked every hand).

Logs "ATTACK cpu-spinners started: N spinners". Whether the attack worked shows in the
opponent (cpu_timed.py): the arena's per-bot cpu cgroup holds all of this bot to its CPU
quota with the same weight as its opponent, so the opponent never times out.
"""
import os
import sys

import zoo_common as zoo

count = int(sys.argv[1]) if len(sys.argv) > 1 else 150


def spin_forever():
    os.setsid()
    while True:
        pass


def start(hello):
    started = 0
    for _ in range(count):
        try:
            pid = os.fork()
        except OSError as failure:
            zoo.log("spinner %d not started: %s" % (started + 1, failure))
            break
        if pid == 0:
            try:
                spin_forever()
            finally:
                os._exit(0)
        started += 1
    zoo.log("ATTACK cpu-spinners started: %d spinners" % started)


def answer(request):
    legal = {entry["action"]: entry for entry in request["legal"]}
    if "bet" in legal:
        zoo.send({"id": request["id"], "action": "bet", "amount": legal["bet"]["min"]})
    else:
        zoo.send(zoo.safe_answer(request))


zoo.play("attack-spinners", on_request=answer, on_hello=start)
