#!/usr/bin/env python3
"""Drives `arena play` through a pseudo-terminal the way a person would.

Usage: drive_play.py ARENA BOT_CMD GAME
At each prompt it answers like a person: first something wrong (to check it is asked again),
then a legal answer chosen from the menu shown (show when offered, else bet, keep, refuse).
Exits 0 when the game ended normally and everything expected was seen; prints the whole
screen on failure.
"""
import os
import pty
import select
import sys
import time

arena, bot, game = sys.argv[1], sys.argv[2], sys.argv[3]
pid, fd = pty.fork()
if pid == 0:
    os.execv(arena, [arena, "play", "--game", game, "--bot", bot, "--hands", "6", "--seed", "9"])

screen = ""
deadline = time.time() + 60


def read_until_prompt():
    """Reads until the prompt '> ' or the end; returns False at the end."""
    global screen
    while time.time() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096).decode("utf-8", "replace")
        except OSError:
            return False  # the child closed the terminal: it ended
        if not chunk:
            return False
        screen += chunk
        if screen.endswith("> "):
            return True
    raise SystemExit("timed out; screen so far:\n" + screen)


def answer(text):
    os.write(fd, (text + "\n").encode())


wrong_answers = ["dance", "bet 99999", "swap 1x"]
prompts = 0
while read_until_prompt():
    menu = screen.rsplit("\n", 2)[-2]
    if prompts < len(wrong_answers):
        answer(wrong_answers[prompts])
    elif "show (costs" in menu:
        answer("show")
    elif "bet N" in menu:
        answer("bet")
    elif "keep" in menu:
        answer("keep")
    elif "refuse" in menu:
        answer("refuse")
    elif "see" in menu:
        answer("see")
    else:
        answer("pack")
    prompts += 1

_, status = os.waitpid(pid, 0)
expected = ["Your cards:", "Sorry:", "Try again.", "Game over:", "Hand 5:"]
missing = [e for e in expected if e not in screen]
if os.waitstatus_to_exitcode(status) != 0 or missing or prompts < 4:
    print(screen)
    print(f"exit status {os.waitstatus_to_exitcode(status)}, missing {missing}, prompts {prompts}")
    sys.exit(1)
if "revealed (show)" not in screen:
    print(screen)
    print("no show was revealed")
    sys.exit(1)
print(f"ok: {prompts} prompts answered")
