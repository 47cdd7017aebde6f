"""Forks a child that ignores SIGTERM and keeps stdout/stderr open forever, prints the
child's pid, then exits at stdin EOF (leaving the child behind). Extra arguments are only a
marker that tests look for in /proc/*/cmdline."""
import os
import signal
import sys
import time

sys.stdout.flush()
pid = os.fork()
if pid == 0:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    os.close(0)
    while True:
        time.sleep(1)
print(pid, flush=True)
for _ in sys.stdin:
    pass
