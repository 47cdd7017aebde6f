#!/usr/bin/env python3
"""network.py: tries to open TCP connections, writes each result to stderr, then plays
legally (pack / keep / refuse).

Targets: the HOST:PORT arguments, or 127.0.0.1:9 (the discard port on this machine) when
none are given. A test that wants a definite answer starts a listener of its own on
127.0.0.1 and passes its port. By default this bot never contacts an address outside the
machine; pass one explicitly only where that is allowed.

Each result is one stderr line: "network: HOST:PORT connected" or
"network: HOST:PORT failed: <error>". Expected: with the arena's sandbox on, every
connection fails; the bot plays on either way (no fault).
"""
import socket
import sys

import zoo_common as zoo

targets = sys.argv[1:] or ["127.0.0.1:9"]
for target in targets:
    host, _, port = target.rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=1.0):
            zoo.log("network: %s connected" % target)
    except OSError as error:
        zoo.log("network: %s failed: %s" % (target, error))

zoo.play("network")
