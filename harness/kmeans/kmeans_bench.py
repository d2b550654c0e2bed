#!/usr/bin/env python3
"""kmeans_bench.py - checks and times a cakec-generated k-means assignment kernel.

The kernel is a shared library built from the generated .cu (run.sh builds it),
called through the Python package (harness/common/cakelib.py):

  int NAME_launch(const cake_tensor *X, const cake_tensor *C, const cake_tensor *CN,
                  const cake_tensor *IDX, int32_t N, int32_t K, int32_t B, cudaStream_t stream);
  X (B, N, D) bf16, C (B, K, D) bf16, CN (B, K) f32 = ||c||^2, IDX (B, N) i32:
  IDX[b, n] = argmin_k CN[b, k] - 2 X[b, n] . C[b, k]

Correctness: against an f32 reference of the same distances (inputs upcast,
products exact, sums in f32 by torch). An index that differs from the
reference's counts as a near-tie, not an error, when its reference distance is
within TIE of the reference minimum: TIE = 1e-4 * (1 + |min|) + 1e-3 (the
kernel's and torch's f32 sums of 128 products differ in order, by a few ulp of
values up to ~|cn| + 2 |x.c|). Ties (equal distances) must resolve to the
lower index, as the reference's argmin does, so exact agreement is the rule.

Timing: ours, the Triton peer's kernel (autotuned; `cn` precomputed, as ours
takes it) and PyTorch's baddbmm + argmin, in this process, from CUPTI records
(torch.profiler), L2 flushed before each sample, median of >= 100 samples
(the timing helpers are harness/attention/attn_bench.py's).

  kmeans_bench.py LIB [--launcher NAME] [--samples N] [--check-only] [--json F]
"""
import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "attention"))
import attn_bench  # noqa: E402
from attn_bench import time_backends  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import cakelib  # noqa: E402

attn_bench.torch = torch  # it imports torch in its main(), which does not run here

D = 128
DEVICE = "cuda"


class Kernel:
    """The launcher, through the Python package (harness/common/cakelib.py)."""

    def __init__(self, path, launcher):
        self.k = cakelib.kernel(path, launcher)

    def bind(self, X, C, CN, IDX):
        B, N, _ = X.shape
        return cakelib.bound(self.k, X, C, CN, IDX, N, C.shape[1], B)


