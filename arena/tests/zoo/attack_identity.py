#!/usr/bin/env python3
"""attack_identity.py: at hello, reports who it runs as and tries the system calls a
sandbox should deny, then plays legally (pack / keep / refuse).

One line "IDENTITY uid=U gid=G CapEff=.. CapPrm=.. CapBnd=.. CapAmb=.. NoNewPrivs=N
Seccomp=S" (the values of /proc/self/status), then for each call, made in a forked child:
unshare(CLONE_NEWUSER), unshare(CLONE_NEWNS), ptrace(PTRACE_TRACEME), keyctl(JOIN_SESSION_
KEYRING) and mount of a tmpfs in its working directory (unmounted at once): "ATTACK syscall-NAME SUCCEEDED: ok"
or "ATTACK syscall-NAME failed: <errno>".
"""
import os

import attack_common as attack
import zoo_common as zoo

CLONE_NEWNS, CLONE_NEWUSER = 0x00020000, 0x10000000
PTRACE_TRACEME, SYS_KEYCTL, KEYCTL_JOIN_SESSION_KEYRING = 0, 250, 1
LIBC = attack.LIBC


def status():
    fields = {}
    with open("/proc/self/status") as handle:
        for line in handle:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return fields


def probe(name, call):
    def child():
        ret, err = attack.libc_call(*call())
        return 0 if ret >= 0 else min(err, 254) or 254
    code = attack.in_child(child)
    if code == 0:
        attack.succeeded("syscall-" + name, "ok")
    else:
        attack.failed("syscall-" + name, attack.errno_text(code))


def report(hello):
    fields = status()
    zoo.log("IDENTITY uid=%d gid=%d %s" % (os.getuid(), os.getgid(), " ".join(
        "%s=%s" % (key, fields.get(key, "?"))
        for key in ("CapEff", "CapPrm", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp"))))
    probe_dir = os.path.join(os.getcwd(), "probe-identity")
    os.makedirs(probe_dir, exist_ok=True)
    probe("unshare-user", lambda: (LIBC.unshare, CLONE_NEWUSER))
    probe("unshare-mount", lambda: (LIBC.unshare, CLONE_NEWNS))
    probe("ptrace", lambda: (LIBC.ptrace, PTRACE_TRACEME, 0, None, None))
    probe("keyctl", lambda: (LIBC.syscall, SYS_KEYCTL, KEYCTL_JOIN_SESSION_KEYRING, None))
    probe("mount", lambda: (mount_and_umount, probe_dir.encode()))


def mount_and_umount(path):
    """mount's result; a mount that succeeded is undone at once (at a level without a mount
    namespace of its own, it would stay on the machine)."""
    ret = LIBC.mount(b"tmpfs", path, b"tmpfs", 0, None)
    if ret == 0:
        LIBC.umount2(path, 2)
    return ret


zoo.play("attack-identity", on_hello=report)
