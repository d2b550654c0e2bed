#!/usr/bin/env python3
"""routes.py - the family's guards beside the model's ranking of its routes
(cakec --report --report-routes) over shape lists: which route each picks,
and the predicted times (issue 39: a family routed by the model).

  python3 bench/costmodel/routes.py [--family examples/gemm_bf16_family_sm90a.cake] LIST... [--csv OUT]

A LIST is a file of MxNxK lines (# comments), as harness/gemm/shapes/*.txt.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def shapes_of(path):
    out = []
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(tuple(int(x) for x in line.split("x")))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("lists", nargs="+")
    ap.add_argument("--family", default="examples/gemm_bf16_family_sm90a.cake")
    ap.add_argument("--cakec", default=os.path.join(ROOT, "build-test/bin/cakec"))
    ap.add_argument("--csv")
    a = ap.parse_args()
    shapes = []
    for p in a.lists:
        for s in shapes_of(p):
            if s not in shapes:
                shapes.append(s)
    cmd = [a.cakec, "--report", "--report-routes", "--report-format=json", "-I", os.path.join(ROOT, "examples"),
           os.path.join(ROOT, a.family)]
    for M, N, K in shapes:
        cmd += ["--shape", f"M={M},N={N},K={K}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        sys.exit(p.stderr)
    rows = []
    for r in json.loads(p.stdout)["reports"]:
        if not r.get("family"):
            continue
        times = {x["route"]: x.get("time_us") for x in r.get("routes", [])}
        guard, best = r["route"], r.get("fastest_route")
        rows.append({"M": r["shape"]["M"], "N": r["shape"]["N"], "K": r["shape"]["K"], "guards": guard,
                     "guards_us": times.get(guard), "model": best, "model_us": times.get(best),
                     "gain": times[guard] / times[best] - 1 if best and times.get(guard) else None})
    print(f"{'shape':>18} {'guards route':>28} {'pred us':>8} {'model route':>28} {'pred us':>8} {'gain':>6}")
    for r in rows:
        g = f"{100 * r['gain']:5.1f}%" if r["gain"] is not None else "-"
        print(f"{r['M']:>5}x{r['N']:>5}x{r['K']:>5} {r['guards']:>28} {r['guards_us'] or 0:8.2f} "
              f"{r['model'] or '-':>28} {r['model_us'] or 0:8.2f} {g:>6}")
    differ = [r for r in rows if r["model"] != r["guards"]]
    print(f"{len(rows)} shapes; the model picks another route at {len(differ)}")
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()
