#!/usr/bin/env python3
"""attack_mount.py HOST_MNT_NS: uses root's powers against the sandbox's mounts at its first
request, then plays legally (pack / keep / refuse).

HOST_MNT_NS is the number in the test's /proc/self/ns/mnt ("mnt:[N]").
- mount: SUCCEEDED if a tmpfs can be mounted on a directory in its working directory, or
  unmounted again (any mount power at all);
- umount: SUCCEEDED if /tmp, /proc or the directory above its working directory (the
  match's hidden directory) can be unmounted;
- remount: SUCCEEDED if "/" can be remounted read-write;
- write: SUCCEEDED if a file can be created in /root, /var/tmp, its own program's directory
  or the directory above its working directory (each probe file is removed at once).
umount and remount are tried only in a mount namespace of its own that does not propagate
to the host's (otherwise they would change the test machine: logged as "skipped").
Each kind that never succeeded logs a "failed" line with the errors.
"""
import os
import sys

import attack_common as attack
import zoo_common as zoo

MS_RDONLY, MS_REMOUNT, MS_BIND = 1, 32, 4096
MNT_DETACH = 2
LIBC = attack.LIBC
host_ns = sys.argv[1] if len(sys.argv) > 1 else ""
name = "attack-probe-%d-%s" % (os.getpid(), attack.marker() or "nomark")
home = os.path.realpath(os.getcwd())
results = {}


def record(kind, ok, detail):
    results.setdefault(kind, [])
    if ok:
        attack.succeeded(kind, detail)
        results[kind].append(None)
    else:
        results[kind].append(detail)


def c(text):
    return text.encode() if text is not None else None


def own_namespace():
    """True when the bot's mount namespace is not the test's and its mounts do not
    propagate ("shared:" in mountinfo) back to another namespace."""
    mine = os.readlink("/proc/self/ns/mnt")
    if not host_ns or mine == "mnt:[%s]" % host_ns:
        return False
    with open("/proc/self/mountinfo") as info:
        return not any(" shared:" in line for line in info)


def try_mount():
    probe = os.path.join(home, "probe-mount")
    os.makedirs(probe, exist_ok=True)
    ret, err = attack.libc_call(LIBC.mount, b"tmpfs", c(probe), b"tmpfs", 0, None)
    record("mount", ret == 0, "mount tmpfs on %s: %s" % (probe, "ok" if ret == 0 else attack.errno_text(err)))
    if ret == 0:
        ret, err = attack.libc_call(LIBC.umount2, c(probe), 0)
        record("mount", ret == 0, "umount %s: %s" % (probe, "ok" if ret == 0 else attack.errno_text(err)))


def try_umount_and_remount():
    for target, flags in (("/tmp", MNT_DETACH), ("/proc", 0), (os.path.dirname(home), MNT_DETACH)):
        ret, err = attack.libc_call(LIBC.umount2, c(target), flags)
        record("umount", ret == 0, "umount2 %s: %s" % (target, "ok" if ret == 0 else attack.errno_text(err)))
    ret, err = attack.libc_call(LIBC.mount, None, b"/", None, MS_REMOUNT | MS_BIND, None)
    record("remount", ret == 0, "remount / rw: %s" % ("ok" if ret == 0 else attack.errno_text(err)))


def try_writes():
    program_dir = os.path.dirname(os.path.realpath(__file__))
    for directory in ("/root", "/var/tmp", program_dir, os.path.dirname(home)):
        path = os.path.join(directory, name)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                os.write(fd, b"x")
            finally:
                os.close(fd)
                os.unlink(path)
            record("write", True, "wrote %s" % path)
        except OSError as error:
            record("write", False, "%s: %s" % (path, error.strerror))


def run():
    try_mount()
    if own_namespace():
        try_umount_and_remount()
    else:
        zoo.log("ATTACK umount skipped: in the host's mount namespace (would change the machine)")
    try_writes()
    for kind, outcomes in results.items():
        if None not in outcomes:
            attack.failed(kind, "; ".join(outcomes))


done = []


def on_request(request):
    if not done:
        done.append(True)
        run()
    zoo.send(zoo.safe_answer(request))


zoo.play("attack-mount", on_request=on_request)
