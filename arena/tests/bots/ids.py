"""Prints its process, group and session ids and whether it has a controlling terminal."""
import json
import os

try:
    os.close(os.open("/dev/tty", os.O_RDWR))
    tty = True
except OSError:
    tty = False
print(
    json.dumps({"pid": os.getpid(), "pgid": os.getpgid(0), "sid": os.getsid(0), "tty": tty}),
    flush=True,
)
