#!/usr/bin/env python3
"""attack_live_replay.py TMPDIR_HEX: at every decision, looks for the live view's replay
(every seat's cards, written while the match is played) where an arena watching a match
without `--replay` could put it: next to the bots' directories (`../live-replay.jsonl`) or in
any directory of the arena's temporary directory (given hex-encoded). Then plays legally.

Logs "ATTACK live-replay SUCCEEDED: read N bytes of <where>" when it read one, else, once at
the end of the match, "ATTACK live-replay failed: <what it tried>".
"""
import glob
import os
import sys

import attack_common as attack
import zoo_common as zoo

tmpdir = attack.unhex(sys.argv[1]) if len(sys.argv) > 1 else "/tmp"
tried = {}
reported = False


def hunt(request):
    places = ["../live-replay.jsonl"] + glob.glob(os.path.join(tmpdir, "*", "live-replay.jsonl"))
    places += glob.glob(os.path.join(tmpdir, "*", "*", "live-replay.jsonl"))
    for place in places:
        try:
            with open(place, "rb") as replay:
                data = replay.read()
            attack.succeeded("live-replay", "read %d bytes of %s" % (len(data), place))
        except OSError as error:
            tried[place] = error.strerror
    if request.get("hand", 0) >= 1:
        report()


def report():
    global reported
    if not reported:
        reported = True
        attack.failed("live-replay", "%d places tried: %s" % (len(tried), sorted(set(tried.values()))))


def decide(request):
    hunt(request)
    zoo.send(zoo.safe_answer(request))


zoo.play("attack-live-replay", on_request=decide)
report()
