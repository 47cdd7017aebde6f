"""Plays the most passive legal game (pack, keep a 555 hand, refuse a sideshow), taking
DELAY_MS (its first argument, default 10) before each answer: a match that lasts long enough
to be watched live."""
import json
import sys
import time

delay = (int(sys.argv[1]) if len(sys.argv) > 1 else 10) / 1000
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        print(json.dumps({"type": "hello", "name": "paced", "version": "1", "protocol": 1}), flush=True)
    elif kind == "request":
        time.sleep(delay)
        legal = {entry["action"] for entry in message["legal"]}
        action = next(a for a in ("keep", "refuse", "pack") if a in legal)
        print(json.dumps({"id": message["id"], "action": action}), flush=True)
    elif kind == "match_end":
        break
