#!/usr/bin/env python3
"""attack_files.py HEX_REPLAY HEX_LOGS HEX_TRANSCRIPTS HEX_TOKEN: tries to read the match's
replay (every seat's cards), the other seats' stderr logs and transcripts, and anything else
of the match outside its own directory, then plays legally (pack / keep / refuse).

The arguments are hex-encoded paths (see attack_common.unhex): the bot is told where to look,
but the operator grants it nothing. It tries at hello and at every request (the replay is
written after each hand):
- replay: SUCCEEDED if the replay file yields a byte;
- logs, transcripts: SUCCEEDED if the directory lists or a file in it yields a byte, other
  than the bot's own seat's;
- scan (at its first request and at its first request of a later hand): walks the
  directories above its working directory and /tmp, /var/tmp, /root, /home for files whose
  path holds TOKEN (the test's scratch directory), outside its own working directory;
  SUCCEEDED if one yields a byte.
Each kind that never succeeded logs one "failed" line with the last error.
"""
import os
import sys
import time

import attack_common as attack
import zoo_common as zoo

replay, logs, transcripts, token = [attack.unhex(a) for a in sys.argv[1:5]]
home = os.path.realpath(os.getcwd())
state = {"seat": None, "won": set(), "errors": {}, "scans": set()}


def first_byte(path):
    with open(path, "rb") as handle:
        return handle.read(1)


def mine(name):
    return state["seat"] is not None and name.startswith("seat%d" % state["seat"])


def win(name, detail):
    if name not in state["won"]:
        state["won"].add(name)
        attack.succeeded(name, detail)


def refuse(name, error):
    state["errors"][name] = "%s: %s" % (getattr(error, "filename", ""), error.strerror or error)


def try_replay():
    try:
        if first_byte(replay):
            win("replay", "read %s" % replay)
        else:
            state["errors"]["replay"] = "empty"
    except OSError as error:
        refuse("replay", error)


def try_dir(name, path):
    try:
        entries = [e for e in os.listdir(path) if not mine(e)]
    except OSError as error:
        refuse(name, error)
        return
    if entries:
        win(name, "%s lists %d entries of other seats" % (path, len(entries)))
    else:
        state["errors"][name] = "%s: no entry of another seat" % path
    for entry in entries:
        try:
            if first_byte(os.path.join(path, entry)):
                win(name, "read %s" % os.path.join(path, entry))
        except OSError as error:
            refuse(name, error)


def scan():
    roots, here = [], home
    while os.path.dirname(here) != here:
        here = os.path.dirname(here)
        if here != "/":
            roots.append(here)
    roots += ["/tmp", "/var/tmp", "/root", "/home"]
    deadline, visited, found = time.monotonic() + 3.0, set(), 0
    skip = {".git", "deps", "build", "incremental", ".fingerprint", "registry", "node_modules"}
    for root in roots:
        for directory, subdirs, files in os.walk(root, onerror=lambda e: refuse("scan", e)):
            if time.monotonic() > deadline:
                break
            subdirs[:] = [d for d in subdirs if d not in skip
                          and os.path.join(directory, d) not in visited
                          and os.path.realpath(os.path.join(directory, d)) != home]
            visited.add(directory)
            for name in files:
                path = os.path.join(directory, name)
                if token not in path or mine(name):
                    continue
                found += 1
                try:
                    if first_byte(path):
                        win("scan", "read %s" % path)
                except OSError as error:
                    refuse("scan", error)
    state["errors"].setdefault("scan", "%d files of the match found, none readable" % found)


def attempt():
    try_replay()
    try_dir("logs", logs)
    try_dir("transcripts", transcripts)


def on_hello(hello):
    state["seat"] = hello.get("seat")
    attempt()


def on_request(request):
    attempt()
    hand = request.get("hand", 0)
    key = "first" if not state["scans"] else ("later" if hand > 0 else None)
    if key and key not in state["scans"]:
        state["scans"].add(key)
        scan()
    zoo.send(zoo.safe_answer(request))


zoo.play("attack-files", on_hello=on_hello, on_request=on_request)
for name in ("replay", "logs", "transcripts", "scan"):
    if name not in state["won"]:
        attack.failed(name, state["errors"].get(name, "never tried"))
