#!/usr/bin/env python3
"""fp8_store_check.py - runs testsuite/codegen/Inputs/fp8_view_store.cake's kernel on the GPU.

  int fp8_view_store_launch(const cake_tensor *S, const cake_tensor *B, const cake_tensor *P8,
                            const cake_tensor *PT8, const cake_tensor *Y, int32_t M, cudaStream_t stream);

S (M, 128) f32, B (64, 128) e4m3; the kernel writes P8 = e4m3(S) (M, 128), its
transpose PT8 (128, M) and Y = P8 . B^T (M, 64) f32, P8 and P8^T having gone
from registers into swizzled shared memory (the lowering under test) and back
out with TMA, and P8 having been wgmma's A operand from there. P8 and PT8
must equal torch's e4m3 conversion of S (round to nearest even; S is kept
inside e4m3's range, where cvt's saturation and torch's conversion agree)
bit for bit; Y torch's f32 product of the same fp8 values, to the tensor
core's accumulation (a relative error of 2^-10 of the sum of the terms'
magnitudes allowed).

  fp8_store_check.py LIB
"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import cakelib  # noqa: E402


def product_error(p8, B, Y):
    """Y against P8 . B^T in f32 (P8 given as float): the largest error as a
    fraction of the sum of the terms' magnitudes."""
    ref = p8 @ B.float().t()
    mag = p8.abs() @ B.float().abs().t()
    return ((Y - ref).abs() / mag.clamp_min(1e-30)).max().item()


def main():
    k = cakelib.kernel(sys.argv[1])
    ok = True
    for M, scale, seed in ((64, 1.0, 0), (256, 16.0, 1), (4096, 0.01, 2), (1024, 100.0, 3)):
        g = torch.Generator(device="cuda").manual_seed(seed)
        S = (torch.randn(M, 128, generator=g, device="cuda") * scale).clamp(-440.0, 440.0)
        B = (torch.randn(64, 128, generator=g, device="cuda") * 2.0).to(torch.float8_e4m3fn)
        P8 = torch.zeros(M, 128, device="cuda").to(torch.float8_e4m3fn)
        PT8 = torch.zeros(128, M, device="cuda").to(torch.float8_e4m3fn)
        Y = torch.full((M, 64), float("nan"), device="cuda")
        k(S, B, P8, PT8, Y, M)
        torch.cuda.synchronize()
        ref8 = S.to(torch.float8_e4m3fn)
        same = torch.equal(P8.view(torch.uint8), ref8.view(torch.uint8))
        same_t = torch.equal(PT8.view(torch.uint8), ref8.t().contiguous().view(torch.uint8))
        err = product_error(ref8.float(), B, Y)
        good = same and same_t and err <= 2.0**-10 and not torch.isnan(Y).any().item()
        ok &= good
        print(f"M={M:5d} scale={scale:6g}: P8 {'exact' if same else 'DIFFERS'}, P8^T {'exact' if same_t else 'DIFFERS'}, "
              f"Y max error {err:.2e} of the terms' magnitudes: {'CORRECT' if good else 'WRONG'}")
    return cakelib.finish({}, None, ok)


if __name__ == "__main__":
    sys.exit(main())
