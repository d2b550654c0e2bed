#!/usr/bin/env python3
"""epilogue_bench.py - checks and times cakec-generated GEMMs with a fused epilogue.

Each kernel is a shared library built from a .cu generated from
examples/gemm_bf16_epilogue_sm90a.cake (run.sh builds them), called through the Python package (harness/common/cakelib.py):

  int NAME_launch(const cake_tensor *A, const cake_tensor *B, const cake_tensor *BIAS,
                  const cake_tensor *R, const cake_tensor *D, int32_t M, int32_t N, int32_t K,
                  float alpha, float beta, cudaStream_t stream);
  D = act(alpha * A . B^T + BIAS) + beta * R    A (M, K), B (N, K), R, D (M, N) bf16; BIAS (1, N)

A library is named LIB:ACT:BIAS:RES, ACT one of none, relu, gelu, silu (GELU in its
tanh form), BIAS bf16 or f32, RES 1 (residual) or 0 (none: beta * R left out).

Correctness: A, B uniform in [-s, s) for input scales s = 1 and 4, bias and R
uniform in [-1, 1), alpha = 0.5, beta = 1.25, D poisoned with NaN first; the
reference is the same expression in f32 on the GPU (tf32 off) from the same
bf16 inputs. Passes when every element of D is finite and
|d - ref| <= 2^-7 |ref| + 2^-9 rms(ref): bf16 rounding of the output (2^-8
|ref|), the f32 summation order, and the approximate tanh / ex2 of the
activations (about 2^-11). PyTorch's eager bf16 result is measured against the
same reference and printed beside ours.

Timing: ours, PyTorch eager (addmm with the bias, the activation, add of the
residual: cuBLASLt plus elementwise kernels) and torch.compile of the same
function, in this process, from CUPTI records (torch.profiler), L2 flushed
before each sample, median of --samples (the timing helpers are
harness/attention/attn_bench.py's).

  epilogue_bench.py [--check-only] [--samples N] [--shapes MxNxK,...] [--json F] LIB:ACT:BIAS:RES ...
"""
import argparse
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "attention"))
import attn_bench  # noqa: E402
from attn_bench import time_backends  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import cakelib  # noqa: E402

attn_bench.torch = torch  # it imports torch in its main(), which does not run here
DEVICE = "cuda"
ALPHA, BETA = 0.5, 1.25
ACTS = {"none": lambda x: x, "relu": F.relu, "gelu": lambda x: F.gelu(x, approximate="tanh"), "silu": F.silu}
CHECK_SHAPES = [(128, 256, 64), (1000, 3000, 520), (4096, 4096, 4096)]
SAN_SHAPES = [(128, 256, 64), (200, 264, 192)]


class Kernel:
    def __init__(self, spec):
        parts = spec.split(":")
        if len(parts) != 4 or parts[1] not in ACTS or parts[2] not in ("bf16", "f32") or parts[3] not in ("0", "1"):
            sys.exit(f"epilogue_bench.py: {spec}: expected LIB:ACT:BIAS:RES (ACT in {', '.join(ACTS)}, "
                     "BIAS bf16 or f32, RES 0 or 1)")
        self.path, self.act, self.bias, self.residual = parts[0], parts[1], parts[2], parts[3] == "1"
        self.k = cakelib.kernel(self.path)
        self.launcher = self.k.name
        self.label = f"act={self.act} bias={self.bias} residual={int(self.residual)}"

    def bind(self, A, B, bias, R, D):
        M, K = A.shape
        return cakelib.bound(self.k, A, B, bias, R, D, M, B.shape[0], K, ALPHA, BETA)

    def reference(self, A, B, bias, R):
        y = ACTS[self.act](ALPHA * (A.float() @ B.float().T) + bias.float())
        return y + BETA * R.float() if self.residual else y

    def eager(self, A, B, bias, R):
        y = ACTS[self.act](torch.addmm(bias.to(A.dtype), A, B.T, alpha=ALPHA))
        return y.add_(R, alpha=BETA) if self.residual else y


def inputs(kern, M, N, K, scale, seed):
    g = torch.Generator(device=DEVICE).manual_seed(seed)

    def u(*shape, s=1.0):
        return (torch.rand(*shape, generator=g, device=DEVICE) * 2 - 1) * s

    A = u(M, K, s=scale).to(torch.bfloat16)
    B = u(N, K, s=scale).to(torch.bfloat16)
    bias = u(1, N).to(torch.float32 if kern.bias == "f32" else torch.bfloat16)
    R = u(M, N).to(torch.bfloat16)
    D = torch.full((M, N), float("nan"), device=DEVICE, dtype=torch.bfloat16)
    return A, B, bias, R, D


