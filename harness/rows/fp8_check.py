#!/usr/bin/env python3
"""fp8_check.py - runs testsuite/rows/Inputs/fp8_quant.cake's kernel on the GPU.

  int fp8_quant_launch(const cake_tensor *X, const cake_tensor *Q, const cake_tensor *Y, int32_t M,
                       float s, cudaStream_t stream);
  Q = fp8(X / s) (saturating, nearest even), Y = bf16(Q * s); X, Y (M, 1024) bf16, Q (M, 1024) fp8.

Libraries are named LIB:e4m3 or LIB:e5m2. X ~ N(0, 1) * 100 (e4m3: well past
its largest value, 448, so saturation is exercised) and s = 0.5 and 0.25
(powers of two: X / s is exact); the reference is torch's conversion of the
clamped f32 quotient. Q must equal it byte for byte and Y exactly.

  fp8_check.py LIB:e4m3 LIB:e5m2 ...
"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import cakelib  # noqa: E402

FP8 = {"e4m3": (torch.float8_e4m3fn, 448.0), "e5m2": (torch.float8_e5m2, 57344.0)}


def main():
    ok = True
    for spec in sys.argv[1:]:
        path, kind = spec.rsplit(":", 1)
        dtype, top = FP8[kind]
        fn = cakelib.kernel(path)
        for M, s, seed in ((4, 0.5, 0), (1000, 0.25, 1), (4096, 0.5, 2)):
            g = torch.Generator(device="cuda").manual_seed(seed)
            X = (torch.randn(M, 1024, generator=g, device="cuda") * 100).to(torch.bfloat16)
            Q = torch.full((M, 1024), 0x7F, dtype=torch.uint8, device="cuda")  # a NaN in both formats
            Y = torch.full((M, 1024), float("nan"), dtype=torch.bfloat16, device="cuda")
            try:  # Q's bytes seen as fp8 (the launcher takes E4M3 / E5M2)
                fn(X, Q.view(dtype), Y, M, s)
                rc = 0
            except cakelib.CakeError as e:
                rc = f"{e.code} ({e.message})"
            torch.cuda.synchronize()
            qref = (X.float() / s).clamp(-top, top).to(dtype)
            yref = (qref.float() * s).to(torch.bfloat16)
            qbad = int((Q != qref.view(torch.uint8)).sum())
            ybad = int((Y != yref).sum())
            sat = int((X.float().abs() / s > top).sum())
            good = rc == 0 and qbad == 0 and ybad == 0
            print(f"{path} ({kind}) M={M} s={s}: rc {rc}, {qbad} fp8 bytes and {ybad} outputs differ "
                  f"({sat} inputs saturate): {'ok' if good else 'FAIL'}")
            ok &= good
    print("ALL CORRECT" if ok else "FAILURES")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
