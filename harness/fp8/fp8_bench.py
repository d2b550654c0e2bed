#!/usr/bin/env python3
"""fp8_bench.py - checks and times cakec-generated fp8 GEMMs on the H200.

Each kernel is a shared library built from a .cu generated from
examples/gemm_fp8_sm90a.cake (harness/fp8/run.sh builds them), called through the Python package (harness/common/cakelib.py):

  int gemm_fp8_launch(const cake_tensor *A, const cake_tensor *B, const cake_tensor *C, int32_t M, int32_t N,
                      int32_t K, float alpha, cudaStream_t stream);
  C = bf16(alpha * A . B^T)    A (M, K) e4m3, B (N, K) e4m3 or e5m2, C (M, N) bf16

and from examples/gemm_fp8_rowwise_sm90a.cake:

  int gemm_fp8_rowwise_launch(const cake_tensor *A, const cake_tensor *B, const cake_tensor *C,
                              const cake_tensor *SA, const cake_tensor *SB, int32_t M, int32_t N, int32_t K,
                              cudaStream_t stream);
  C = bf16(SA * SB * (A . B^T))    SA f32 per row of A (torch's (M, 1) scale_a passed as (1, M)),
                                   SB (1, N) f32 per row of B; both padded to whole tiles with ones

and from examples/gemm_fp8_blockscaled_sm90a.cake (DeepGEMM's fine-grained scaling):

  int gemm_fp8_blockscaled_launch(const cake_tensor *A, const cake_tensor *B, const cake_tensor *C,
                                  const cake_tensor *SA, const cake_tensor *SB, int32_t M, int32_t N,
                                  int32_t K, cudaStream_t stream);
  C = bf16(sum_kb SA[kb, m] SB[kb, n] (A[m, kb] . B[n, kb]^T))    kb: blocks of 128 of K;
      SA (K/128, M') f32: A's 1 x 128 block scales, M-major; SB (K/128, N') f32: B's 128 x 128
      block scales given per column (each block's scale over its 128 columns); padded with ones

and from testsuite/codegen/Inputs/gemm_e4m3_sm89.cake (mma.sync, built from sm_89 PTX):

  int gemm_e4m3_sm89_launch(const cake_tensor *A, const cake_tensor *B, const cake_tensor *C, int32_t M,
                            int32_t N, int32_t K, cudaStream_t stream);
  C = bf16(A . B^T)    M, N, K multiples of 128, 128, 64 (built with -DBM=128 -DSTAGES=3)

A library is named LIB:BTYPE, LIB:BTYPE:rowwise, LIB:BTYPE:block or LIB:BTYPE:unscaled
(BTYPE e4m3 or e5m2; unscaled: the scales are 1).

Inputs: X ~ N(0, s^2) in f32 for input scales s = 1 and 100, quantized as a
user would: scale = amax / fp8 max, X8 = fp8(X / scale), per tensor (alpha =
the product of A's and B's scales) or per row (row-wise). The reference is the same scaled product of the
fp8 values in float64 on the GPU (block-scaled: per 1 x 128 block of A and 128 x 128
block of B, the product of the dequantized values in float64; beside ours, the error of the
same product computed in float32, the bar's reference implementation). Reported: the Frobenius relative error and
the worst |c - ref| / rms(ref), ours beside torch._scaled_mm's (cuBLASLt) with
use_fast_accum True and False. Passes when every output is finite and either
|c - ref| <= 2^-7 |ref| + 2^-7 rms(ref) everywhere (bf16 rounding of the
output, 2^-8 |ref|, and accumulation), or the worst error is at most 1.1x
cuBLASLt's with fast accumulation on the same input: the tensor core's own
fp8 accumulation keeps fewer bits than f32, and over K = 4096 and more it
exceeds the bound for cuBLASLt as for a schedule that does not promote
(examples/gemm_fp8_sm90a.cake -DPROMOTE=True does).

Timing: ours and torch._scaled_mm (bf16 out, per-tensor scales, fast
accumulation on and off), in this process, from CUPTI records (torch.profiler),
L2 flushed before each sample, median of --samples (attn_bench.py's helpers).

  fp8_bench.py [--check-only] [--samples N] [--shapes MxNxK,...] [--json F] LIB:BTYPE ...
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

attn_bench.torch = torch
DEVICE = "cuda"
FP8 = {"e4m3": (torch.float8_e4m3fn, 448.0), "e5m2": (torch.float8_e5m2, 57344.0)}
CHECK_SHAPES = [(128, 256, 128), (1000, 3000, 528), (300, 4096, 4096), (4096, 7168, 4096), (2048, 7168, 16384)]
SAN_SHAPES = [(128, 256, 128), (200, 272, 384)]
UNSCALED_SHAPES = [(128, 128, 64), (384, 1024, 4096), (4096, 4096, 4096)]  # gemm_e4m3_sm89 -DBM=128: tiles 128x128x64
# gemm_fp8_rowwise_sm90a.cake's rows per cluster (2 BM) and BN; FP8_ROW_TILE=768 pads the scales for
# kernels whose cluster covers 384 rows as well (three math warpgroups, BM = 192)
ROW_TILE, COL_TILE = int(os.environ.get("FP8_ROW_TILE", "256")), 256
DEFAULT_SHAPES = "4096x7168x4096,8192x8192x8192,4096x4096x4096,2048x7168x16384"


class Kernel:
    def __init__(self, spec):
        parts = spec.split(":")
        if len(parts) not in (2, 3) or parts[1] not in FP8 or parts[2:] not in ([], ["rowwise"], ["unscaled"],
                                                                                ["block"]):
            sys.exit(f"fp8_bench.py: {spec}: expected LIB:BTYPE, LIB:BTYPE:rowwise, LIB:BTYPE:block or "
                     "LIB:BTYPE:unscaled, BTYPE e4m3 or e5m2")
        self.path, self.btype = parts[0], parts[1]
        self.rowwise, self.unscaled = parts[2:] == ["rowwise"], parts[2:] == ["unscaled"]
        self.block = parts[2:] == ["block"]
        self.k = cakelib.kernel(self.path)
        self.launcher = self.k.name
        kind = ("row-wise scales" if self.rowwise else "no scales" if self.unscaled else
                "1x128 / 128x128 block scales" if self.block else "per-tensor scales")
        self.label = f"A e4m3, B {self.btype}, {kind}"
        self.check_shapes = UNSCALED_SHAPES if self.unscaled else CHECK_SHAPES
        self.san_shapes = UNSCALED_SHAPES[:1] if self.unscaled else SAN_SHAPES

    def bind(self, A, B, C, sa, sb, pad=True):
        """sa, sb: floats (per tensor) or (M, 1), (1, N) f32 tensors (row-wise), padded to whole tiles."""
        M, K = A.shape
        N = B.shape[0]
        if self.block:  # sa (M, K/128), sb (N/128, K/128) as a user holds them: the kernel's layouts
            sa = pad_cols(sa.T.contiguous(), ROW_TILE if pad else 1)
            sb = pad_cols(sb.repeat_interleave(128, dim=0)[:N].T.contiguous(), BLOCK_N if pad else 1)
            return cakelib.bound(self.k, A, B, C, sa, sb, M, N, K)
        if self.rowwise:  # SA's (M, 1) bytes as (1, M)
            sa = sa.reshape(1, -1)
        if self.rowwise and pad:  # the kernel reads whole tiles of the scales: pad them with ones
            sa = torch.cat([sa, torch.ones(1, (-M) % ROW_TILE, device=sa.device, dtype=sa.dtype)], dim=1).contiguous()
            sb = torch.cat([sb, torch.ones(1, (-N) % COL_TILE, device=sb.device, dtype=sb.dtype)], dim=1).contiguous()
        ts = (A, B, C, sa, sb) if self.rowwise else (A, B, C)
        scalars = [M, N, K] + ([] if self.rowwise or self.unscaled else [sa * sb])
        return cakelib.bound(self.k, *ts, *scalars)  # the padded scales live as long as the launch


BLOCK_N = 128  # gemm_fp8_blockscaled_sm90a.cake's BN


def pad_cols(x, multiple):
    """x with columns appended (ones) up to a multiple of `multiple`, in a tensor of its own (row-major
    strides even for one row: the launcher checks each stride)."""
    cols = x.shape[1] + (-x.shape[1]) % multiple
    out = torch.ones(x.shape[0], cols, device=x.device, dtype=x.dtype)
    out[:, :x.shape[1]] = x
    return out


def quantize_blocks(x, dtype, top, rows):
    """x quantized in blocks of `rows` x 128 (rows 1: per row and 128 columns); the scales (R, K/128)."""
    R, K = x.shape
    kb = (K + 127) // 128
    xp = torch.nn.functional.pad(x, (0, kb * 128 - K, 0, (-R) % rows))
    blocks = xp.reshape(xp.shape[0] // rows, rows, kb, 128)
    scale = blocks.abs().amax(dim=(1, 3)).clamp_min(1e-12) / top  # (R / rows, kb)
    q = (blocks / scale[:, None, :, None]).clamp(-top, top).reshape(xp.shape)[:R, :K].to(dtype)
    return q, scale


def expand_blocks(scale, rows, R, K):
    """Block scales (R / rows, K / 128) as an (R, K) float64 tensor."""
    return scale.double().repeat_interleave(rows, dim=0)[:R].repeat_interleave(128, dim=1)[:, :K]


def quantize(x, dtype, top, rowwise):
    if rowwise:
        scale = x.abs().amax(dim=1, keepdim=True) / top
        return (x / scale).clamp(-top, top).to(dtype), scale
    scale = float(x.abs().max()) / top
    return (x / scale).clamp(-top, top).to(dtype), scale


def inputs(kern, M, N, K, s, seed):
    g = torch.Generator(device=DEVICE).manual_seed(seed)
    if kern.block:
        A, sa = quantize_blocks(torch.randn(M, K, generator=g, device=DEVICE) * s, *FP8["e4m3"], 1)
        B, sb = quantize_blocks(torch.randn(N, K, generator=g, device=DEVICE) * s, *FP8[kern.btype], 128)
        C = torch.full((M, N), float("nan"), device=DEVICE, dtype=torch.bfloat16)
        return A, B, C, sa, sb
    A, sa = quantize(torch.randn(M, K, generator=g, device=DEVICE) * s, *FP8["e4m3"], kern.rowwise)
    B, sb = quantize(torch.randn(N, K, generator=g, device=DEVICE) * s, *FP8[kern.btype], kern.rowwise)
    if kern.rowwise:
        sb = sb.reshape(1, N).contiguous()
    if kern.unscaled:  # the fp8 values are the data
        sa = sb = 1.0
    C = torch.full((M, N), float("nan"), device=DEVICE, dtype=torch.bfloat16)
    return A, B, C, sa, sb


def scaled_mm(A, B, sa, sb, fast):
    if not torch.is_tensor(sa):
        sa, sb = torch.tensor(sa, device=DEVICE), torch.tensor(sb, device=DEVICE)
    return torch._scaled_mm(A, B.T, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16, use_fast_accum=fast)


def block_reference(A, B, sa, sb, dtype):
    """The block-scaled product of the dequantized values, in float64 or (the bar's reference
    implementation) float32 without TF32."""
    M, K = A.shape
    N = B.shape[0]
    a = (A.double() * expand_blocks(sa, 1, M, K)).to(dtype)
    b = (B.double() * expand_blocks(sb, 128, N, K)).to(dtype)
    tf32 = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = False
    try:
        return a @ b.T
    finally:
        torch.backends.cuda.matmul.allow_tf32 = tf32


def blockwise_scaled_mm(A, B, sa, sb):
    """torch._scaled_mm with DeepGEMM's scales (A: 1 x 128 blocks, B: 128 x 128), where cuBLASLt takes them."""
    return torch._scaled_mm(A, B.T, scale_a=sa, scale_b=sb.T, out_dtype=torch.bfloat16)


