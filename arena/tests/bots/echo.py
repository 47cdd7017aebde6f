"""Echoes every stdin line back on stdout; exits at EOF."""
import sys

for line in sys.stdin:
    sys.stdout.write(line)
    sys.stdout.flush()
