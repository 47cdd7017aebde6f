#!/usr/bin/env python3
"""fuzz.py SEED [MARKER]: answers hello correctly, then answers each request with something
drawn from a random generator seeded by SEED and the hand it joined at (so a restarted bot
does not repeat itself): a valid answer, a near miss (wrong id, wrong types, unknown or
illegal action, missing or odd parameters), a JSON fragment, random text, random bytes
(often not UTF-8), two lines at once, a line over the 64 KiB limit, no answer at all, or an
exit.

Expected: every misbehaviour is a fault of its kind (malformed, wrong_id, illegal,
invalid_utf8, line_too_long, timeout, crashed), the bot is restarted after the ones that end
it, and the match always finishes with a replay that re-simulates.
Pass a large --max-restarts so that the fuzzing lasts the whole match.
"""
import json
import os
import random
import sys

import zoo_common as zoo

SEED = sys.argv[1] if len(sys.argv) > 1 else "0"
rng = random.Random(SEED)

FRAGMENTS = ['{', '}', '[', ']', ':', ',', '"id"', '"action"', '"amount"', '"card"',
             '"pack"', '"bet"', '"swap"', '"keep"', '"see"', '"show"', '"sideshow"',
             '"accept"', '"refuse"', '"As"', '"10d"', '"Zz"', 'null', 'true', '1e400', '-1',
             '0.5', '"\\u0000"', '"\\ud800"', '\u2660', ' ', '\t', '\\', '"']


def valid(request):
    """A legal answer with the right id."""
    entry = rng.choice(request["legal"])
    action = entry["action"]
    answer = {"id": request["id"], "action": action}
    if action == "bet":
        steps = (entry["max"] - entry["min"]) // entry["multiple_of"]
        answer["amount"] = entry["min"] + rng.randint(0, steps) * entry["multiple_of"]
    elif action == "swap":
        answer["card"] = rng.choice(entry["cards"])
    elif action == "sideshow":
        pass
    return json.dumps(answer)


def near_miss(request):
    answer = json.loads(valid(request))
    choice = rng.randrange(14)
    if choice == 0:
        answer["id"] = request["id"] + rng.randint(1, 1 << 40)  # never sent: wrong_id
    elif choice == 1:
        answer["id"] = str(request["id"])
    elif choice == 2:
        del answer["id"]
    elif choice == 3:
        answer["action"] = rng.choice(["fly", "PACK", "", None, 7, ["pack"]])
    elif choice == 4:
        answer["amount"] = rng.choice([-4, 0, 1.5, "4", 1 << 70, 10 ** 9, None])
        answer["action"] = "bet"
    elif choice == 5:
        answer["card"] = rng.choice(["Zz", "As", "1x", 7, "", "10d", "AS"])
        answer["action"] = "swap"
    elif choice == 6:
        answer["action"] = rng.choice(["pack", "see", "bet", "show", "sideshow", "swap",
                                       "keep", "accept", "refuse"])  # often not legal now
        if answer["action"] == "bet":
            answer["amount"] = rng.randint(0, 200)
        if answer["action"] == "swap":
            answer["card"] = rng.choice(["As", "2c", "Td", "5h"])
    elif choice == 7:
        answer["extra"] = {"nested": [1, [2, [3]]], "text": "\u00e9\u2660"}  # ignored: valid
    elif choice == 8:
        return json.dumps([answer])
    elif choice == 9:
        return json.dumps(answer) + rng.choice([" trailing", "}", ",", " "])
    elif choice == 10:
        answer["id"] = -request["id"]
    elif choice == 11:
        answer["id"] = request["id"] + 0.5
    elif choice == 12:
        return json.dumps(answer)[: rng.randrange(1, 12)]
    else:
        return json.dumps({"type": "hello", "name": "again"})
    return json.dumps(answer)


def fragments():
    return "".join(rng.choice(FRAGMENTS) for _ in range(rng.randrange(0, 30)))


def text():
    alphabet = "abc{}[]\":, \t\u00e9\u2660\U0001F0A1\\/0123456789"
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 80)))


def random_bytes():
    return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60)))


def on_request(request):
    roll = rng.random()
    if roll < 0.35:
        zoo.send_raw(valid(request).encode() + b"\n")
    elif roll < 0.60:
        zoo.send_raw(near_miss(request).encode("utf-8", "surrogatepass") + b"\n")
    elif roll < 0.70:
        zoo.send_raw(fragments().encode("utf-8", "surrogatepass") + b"\n")
    elif roll < 0.78:
        zoo.send_raw(text().encode() + rng.choice([b"\n", b"\r\n"]))
    elif roll < 0.84:
        zoo.send_raw(random_bytes() + b"\n")
    elif roll < 0.90:  # two lines: the second is read as the answer to the next request
        zoo.send_raw(valid(request).encode() + b"\n" + fragments().encode() + b"\n")
    elif roll < 0.93:  # over the limit
        zoo.send_raw(b"{\"id\":" + str(request["id"]).encode() + b"," + b" " * (70 << 10) + b"}\n")
    elif roll < 0.96:  # no answer: a timeout
        pass
    elif roll < 0.98:  # half a line now; the rest with the next answer
        zoo.send_raw(b"{\"id\":")
    else:
        zoo.log("fuzz: exiting at request %s" % request["id"])
        os._exit(rng.choice([0, 1, 3]))


def on_hello(hello):
    global rng
    rng = random.Random("%s-%s-%s" % (SEED, hello.get("seat"), hello.get("first_hand")))


zoo.play("fuzz", on_request=on_request, on_hello=on_hello)
