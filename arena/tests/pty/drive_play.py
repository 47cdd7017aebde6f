#!/usr/bin/env python3
"""Drives `arena play` through a pseudo-terminal the way a person would.

Usage: drive_play.py ARENA BOT_CMD GAME [quit]
At each prompt it answers like a person: first something wrong (to check it is asked again),
then a legal answer chosen from the menu shown (show when offered, else bet, keep, refuse).
With `quit`, it types `quit` at the fourth prompt instead, and the game must end there.
Exits 0 when the game ended normally and everything expected was seen; prints the whole
screen on failure.
"""
import re
import os
import pty
import select
import sys
import time

arena, bot, game = sys.argv[1], sys.argv[2], sys.argv[3]
quitting = len(sys.argv) > 4 and sys.argv[4] == "quit"
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
    elif quitting:
        answer("quit")
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
# One bot: "with 1 bot." (not "bots"); hands and seats are numbered from 1; each hand's nets
# are labelled with who they are for.
expected = ["Your cards:", "Sorry:", "Try again.", "Game over:", "with 1 bot.", "You are seat 1.",
            "Hand 1:", "net: you "]
expected += ["(you leave: you pack and the game ends)"] if quitting else ["Hand 6:"]
missing = [e for e in expected if e not in screen]
unexpected = [u for u in ["Hand 0:", "Hand 7:", "1 bots"] if u in screen]
if quitting:
    # Nothing is asked after `quit`, and no later hand is dealt.
    unexpected += [u for u in ["Hand 2:"] if u in screen]
# The person is "you", with the verbs that go with it ("you keep your cards"), never a seat
# number; a refused action always says why ("show is not allowed now: ...").
unexpected += re.findall(r"\byou \[\d+\]|\byou (?:is|keeps|bets|packs|sees|swaps|pays|asks|refuses"
                         r"|loses|takes|deals)\b|is not allowed now\. Try again", screen)
if os.waitstatus_to_exitcode(status) != 0 or missing or unexpected or prompts < 4:
    print(screen)
    print(f"exit status {os.waitstatus_to_exitcode(status)}, missing {missing}, "
          f"unexpected {unexpected}, prompts {prompts}")
    sys.exit(1)
if quitting:
    if prompts != 4:
        print(screen)
        print(f"{prompts} prompts: the game should end at the `quit`")
        sys.exit(1)
    print("ok: left with quit")
    sys.exit(0)
# Closest to 555 values have three digits, as RULES.md writes them.
if game == "closest-555":
    bad = [v for v in re.findall(r"= (\d+) \(distance", screen) if len(v) != 3]
    if bad:
        print(screen)
        print(f"values not written with three digits: {bad}")
        sys.exit(1)
# Lallan Kallan: the person's live deals name their wild card.
if game == "lallan-kallan":
    deals = re.findall(r"you are dealt (\S+) (\S+) (\S+)( \(wild (\S+)\))?", screen)
    for *cards, _, wild in deals:
        red = [c for c in cards if c[-1] in "dh"]
        want = red[0] if len(red) == 1 else next((c for c in cards if c[-1] in "cs"), "") if len(red) == 2 else ""
        if wild != want:
            print(screen)
            print(f"deal {cards}: wild {wild!r}, expected {want!r}")
            sys.exit(1)
    if not any(w for *_, w in deals):
        print(screen)
        print("no live deal of the person's was seen")
        sys.exit(1)
if "revealed (show)" not in screen:
    print(screen)
    print("no show was revealed")
    sys.exit(1)
print(f"ok: {prompts} prompts answered")
