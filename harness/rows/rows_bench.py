#!/usr/bin/env python3
"""rows_bench.py - checks and times cakec-generated row kernels (RMSNorm, softmax).

Each kernel is a shared library built from a .cu generated from
examples/rmsnorm_sm90a.cake or examples/softmax_sm90a.cake (run.sh builds
them), called through the Python package (harness/common/cakelib.py):

  int rmsnorm_residual_launch(const cake_tensor *X, const cake_tensor *R, const cake_tensor *W,
                              const cake_tensor *Y, const cake_tensor *H, int32_t M, cudaStream_t stream);
      H = X + R (bf16), Y = H * rsqrt(mean(H^2) + 1e-6) * W (f32 statistics, bf16 out)
  int softmax_rows_launch(const cake_tensor *X, const cake_tensor *Y, int32_t M, cudaStream_t stream);
      Y = softmax(X) along rows (f32 inside, bf16 out)

A library is named LIB:KIND:N:ROWS, KIND rmsnorm or softmax, N the row length
and ROWS the rows per block it was generated for.

Correctness: X, R ~ N(0, 1) * scale (scales 1e-2, 1 and 30 for softmax's
large logits, 1e-3 and 100 for RMSNorm), W ~ U(0.5, 1.5), outputs poisoned
with NaN first, at M = 4, 1000 and 16384. The reference is f32 on the GPU from
the same bf16 inputs: H must equal torch's bf16 X + R exactly; Y must satisfy
|y - ref| <= 2^-7 |ref| + 1e-5 (bf16 rounding of the output is 2^-8 |ref|).

Timing: ours, PyTorch eager and torch.compile of the same function, and a
bf16 copy of the bytes one row of output needs (torch's copy_: the copy
rate), in this process, from CUPTI records (torch.profiler), L2 flushed
before each sample, median of --samples; bandwidth = bytes read + written /
time (RMSNorm: X, R read, Y, H written; softmax: X read, Y written).

  rows_bench.py [--check-only] [--samples N] [--rows M,...] [--json F] LIB:KIND:N:ROWS ...
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "attention"))
import attn_bench  # noqa: E402
from attn_bench import time_backends  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import cakelib  # noqa: E402

attn_bench.torch = torch  # it imports torch in its main(), which does not run here
DEV = "cuda"
EPS = 1e-6
BF = torch.bfloat16


def rms_eager(x, r, w):
    h = x + r
    hf = h.float()
    y = hf * torch.rsqrt(hf.pow(2).mean(-1, keepdim=True) + EPS) * w.float()
    return y.to(BF), h


def softmax_eager(x):
    return torch.softmax(x, -1)


class Kernel:
    def __init__(self, spec):
        parts = spec.split(":")
        if len(parts) != 4 or parts[1] not in ("rmsnorm", "softmax"):
            sys.exit(f"rows_bench.py: {spec}: expected LIB:rmsnorm|softmax:N:ROWS")
        self.path, self.kind, self.N, self.rows = parts[0], parts[1], int(parts[2]), int(parts[3])
        self.k = cakelib.kernel(self.path)
        self.launcher = self.k.name

    def inputs(self, M, scale, seed):
        g = torch.Generator(device=DEV).manual_seed(seed)
        x = (torch.randn(M, self.N, generator=g, device=DEV) * scale).to(BF)
        if self.kind == "softmax":
            return (x,), (torch.full_like(x, float("nan")),)
        r = (torch.randn(M, self.N, generator=g, device=DEV) * scale).to(BF)
        w = (torch.rand(1, self.N, generator=g, device=DEV) + 0.5).to(BF)
        return (x, r, w), (torch.full_like(x, float("nan")), torch.full_like(x, float("nan")))

    def bind(self, ins, outs):
        return cakelib.bound(self.k, *ins, *outs, ins[0].shape[0])

    def eager(self, ins):
        return rms_eager(*ins) if self.kind == "rmsnorm" else (softmax_eager(*ins),)

    def bytes(self, M):
        return (4 if self.kind == "rmsnorm" else 2) * M * self.N * 2


def check(kern, M, scale, seed):
    ins, outs = kern.inputs(M, scale, seed)
    kern.bind(ins, outs)()
    torch.cuda.synchronize()
    if kern.kind == "softmax":
        ref = torch.softmax(ins[0].float(), -1)
        y, exact = outs[0], True
    else:
        x, r, w = ins
        h = x + r
        exact = bool(torch.equal(outs[1], h))
        hf = h.float()
        ref = hf * torch.rsqrt(hf.pow(2).mean(-1, keepdim=True) + EPS) * w.float()
        y = outs[0]
    err = (y.float() - ref).abs()
    excess = float((err - (2.0 ** -7 * ref.abs() + 1e-5)).nan_to_num(1e9).max())
    ok = exact and excess <= 0 and bool(torch.isfinite(y).all())
    peer = kern.eager(ins)[0]
    pexcess = float(((peer.float() - ref).abs() - (2.0 ** -7 * ref.abs() + 1e-5)).max())
    print(f"  M={M} N={kern.N} scale {scale:g}: worst excess over bound {excess:+.2e} (torch eager {pexcess:+.2e})"
          + ("" if kern.kind == "softmax" else f", H {'exact' if exact else 'DIFFERS'}")
          + ("" if ok else "  FAIL"))
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("libs", nargs="+")
    ap.add_argument("--check-only", action="store_true")
    ap.add_argument("--samples", type=int, default=120)
    ap.add_argument("--rows", default="16384,65536")
    ap.add_argument("--json")
    args = ap.parse_args()
    prop = torch.cuda.get_device_properties(0)
    print(f"device: {prop.name}, {prop.multi_processor_count} SMs; torch {torch.__version__} (CUDA {torch.version.cuda})")
    all_ok, report, flush_buf = True, [], None
    for spec in args.libs:
        kern = Kernel(spec)
        print(f"\n== {kern.launcher} ({kern.kind}, N = {kern.N}): {kern.path}")
        ok = True
        scales = (1e-2, 1.0, 30.0) if kern.kind == "softmax" else (1e-3, 1.0, 100.0)
        for i, M in enumerate((4, 1000) if args.check_only else (4, 1000, 16384)):
            for j, s in enumerate(scales[1:2] if args.check_only else scales):
                ok &= check(kern, M, s, 10 * i + j)
        # The launcher refuses a row count that is not a multiple of the block's rows.
        if kern.rows > 1:
            ins, outs = kern.inputs(kern.rows + 1, 1.0, 0)
            try:
                kern.bind(ins, outs)()
                print(f"  launcher check M = {kern.rows + 1}: UNEXPECTED: accepted")
                ok = False
            except RuntimeError as e:
                print(f"  launcher check M = {kern.rows + 1} -> refused ({e})")
        print(f"  {'ALL CORRECT' if ok else 'FAILURES'}")
        all_ok &= ok
        entry = {"lib": kern.path, "kind": kern.kind, "N": kern.N, "correct": ok, "timing": []}
        if ok and not args.check_only:
            if flush_buf is None:
                flush_buf = torch.empty(prop.L2_cache_size, dtype=torch.int32, device=DEV)
            compiled = torch.compile(rms_eager if kern.kind == "rmsnorm" else softmax_eager)
            for M in (int(m) for m in args.rows.split(",")):
                ins, outs = kern.inputs(M, 1.0, 7)
                compiled(*ins)
                src = torch.randn(kern.bytes(M) // 4, device=DEV).to(BF)
                dst = torch.empty_like(src)
                torch.cuda.synchronize()
                res = time_backends([("ours", kern.bind(ins, outs)), ("eager", lambda: kern.eager(ins)),
                                     ("compile", lambda: compiled(*ins)), ("copy", lambda: dst.copy_(src))],
                                    lambda: flush_buf.bitwise_not_(), args.samples)
                gb = kern.bytes(M) / 1e9
                print(f"  M={M} N={kern.N}: {gb:.3f} GB moved; median of {args.samples} CUPTI samples, L2 flushed")
                for name, r in res.items():
                    print(f"    {name:<8} {r['median_ms']:8.4f} ms  {gb / r['median_ms']:6.3f} TB/s  "
                          f"p10 {r['p10_ms']:.4f} p90 {r['p90_ms']:.4f}  {len(r['kernels'])} kernel(s)")
                ours = res["ours"]["median_ms"]
                print(f"    compile / ours = {res['compile']['median_ms'] / ours:.3f}; eager / ours = "
                      f"{res['eager']['median_ms'] / ours:.3f}; ours at {res['copy']['median_ms'] / ours:.3f} of the "
                      "copy rate")
                entry["timing"].append({"M": M, **{k: {kk: vv for kk, vv in v.items() if kk != "samples_ms"}
                                                   for k, v in res.items()}})
        report.append(entry)
    return cakelib.finish(report, args.json, all_ok, blank_line=True)


if __name__ == "__main__":
    sys.exit(main())
