"""Writes half a line, pauses, finishes it; then echoes stdin."""
import sys
import time

sys.stdout.write("hel")
sys.stdout.flush()
time.sleep(0.5)
sys.stdout.write("lo\n")
sys.stdout.flush()
for line in sys.stdin:
    sys.stdout.write(line)
    sys.stdout.flush()
