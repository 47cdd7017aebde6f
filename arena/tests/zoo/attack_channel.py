#!/usr/bin/env python3
"""attack_channel.py CHANNEL NONCE [WINDOW_MS]: two copies of this bot try to signal each
other through state the machine shares between sandboxes, then play legally (pack / keep /
refuse). For arena/tests/it/covert_channels.rs (issue 28: no channel between two bots, at one
table or in the two halves of a duplicate block, concurrently or one after the other).

What is sent is a pseudo-random bit string both the copies and the test can compute from
NONCE (splitmix64, `prf` below), so the test scores what the receiver decoded against the
truth; nothing secret. The receiver logs what it decoded, one line per key:

    CHANNEL <channel> key=<k> bits=<0/1 string> method=<how it was read>

and the truth for that line is `prf_bits(NONCE, k, len(bits))`. Then, per sampling session,
`ATTACK <channel> SUCCEEDED: <correct>/<n> bits ...` when the accuracy is far from chance, or
`ATTACK <channel> failed: ...` (a denied call, or an accuracy near chance). A failing call
is logged and the bot keeps playing legally; it never crashes on one.

Roles come from the hello: the copies are the seats whose player name is this one's (the arena
names two copies `x` and `x#2`). With two copies at the table, the lowest seat sends and the
others receive. Alone at a two-seat table (the halves of a duplicate block), seat 0 sends and
seat 1 receives; the halves swap seats, so one half's copy sends and the other's receives.

Two kinds of channel:

* Slotted, volatile (the state lives only as long as the sender): the wall clock is cut in
  slots of SLOT seconds, the sender's thread sets the state for slot k from prf(NONCE, k)
  (its key is k), and the receiver reads it in the middle of the slot, during its hello
  (WINDOW_MS, default 1500) and for at most 80 ms at each request. "bits" channels carry
  WIDTH bits per slot; "level" channels carry one bit per slot as a high/low then low/high
  level (Manchester: robust to the machine's own drift), the receiver comparing the means
  of the two halves.
    locks    fcntl F_RDLCK byte-range locks on /usr/lib/os-release, read with F_GETLK
             (else the OFD locks' F_OFD_SETLK / F_OFD_GETLK)
    flock    flock(LOCK_EX) on stdlib files, read with flock(LOCK_SH|LOCK_NB)
    inotify  the sender opens stdlib files, the receiver's IN_OPEN watches see it
    aio      the sender io_setup()s a context, the receiver reads /proc/sys/fs/aio-nr
    loadavg  the sender runs four spinning children (SIGCONT / SIGSTOP), the receiver reads
             the running count of /proc/loadavg (else procs_running of /proc/stat)
    sysinfo  the sender fills a memfd with 8 MiB, the receiver reads sysinfo()'s sharedram
             (else Shmem of /proc/meminfo)
    filenr   the sender holds 220 open files, the receiver reads /proc/sys/fs/file-nr
    meminfo  the same sender, the receiver reads Shmem of /proc/meminfo (MemFree and
             AnonPages move too when a sender allocates, but with far more noise)
    cputiming the sender runs one churning child per CPU it may use (each copies 8 MiB over
             and over: the cores, the caches and the memory bus; SIGCONT / SIGSTOP), the
             receiver times a fixed piece of its own work (a 1 MiB copy and a short loop)
             back to back, no pause, and decodes high-minus-low against the running median
             of the last slots' differences (what the machine's own drift leaves)
* Persistent: the page cache of the largest file of /usr/lib/x86_64-linux-gnu (or /usr/bin),
  which outlives the sandbox, so it also works one half after the other. Every copy writes
  its own 64 pages (key 1000000 + its seat: pages to cache for 1, evicted with
  posix_fadvise(DONTNEED) for 0) at hello, then reads the pages of the partner seat (the
  other copy's, or the other seat's when alone at two seats) at its first request.
    pagecache         preadv2(RWF_NOWAIT), else mincore, else the time of a first touch
    pagecache-probe   RWF_NOWAIT or mincore only (no timing): what seccomp can deny
    pagecache-timing  the time of a first touch only (mmap, MADV_RANDOM): what remains
"""
import ctypes
import mmap
import os
import signal
import struct
import sys
import threading
import time

