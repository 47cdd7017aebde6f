"""Writes lines of 60 000 bytes on stdout as fast as it can, forever, never reading stdin.
Extra arguments are only a marker that tests look for in /proc/*/cmdline."""
import sys

line = b"y" * 60000 + b"\n"
while True:
    sys.stdout.buffer.write(line)
    sys.stdout.buffer.flush()
