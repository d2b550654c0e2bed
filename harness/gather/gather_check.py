#!/usr/bin/env python3
"""gather_check.py - examples/gather_rows_sm90a.cake on the GPU, through the
Python package (cakec.load: the compiler runs there, harness/torch/stage.sh).

  Y[r, :] = X[IDX[r], :]   X (V, 4096), Y (M, 4096) bf16; IDX (M,) i32 in [0, V)

Correctness: random tables (uniform, all one row, a permutation, the last
row) at M = 8 .. 65536 and V = 1 .. 100000, Y poisoned with NaN first; Y must
equal torch's index_select bit for bit. The launcher's refusals: M not a
multiple of 8, IDX of another element type. An index outside [0, V) stops the
kernel: run in a child process (the context is lost), whose output must name
the read (file:line:col, the tensor) and whose CUDA error must be reported.
Timing (unless --check-only): ours beside torch.index_select and
F.embedding, and a bf16 copy of as many bytes, in one process (CUPTI, L2
flushed before each sample, median of --samples), at M = 16384 and 65536
rows of a V = 100000 table.

Usage: gather_check.py [--check-only] [--samples N] [--json F]
       gather_check.py --bad-index   (the child: launches with an index of V)
Exit status: 0 when every check passed.
"""
import argparse
import os
import subprocess
import sys

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "harness", "common"))
sys.path.insert(0, os.path.join(ROOT, "harness", "attention"))
import cakelib  # noqa: E402  (puts the package, python/cakec, on the path)
import attn_bench  # noqa: E402
from cakelib import cakec  # noqa: E402

attn_bench.torch = torch
N = 4096
BF = torch.bfloat16


def module():
    return cakec.load(os.path.join(ROOT, "examples", "gather_rows_sm90a.cake"))