def reference(A, B, sa, sb):
    ref = A.double() @ B.double().T
    if torch.is_tensor(sa):
        return ref * sa.double() * sb.double()
    return ref * (sa * sb)


def error(out, ref):
    rms = float(ref.pow(2).mean().sqrt())
    diff = (out.double() - ref).abs()
    excess = float((diff - (2.0 ** -7 * ref.abs() + 2.0 ** -7 * rms)).max())
    return float(diff.norm() / ref.norm()), float(diff.max()) / rms, excess


def check(kern, M, N, K, s, seed, peer=True):
    A, B, C, sa, sb = inputs(kern, M, N, K, s, seed)
    kern.bind(A, B, C, sa, sb)()
    torch.cuda.synchronize()
    ref = block_reference(A, B, sa, sb, torch.float64) if kern.block else reference(A, B, sa, sb)
    finite = bool(torch.isfinite(C).all())
    rel, worst, excess = error(C, ref)
    line = f"  {M}x{N}x{K} s={s:g}: rel_fro {rel:.2e} worst/rms {worst:.2e}"
    fast_worst = None
    if kern.block:
        # The bar: no worse than the same scaling computed in float32 (then rounded to bf16, as ours).
        frel = 0.0
        if peer:  # (not under the sanitizer: its kernels are not ours)
            f32 = block_reference(A, B, sa, sb, torch.float32).to(torch.bfloat16)
            frel, fworst, _ = error(f32, ref)
            line += f" | float32 reference: {frel:.2e} {fworst:.2e}"
            try:
                prel, pworst, _ = error(blockwise_scaled_mm(A, B, sa, sb), ref)
                line += f" | _scaled_mm blockwise: {prel:.2e} {pworst:.2e}"
            except (RuntimeError, ValueError) as e:
                line += f" | _scaled_mm blockwise: {str(e).splitlines()[0][:60]}"
        ok = finite and (excess <= 0 or rel <= 1.1 * frel)
        print(line + ("" if ok else f"  FAIL{'' if finite else ' (non-finite output)'}"), flush=True)
        return ok
    if peer:
        for fast in (True, False):
            try:
                prel, pworst, pexcess = error(scaled_mm(A, B, sa, sb, fast), ref)
                line += f" | _scaled_mm fast={int(fast)}: {prel:.2e} {pworst:.2e}{' (over bound)' if pexcess > 0 else ''}"
                if fast:
                    fast_worst = pworst
            except RuntimeError as e:
                line += f" | _scaled_mm fast={int(fast)}: {str(e).splitlines()[0][:60]}"
    # Within the bound, or (the tensor core's own fp8 accumulation over a long
    # K exceeds it, cuBLASLt's too) no worse than cuBLASLt's fast accumulation.
    ok = finite and (excess <= 0 or (fast_worst is not None and worst <= 1.1 * fast_worst))
    if ok and excess > 0:
        line += "  (over the bound, within 1.1x of cuBLASLt's fast accumulation)"
    print(line + ("" if ok else f"  FAIL{'' if finite else ' (non-finite output)'}"), flush=True)
    return ok


