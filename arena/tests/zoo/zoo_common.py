"""zoo_common.py: the well-behaved parts shared by the zoo's misbehaving bots.

Each bot in this folder breaks the protocol (protocol/PROTOCOL.md) in one chosen way, for
the arena's integration tests; everything else it does correctly with these helpers:
answer hello, and answer requests with the "safe" action (pack a bet, keep the cards at a
swap, refuse a sideshow). Python 3 standard library only; no dependency on the sample bots.
"""

import json
import sys


def log(text):
    """One line on stderr, the bot's own log."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def send(message):
    """One JSON object as one line on stdout, flushed."""
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def send_raw(data):
    """Bytes exactly as given (no newline added), flushed."""
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def read_message():
    """The next message from the arena as a dict, or None at the end of stdin.
    Lines that are not JSON objects are skipped."""
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return None
        try:
            message = json.loads(line.decode("utf-8"))
        except ValueError:
            continue
        if isinstance(message, dict):
            return message


def hello_answer(name):
    return {"type": "hello", "name": name, "version": "zoo", "protocol": 1}


SAFE_ACTION = {"bet": "pack", "swap": "keep", "sideshow_reply": "refuse"}


def safe_answer(request):
    """A legal answer to any request: pack, keep or refuse, with the request's id."""
    return {"id": request["id"], "action": SAFE_ACTION.get(request.get("kind"), "pack")}


def play(name, on_request=None, on_hello=None):
    """The usual loop. Answers hello (after calling on_hello(hello) if given), then for each
    request calls on_request(request) (default: send the safe answer). Returns at
    match_end or at the end of stdin."""
    while True:
        message = read_message()
        if message is None:
            return
        kind = message.get("type")
        if kind == "hello":
            if on_hello:
                on_hello(message)
            send(hello_answer(name))
        elif kind == "request":
            if on_request:
                on_request(message)
            else:
                send(safe_answer(message))
        elif kind == "match_end":
            return
