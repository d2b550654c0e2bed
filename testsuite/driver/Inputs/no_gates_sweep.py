#!/usr/bin/env python3
"""Lowers every part of every test input with expected errors with every gate
that may be off (-fno-gates=all), on three targets, and fails on an internal
error, a crash or a hang: codegen never crashes on what the gates would have
rejected. Prints how many parts reached the lowering past a rejecting gate.

usage: no_gates_sweep.py CAKEC SRCROOT MIN_LOWERED
"""
import pathlib
import subprocess
import sys

cakec, root, minimum = sys.argv[1], pathlib.Path(sys.argv[2]), int(sys.argv[3])
inputs = sorted(p for p in (root / "testsuite").rglob("*.cake") if "expected-error" in p.read_text())
failures, lowered = [], 0
for path in inputs:
    for target in ("sm_90a", "sm_80", "sm_100a"):
        cmd = [cakec, "-I", str(root), "-I", str(root / "testsuite"), f"--target={target}", "-fsyntax-only",
               "--split-input-file", "-fno-gates=all", "-fcheck-waits", str(path)]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            failures.append(f"{path} ({target}): no answer in 60 s")
            continue
        if r.returncode not in (0, 1) or "internal compiler error" in r.stderr:
            failures.append(f"{path} ({target}): exit {r.returncode}: {r.stderr.strip().splitlines()[-1:]}")
        if target == "sm_90a":
            lowered += r.stderr.count("[driver.gates-off]")
print(f"{len(inputs)} inputs, {lowered} parts lowered on sm_90a past a rejecting gate")
for f in failures:
    print("error:", f)
if lowered < minimum:
    print(f"error: fewer than {minimum} parts reached the lowering: the sweep no longer tests it")
sys.exit(1 if failures or lowered < minimum else 0)