def bad_index():
    """The child: an index of V stops the kernel; the next launch of the
    kernel is refused with the record's message (also printed to stderr, once)."""
    k = module().gather_rows
    V, M = 100, 64
    X = torch.randn(V, N, device="cuda").to(BF)
    idx = torch.zeros(M, dtype=torch.int32, device="cuda")
    idx[37] = V  # one past the table
    Y = torch.empty(M, N, device="cuda", dtype=BF)
    k(X, idx, Y, V, M)
    try:
        torch.cuda.synchronize()
        print("UNEXPECTED: the kernel ran to the end")
        return 1
    except RuntimeError as e:
        print(f"CUDA: {str(e).strip().splitlines()[0]}")
    try:
        k(X, idx, Y, V, M)
        print("UNEXPECTED: the next launch was accepted")
        return 1
    except cakec.CakeError as e:
        print(f"next launch: {e.message}")
    return 3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check-only", action="store_true")
    ap.add_argument("--bad-index", action="store_true")
    ap.add_argument("--samples", type=int, default=120)
    ap.add_argument("--json")
    a = ap.parse_args()
    if a.bad_index:
        return bad_index()
    mod = module()
    k, ops = mod.gather_rows, mod.ops
    ok = True
    g = torch.Generator(device="cuda").manual_seed(0)
    cases = [(8, 1, "uniform"), (1000, 64, "uniform"), (4096, 100000, "uniform"), (65536, 100000, "uniform"),
             (4096, 50, "one row"), (8192, 8192, "permutation"), (4096, 100000, "last row")]
    if a.check_only:
        cases = cases[:3]
    for M, V, kind in cases:
        X = torch.randn(V, N, device="cuda", generator=g).to(BF)
        if kind == "uniform":
            idx = torch.randint(0, V, (M,), device="cuda", generator=g, dtype=torch.int32)
        elif kind == "one row":
            idx = torch.full((M,), V // 2, device="cuda", dtype=torch.int32)
        elif kind == "permutation":
            idx = torch.randperm(V, device="cuda", generator=g).to(torch.int32)[:M]
        else:
            idx = torch.full((M,), V - 1, device="cuda", dtype=torch.int32)
        ref = X.index_select(0, idx.long())
        Y = torch.full((M, N), float("nan"), device="cuda", dtype=BF)
        k(X, idx, Y, V, M)
        Y2 = ops.gather_rows(X, idx, V, M)
        torch.cuda.synchronize()
        good = torch.equal(Y, ref) and torch.equal(Y2, ref)
        print(f"  M={M:<6} V={V:<6} {kind:<11}: {'equal to index_select' if good else 'DIFFERS'} "
              f"(launcher and torch operator)")
        ok &= good
    # The launcher's refusals.
    X = torch.randn(64, N, device="cuda").to(BF)
    for what, args in (("M = 12, not a multiple of 8", (X, torch.zeros(12, dtype=torch.int32, device="cuda"),
                                                        torch.empty(12, N, device="cuda", dtype=BF), 64, 12)),
                       ("IDX of i64", (X, torch.zeros(16, dtype=torch.int64, device="cuda"),
                                       torch.empty(16, N, device="cuda", dtype=BF), 64, 16))):
        try:
            k(*args)
            print(f"  launcher check {what}: UNEXPECTED: accepted")
            ok = False
        except cakec.CakeError as e:
            print(f"  launcher check {what}: refused ({e.message})")
    # An index outside [0, V): the kernel stops and says where (a child
    # process: the context is lost; not under --check-only, which
    # compute-sanitizer runs, where the stop would count as its error).
    if a.check_only:
        print("ALL CORRECT" if ok else "FAILURES")
        return 0 if ok else 1
    r = subprocess.run([sys.executable, __file__, "--bad-index"], capture_output=True, text=True, timeout=120)
    where = "gather_rows_sm90a.cake:21:15: error: lm.load_scalar of 'IDX' read 100 in block (4, 0, 0), outside its " \
            "range [0, 100): kernel 'gather_rows' stopped [run.value-range]"
    said = any(line.startswith("next launch: ") and where in line for line in r.stdout.splitlines()) \
        and r.stderr.count(where) == 1
    failed = r.returncode == 3 and "UNEXPECTED" not in r.stdout
    print(f"  index {100} of a 100-row table: exit {r.returncode}; {' | '.join(r.stdout.strip().splitlines())[:400]}; "
          f"stderr: {(r.stderr.strip().splitlines() or ['(nothing)'])[-1][:200]}{'' if said and failed else '  FAIL'}")
    ok &= said and failed
    report = {"correct": ok, "timing": []}
    if ok and not a.check_only:
        prop = torch.cuda.get_device_properties(0)
        flush = torch.empty(prop.L2_cache_size, dtype=torch.int32, device="cuda")
        V = 100000
        X = torch.randn(V, N, device="cuda").to(BF)
        for M in (16384, 65536):
            idx = torch.randint(0, V, (M,), device="cuda", dtype=torch.int32)
            idx64 = idx.long()
            Y = torch.empty(M, N, device="cuda", dtype=BF)
            src = torch.randn(M * N, device="cuda").to(BF)
            dst = torch.empty_like(src)
            res = attn_bench.time_backends(
                [("ours", lambda: k(X, idx, Y, V, M)), ("index_select", lambda: torch.index_select(X, 0, idx64)),
                 ("embedding", lambda: F.embedding(idx64, X)), ("copy", lambda: dst.copy_(src))],
                lambda: flush.bitwise_not_(), a.samples)
            gb = 2 * M * N * 2 / 1e9  # each row read once and written once
            print(f"  M={M} rows of V={V}: {gb:.3f} GB moved; median of {a.samples} CUPTI samples, L2 flushed")
            for name, v in res.items():
                print(f"    {name:<13} {v['median_ms']:8.4f} ms  {gb / v['median_ms']:6.3f} TB/s  "
                      f"p10 {v['p10_ms']:.4f} p90 {v['p90_ms']:.4f}")
            report["timing"].append({"M": M, "V": V, **{n: {kk: vv for kk, vv in v.items() if kk != "samples_ms"}
                                                         for n, v in res.items()}})
    return cakelib.finish(report, a.json, ok)


if __name__ == "__main__":
    sys.exit(main())