import attack_common as attack
import zoo_common as zoo

LIBC = attack.LIBC
M64 = (1 << 64) - 1

CHANNEL = sys.argv[1] if len(sys.argv) > 1 else "locks"
NONCE = int(sys.argv[2]) if len(sys.argv) > 2 else 1
WINDOW = (int(sys.argv[3]) if len(sys.argv) > 3 else 1500) / 1000.0
REQUEST_WINDOW = 0.08


def mix(x):
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


def prf(nonce, key):
    return mix(mix(nonce) ^ key)


def prf_bits(nonce, key, width):
    value = prf(nonce, key)
    return [(value >> j) & 1 for j in range(width)]


def os_error(where, error):
    return "%s: %s" % (where, attack.errno_text(error.errno) if error.errno else error)


class Failed(Exception):
    """A call the channel needs was refused: the text says which."""


reported = set()


def fail_once(what, detail):
    if (what, detail) not in reported:
        reported.add((what, detail))
        attack.failed(what, detail)


def sleep_until(when):
    delay = when - time.time()
    if delay > 0:
        time.sleep(delay)


def stdlib_pool():
    """The standard library's top-level modules that this program has not imported, sorted:
    the same list in every copy."""
    folder = os.path.dirname(os.__file__)
    loaded = set(getattr(m, "__file__", None) for m in list(sys.modules.values()))
    return sorted(os.path.join(folder, name) for name in os.listdir(folder)
                  if name.endswith(".py") and os.path.join(folder, name) not in loaded)


def pick(pool, count, salt):
    """count distinct entries of pool chosen by the nonce."""
    chosen = []
    index = 0
    while len(chosen) < count:
        item = pool[prf(NONCE, salt + index) % len(pool)]
        index += 1
        if item not in chosen:
            chosen.append(item)
    return chosen


def read_number(path, field=0):
    with open(path, "rb") as handle:
        return int(handle.read().split()[field])


# ----------------------------------------------------------------- slotted channels

class Locks:
    """POSIX record locks, else open file description locks (F_OFD_*: the same lock table,
    other commands), on a file no bot can write: read locks, seen by F_GETLK's write query."""
    slot, width, level = 0.01, 8, False
    path = "/usr/lib/os-release"
    SET = (("F_SETLK", 6), ("F_OFD_SETLK", 37))
    GET = (("F_GETLK", 5), ("F_OFD_GETLK", 36))

    def __init__(self):
        self.fd = os.open(self.path, os.O_RDONLY)
        self.base = 4096 + (NONCE % 1000003) * 64
        self.held = [0] * self.width
        self.commands = {}

    def lock(self, kind, start, commands):
        """fcntl with the first of `commands` the kernel (and seccomp) accepts."""
        import fcntl
        errors = []
        for name, command in commands:
            if self.commands.get(commands) not in (None, command):
                continue  # the one that worked before
            try:
                answer = fcntl.fcntl(self.fd, command, struct.pack("hhqqi4x", kind, 0, start, 1, 0))
                self.commands[commands] = command
                return answer, name
            except OSError as error:
                if error.errno == 11:  # EAGAIN: a real conflict, not a refusal
                    raise
                errors.append(os_error(name, error))
        raise Failed(", ".join(errors))

    def set(self, bits):
        import fcntl
        for j, bit in enumerate(bits):
            if bit != self.held[j]:
                self.lock(fcntl.F_RDLCK if bit else fcntl.F_UNLCK, self.base + j, self.SET)
                self.held[j] = bit

    def measure(self):
        import fcntl
        bits = []
        for j in range(self.width):
            answer, name = self.lock(fcntl.F_WRLCK, self.base + j, self.GET)
            bits.append(0 if struct.unpack("hhqqi4x", answer)[0] == fcntl.F_UNLCK else 1)
        return bits, name