def inputs(B, N, K, seed, kind):
    g = torch.Generator(device=DEVICE)
    g.manual_seed(seed)
    X = torch.randn((B, N, D), generator=g, device=DEVICE)
    if kind == "clustered":  # points near the centroids: small margins between the best two
        C = torch.randn((B, K, D), generator=g, device=DEVICE)
        pick = torch.randint(0, K, (B, N), generator=g, device=DEVICE)
        X = torch.gather(C, 1, pick[..., None].expand(B, N, D)) + 0.3 * X
    else:
        C = torch.randn((B, K, D), generator=g, device=DEVICE)
    if kind == "duplicates":  # exact ties: every centroid twice, the copy at a higher index
        C[:, K // 2:] = C[:, : K // 2]
    X, C = X.to(torch.bfloat16).contiguous(), C.to(torch.bfloat16).contiguous()
    CN = (C.float() ** 2).sum(-1).contiguous()
    return X, C, CN


def check(kern, B, N, K, seed, kind):
    X, C, CN = inputs(B, N, K, seed, kind)
    IDX = torch.full((B, N), -1, dtype=torch.int32, device=DEVICE)
    kern.bind(X, C, CN, IDX)()
    torch.cuda.synchronize()
    exact = near = wrong = 0
    worst = 0.0
    for b in range(B):  # one batch at a time: the (N, K) distances in f32
        d = CN[b][None, :] - 2.0 * (X[b].float() @ C[b].float().T)
        ref = d.argmin(-1)
        ours = IDX[b].long()
        if (ours < 0).any() or (ours >= K).any():
            wrong += int(((ours < 0) | (ours >= K)).sum())
            continue
        same = ours == ref
        exact += int(same.sum())
        dmin = d.gather(1, ref[:, None])[:, 0]
        dours = d.gather(1, ours[:, None])[:, 0]
        gap = (dours - dmin).abs()
        tie = 1e-4 * (1 + dmin.abs()) + 1e-3
        near_mask = ~same & (gap <= tie)
        near += int(near_mask.sum())
        wrong += int((~same & ~near_mask).sum())
        if (~same).any():
            worst = max(worst, float(gap[~same].max()))
    total = B * N
    ok = wrong == 0 and (kind != "duplicates" or near == 0)
    print(f"  B={B:<3} N={N:<6} K={K:<5} {kind:<10} exact {exact}/{total}  near-ties {near}  wrong {wrong}  "
          f"(largest gap of a differing index {worst:.3g})  {'PASS' if ok else 'FAIL'}")
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lib")
    ap.add_argument("--launcher", default="kmeans_assign_launch")
    ap.add_argument("--samples", type=int, default=120)
    ap.add_argument("--check-only", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--only-k", type=int, help="check only shapes with this K (a kernel specialized to one K)")
    args = ap.parse_args()
    prop = torch.cuda.get_device_properties(0)
    print(f"device: {prop.name}, {prop.multi_processor_count} SMs; torch {torch.__version__}")
    kern = Kernel(args.lib, args.launcher)
    ok = True
    # Launcher checks: N not a multiple of the 128-point tile is refused.
    X, C, CN = inputs(1, 200, 128, 0, "random")
    IDX = torch.empty((1, 200), dtype=torch.int32, device=DEVICE)
    try:
        kern.bind(X, C, CN, IDX)()
        print("  launcher check N = 200: UNEXPECTED: accepted")
        ok = False
    except RuntimeError as e:
        print(f"  launcher check N = 200 -> refused ({e})")
    cases = [(1, 256, 128, "random"), (2, 1024, 256, "random"), (2, 1024, 256, "duplicates"),
             (2, 2048, 1024, "clustered")]
    if not args.check_only:
        cases += [(4, 8192, 1024, "random"), (32, 65536, 1024, "random"), (32, 65536, 1024, "clustered")]
    for i, (B, N, K, kind) in enumerate(cases):
        if args.only_k and K != args.only_k:
            continue
        ok &= check(kern, B, N, K, 100 + i, kind)
    print("ALL CORRECT" if ok else "SOME CASES FAILED")
    if args.check_only or not ok:
        return 0 if ok else 1

    import kmeans_assign_triton as peer
    B, N, K = 32, 65536, 1024
    X, C, CN = inputs(B, N, K, 7, "random")
    IDX = torch.empty((B, N), dtype=torch.int32, device=DEVICE)
    out_t = torch.empty((B, N), dtype=torch.int32, device=DEVICE)

    def triton_kernel():
        peer._assign_kernel[lambda meta: (N // meta["BN"], B)](X, C, CN, out_t, N, K, D=D)

    triton_kernel()  # autotune outside the timing
    torch.cuda.synchronize()
    flush_buf = torch.empty(int(4 * prop.L2_cache_size // 4), dtype=torch.int32, device=DEVICE)
    res = time_backends([("ours", kern.bind(X, C, CN, IDX)), ("triton", triton_kernel),
                         ("torch", lambda: peer.torch_assign(X, C))],
                        lambda: flush_buf.bitwise_not_(), args.samples)
    torch.cuda.synchronize()
    same = float((IDX == out_t).float().mean())
    print(f"\nB={B} N={N} K={K} D={D}: median of {args.samples} CUPTI samples, L2 flushed before each")
    print(f"{'backend':<8} {'median ms':>10} {'p10':>8} {'p90':>8}  kernels")
    for name, r in res.items():
        print(f"{name:<8} {r['median_ms']:10.4f} {r['p10_ms']:8.4f} {r['p90_ms']:8.4f}  {', '.join(r['kernels'])[:90]}")
    print(f"triton/ours = {res['triton']['median_ms'] / res['ours']['median_ms']:.3f}; "
          f"torch/ours = {res['torch']['median_ms'] / res['ours']['median_ms']:.3f}; "
          f"ours and Triton's index agree on {same * 100:.4f}% of points")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({k: {kk: vv for kk, vv in v.items()} for k, v in res.items()}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
