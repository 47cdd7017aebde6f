#!/usr/bin/env python3
"""attack_fill.py BOUND_MB CAP_MB KIND...: at its first request, fills each KIND in turn up
to CAP_MB, then frees it and answers legally (pack / keep / refuse):
- ram: memory, 16 MiB blocks of bytes that are all written;
- tmp: files of 32 MiB in /tmp (in memory when /tmp is a tmpfs);
- disk: files of 32 MiB in its working directory.
Progress lines "ATTACK fill-KIND progress: N MB" come after every block (the last one
stands if the bot is killed); then "ATTACK fill-KIND SUCCEEDED: N MB" when N > BOUND_MB,
else "ATTACK fill-KIND failed: N MB, then <error>".

A file "fill-done" in its working directory stops a restarted instance from trying again.
"""
import os
import shutil
import sys

import attack_common as attack
import zoo_common as zoo

MB = 1 << 20
bound_mb, cap_mb = int(sys.argv[1]), int(sys.argv[2])
kinds = sys.argv[3:]


def fill_ram():
    blocks, error = [], None
    try:
        while len(blocks) * 16 < cap_mb:
            blocks.append(b"\x01" * (16 * MB))
            zoo.log("ATTACK fill-ram progress: %d MB" % (len(blocks) * 16))
    except MemoryError as failure:
        error = "MemoryError"
    total = len(blocks) * 16
    del blocks
    return total, error


def fill_files(directory):
    os.makedirs(directory, exist_ok=True)
    block, total, error = b"\x02" * MB, 0, None
    try:
        while total < cap_mb * MB:
            path = os.path.join(directory, "fill-%04d" % (total // (32 * MB)))
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                for _ in range(32):
                    total += os.write(fd, block)
            finally:
                os.close(fd)
            zoo.log("ATTACK fill-%s progress: %d MB" % (kind_name, total // MB))
    except OSError as failure:
        error = failure
    shutil.rmtree(directory, ignore_errors=True)
    return total // MB, error


kind_name = ""


def fill(request):
    global kind_name
    if not os.path.exists("fill-done"):
        open("fill-done", "w").close()
        for kind in kinds:
            kind_name = kind
            if kind == "ram":
                total, error = fill_ram()
            elif kind == "tmp":
                total, error = fill_files("/tmp/attack-fill-%d" % os.getpid())
            else:
                total, error = fill_files(os.path.join(os.getcwd(), "attack-fill"))
            if total > bound_mb:
                attack.succeeded("fill-" + kind, "%d MB (bound %d MB)" % (total, bound_mb))
            else:
                attack.failed("fill-" + kind, "%d MB, then %s" % (total, error))
    zoo.send(zoo.safe_answer(request))


zoo.play("attack-fill", on_request=fill)
