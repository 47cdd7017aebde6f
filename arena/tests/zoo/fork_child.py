#!/usr/bin/env python3
"""fork_child.py: answers hello, then forks a child that inherits stdin, stdout and stderr
and sleeps forever; the parent exits (status 0) at its first request without answering.

Because the child keeps stdout open, the arena never sees end-of-file on it.
Expected: a `crashed` fault detected from the parent's exit (not from EOF), and the child
killed with the bot's process group when the arena cleans up; no process left behind.
"""
import os
import time

import zoo_common as zoo


def fork_after_hello(hello):
    if os.fork() == 0:  # the child: hold the pipes open and sleep
        while True:
            time.sleep(3600)


def exit_parent(request):
    zoo.log("fork_child: parent %d exits at request %s" % (os.getpid(), request["id"]))
    os._exit(0)


zoo.play("fork-child", on_hello=fork_after_hello, on_request=exit_parent)
