"""Writes 10 MB on stdout without a newline, then sleeps."""
import sys
import time

chunk = b"a" * (1024 * 1024)
for _ in range(10):
    sys.stdout.buffer.write(chunk)
sys.stdout.buffer.flush()
time.sleep(60)
