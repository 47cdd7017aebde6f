#!/usr/bin/env python3
"""crash_mid_hand.py: plays (pack / keep / refuse), then exits with status 3 at its second
request, without answering it. Every restart of it does the same again.

Expected: a `crashed` fault; the arena restarts the bot for the next hand (a new hello with
first_hand set), up to its restart limit, then packs every remaining hand.
"""
import sys

import zoo_common as zoo

requests_seen = 0


def crash_at_second(request):
    global requests_seen
    requests_seen += 1
    if requests_seen == 2:
        zoo.log("crash_mid_hand: exiting with status 3 at request %s" % request["id"])
        sys.exit(3)
    zoo.send(zoo.safe_answer(request))


zoo.play("crash-mid-hand", on_request=crash_at_second)
