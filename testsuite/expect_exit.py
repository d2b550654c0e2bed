#!/usr/bin/env python3
"""expect_exit.py CODE CMD ARGS...: run CMD and succeed only if it exits with
CODE (lit's `not` accepts any non-zero status; some tests need the exact one).
Output passes through."""
import subprocess
import sys

code = int(sys.argv[1])
rc = subprocess.run(sys.argv[2:]).returncode
if rc != code:
    print(f"expect_exit: expected exit status {code}, got {rc}", file=sys.stderr)
    sys.exit(1)
