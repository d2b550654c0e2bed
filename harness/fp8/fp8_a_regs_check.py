#!/usr/bin/env python3
"""fp8_a_regs_check.py - runs testsuite/codegen/Inputs/fp8_a_regs_two_blocks.cake's kernel on the GPU.

  int fp8_a_regs_two_blocks_launch(const cake_tensor *S, const cake_tensor *B, const cake_tensor *Y,
                                   int32_t M, cudaStream_t stream);

S (M, 128) f32, B (64, 128) e4m3; each block casts 128 rows of S to e4m3 (P,
in registers: two m64 blocks per thread of its one warpgroup) and writes
Y = P . B^T (M, 64) f32 with P as wgmma's A from registers. Y must be
torch's f32 product of the same fp8 values to the tensor core's
accumulation (2^-10 of the sum of the terms' magnitudes), as
fp8_store_check.py asks.

  fp8_a_regs_check.py LIB
"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cakelib  # noqa: E402
from fp8_store_check import product_error  # noqa: E402


def main():
    k = cakelib.kernel(sys.argv[1])
    ok = True
    for M, scale, seed in ((128, 1.0, 0), (512, 16.0, 1), (4096, 0.01, 2), (1024, 100.0, 3)):
        g = torch.Generator(device="cuda").manual_seed(seed)
        S = (torch.randn(M, 128, generator=g, device="cuda") * scale).clamp(-440.0, 440.0)
        B = (torch.randn(64, 128, generator=g, device="cuda") * 2.0).to(torch.float8_e4m3fn)
        Y = torch.full((M, 64), float("nan"), device="cuda")
        k(S, B, Y, M)
        torch.cuda.synchronize()
        err = product_error(S.to(torch.float8_e4m3fn).float(), B, Y)
        good = err <= 2.0**-10 and not torch.isnan(Y).any().item()
        ok &= good
        print(f"M={M:5d} scale={scale:6g}: Y max error {err:.2e} of the terms' magnitudes: "
              f"{'CORRECT' if good else 'WRONG'}")
    return cakelib.finish({}, None, ok)


if __name__ == "__main__":
    sys.exit(main())
