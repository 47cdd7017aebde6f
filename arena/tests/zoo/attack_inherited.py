#!/usr/bin/env python3
"""attack_inherited.py: at start, before anything opens a file, lists its open descriptors and
uses any beyond stdin, stdout and stderr that the arena (or whatever started the arena) let
through: a directory is listed and walked up with `openat(fd, "..")`, a file is read.

Logs "ATTACK inherited-fd SUCCEEDED: fd N -> <kind>" for each such descriptor, else
"ATTACK inherited-fd failed: only 0, 1, 2 open". Then plays legally (pack / keep / refuse).
With the argument `strict` it exits with status 42 instead of playing when it found one, so
that commands without a log to read (check-bot, a tournament's faults) show it too.
"""
import os
import stat
import sys



def still_open(fd):
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False


# Before any import that could open a file of its own. The listing's own descriptor is closed
# again when listdir returns: what is still open afterwards was there before.
listed = [int(name) for name in os.listdir("/proc/self/fd")]
found = sorted(fd for fd in listed if fd > 2 and still_open(fd))

import attack_common as attack  # noqa: E402
import zoo_common as zoo  # noqa: E402


def use(fd):
    """What the descriptor gives: a directory's entries and its parent's, or a file's size."""
    try:
        mode = os.fstat(fd).st_mode
    except OSError as error:
        return "unusable (%s)" % error
    if stat.S_ISDIR(mode):
        entries = len(os.listdir(fd))
        try:
            parent = os.open("..", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            above = len(os.listdir(parent))
            os.close(parent)
        except OSError:
            above = "none"
        return "a directory of %d entries, its parent %s" % (entries, above)
    if stat.S_ISREG(mode):
        return "a file of %d bytes" % os.fstat(fd).st_size
    return "a descriptor of mode %o" % stat.S_IFMT(mode)


if found:
    for fd in found:
        attack.succeeded("inherited-fd", "fd %d -> %s" % (fd, use(fd)))
    if sys.argv[1:] == ["strict"]:
        sys.exit(42)
else:
    attack.failed("inherited-fd", "only 0, 1, 2 open")

zoo.play("attack-inherited")
