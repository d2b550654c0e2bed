#!/usr/bin/env python3
"""freeze.py - the model's predictions for pairs not yet measured, written
down (and committed) before the device run that measures them, so that the
accuracy on kernels "measured after the fit" (issue 39) is scored against
predictions no measurement could have moved.

  python3 bench/costmodel/freeze.py PLAN [PLAN ...] -o predictions.csv

A PLAN is either sweep.txt's format (name | file | defines | kernel | harness
flags | MxNxK ...) or a plan file's (file | defines | shape ...), each shape
NAME=V,NAME=V. The output has kernel_file, defines, shape, predicted_us,
bottleneck, route and, in its header, the commit, the cakec binary and the
calibration that made it. accuracy.py --csv MEASURED --frozen predictions.csv
scores measured times against these frozen values (and says where today's
compiler would predict something else).
"""
import argparse
import csv
import hashlib
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy  # noqa: E402  (predict, ROOT)


def plan_rows(path):
    rows = []
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        cols = [c.strip() for c in line.split("|")]
        if len(cols) == 6:  # sweep.txt
            _, f, defines, _, _, shapes = cols
            shapes = ["M={},N={},K={}".format(*s.split("x")) for s in shapes.split()]
        elif len(cols) == 3:
            f, defines, shapes = cols
            shapes = shapes.split()
        else:
            sys.exit(f"freeze.py: {path}: a line of {len(cols)} columns: {line}")
        for s in shapes:
            shape = {k: int(v) for k, v in (item.split("=") for item in s.split(","))}
            rows.append({"file": f, "defines": defines, "shape": shape})
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("plans", nargs="+")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--cakec", default=os.path.join(accuracy.ROOT, "build-test/bin/cakec"))
    a = ap.parse_args()
    rows = [r for p in a.plans for r in plan_rows(p)]
    preds = accuracy.predict(rows, a.cakec)
    commit = subprocess.run(["git", "-C", accuracy.ROOT, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", accuracy.ROOT, "diff", "--quiet", "HEAD", "--", "src"]).returncode != 0
    digest = hashlib.sha256(open(a.cakec, "rb").read()).hexdigest()[:16]
    with open(a.output, "w", newline="") as f:
        f.write(f"# frozen by bench/costmodel/freeze.py {' '.join(a.plans)}\n")
        f.write(f"# commit {commit}{' (src/ modified)' if dirty else ''}; cakec sha256 {digest}; "
                "calibration: the compiled-in H200 row\n")
        w = csv.writer(f)
        w.writerow(["kernel_file", "defines", "shape", "predicted_us", "bottleneck", "route"])
        for r, p in zip(rows, preds):
            w.writerow([r["file"], r["defines"], ",".join(f"{k}={v}" for k, v in r["shape"].items()),
                        f"{p[0]:.4g}" if p[0] else "", p[1], p[2]])
    print(f"freeze.py: {len(rows)} predictions -> {a.output} ({sum(1 for p in preds if not p[0])} without one)")


if __name__ == "__main__":
    main()
