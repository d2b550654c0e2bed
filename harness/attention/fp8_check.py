#!/usr/bin/env python3
"""fp8_check.py - runs testsuite/codegen/Inputs/attention_fwd_fp8.cake's kernel (or
examples/attention_fwd_fp8_sm90a.cake's) on the GPU.

  int attention_fwd_fp8_launch(const cake_tensor *Q, const cake_tensor *K, const cake_tensor *VT,
                               const cake_tensor *O, const cake_tensor *LSE, int32_t S, int32_t BH,
                               cudaStream_t stream);

Q, K e4m3 (B*H, S, D), VT e4m3 (B*H, D, S) (V transposed; where the
launcher's third parameter is V instead, as in the example, which transposes
V in shared memory, V e4m3 (B*H, S, D) as it is), O bf16 (B*H, S, D), LSE f32
(B*H, S); unit scales. The reference is attn_bench.py's: float64
softmax(q k^T / sqrt(D)) v of the same fp8 values. P is rounded to e4m3 before
P V (as FA3's fp8 path does; e4m3 keeps 3 mantissa bits), so O's bound is
looser than the bf16 kernel's: ||O - ref||_F / ||ref||_F <= 4e-2; the LSE,
from P before rounding, keeps attn_bench's bound (1e-3 (1 + |lse|)). Then
(without --check-only) CUPTI times (L2 flushed before each sample, median of
--samples) ours beside cuDNN's bf16 forward through SDPA on the same values
at B = 4, H = 32, S = 4096 and 8192.

With --other LIB2 (another build of the same kernel, e.g. -DP_REGS=False;
repeatable) all are checked, and timed in the same process beside cuDNN.

  fp8_check.py LIB [--other LIB2 ...] [--check-only] [--samples N]
"""
import argparse
import math
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import attn_bench as ab  # noqa: E402

ab.torch = torch
sys.path.insert(0, os.path.join(HERE, "..", "common"))
import cakelib  # noqa: E402

D = 128
REL_FRO_MAX = 4e-2


def inputs(B, H, S, scale, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    q, k, v = ((torch.randn(B * H * S, D, generator=g, device="cuda") * s).to(torch.float8_e4m3fn)
               for s in (scale, scale, 1.0))
    vt = v.view(B * H, S, D).transpose(1, 2).contiguous()
    return q, k, v, vt


def v_arg(kern, v, vt, BH, S):
    """The launcher's third argument: V as it is, or transposed (VT)."""
    return v.view(BH, S, D) if kern.params[2]["name"] == "V" else vt


def main():
    p = argparse.ArgumentParser()
    p.add_argument("lib")
    p.add_argument("--check-only", action="store_true")
    p.add_argument("--samples", type=int, default=100)
    p.add_argument("--other", action="append", default=[],
                   help="another build of the kernel, checked and timed beside the first (repeatable)")
    args = p.parse_args()
    kerns = [("ours", cakelib.kernel(args.lib))]
    others = [(f"other{i + 1}" if len(args.other) > 1 else "other", lib) for i, lib in enumerate(args.other)]
    for name, lib in others:
        kerns.append((name, cakelib.kernel(lib)))
    if others:
        print(", ".join([f"ours = {os.path.basename(args.lib)}"] + [f"{n} = {os.path.basename(lib)}" for n, lib in others]))
    ok = True
    cases = [(1, 2, 256, 1.0), (2, 4, 1024, 1.0), (1, 2, 4096, 2.0)]
    if args.check_only:
        cases = cases[:1]
    for B, H, S, scale in cases:
        q, k, v, vt = inputs(B, H, S, scale, S + B)
        BH = B * H
        for name, kern in kerns:
            o = torch.full((BH, S, D), math.nan, device="cuda", dtype=torch.bfloat16)
            lse = torch.full((BH, S), math.nan, device="cuda")
            kern(q.view(BH, S, D), k.view(BH, S, D), v_arg(kern, v, vt, BH, S), o, lse, S, BH)
            torch.cuda.synchronize()
            heads = ab.checked_heads(B, H)  # every head up to 8
            errs = ab.compare_to_reference(q.float(), k.float(), v.float(), S, False, heads,
                                           {name: (o.view(BH * S, D), lse)})[name]
            good = (errs.rel_fro <= REL_FRO_MAX and errs.lse_worst is not None and errs.lse_worst <= ab.LSE_TOL
                    and bool(torch.isfinite(o).all()) and bool(torch.isfinite(lse).all()))
            ok &= good
            print(f"{name}: B={B} H={H} S={S} scale={scale:g}: {errs.text()}: {'CORRECT' if good else 'WRONG'}")
    if args.check_only:
        return cakelib.finish({}, None, ok)
    from torch.nn.attention import SDPBackend, sdpa_kernel
    import torch.nn.functional as F
    l2 = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 0) or 50 << 20
    buf = torch.empty(l2, device="cuda", dtype=torch.int32)

    def flush():
        buf.bitwise_not_()
    print(f"{'B x H x S':>14} {'ours fp8 ms':>12} {'cuDNN bf16 ms':>14} {'cuDNN/ours':>10} {'ours TFLOP/s':>13}"
          + "".join(f" {n + ' fp8 ms':>13} {'cuDNN/' + n:>12}" for n, _ in others))
    for B, H, S in ((4, 32, 4096), (4, 32, 8192)):
        q, k, v, vt = inputs(B, H, S, 1.0, 1)
        BH = B * H
        o = torch.empty((BH, S, D), device="cuda", dtype=torch.bfloat16)
        lse = torch.empty((BH, S), device="cuda")
        q4, k4, v4 = (t.to(torch.bfloat16).view(B, H, S, D) for t in (q, k, v))

        def cudnn():
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                return F.scaled_dot_product_attention(q4, k4, v4)
        qv, kv = q.view(BH, S, D), k.view(BH, S, D)
        runs = [(name, (lambda kern=kern, vv=v_arg(kern, v, vt, BH, S): kern(qv, kv, vv, o, lse, S, BH)))
                for name, kern in kerns]
        t = ab.time_backends(runs + [("cuDNN", cudnn)], flush, args.samples)
        ours, peer = t["ours"]["median_ms"], t["cuDNN"]["median_ms"]
        flops = 4.0 * B * H * S * S * D
        line = f"{B:>4} x {H} x {S:<5} {ours:12.4f} {peer:14.4f} {peer / ours:10.3f} {flops / ours / 1e9:13.1f}"
        for n, _ in others:
            other = t[n]["median_ms"]
            line += f" {other:13.4f} {peer / other:12.3f}"
        print(line)
    return cakelib.finish({}, None, ok)


if __name__ == "__main__":
    sys.exit(main())