def launcher_checks(kern):
    """The launcher refuses what the kernel cannot read: wrong dtypes, rows that are not 16-byte multiples."""
    ok = True
    A = torch.zeros(128, 128, device=DEVICE).to(torch.float8_e4m3fn)
    B = torch.zeros(256, 128, device=DEVICE).to(FP8[kern.btype][0])
    C = torch.zeros(128, 256, device=DEVICE, dtype=torch.bfloat16)
    sa = torch.ones(128, 1, device=DEVICE) if kern.rowwise else 1.0  # not padded: the launcher must refuse it
    sb = torch.ones(1, 256, device=DEVICE) if kern.rowwise else 1.0
    if kern.block:
        sa, sb = torch.ones(128, 1, device=DEVICE), torch.ones(2, 1, device=DEVICE)
    cases = [("A as bf16", (A.to(torch.bfloat16), B, C, sa, sb)), ("C as f32", (A, B, C.float(), sa, sb)),
             ("K = 120 (rows of 120 bytes)", (A[:, :120].contiguous(), B[:, :120].contiguous(), C, sa, sb))]
    if kern.block:
        cases += [("SA of 128 rows (a 256-row cluster tile reads 256)", (A, B, C, sa, sb))]
    if kern.rowwise:
        cases += [("SA of 128 values (a 256-row cluster tile reads 256)", (A, B, C, sa, sb)),
                  ("SB as bf16", (A, B, C, torch.ones(256, 1, device=DEVICE), sb.bfloat16()))]
    for what, args in cases:
        try:
            kern.bind(*args, pad=False)()
            print(f"  launcher accepted {what}: FAIL")
            ok = False
        except RuntimeError as e:
            print(f"  launcher refuses {what}: {str(e).split(': ', 1)[1][:110]}")
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("libs", nargs="+")
    ap.add_argument("--check-only", action="store_true", help="small shapes, no peers (for compute-sanitizer)")
    ap.add_argument("--samples", type=int, default=120)
    ap.add_argument("--shapes", default=DEFAULT_SHAPES)
    ap.add_argument("--json")
    args = ap.parse_args()
    prop = torch.cuda.get_device_properties(0)
    print(f"device: {prop.name}, {prop.multi_processor_count} SMs; torch {torch.__version__} (CUDA {torch.version.cuda})")
    report, all_ok, flush_buf = [], True, None
    for spec in args.libs:
        kern = Kernel(spec)
        print(f"\n== {kern.launcher} ({kern.label}): {kern.path}")
        ok = True
        if args.check_only:
            for i, (M, N, K) in enumerate(kern.san_shapes):
                ok &= check(kern, M, N, K, 1.0, 10 + i, peer=False)
        else:
            ok &= launcher_checks(kern)
            for i, (M, N, K) in enumerate(kern.check_shapes):
                for s in (1.0, 100.0):
                    ok &= check(kern, M, N, K, s, 100 * i + int(s))
        print(f"  {'ALL CORRECT' if ok else 'FAILURES'}")
        entry = {"lib": kern.path, "btype": kern.btype, "rowwise": kern.rowwise, "correct": ok, "timing": []}
        all_ok &= ok
        if not args.check_only and ok:
            if flush_buf is None:
                flush_buf = torch.empty(prop.L2_cache_size, dtype=torch.int32, device=DEVICE)
            for shape in args.shapes.split(","):
                M, N, K = (int(x) for x in shape.split("x"))
                A, B, C, sa, sb = inputs(kern, M, N, K, 1.0, 7)
                backends = [("ours", kern.bind(A, B, C, sa, sb))]
                peers = (("lt_fast", True), ("lt_accum", False))
                if kern.block:
                    try:
                        blockwise_scaled_mm(A, B, sa, sb)
                        backends.append(("lt_block", lambda sa=sa, sb=sb: blockwise_scaled_mm(A, B, sa, sb)))
                    except (RuntimeError, ValueError) as e:
                        print(f"  lt_block: torch._scaled_mm refuses blockwise scales: {str(e).splitlines()[0][:100]}")
                    # cuBLASLt's per-tensor fp8 GEMM of the same shape, promoted: the product without the scales
                    sa, sb = 1.0, 1.0
                    peers = (("lt_accum", False),)
                for name, fast in peers:
                    try:
                        scaled_mm(A, B, sa, sb, fast)
                        backends.append((name, lambda fast=fast, sa=sa, sb=sb: scaled_mm(A, B, sa, sb, fast)))
                    except RuntimeError as e:
                        print(f"  {name}: torch._scaled_mm refuses this input: {str(e).splitlines()[0][:100]}")
                res = time_backends(backends, lambda: flush_buf.bitwise_not_(), args.samples)
                flops = 2.0 * M * N * K
                print(f"  {M}x{N}x{K}: median of {args.samples} CUPTI samples, L2 flushed before each")
                for name, r in res.items():
                    print(f"    {name:<9} {r['median_ms']:9.4f} ms  {flops / r['median_ms'] / 1e9:7.1f} TFLOP/s  "
                          f"p10 {r['p10_ms']:.4f} p90 {r['p90_ms']:.4f}  {len(r['kernels'])} kernel(s)")
                for peer in ("lt_fast", "lt_accum", "lt_block"):
                    if peer in res:
                        print(f"    {peer} / ours = {res[peer]['median_ms'] / res['ours']['median_ms']:.3f}")
                entry["timing"].append({"shape": [M, N, K], **{k: {kk: vv for kk, vv in v.items() if kk != "samples_ms"}
                                                                  for k, v in res.items()}})
        report.append(entry)
    return cakelib.finish(report, args.json, all_ok, blank_line=True)


if __name__ == "__main__":
    sys.exit(main())
