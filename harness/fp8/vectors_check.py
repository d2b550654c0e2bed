#!/usr/bin/env python3
"""vectors_check.py - runs testsuite/codegen/Inputs/vector_loads.cake's kernel on the GPU.

  int vector_loads_launch(const cake_tensor *S, const cake_tensor *T, const cake_tensor *O, int32_t M, int32_t N,
                          cudaStream_t stream);
  O = O * S * T: S (M, 1) f32 a row scale, T (1, N) bf16 a column scale, O (M, N) f32, in place.

S and T are contiguous, so S's rows are 4 bytes apart: the launcher must take
them (vectors are read one element at a time). The result must equal torch's
f32 product exactly (the same two roundings in the same order). The launcher
must refuse an O whose rows are not 16-byte aligned (O is read in pairs and
the launcher asks 16 bytes of a tile's tensor).

  vectors_check.py LIB
"""
import ctypes
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "attention"))
from attn_bench import describe, exported_launchers  # noqa: E402


def main():
    path = sys.argv[1]
    lib = ctypes.CDLL(os.path.abspath(path))
    (name,) = exported_launchers(path)
    fn = getattr(lib, name)
    fn.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int32] * 2 + [ctypes.c_void_p]
    fn.restype = ctypes.c_int
    err = getattr(lib, name[: -len("_launch")] + "_last_error")
    err.restype = ctypes.c_char_p
    stream = torch.cuda.current_stream().cuda_stream
    ok = True
    for M, N, seed in ((128, 64, 0), (256, 128, 1), (1024, 4096, 2)):
        g = torch.Generator(device="cuda").manual_seed(seed)
        S = torch.rand(M, 1, generator=g, device="cuda") + 0.5
        T = (torch.rand(1, N, generator=g, device="cuda") + 0.5).to(torch.bfloat16)
        O = torch.randn(M, N, generator=g, device="cuda")
        ref = O * S * T.float()
        d = [describe(t) for t in (S, T, O)]
        rc = fn(*[ctypes.addressof(x) for x in d], M, N, stream)
        torch.cuda.synchronize()
        bad = int((O != ref).sum())
        good = rc == 0 and bad == 0
        print(f"{M}x{N}: rc {rc}{' (' + err().decode() + ')' if rc else ''}, {bad} elements differ: "
              f"{'ok' if good else 'FAIL'}")
        ok &= good
    # O with rows of 66 floats (264 bytes: not a multiple of 16) must be refused.
    base = torch.zeros(128, 66, device="cuda")
    O = base[:, :64]
    S = torch.ones(128, 1, device="cuda")
    T = torch.ones(1, 64, device="cuda", dtype=torch.bfloat16)
    d = [describe(t) for t in (S, T, O)]
    rc = fn(*[ctypes.addressof(x) for x in d], 128, 64, stream)
    refused = rc != 0
    print(f"O with 264-byte rows: rc {rc} ({err().decode()}): {'ok' if refused else 'FAIL'}")
    ok &= refused
    print("ALL CORRECT" if ok else "FAILURES")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
