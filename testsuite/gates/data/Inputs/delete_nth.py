#!/usr/bin/env python3
"""Prints FILE without the Nth line (1-based) that contains TEXT: a broken
variant of an example with one statement deleted.

usage: delete_nth.py FILE TEXT N
"""
import sys

path, text, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
seen = 0
for line in open(path):
    if text in line:
        seen += 1
        if seen == n:
            continue
    sys.stdout.write(line)
if seen < n:
    sys.exit(f"delete_nth.py: '{text}' occurs {seen} time(s) in {path}, not {n}")
