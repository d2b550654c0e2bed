#!/usr/bin/env python3
"""Compares the route `cakec --report` says a family takes with the route the
generated dispatcher's NAME_route() returns, over shapes of the family's
domain (family_routes.test).

  compare_routes.py CAKEC FAMILY.cake ROUTE_BINARY

ROUTE_BINARY reads "M N K" lines and prints "M N K route" (route_main.cpp
around the generated header). The shapes: the domain's edges, the guards'
neighbourhoods and seeded random ones, kept small enough to count quickly.
"""
import json
import random
import subprocess
import sys

cakec, source, binary = sys.argv[1:4]
rng = random.Random(39)
ms = [1, 2, 8, 16, 17, 48, 63, 64, 65, 96, 100, 127, 128, 129, 200, 255, 256, 300, 512, 640, 777, 1024, 1500, 2000,
      3000, 4096, 6000]
ns = [8, 16, 304, 512, 1000, 1024, 1504, 2048, 3000, 4096, 7168]
ks = [8, 64, 128, 136, 520, 1536, 2048, 4096, 8192, 14336]
shapes = set()
while len(shapes) < 90:
    m, n, k = rng.choice(ms), rng.choice(ns), rng.choice(ks)
    if m * n * k <= 2 ** 36:
        shapes.add((m, n, k))
shapes = sorted(shapes)
cmd = [cakec, "--report", "--report-format=json", source]
for m, n, k in shapes:
    cmd += ["--shape", f"M={m},N={n},K={k}"]
out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
reports = [r for r in json.loads(out)["reports"] if r.get("family")]
assert len(reports) == len(shapes), (len(reports), len(shapes))
feed = "".join(f"{m} {n} {k}\n" for m, n, k in shapes)
lines = subprocess.run([binary], input=feed, capture_output=True, text=True, check=True).stdout.split("\n")
bad = 0
routes = set()
for (m, n, k), r, line in zip(shapes, reports, lines):
    want = line.split()[3]
    routes.add(want)
    if r["route"] != want or r["shape"] != {"K": k, "M": m, "N": n}:
        print(f"MISMATCH {m}x{n}x{k}: report says {r['route']!r}, the dispatcher {want!r}")
        bad += 1
    if not r["estimated"]:
        print(f"NOT ESTIMATED {m}x{n}x{k}: {r.get('why')}")
        bad += 1
print(f"{len(shapes)} shapes, {len(routes)} routes ({', '.join(sorted(routes))}), {bad} mismatches")
sys.exit(1 if bad else 0)
