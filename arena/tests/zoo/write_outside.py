#!/usr/bin/env python3
"""write_outside.py: tries to create each file named on its command line (after expanding
$VARIABLES and ~, so "$HOME/../x" means the parent of its home, which the arena sets to its
working directory), writes each result to stderr, then plays legally (pack / keep / refuse).

Each result is one stderr line: "write_outside: PATH ok" or "write_outside: PATH failed:
<error>", where PATH is the argument as given. Expected: under the arena's bwrap sandbox only
paths inside the bot's own directory (and its private /tmp) can be written.
"""
import os
import sys

import zoo_common as zoo

for path in sys.argv[1:]:
    target = os.path.expanduser(os.path.expandvars(path))
    try:
        with open(target, "w") as handle:
            handle.write("written by write_outside.py\n")
        zoo.log("write_outside: %s ok" % path)
    except OSError as error:
        zoo.log("write_outside: %s failed: %s" % (path, error))

zoo.play("write-outside")