class Flock:
    slot, width, level = 0.01, 8, False

    def __init__(self):
        self.fds = [os.open(p, os.O_RDONLY) for p in pick(stdlib_pool(), self.width, 300)]
        self.held = [0] * self.width

    def set(self, bits):
        import fcntl
        for j, bit in enumerate(bits):
            if bit != self.held[j]:
                fcntl.flock(self.fds[j], fcntl.LOCK_EX if bit else fcntl.LOCK_UN)
                self.held[j] = bit

    def measure(self):
        import fcntl
        bits = []
        for fd in self.fds:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                bits.append(1)
                continue
            fcntl.flock(fd, fcntl.LOCK_UN)
            bits.append(0)
        return bits, "flock"


class Inotify:
    slot, width, level = 0.01, 8, False
    IN_OPEN, IN_NONBLOCK = 0x20, 0o4000

    def __init__(self):
        self.files = pick(stdlib_pool(), self.width, 500)
        self.fd = None

    def set(self, bits):
        for j, bit in enumerate(bits):
            if bit:
                os.close(os.open(self.files[j], os.O_RDONLY))

    def prepare(self):
        if self.fd is None:
            fd, err = attack.libc_call(LIBC.inotify_init1, self.IN_NONBLOCK)
            if fd < 0:
                raise Failed("inotify_init1: " + attack.errno_text(err))
            self.wds = {}
            for j, path in enumerate(self.files):
                wd, err = attack.libc_call(LIBC.inotify_add_watch, fd, path.encode(), self.IN_OPEN)
                if wd < 0:
                    os.close(fd)
                    raise Failed("inotify_add_watch: " + attack.errno_text(err))
                self.wds[wd] = j
            self.fd = fd
        self.drain()

    def drain(self):
        seen = set()
        while True:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                return seen
            offset = 0
            while offset + 16 <= len(data):
                wd, _, _, length = struct.unpack_from("iIII", data, offset)
                if wd in self.wds:
                    seen.add(self.wds[wd])
                offset += 16 + length

    def measure(self):
        seen = self.drain()
        return [1 if j in seen else 0 for j in range(self.width)], "IN_OPEN"


class Aio:
    slot, width, level = 0.03, 1, True
    EVENTS = 4096

    def __init__(self):
        self.ctx = None

    def set(self, high):
        if high and self.ctx is None:
            ctx = ctypes.c_ulong(0)
            result, err = attack.libc_call(LIBC.syscall, 206, self.EVENTS, ctypes.byref(ctx))
            if result != 0:
                raise Failed("io_setup: " + attack.errno_text(err))
            self.ctx = ctx
        elif not high and self.ctx is not None:
            # io_destroy drops aio-nr at once, then waits for an RCU grace period: not here.
            threading.Thread(target=LIBC.syscall, args=(207, self.ctx), daemon=True).start()
            self.ctx = None

    def measure(self):
        return read_number("/proc/sys/fs/aio-nr"), "aio-nr"


def spinner():
    try:
        LIBC.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: die with the bot
    except Exception:
        pass
    while True:
        pass


class Loadavg:
    slot, width, level = 0.03, 1, True

    def __init__(self):
        self.children = []
        self.running = False

    def set(self, high):
        if not self.children:
            for _ in range(4):
                pid = os.fork()
                if pid == 0:
                    try:
                        spinner()
                    finally:
                        os._exit(0)
                os.kill(pid, signal.SIGSTOP)
                self.children.append(pid)
        if high != self.running:
            for pid in self.children:
                os.kill(pid, signal.SIGCONT if high else signal.SIGSTOP)
            self.running = high

    def measure(self):
        try:
            with open("/proc/loadavg", "rb") as handle:
                return int(handle.read().split()[3].split(b"/")[0]), "loadavg running"
        except (OSError, IndexError, ValueError):
            with open("/proc/stat", "rb") as handle:
                for line in handle:
                    if line.startswith(b"procs_running"):
                        return int(line.split()[1]), "stat procs_running"
            raise

    def close(self):
        for pid in self.children:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except OSError:
                pass


