#!/usr/bin/env python3
"""unsolicited.py: answers every request correctly, and after each answer writes an extra
line nobody asked for: the same answer again, so a line carrying the id of a request that
has already been answered.

Expected: a `wrong_id` fault at the next request ("request N was already answered"): only the
late answer to a request that timed out is dropped silently. The arena reads the copy while
the next request is pending, whenever it was written.

With --notes it also writes {"type":"note",...} (a line with no id) after each answer. That
is not a late answer: the arena reads it as the answer to the next request and faults it
(`malformed`), whatever the timing. Use --notes to test that policy on purpose.

With --flood N it writes N more copies of each answer, each padded to about 60 KB with a
"pad" field: N * 60 KB of repeated answers per request (each read is a `wrong_id` fault).

With --big it writes each answer once, padded to about 60 KB (an unknown field, ignored by
the arena), and nothing else: 60 KB of legal answer per decision, which a transcript of the
match (--transcripts) must hold within its size cap.
"""
import sys

import zoo_common as zoo

NOTES = "--notes" in sys.argv[1:]
FLOOD = int(sys.argv[sys.argv.index("--flood") + 1]) if "--flood" in sys.argv[1:] else 0
BIG = "--big" in sys.argv[1:]
PAD = "x" * 60000


def answer_and_chatter(request):
    answer = zoo.safe_answer(request)
    if BIG:
        zoo.send(dict(answer, pad=PAD))
        return
    zoo.send(answer)
    zoo.send(answer)  # the same id again: a late answer
    for _ in range(FLOOD):
        zoo.send(dict(answer, pad=PAD))
    if NOTES:
        zoo.send({"type": "note", "text": "unsolicited line after request %s" % request["id"]})


zoo.play("unsolicited", on_request=answer_and_chatter)
