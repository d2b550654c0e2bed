#!/usr/bin/env python3
"""Fails unless every diagnostic in cakec's table was emitted by some test.

Usage: check_diagnostic_coverage.py CAKEC LOG
LOG is the file the lit run appended emitted ids to (CAKEC_DIAGNOSTIC_LOG);
the table comes from `cakec --list-diagnostics`.
"""
import subprocess
import sys


def main():
    cakec, log = sys.argv[1], sys.argv[2]
    table = subprocess.run([cakec, "--list-diagnostics"], capture_output=True, text=True, check=True).stdout
    ids = [line.split()[0] for line in table.splitlines() if line.strip()]
    try:
        with open(log) as f:
            seen = {line.strip() for line in f if line.strip()}
    except FileNotFoundError:
        print(f"error: no diagnostic log at {log}; run the lit suite first")
        return 1
    missing = [i for i in ids if i not in seen]
    for i in missing:
        print(f"error: diagnostic '{i}' is not triggered by any test in testsuite/")
    print(f"{len(ids) - len(missing)} of {len(ids)} diagnostics covered by tests")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
