#!/usr/bin/env python3
"""record_match_end.py OUT: plays the safe answers and writes the `match_end` message it is
sent, as one JSON line, to the file OUT (run it at `--sandbox none`: OUT is outside its
folder). For the tests of what `arena play` tells its bots at the end.
"""
import json
import sys

import zoo_common as zoo

out = sys.argv[1]
while True:
    message = zoo.read_message()
    if message is None:
        break
    kind = message.get("type")
    if kind == "hello":
        zoo.send(zoo.hello_answer("record_match_end"))
    elif kind == "request":
        zoo.send(zoo.safe_answer(message))
    elif kind == "match_end":
        with open(out, "w") as f:
            f.write(json.dumps(message) + "\n")
        break
