#!/usr/bin/env python3
"""route_compare.py - the family routed by the model against the family
routed by its guards, on the H200 (issue 39: within 2% on its own lists).

  python3 bench/costmodel/route_compare.py MEASURED.csv [MEASURED.csv ...] [--lists LIST...]

MEASURED.csv is parse.py's output of a run of routes_sweep.txt: the family
binary (its guards' route) at every shape, and each route's schedule alone
at the shapes where the model prefers it. The model's choice at each shape
is routes.py's (cakec --report --report-routes, today's compiler). The
model-routed family's time at a shape is the family's where both pick the
same route, else the preferred schedule's time alone.
"""
import argparse
import csv
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The family's route names -> the (file, defines) its schedule is measured as (routes_sweep.txt).
ROUTES = {
    "persistent": ("examples/gemm_bf16_persistent_sm90a.cake", ""),
    "decode": ("examples/gemm_bf16_decode_sm90a.cake", ""),
    "mid": ("examples/gemm_bf16_cluster_n_sm90a.cake", ""),
    "persistent_cluster": ("examples/gemm_bf16_persistent_cluster_sm90a.cake", ""),
    "tiny_gemm_bf16_decode": ("examples/gemm_bf16_decode_sm90a.cake", "BN=64 STAGES=4"),
    "small_gemm_bf16": ("examples/gemm_bf16_sm90a.cake", "BN=128 STAGES=5"),
}
LISTS = ["harness/gemm/shapes/underfilled.txt", "harness/gemm/shapes/large5.txt",
         "harness/gemm/shapes/decode_issue36.txt", "bench/results/gemm_family_2026-12-01/shapes.txt",
         "bench/results/gemm_family_2026-12-01/heldout.txt"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("measured", nargs="+", help="parse.py's CSVs (a later file's time of a pair replaces an earlier's)")
    ap.add_argument("--lists", nargs="+", default=LISTS)
    a = ap.parse_args()
    times = {}
    for r in (r for path in a.measured for r in csv.DictReader(open(path))):
        times[(r["kernel_file"], r["defines"], int(r["M"]), int(r["N"]), int(r["K"]))] = float(r["ours_ms"])
    tmp = os.path.join(os.environ.get("TMPDIR", "/tmp"), "route_compare_routes.csv")
    subprocess.run([sys.executable, os.path.join(ROOT, "bench/costmodel/routes.py"), *[os.path.join(ROOT, x) for x in a.lists],
                    "--csv", tmp], check=True, capture_output=True)
    picks = {(int(r["M"]), int(r["N"]), int(r["K"])): r for r in csv.DictReader(open(tmp))}
    fam = "examples/gemm_bf16_family_sm90a.cake"
    print(f"{'shape':>18} {'guards':>22} {'us':>8} {'model':>22} {'us':>8} {'model/guards':>12}")
    per_list = {}
    for lst in a.lists:
        for line in open(os.path.join(ROOT, lst)):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            M, N, K = (int(x) for x in line.split("x"))
            p = picks[(M, N, K)]
            g = times.get((fam, "", M, N, K))
            if p["model"] == p["guards"]:
                m = g
            else:
                f, d = ROUTES.get(p["model"], ("?", ""))
                m = times.get((f, d, M, N, K))
            if g is None or m is None:
                print(f"{M:>5}x{N:>5}x{K:>5}: not measured ({p['guards']} / {p['model']})")
                continue
            per_list.setdefault(lst, []).append(m / g)
            print(f"{M:>5}x{N:>5}x{K:>5} {p['guards']:>22} {g * 1000:8.2f} {p['model']:>22} {m * 1000:8.2f} "
                  f"{m / g:12.3f}")
    print()
    for lst, r in per_list.items():
        gm = math.exp(sum(math.log(x) for x in r) / len(r))
        print(f"{lst}: {len(r)} shapes; model-routed / guard-routed time, geometric mean {gm:.3f}, "
              f"worst {max(r):.3f}; within 2%: {'yes' if gm <= 1.02 else 'no'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
