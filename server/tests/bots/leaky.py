"""A bot that tells its stderr what it plans at every decision, and crashes once with a
traceback in the second hand of a ladder match (one where its own seat is named `leaky-vN`,
which check-bot's seats never are, so it passes the build's checks). Its stderr reaches the
replay as the crash's fault record; the public replay page must not show it."""
import json
import sys

SECRET = "leaky-secret-plan"


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


laddered = False
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        laddered = message["players"][message["seat"]].startswith("leaky-v")
        send({"type": "hello", "name": "leaky", "version": "1", "protocol": 1})
    elif kind == "request":
        # Its own path too: the owner's replay must name it as uploaded, not as the worker
        # stored it.
        print(
            f"{SECRET}: thinking about request {message['id']} in {sys.argv[0]}",
            file=sys.stderr,
            flush=True,
        )
        if laddered and message["hand"] == 1:
            raise RuntimeError(f"{SECRET}: crash in hand {message['hand']}")
        legal = {entry["action"]: entry for entry in message["legal"]}
        if "bet" in legal:
            answer = {"action": "bet", "amount": legal["bet"]["min"]}
        elif "refuse" in legal:
            answer = {"action": "refuse"}
        else:
            answer = {"action": "pack"}
        answer["id"] = message["id"]
        send(answer)
    elif kind == "match_end":
        break
