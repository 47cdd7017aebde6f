#!/usr/bin/env python3
"""write_secret.py: at hello, before answering it, writes a random secret into secret.txt in
its working directory and the same secret on stderr, with the file's absolute path; then
plays legally (pack / keep / refuse).

It does nothing wrong itself: it is the victim for read_other.py. A test seats it before
read_other.py (seats start in order, so the secret exists when the other bot starts) and
checks that the other bot, under the arena's bwrap sandbox, can read neither the file (a
sibling working directory) nor this bot's stderr log.

Stderr line: "write_secret: wrote SECRET to PATH".
"""
import os
import secrets

import zoo_common as zoo


def write_secret(hello):
    secret = "SECRET-" + secrets.token_hex(16)
    path = os.path.abspath("secret.txt")
    with open(path, "w") as handle:
        handle.write(secret + "\n")
    zoo.log("write_secret: wrote %s to %s" % (secret, path))


zoo.play("write-secret", on_hello=write_secret)
