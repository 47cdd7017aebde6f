"""Hits one resource limit, chosen by argv[1], and reports on stdout.

mem: allocate 2 GiB -> "memory-error" (or "allocated")
cpu: busy loop forever (expects SIGXCPU / SIGKILL)
fsize: write a 4 MiB file -> "efbig" (Python ignores SIGXFSZ) or "wrote"
nofile: open files until it fails -> "emfile <count>"
core: print the RLIMIT_CORE soft and hard limits
"""
import errno
import resource
import sys

mode = sys.argv[1]
if mode == "mem":
    try:
        block = bytearray(2 * 1024 * 1024 * 1024)
        print("allocated", flush=True)
    except MemoryError:
        print("memory-error", flush=True)
elif mode == "cpu":
    print("spinning", flush=True)
    n = 0
    while True:
        n += 1
elif mode == "fsize":
    try:
        with open("big.bin", "wb") as f:
            for _ in range(4):
                f.write(b"x" * (1024 * 1024))
        print("wrote", flush=True)
    except OSError as e:
        print("efbig" if e.errno == errno.EFBIG else "oserror %d" % e.errno, flush=True)
elif mode == "nofile":
    files = []
    try:
        for _ in range(10000):
            files.append(open("/dev/null"))
        print("opened %d" % len(files), flush=True)
    except OSError as e:
        name = "emfile" if e.errno == errno.EMFILE else "oserror"
        print("%s %d" % (name, len(files)), flush=True)
elif mode == "core":
    print("%d %d" % resource.getrlimit(resource.RLIMIT_CORE), flush=True)
for _ in sys.stdin:
    pass
