"""Writes argv[1] MiB to stderr, then "done" on stdout, then waits for stdin EOF."""
import sys

mib = int(sys.argv[1])
chunk = (b"x" * 1023 + b"\n") * 1024  # 1 MiB
for _ in range(mib):
    sys.stderr.buffer.write(chunk)
sys.stderr.buffer.flush()
sys.stdout.write("done\n")
sys.stdout.flush()
for _ in sys.stdin:
    pass
