"""Reads stdin but never answers; exits at EOF."""
import sys

for _ in sys.stdin:
    pass
