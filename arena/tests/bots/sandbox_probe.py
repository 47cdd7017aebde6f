"""Reports what the sandbox allows, as one JSON line, then exits."""
import json
import os
import socket


def can_write(path):
    try:
        with open(path, "w") as f:
            f.write("x")
        os.remove(path)
        return True
    except OSError:
        return False


print(
    json.dumps(
        {
            "cwd": os.getcwd(),
            "pid": os.getpid(),
            "interfaces": [name for _, name in socket.if_nameindex()],
            "write_workdir": can_write("probe.txt"),
            "write_root": can_write("/arena-sandbox-probe.txt"),
            "write_usr": can_write("/usr/arena-sandbox-probe.txt"),
            "tmp": sorted(os.listdir("/tmp")),
        }
    ),
    flush=True,
)
