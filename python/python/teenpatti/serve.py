"""A Python policy as a protocol bot on stdin/stdout, for ``arena check-bot``, ``arena match``,
tournaments and the contest server:

    # bot.py
    import teenpatti
    def policy(observation, action_mask):
        return int(action_mask.nonzero()[0][0])
    teenpatti.serve(policy, name="my-bot")

The policy sees exactly what it saw in training: the seat's tensor and mask built from the
arena's request by the same Rust code as ``State.observation_tensor``, and answers an action
id. Events are not needed (a request repeats the whole public state). stdout carries only
protocol lines; a policy's exception is printed to stderr and the request is answered with a
safe action (pack, keep or refuse) so the match goes on.
"""

import json
import sys
import traceback

import numpy as np

import teenpatti

# What the arena itself plays for a seat that faults, by decision kind.
_SAFE = {"swap": "keep", "sideshow_reply": "refuse"}


def serve(policy, name="python-policy", version="1", stdin=None, stdout=None):
    """Plays the protocol until ``match_end`` or the end of input. ``policy(observation,
    action_mask) -> action id``; called once per request."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    game, seat = None, None
    for line in stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            settings = dict(message["settings"])
            variant = settings.pop("variant")
            game, seat = teenpatti.Game(variant, message["seats"], **settings), message["seat"]
            _send(stdout, {"type": "hello", "name": name, "version": version, "protocol": 1})
        elif kind == "request":
            _send_line(stdout, _answer(policy, game, seat, line, message))
        elif kind == "fault":
            print(f"{name}: fault from the arena: {line.strip()}", file=sys.stderr, flush=True)
        elif kind == "match_end":
            break


def _answer(policy, game, seat, line, message):
    try:
        observation, mask = game.request_observation(seat, line)
        action = policy(observation, mask)
        return game.answer(line, int(np.asarray(action).item()))
    except Exception:  # noqa: BLE001  (a policy's bug must not stop the match)
        traceback.print_exc(file=sys.stderr)
        sys.stderr.flush()
        return json.dumps({"id": message["id"], "action": _SAFE.get(message.get("kind"), "pack")})


def _send(stdout, message):
    _send_line(stdout, json.dumps(message))


def _send_line(stdout, text):
    stdout.write(text + "\n")
    stdout.flush()
