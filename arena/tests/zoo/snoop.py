#!/usr/bin/env python3
"""snoop.py: looks at each path named on its command line (relative ones from its working
directory): lists a directory, reads a file; writes each result to stderr, then plays
legally (pack / keep / refuse).

Each result is one stderr line: "snoop: PATH lists [names...]", "snoop: PATH read N bytes"
or "snoop: PATH failed: <error>". Expected: under the arena's bwrap sandbox a bot sees only
its own directory among the seats' directories, and no logs, replays or results.
"""
import os
import sys

import zoo_common as zoo

for path in sys.argv[1:]:
    try:
        if os.path.isdir(path):
            zoo.log("snoop: %s lists %s" % (path, sorted(os.listdir(path))))
        else:
            with open(path, "rb") as handle:
                zoo.log("snoop: %s read %d bytes" % (path, len(handle.read())))
    except OSError as error:
        zoo.log("snoop: %s failed: %s" % (path, error))

zoo.play("snoop")
