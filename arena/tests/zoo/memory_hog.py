#!/usr/bin/env python3
"""memory_hog.py: answers hello, then at its first request allocates memory without end
(16 MiB at a time, every page written so that it really counts).

Expected: the arena's memory limit stops it (the allocation fails or the process is
killed): a `crashed` or `timeout` fault, and the machine stays healthy.
Do not run this outside a memory limit: it takes all the memory there is.
"""
import zoo_common as zoo

CHUNK = 16 << 20


def hog(request):
    chunks = []
    while True:
        chunks.append(b"\x01" * CHUNK)  # filled bytes: the pages are touched
        if len(chunks) % 64 == 0:
            zoo.log("memory_hog: %d MiB" % (len(chunks) * CHUNK >> 20))


zoo.play("memory-hog", on_request=hog)
