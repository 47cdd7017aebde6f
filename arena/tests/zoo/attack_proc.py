#!/usr/bin/env python3
"""attack_proc.py: reads other processes through /proc, at hello and at its first request,
then plays legally (pack / keep / refuse).

For every process it can see except itself and its sandbox's own `bwrap`:
- proc-cmdline: SUCCEEDED if the command line holds "--seed" (the arena's: the seed deals
  every card);
- proc-environ: SUCCEEDED if the environment holds any entry that the bot's own lacks (the
  arena's, or another bot's);
- proc-mem (processes whose program is python, the random bot or the arena only): SUCCEEDED if one byte
  of /proc/PID/mem can be read.
Each kind that never succeeds logs one "failed" line with how many attempts were refused.
Expected with the sandbox on: nothing outside the bot's own sandbox is visible or readable.
"""
import os

import attack_common as attack
import zoo_common as zoo

TARGETS = ("python", "random-bot", "arena")


def read(path, size=1 << 16):
    with open(path, "rb") as handle:
        return handle.read(size)


def read_mem(pid):
    with open("/proc/%s/maps" % pid) as maps:
        regions = [line.split() for line in maps]
    for region in regions:
        if region[1].startswith("r"):
            start = int(region[0].split("-")[0], 16)
            with open("/proc/%s/mem" % pid, "rb", buffering=0) as mem:
                mem.seek(start)
                if mem.read(1):
                    return start
    raise OSError("no readable mapping")


def report(won, name, detail):
    """A SUCCEEDED line for the first few successes of each kind (the log stays short)."""
    won[name] += 1
    if won[name] <= 5:
        attack.succeeded(name, detail)


def scan(when):
    me = os.getpid()
    own = set(e for e in open("/proc/self/environ", "rb").read().split(b"\0") if e)
    won = {"proc-cmdline": 0, "proc-environ": 0, "proc-mem": 0}
    refused = {"proc-cmdline": [], "proc-environ": [], "proc-mem": []}
    seen = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == me:
            continue
        try:
            cmdline = read("/proc/%s/cmdline" % pid, 1 << 20)
        except OSError as error:
            refused["proc-cmdline"].append(error.strerror)
            continue
        if not cmdline:
            continue  # kernel thread or zombie
        program = os.path.basename(cmdline.split(b"\0")[0]).decode("utf-8", "replace")
        if program == "bwrap":
            continue  # the bot's own sandbox: holds only the bot's own command line
        seen += 1
        if b"--seed" in cmdline:
            report(won, "proc-cmdline", "%s: pid %s (%s) has --seed" % (when, pid, program))
        try:
            environ = set(e for e in read("/proc/%s/environ" % pid, 1 << 20).split(b"\0") if e)
            extra = environ - own
            if extra:
                report(won, "proc-environ", "%s: pid %s (%s): %d entries not mine"
                                 % (when, pid, program, len(extra)))
        except OSError as error:
            refused["proc-environ"].append(error.strerror)
        if any(program.startswith(target) for target in TARGETS):
            try:
                address = read_mem(pid)
                report(won, "proc-mem", "%s: pid %s (%s): read a byte at %#x"
                                 % (when, pid, program, address))
            except OSError as error:
                refused["proc-mem"].append(error.strerror or str(error))
    for name, count in won.items():
        if not count:
            errors = sorted(set(refused[name]))
            attack.failed(name, "%s: %d other processes visible, %d refused %s"
                          % (when, seen, len(refused[name]), errors))


done = []


def on_request(request):
    if not done:
        done.append(True)
        scan("request")
    zoo.send(zoo.safe_answer(request))


scan("start")
zoo.play("attack-proc", on_request=on_request)
