#!/usr/bin/env python3
"""exit_at_start.py: exits at once with status 1, before reading or answering hello.

Expected: a `startup` fault.
"""
import sys

sys.stderr.write("exit_at_start: leaving before hello\n")
sys.exit(1)