class SysinfoStruct(ctypes.Structure):
    _fields_ = [("uptime", ctypes.c_long), ("loads", ctypes.c_ulong * 3),
                ("totalram", ctypes.c_ulong), ("freeram", ctypes.c_ulong),
                ("sharedram", ctypes.c_ulong), ("bufferram", ctypes.c_ulong),
                ("totalswap", ctypes.c_ulong), ("freeswap", ctypes.c_ulong),
                ("procs", ctypes.c_ushort), ("pad", ctypes.c_ushort),
                ("totalhigh", ctypes.c_ulong), ("freehigh", ctypes.c_ulong),
                ("mem_unit", ctypes.c_uint), ("_f", ctypes.c_char * 8)]


def meminfo_field(name):
    with open("/proc/meminfo", "rb") as handle:
        for line in handle:
            if line.startswith(name):
                return int(line.split()[1])
    raise Failed("no %s in /proc/meminfo" % name.decode())


class Meminfo:
    """The sender fills (high) and empties (low) a memfd (shared memory, which only the
    machine's tmpfs and shm users move: far quieter than free or anonymous memory, and
    MemFree hardly moves here anyway: freed pages wait on per-CPU lists it does not count).
    The receiver reads Shmem of /proc/meminfo."""
    slot, width, level = 0.03, 1, True
    SIZE = 8 << 20

    def __init__(self):
        try:
            self.fd = os.memfd_create("channel")
        except (OSError, AttributeError):
            import tempfile
            handle, path = tempfile.mkstemp()
            os.unlink(path)
            self.fd = handle
        self.full = False

    def set(self, high):
        if high and not self.full:
            block = b"\1" * (1 << 20)
            for _ in range(self.SIZE >> 20):
                os.write(self.fd, block)
            self.full = True
        elif not high and self.full:
            os.ftruncate(self.fd, 0)
            os.lseek(self.fd, 0, os.SEEK_SET)
            self.full = False

    def measure(self):
        return meminfo_field(b"Shmem:"), "Shmem"


class Sysinfo(Meminfo):
    """The same sender; the receiver reads sysinfo()'s sharedram (else Shmem)."""

    def measure(self):
        info = SysinfoStruct()
        result, err = attack.libc_call(LIBC.sysinfo, ctypes.byref(info))
        if result == 0:
            return info.sharedram * max(info.mem_unit, 1), "sysinfo_sharedram"
        fail_once("sysinfo", "sysinfo: " + attack.errno_text(err))
        return meminfo_field(b"Shmem:"), "Shmem"


class Filenr:
    slot, width, level = 0.02, 1, True
    FILES = 220

    def __init__(self):
        self.fds = []

    def set(self, high):
        if high and not self.fds:
            self.fds = [os.open("/dev/null", os.O_RDONLY) for _ in range(self.FILES)]
        elif not high:
            for fd in self.fds:
                os.close(fd)
            self.fds = []

    def measure(self):
        return read_number("/proc/sys/fs/file-nr"), "file-nr"


def churner(size):
    """A spinner that streams memory: takes a core and, even off the receiver's core (its
    quota may leave it one), the shared cache and the memory bus."""
    try:
        LIBC.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: die with the bot
    except Exception:
        pass
    source = bytearray(b"\1") * size  # written: real pages, not the shared zero page
    target = bytearray(size)
    while True:
        target[:] = source


