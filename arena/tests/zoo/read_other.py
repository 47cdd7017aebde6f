#!/usr/bin/env python3
"""read_other.py: tries to read each file named on its command line, writes the result to
stderr, then plays legally (pack / keep / refuse).

Each result is one stderr line: "read_other: PATH read N bytes: <first 60 bytes>" or
"read_other: PATH failed: <error>". Expected: with the arena's sandbox on, files outside
what the bot is allowed to see (another bot's folder, a replay, secrets) cannot be read.
"""
import sys

import zoo_common as zoo

paths = sys.argv[1:]
if not paths:
    zoo.log("read_other: no path given")
for path in paths:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        zoo.log("read_other: %s read %d bytes: %r" % (path, len(data), data[:60]))
    except OSError as error:
        zoo.log("read_other: %s failed: %s" % (path, error))

zoo.play("read-other")
