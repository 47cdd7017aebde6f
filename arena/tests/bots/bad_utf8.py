"""Writes one line that is not UTF-8, then sleeps."""
import sys
import time

sys.stdout.buffer.write(b"caf\xe9 \xff\xfe\n")
sys.stdout.buffer.flush()
time.sleep(60)
