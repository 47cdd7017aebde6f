#!/usr/bin/env python3
"""attack_survivor.py [crash]: at hello, leaves behind a process meant to outlive the match,
then plays legally (pack / keep / refuse), or with "crash" exits with status 3 at its first
request (so that the arena restarts it, and it leaves another one).

The survivor: a child calls setsid() (a session and process group of its own), ignores
SIGHUP and SIGTERM, forks again and exits (the grandchild is orphaned), and the grandchild
closes every inherited file descriptor and re-executes
    python3 -X MARK -c '...time.sleep(3000)'
with the test's marker (attack_common.marker()) so the test can find it. Logs
"ATTACK setsid-survivor started: ..." once the survivor exists. Expected: no such process
left once the match (or the arena, even killed with SIGKILL) is over.
"""
import os
import signal
import sys

import attack_common as attack
import zoo_common as zoo

SURVIVOR = ("import signal, time\n"
            "signal.signal(signal.SIGHUP, signal.SIG_IGN)\n"
            "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
            "time.sleep(3000)\n")


def leave_survivor(hello):
    mark = attack.marker() or "arena-test-nomark"
    ready_read, ready_write = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            os.close(ready_read)
            os.setsid()
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            if os.fork() == 0:
                os.dup2(ready_write, 200)
                os.closerange(0, 200)
                os.closerange(201, 65536)
                os.set_inheritable(200, False)  # closed by the exec: "the survivor runs"
                os.execv(sys.executable, [sys.executable, "-X", mark, "-c", SURVIVOR])
        finally:
            os._exit(0)
    os.close(ready_write)
    os.waitpid(child, 0)
    os.read(ready_read, 1)  # end of file once the grandchild has exec'd (or died)
    os.close(ready_read)
    zoo.log("ATTACK setsid-survivor started: session leader re-executed with %s" % mark)


def crash(request):
    zoo.log("ATTACK setsid-survivor: exiting with 3 at request %s" % request["id"])
    sys.stderr.flush()
    os._exit(3)


zoo.play("attack-survivor", on_hello=leave_survivor,
         on_request=crash if sys.argv[1:] == ["crash"] else None)