def error(out, ref):
    rms = float(ref.pow(2).mean().sqrt())
    excess = ((out.float() - ref).abs() - (2.0 ** -7 * ref.abs() + 2.0 ** -9 * rms)).max()
    rel = float((out.float() - ref).norm() / ref.norm())
    return float(excess), rel


def check(kern, M, N, K, scale, seed, peer=True):
    A, B, bias, R, D = inputs(kern, M, N, K, scale, seed)
    kern.bind(A, B, bias, R, D)()
    torch.cuda.synchronize()
    ref = kern.reference(A, B, bias, R)
    finite = bool(torch.isfinite(D).all())
    excess, rel = error(D, ref)
    ok = finite and excess <= 0
    line = f"  {M}x{N}x{K} scale {scale:g}: rel_fro {rel:.2e}, worst excess over bound {excess:+.2e}"
    if peer:
        _, prel = error(kern.eager(A, B, bias, R), ref)
        line += f" (torch eager rel_fro {prel:.2e})"
    print(line + ("" if ok else f"  FAIL{'' if finite else ' (non-finite output)'}"))
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("libs", nargs="+")
    ap.add_argument("--check-only", action="store_true", help="small shapes, no peers (for compute-sanitizer)")
    ap.add_argument("--samples", type=int, default=120)
    ap.add_argument("--shapes", default="4096x4096x4096,8192x8192x8192,2048x7168x4096")
    ap.add_argument("--json")
    args = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    prop = torch.cuda.get_device_properties(0)
    print(f"device: {prop.name}, {prop.multi_processor_count} SMs; torch {torch.__version__} (CUDA {torch.version.cuda})")
    report, all_ok = [], True
    flush_buf = None
    for spec in args.libs:
        kern = Kernel(spec)
        print(f"\n== {kern.launcher} ({kern.label}): {kern.path}")
        ok = True
        if args.check_only:
            for i, (M, N, K) in enumerate(SAN_SHAPES):
                ok &= check(kern, M, N, K, 1.0, 10 + i, peer=False)
        else:
            for i, (M, N, K) in enumerate(CHECK_SHAPES):
                for scale in (1.0, 4.0):
                    ok &= check(kern, M, N, K, scale, 100 * i + int(scale))
        print(f"  {'ALL CORRECT' if ok else 'FAILURES'}")
        entry = {"lib": kern.path, "act": kern.act, "bias": kern.bias, "residual": kern.residual, "correct": ok,
                 "timing": []}
        all_ok &= ok
        if not args.check_only and ok:
            if flush_buf is None:
                flush_buf = torch.empty(prop.L2_cache_size, dtype=torch.int32, device=DEVICE)
            compiled = torch.compile(kern.eager)
            for shape in args.shapes.split(","):
                M, N, K = (int(x) for x in shape.split("x"))
                A, B, bias, R, D = inputs(kern, M, N, K, 1.0, 7)
                compiled(A, B, bias, R)  # compile outside the timing
                torch.cuda.synchronize()
                res = time_backends([("ours", kern.bind(A, B, bias, R, D)),
                                     ("eager", lambda: kern.eager(A, B, bias, R)),
                                     ("compile", lambda: compiled(A, B, bias, R))],
                                    lambda: flush_buf.bitwise_not_(), args.samples)
                _, crel = error(compiled(A, B, bias, R), kern.reference(A, B, bias, R))
                flops = 2.0 * M * N * K
                print(f"  {M}x{N}x{K}: median of {args.samples} CUPTI samples, L2 flushed before each "
                      f"(torch.compile rel_fro {crel:.2e})")
                for name, r in res.items():
                    print(f"    {name:<8} {r['median_ms']:9.4f} ms  {flops / r['median_ms'] / 1e9:7.1f} TFLOP/s  "
                          f"p10 {r['p10_ms']:.4f} p90 {r['p90_ms']:.4f}  {len(r['kernels'])} kernel(s)")
                best = min(res["eager"]["median_ms"], res["compile"]["median_ms"])
                print(f"    best peer / ours = {best / res['ours']['median_ms']:.3f}")
                entry["timing"].append({"shape": [M, N, K], **{k: {kk: vv for kk, vv in v.items() if kk != "samples_ms"}
                                                                  for k, v in res.items()}})
        report.append(entry)
    return cakelib.finish(report, args.json, all_ok, blank_line=True)


if __name__ == "__main__":
    sys.exit(main())