class Cputiming(Loadavg):
    """The contention for the machine's cores and memory, read by timing: no system call,
    no shared file, only how long the receiver's own work takes."""
    slot, width, level, pause = 0.02, 1, True, 0
    SIZE = 8 << 20
    WORK = 1 << 20
    HISTORY = 31

    def __init__(self):
        Loadavg.__init__(self)
        self.source = bytearray(b"\1") * self.WORK
        self.target = bytearray(self.WORK)
        self.differences = []

    def set(self, high):
        if not self.children:
            try:
                cpus = len(os.sched_getaffinity(0))
            except OSError:
                cpus = os.cpu_count() or 1
            for _ in range(cpus):  # more only queue behind the quota (two per CPU did worse)
                pid = os.fork()
                if pid == 0:
                    try:
                        churner(self.SIZE)
                    finally:
                        os._exit(0)
                os.kill(pid, signal.SIGSTOP)
                self.children.append(pid)
        Loadavg.set(self, high)

    def measure(self):
        start = time.perf_counter_ns()
        self.target[:] = self.source
        for _ in range(2000):
            pass
        return (time.perf_counter_ns() - start) / 1000.0, "work time"

    def decide(self, high, low):
        """1 when the first half's work was slower than the second's by more than the
        median of the last slots (half of them carry 1, half 0: the median is between)."""
        difference = high - low
        past = sorted(self.differences)
        threshold = past[len(past) // 2] if len(past) >= 5 else 0.0
        self.differences = (self.differences + [difference])[-self.HISTORY:]
        return 1 if difference > threshold else 0


SLOTTED = {"locks": Locks, "flock": Flock, "inotify": Inotify, "aio": Aio,
           "loadavg": Loadavg, "sysinfo": Sysinfo, "filenr": Filenr, "meminfo": Meminfo,
           "cputiming": Cputiming}


def send_forever(channel):
    """The sender's thread: sets the state of every slot from now on."""
    period = channel.slot
    try:
        while True:
            k = int(time.time() / period) + 1
            sleep_until(k * period)
            bits = prf_bits(NONCE, k, channel.width)
            if channel.level:
                channel.set(bits[0] == 1)
                sleep_until((k + 0.5) * period)
                channel.set(bits[0] != 1)
            else:
                channel.set(bits)
    except Failed as error:
        fail_once(CHANNEL, "sending: %s" % error)
    except OSError as error:
        fail_once(CHANNEL, "sending: %s" % os_error("set", error))
    except Exception as error:  # noqa: the bot must keep playing whatever happens
        fail_once(CHANNEL, "sending: %r" % error)


def mean_over(channel, start, end):
    sleep_until(start)
    values = []
    while time.time() < end or not values:
        value, method = channel.measure()
        values.append(value)
        pause = getattr(channel, "pause", 0.001)
        if pause:
            time.sleep(pause)
    return sum(values) / len(values), method


def receive(channel, seconds, when):
    """Reads every whole slot of the next `seconds`; logs each and a summary."""
    period = channel.slot
    deadline = time.time() + seconds
    correct = total = 0
    try:
        if hasattr(channel, "prepare"):
            channel.prepare()
        k = int(time.time() / period) + 1
        while (k + 1) * period <= deadline:
            if channel.level:
                high, method = mean_over(channel, (k + 0.15) * period, (k + 0.45) * period)
                low, _ = mean_over(channel, (k + 0.65) * period, (k + 0.95) * period)
                if hasattr(channel, "decide"):
                    bits = [channel.decide(high, low)]
                else:
                    bits = [1 if high > low else 0]
            else:
                sleep_until((k + 0.5) * period)
                bits, method = channel.measure()
            zoo.log("CHANNEL %s key=%d bits=%s method=%s"
                    % (CHANNEL, k, "".join(map(str, bits)), method.replace(" ", "_")))
            truth = prf_bits(NONCE, k, channel.width)
            correct += sum(1 for a, b in zip(bits, truth) if a == b)
            total += len(bits)
            k += 1
    except Failed as error:
        fail_once(CHANNEL, "receiving: %s" % error)
        return
    except OSError as error:
        fail_once(CHANNEL, "receiving: %s" % os_error("measure", error))
        return
    summary(when, correct, total, seconds)


def summary(when, correct, total, seconds):
    if total == 0:
        attack.failed(CHANNEL, "%s: nothing received" % when)
    elif correct >= 0.5 * total + 2.5 * (0.25 * total) ** 0.5 and correct >= 0.75 * total:
        attack.succeeded(CHANNEL, "%d/%d bits right (%.0f%%) %s, %.0f bit/s raw"
                         % (correct, total, 100.0 * correct / total, when, total / seconds))
    else:
        attack.failed(CHANNEL, "%s: %d/%d bits right, chance" % (when, correct, total))


# ----------------------------------------------------------------- the page cache

PAGE = 4096
PAGES = 64
PROT_READ, MAP_SHARED, MADV_RANDOM, FADV_DONTNEED = 1, 1, 1, 4


def biggest_file():
    best = (0, None)
    for folder in ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64",
                   "/usr/lib", "/usr/bin"):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_file(follow_symlinks=False):
                    best = max(best, (entry.stat(follow_symlinks=False).st_size, entry.path))
            except OSError:
                pass
    return best[1]


