#!/usr/bin/env python3
"""stderr_flood.py: plays legally (pack / keep / refuse) while a thread writes 1 GB to
stderr as fast as it can.

Expected: no fault at all. The arena must keep draining stderr (or discard it) so that the
bot never blocks on it, and must cap what it stores of the log.
"""
import os
import threading

import zoo_common as zoo

CHUNK = b"stderr flood: all work and no play makes a bot a dull bot\n" * 16384  # ~1 MB


def flood():
    written = 0
    try:
        while written < 1 << 30:
            written += os.write(2, CHUNK)  # raw writes: no Python buffer or lock involved
    except OSError:
        pass


threading.Thread(target=flood, daemon=True).start()
zoo.play("stderr-flood")
os._exit(0)  # leave at once even if the flood thread is blocked in write()
