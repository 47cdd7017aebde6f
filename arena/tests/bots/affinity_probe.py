"""Writes the CPUs it may run on to stderr (its log), then plays the most passive legal game:
pack, keep a 555 hand, refuse a sideshow."""
import json
import os
import sys

print(f"cpus={sorted(os.sched_getaffinity(0))}", file=sys.stderr, flush=True)
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        print(json.dumps({"type": "hello", "name": "affinity-probe", "version": "1"}), flush=True)
    elif kind == "request":
        legal = {entry["action"] for entry in message["legal"]}
        action = next(a for a in ("keep", "refuse", "pack") if a in legal)
        print(json.dumps({"id": message["id"], "action": action}), flush=True)
    elif kind == "match_end":
        break
