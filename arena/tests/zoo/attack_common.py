"""attack_common.py: what the attack_*.py bots share.

Each attack bot tries one way to cheat or to escape the arena's sandbox, reports on stderr
(its log) one line per attempt, then plays legally with zoo_common:

    ATTACK <name> SUCCEEDED: <detail>     the attack worked (the sandbox failed)
    ATTACK <name> failed: <detail>        the attempt was stopped

arena/tests/it/trust.rs runs them and asserts no SUCCEEDED line and at least one failed line.
Details never include what was read (only sizes, pids and program names).
"""

import ctypes
import os
import sys

import zoo_common as zoo

LIBC = ctypes.CDLL(None, use_errno=True)


def succeeded(name, detail):
    zoo.log("ATTACK %s SUCCEEDED: %s" % (name, detail))


def failed(name, detail):
    zoo.log("ATTACK %s failed: %s" % (name, detail))


def marker():
    """The test's marker, given to CPython as `-X MARK` (so it is on the command line of every
    process that re-executes Python with it), or None."""
    for option in sys._xoptions:
        if option.startswith("arena-test-"):
            return option
    return None


def unhex(text):
    """Paths come hex-encoded, so that the arena does not take them for files named on the
    command line (which it would let the bot read: the command line is the operator's)."""
    return bytes.fromhex(text).decode()


def errno_text(number):
    return "%s (%s)" % (os.strerror(number), number)


def libc_call(function, *args):
    """(return value, errno) of a libc function."""
    ctypes.set_errno(0)
    result = function(*args)
    return result, ctypes.get_errno()


def in_child(function):
    """Runs function() in a forked child (so that a call that changes the process, such as
    unshare or ptrace, leaves the bot alone) and returns what it returned: a small int."""
    pid = os.fork()
    if pid == 0:
        code = 255
        try:
            code = function()
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)
