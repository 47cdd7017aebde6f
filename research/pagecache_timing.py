#!/usr/bin/env python3
"""pagecache_timing.py [PAGES]: how well a sandboxed bot tells cached from uncached pages of
a large shared /usr file by timing alone (issue 28: the page cache channel that remains once
mincore, preadv2(RWF_NOWAIT) and posix_fadvise are denied). Research, not part of the arena.

Run it as a bot, so that it measures inside the sandbox (self-contained: the sandbox shows it
only this file's directory):

    arena match --game classic --hands 1 --startup-ms 60000 \\
        --bot "python3 research/pagecache_timing.py 300" --bot target/debug/random-bot \\
        --logs /tmp/pc-logs
    cat /tmp/pc-logs/seat0-*.stderr.log

At hello it picks 2 x PAGES fresh random pages of the largest file of /usr/lib/<triplet>,
caches a random half of each set ("sender": touches them through one mapping), then times
the first access to every page ("receiver") through a fresh mapping (mmap + MADV_RANDOM, a
first touch = a page fault) for the first set and with pread() of one byte for the second
(whose uncached reads also read ahead: the pages are spread out). It prints the time
distributions, the error rate at the best threshold (an oracle: the most a receiver can
get) and at a threshold the receiver calibrates itself (the geometric mean of the medians of
a re-touched and a fresh page, as attack_channel.py does), the time per probed bit, and the
resulting rate and capacity (rate x (1 - H(error))).
"""
import ctypes
import math
import json
import os
import random
import sys
import time

PAGE = 4096
COUNT = int(sys.argv[1]) if len(sys.argv) > 1 else 300
LIBC = ctypes.CDLL(None, use_errno=True)
LIBC.mmap.restype = ctypes.c_void_p
LIBC.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def biggest_file():
    best = (0, None)
    for folder in ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64",
                   "/usr/lib", "/usr/bin"):
        try:
            for entry in os.scandir(folder):
                if entry.is_file(follow_symlinks=False):
                    best = max(best, (entry.stat(follow_symlinks=False).st_size, entry.path))
        except OSError:
            pass
    return best[1]


def mapping(fd, size):
    addr = LIBC.mmap(None, size, 1, 1, fd, 0)  # PROT_READ, MAP_SHARED
    if LIBC.madvise(ctypes.c_void_p(addr), ctypes.c_size_t(size), 1):  # MADV_RANDOM
        log("madvise(MADV_RANDOM) refused: errno %d" % ctypes.get_errno())
    return addr


def touch(addr, page):
    start = time.perf_counter_ns()
    ctypes.c_char.from_address(addr + page * PAGE).value
    return (time.perf_counter_ns() - start) / 1000.0


def pread_time(fd, page):
    start = time.perf_counter_ns()
    os.pread(fd, 1, page * PAGE)
    return (time.perf_counter_ns() - start) / 1000.0


def entropy(p):
    return 0.0 if p <= 0 or p >= 1 else -(p * math.log2(p) + (1 - p) * math.log2(1 - p))


def quantiles(values):
    values = sorted(values)
    return "min %.1f  p10 %.1f  median %.1f  p90 %.1f  max %.1f us" % (
        values[0], values[len(values) // 10], values[len(values) // 2],
        values[len(values) * 9 // 10], values[-1])


def analyse(name, cached, uncached, spent, calibrated):
    log("%s: cached   %s" % (name, quantiles(cached)))
    log("%s: uncached %s" % (name, quantiles(uncached)))
    best = (2.0, None)
    for threshold in sorted(cached + uncached):
        errors = sum(1 for t in cached if t > threshold) + sum(1 for t in uncached if t <= threshold)
        best = min(best, (errors / (len(cached) + len(uncached)), threshold))
    errors = sum(1 for t in cached if t >= calibrated) + sum(1 for t in uncached if t < calibrated)
    self_error = errors / (len(cached) + len(uncached))
    per_bit = spent / (len(cached) + len(uncached))
    rate = 1.0 / per_bit
    log("%s: best threshold %.1f us: error %.2f%%; self-calibrated %.1f us: error %.2f%%"
        % (name, best[1], 100 * best[0], calibrated, 100 * self_error))
    log("%s: %.0f us per probed bit (%.0f bit/s raw), capacity %.0f bit/s at the calibrated "
        "threshold" % (name, per_bit * 1e6, rate, rate * (1 - entropy(self_error))))
    return {"method": name, "error_best": best[0], "error_calibrated": self_error,
            "us_per_bit": per_bit * 1e6, "bits_per_s_raw": rate,
            "capacity_bits_per_s": rate * (1 - entropy(self_error))}


def experiment():
    path = biggest_file()
    fd = os.open(path, os.O_RDONLY)
    size = os.fstat(fd).st_size
    pages = size // PAGE
    log("file %s: %d pages; %d + %d probes" % (path, pages, COUNT, COUNT))
    rng = random.Random(os.urandom(16))
    # Fresh pages, 32 pages (128 KiB, a whole read-ahead window) apart, in random order.
    slots = rng.sample(range(2, pages // 32 - 2), 2 * COUNT + 24)
    chosen = [s * 32 + rng.randrange(4) for s in slots]
    touched, read = chosen[:COUNT], chosen[COUNT:2 * COUNT]
    spare = chosen[2 * COUNT:]
    bits = {page: rng.getrandbits(1) for page in chosen}
    sender = mapping(fd, size)
    for page in touched + read:
        if bits[page]:
            touch(sender, page)  # the sender caches the page (a first touch reads it)
    results = []

    # Receiver 1: first touch through a fresh mapping.
    receiver = mapping(fd, size)
    slow = sorted(touch(receiver, p) for p in spare[:12])            # fresh: uncached
    other = mapping(fd, size)
    fast = sorted(touch(other, p) for p in spare[:12])               # re-touched: cached
    calibrated = math.sqrt(slow[6] * fast[6])
    start = time.time()
    times = [(touch(receiver, p), bits[p]) for p in touched]
    spent = time.time() - start
    results.append(analyse("mmap first touch", [t for t, b in times if b],
                           [t for t, b in times if not b], spent, calibrated))

    # Receiver 2: pread of one byte.
    slow = sorted(pread_time(fd, p) for p in spare[12:24])
    fast = sorted(pread_time(fd, p) for p in spare[12:24])
    calibrated = math.sqrt(slow[6] * fast[6])
    start = time.time()
    times = [(pread_time(fd, p), bits[p]) for p in read]
    spent = time.time() - start
    results.append(analyse("pread", [t for t, b in times if b],
                           [t for t, b in times if not b], spent, calibrated))
    log("RESULT " + json.dumps(results))


def main():
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        kind = message.get("type")
        answer = None
        if kind == "hello":
            try:
                experiment()
            except Exception as error:  # a research script: say what broke, keep playing
                log("experiment failed: %r" % error)
            answer = {"type": "hello", "name": "pagecache-timing", "protocol": 1}
        elif kind == "request":
            safe = {"bet": "pack", "swap": "keep", "sideshow_reply": "refuse"}
            answer = {"id": message["id"], "action": safe.get(message.get("kind"), "pack")}
        elif kind == "match_end":
            return
        if answer is not None:
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()


main()
