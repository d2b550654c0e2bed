#!/usr/bin/env python3
"""many_views.py N MODE: a schedule with N views of one pool.

MODE overlap: every view at offset 0 (each pair overlaps); apart: each view
after the last; alias: every view at offset 0 with alias=True, all laid out
alike (no pair conflicts)."""
import sys

n, mode = int(sys.argv[1]), sys.argv[2]
# 8-byte views, so that 20,000 apart fit in shared memory.
lines = ["@cake.schedule()", "def k(lm):", f"    pool = lm.smem({max(n * 8, 1024)})"]
for i in range(n):
    offset = i * 8 if mode == "apart" else 0
    alias = ", alias=True" if mode == "alias" else ""
    lines.append(f"    v{i} = pool.view(offset={offset}, shape=(1, 4), dtype=lm.bf16{alias})")
lines += ["    r = lm.role(warps=[0])", "    with r:", "        lm.role_sync()"]
print("\n".join(lines))
