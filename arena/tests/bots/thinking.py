"""Writes `thinking about request N` to stderr before each answer (N: the request's id), and
`hello from thinking` when it starts. With a number as its argument it also writes that many
more lines of 150 bytes per decision (a flood). Plays the most passive legal game."""
import json
import sys

extra = int(sys.argv[1]) if len(sys.argv) > 1 else 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        print("hello from thinking", file=sys.stderr, flush=True)
        print(json.dumps({"type": "hello", "name": "thinking", "version": "1", "protocol": 1}), flush=True)
    elif kind == "request":
        print(f"thinking about request {message['id']}", file=sys.stderr, flush=True)
        for i in range(extra):
            print(f"{i:03} " + "x" * 146, file=sys.stderr)
        sys.stderr.flush()
        legal = {entry["action"] for entry in message["legal"]}
        action = next(a for a in ("keep", "refuse", "pack") if a in legal)
        print(json.dumps({"id": message["id"], "action": action}), flush=True)
    elif kind == "match_end":
        break
