#!/usr/bin/env python3
"""attack_cpu_time.py LIMIT K: at hello, starts K children that spin until killed; at its
first request it waits (answering nothing) while they spin, adding up the CPU time of all of
its processes (/proc/<pid>/stat) every 0.1 s.

Against `--cpu-seconds LIMIT`, counted per process, K spinners together would use K times
LIMIT; counted for the bot as a whole, the arena kills it (all its processes) soon after
LIMIT. Logs "ATTACK cpu-time started: K spinners", "ATTACK cpu-time progress: <s> s", and
"ATTACK cpu-time SUCCEEDED: <s> s of CPU" once its processes have used twice LIMIT together
(or after 60 s of waiting) and it is still alive. Expected: killed first (a `crashed` fault).
"""
import os
import sys
import time

import attack_common as attack
import zoo_common as zoo

limit = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
count = int(sys.argv[2]) if len(sys.argv) > 2 else 4
children = []
TICKS = os.sysconf("SC_CLK_TCK")


def start(hello):
    for _ in range(count):
        pid = os.fork()
        if pid == 0:
            try:
                while True:
                    pass
            finally:
                os._exit(0)
        children.append(pid)
    zoo.log("ATTACK cpu-time started: %d spinners" % len(children))


def cpu_seconds(pid):
    try:
        with open("/proc/%d/stat" % pid) as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # utime and stime: fields 14 and 15 of stat, 12 and 13 after the command's ")".
    return (int(fields[11]) + int(fields[12])) / TICKS


def wait_to_be_killed(request):
    deadline = time.monotonic() + 60
    reported = 0.0
    while time.monotonic() < deadline:
        time.sleep(0.1)
        total = time.process_time() + sum(cpu_seconds(pid) for pid in children)
        if total >= reported + 0.5:
            zoo.log("ATTACK cpu-time progress: %.1f s" % total)
            reported = total
        if total > 2 * limit:
            attack.succeeded("cpu-time", "%.1f s of CPU (limit %.0f s)" % (total, limit))
            break
    else:
        attack.succeeded("cpu-time", "not killed after 60 s (%.1f s of CPU)" % total)
    zoo.send(zoo.safe_answer(request))


zoo.play("attack-cpu-time", on_request=wait_to_be_killed, on_hello=start)