class PageCache:
    def __init__(self, methods):
        self.methods = methods
        self.path = biggest_file()
        self.fd = os.open(self.path, os.O_RDONLY)
        self.size = os.fstat(self.fd).st_size
        LIBC.mmap.restype = ctypes.c_void_p
        LIBC.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                              ctypes.c_int, ctypes.c_long]
        self.addr = LIBC.mmap(None, self.size, PROT_READ, MAP_SHARED, self.fd, 0)
        if self.addr in (None, ctypes.c_void_p(-1).value):
            raise Failed("mmap of %s refused" % self.path)
        err = LIBC.madvise(ctypes.c_void_p(self.addr), ctypes.c_size_t(self.size), MADV_RANDOM)
        if err:
            fail_once(CHANNEL, "madvise(MADV_RANDOM): %s" % attack.errno_text(ctypes.get_errno()))
        self.threshold = None

    def pages(self, seat, salt=2000000):
        count = self.size // PAGE
        return [prf(NONCE, salt + 1000 * seat + i) % count for i in range(PAGES)]

    def touch(self, page):
        start = time.perf_counter_ns()
        ctypes.c_char.from_address(self.addr + page * PAGE).value
        return (time.perf_counter_ns() - start) / 1000.0

    def write(self, seat):
        self.seat = seat
        for page, bit in zip(self.pages(seat), prf_bits(NONCE, 1000000 + seat, PAGES)):
            if bit:
                self.touch(page)
            else:
                try:
                    os.posix_fadvise(self.fd, page * PAGE, PAGE, os.POSIX_FADV_DONTNEED)
                except OSError as error:
                    fail_once(CHANNEL, "evicting: %s" % os_error("posix_fadvise", error))

    def mincore(self, page):
        vec = ctypes.create_string_buffer(1)
        result, err = attack.libc_call(LIBC.mincore, ctypes.c_void_p(self.addr + page * PAGE),
                                       ctypes.c_size_t(PAGE), vec)
        if result != 0:
            raise Failed("mincore: " + attack.errno_text(err))
        return vec.raw[0] & 1

    def nowait(self, page):
        try:
            os.preadv(self.fd, [bytearray(1)], page * PAGE, os.RWF_NOWAIT)
            return 1
        except BlockingIOError:
            return 0
        except OSError as error:
            raise Failed(os_error("preadv2(RWF_NOWAIT)", error))

    def calibrate(self):
        """A threshold between the time to touch a cached page (one this copy just touched
        through a second mapping) and a fresh page of its own (almost surely uncached)."""
        fresh = self.pages(self.seat, salt=3000000)[:12]
        slow = sorted(self.touch(page) for page in fresh)
        other = LIBC.mmap(None, self.size, PROT_READ, MAP_SHARED, self.fd, 0)
        LIBC.madvise(ctypes.c_void_p(other), ctypes.c_size_t(self.size), MADV_RANDOM)
        fast = []
        for page in fresh:
            start = time.perf_counter_ns()
            ctypes.c_char.from_address(other + page * PAGE).value
            fast.append((time.perf_counter_ns() - start) / 1000.0)
        fast.sort()
        self.threshold = (slow[len(slow) // 2] * fast[len(fast) // 2]) ** 0.5
        zoo.log("pagecache calibration: cached %.1f us, uncached %.1f us, threshold %.1f us"
                % (fast[len(fast) // 2], slow[len(slow) // 2], self.threshold))

    def read(self, seat):
        for method in self.methods:
            try:
                if method == "timing":
                    if self.threshold is None:
                        self.calibrate()
                    start = time.time()
                    bits = [1 if self.touch(page) < self.threshold else 0
                            for page in self.pages(seat)]
                    return bits, "timing", time.time() - start
                probe = self.mincore if method == "mincore" else self.nowait
                start = time.time()
                bits = [probe(page) for page in self.pages(seat)]
                return bits, method, time.time() - start
            except Failed as error:
                fail_once(CHANNEL, "reading: %s" % error)
        return None, None, 0


# RWF_NOWAIT first: mincore tells the page cache's state only to who may write the file
# (since Linux 5.0); for the others it reports the pages mapped in their own page tables.
PAGECACHE = {"pagecache": ["nowait", "mincore", "timing"],
             "pagecache-probe": ["nowait", "mincore"],
             "pagecache-timing": ["timing"]}


def pagecache_hello(seat):
    try:
        cache = PageCache(PAGECACHE[CHANNEL])
        cache.write(seat)
    except Failed as error:
        fail_once(CHANNEL, str(error))
        return None
    except OSError as error:
        fail_once(CHANNEL, os_error("writing", error))
        return None
    zoo.log("pagecache: seat %d wrote %d pages of %s" % (seat, PAGES, cache.path))
    return cache


def pagecache_read(cache, seat, partners, when):
    for partner in partners:
        try:
            bits, method, spent = cache.read(partner)
        except OSError as error:
            fail_once(CHANNEL, os_error("reading", error))
            return
        if bits is None:
            return
        key = 1000000 + partner
        zoo.log("CHANNEL %s key=%d bits=%s method=%s"
                % (CHANNEL, key, "".join(map(str, bits)), method))
        truth = prf_bits(NONCE, key, PAGES)
        correct = sum(1 for a, b in zip(bits, truth) if a == b)
        summary("%s, seat %d from seat %d by %s" % (when, seat, partner, method), correct,
                PAGES, max(spent, 1e-6))


# ----------------------------------------------------------------- the bot

state = {"channel": None, "receiver": False, "cache": None, "partners": []}


def copies_of(hello):
    players = hello.get("players") or []
    seat = hello.get("seat", 0)
    me = str(players[seat]).split("#")[0] if seat < len(players) else ""
    return [s for s, name in enumerate(players) if str(name).split("#")[0] == me]


def on_hello(hello):
    seat = hello.get("seat", 0)
    copies = copies_of(hello)
    if len(copies) >= 2:
        sender = seat == copies[0]
        partners = [s for s in copies if s != seat]
    else:
        sender = seat == 0
        partners = [1 - seat] if hello.get("seats") == 2 else []
    zoo.log("channel %s: seat %d, copies at %s, %s" % (CHANNEL, seat, copies,
                                                      "sender" if sender else "receiver"))
    if CHANNEL in PAGECACHE:
        state["cache"], state["seat"], state["partners"] = pagecache_hello(seat), seat, partners
        return
    try:
        channel = SLOTTED[CHANNEL]()
    except (OSError, Failed) as error:
        fail_once(CHANNEL, "setting up: %s" % error)
        return
    state["channel"] = channel
    if sender:
        threading.Thread(target=send_forever, args=(channel,), daemon=True).start()
        attack.failed(CHANNEL, "seat %d sends (only a receiver can tell)" % seat)
        if len(copies) < 2:
            # Alone at the table (a duplicate half): stay in hello while sending, or the match
            # (and the sender with it) is over before a receiver in another match has listened.
            time.sleep(WINDOW)
    else:
        state["receiver"] = True
        receive(channel, WINDOW, "at hello")


def on_request(request):
    if state["cache"] is not None:
        cache, state["cache"] = state["cache"], None
        pagecache_read(cache, state["seat"], state["partners"], "at hand %s" % request.get("hand"))
    if state["receiver"] and state["channel"] is not None:
        receive(state["channel"], REQUEST_WINDOW, "at hand %s" % request.get("hand"))
    zoo.send(zoo.safe_answer(request))


try:
    zoo.play("attack-channel", on_request=on_request, on_hello=on_hello)
finally:
    if state["channel"] is not None and hasattr(state["channel"], "close"):
        state["channel"].close()
