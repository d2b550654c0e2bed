#!/usr/bin/env python3
"""vectors_check.py - runs testsuite/codegen/Inputs/vector_loads.cake's, vector_stores.cake's and
first_rows.cake's kernels on the GPU.

  int vector_loads_launch(const cake_tensor *S, const cake_tensor *T, const cake_tensor *O, int32_t M, int32_t N,
                          cudaStream_t stream);
  O = O * S * T: S (M, 1) f32 a row scale, T (1, N) bf16 a column scale, O (M, N) f32, in place.

S and T are contiguous, so S's rows are 4 bytes apart: the launcher must take
them (vectors are read one element at a time). The result must equal torch's
f32 product exactly (the same two roundings in the same order). The launcher
must refuse an O whose rows are not 16-byte aligned (O is read in pairs and
the launcher asks 16 bytes of a tile's tensor).

vector_stores (STORES, the second library):

  RS (M, N / 64) f32: each 128 x 64 tile's row sums of X (M, N) f32, column
  block_id(1); CS (M / 128, N) f32: twice T (1, N) f32, row block_id(0).

RS must match torch's row sums of each tile to f32 rounding (the order of
the additions differs: 2e-6 relative); CS must equal 2 T in every row,
bit for bit, and nothing outside the vectors may be written (RS and CS
start as NaN and are checked whole).

first_rows (FIRST, the third library): each block reads the 8 rows at 8 b of X
(M, 64) f32 into the first rows of a 64-row tile and stores 2 X and the rows'
sums (RS (M, 1)) for those 8 rows only: Y must equal 2 X bit for bit (a block
storing more rows would write zeros over its neighbours' rows, and past the
end), RS torch's row sums to f32 rounding.

  vectors_check.py LIB [STORES [FIRST]]
"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import cakelib  # noqa: E402


def main():
    path = sys.argv[1]
    k = cakelib.kernel(path)

    def fn(*args):
        """The launcher's code and message (0, '' when it launched)."""
        try:
            k(*args)
            return 0, ""
        except cakelib.CakeError as e:
            return e.code, e.message
    ok = True
    for M, N, seed in ((128, 64, 0), (256, 128, 1), (1024, 4096, 2)):
        g = torch.Generator(device="cuda").manual_seed(seed)
        S = torch.rand(M, 1, generator=g, device="cuda") + 0.5
        T = (torch.rand(1, N, generator=g, device="cuda") + 0.5).to(torch.bfloat16)
        O = torch.randn(M, N, generator=g, device="cuda")
        ref = O * S * T.float()
        rc, msg = fn(S, T, O, M, N)
        torch.cuda.synchronize()
        bad = int((O != ref).sum())
        good = rc == 0 and bad == 0
        print(f"{M}x{N}: rc {rc}{' (' + msg + ')' if rc else ''}, {bad} elements differ: "
              f"{'ok' if good else 'FAIL'}")
        ok &= good
    # O with rows of 66 floats (264 bytes: not a multiple of 16) must be refused.
    base = torch.zeros(128, 66, device="cuda")
    O = base[:, :64]
    S = torch.ones(128, 1, device="cuda")
    T = torch.ones(1, 64, device="cuda", dtype=torch.bfloat16)
    rc, msg = fn(S, T, O, 128, 64)
    refused = rc != 0
    print(f"O with 264-byte rows: rc {rc} ({msg}): {'ok' if refused else 'FAIL'}")
    ok &= refused
    if len(sys.argv) > 2:
        ok &= stores(cakelib.kernel(sys.argv[2]))
    if len(sys.argv) > 3:
        ok &= first_rows(cakelib.kernel(sys.argv[3]))
    print("ALL CORRECT" if ok else "FAILURES")
    return 0 if ok else 1


def stores(k):
    """vector_stores: row sums and a column vector stored by one writer per element."""
    ok = True
    for M, N, seed in ((128, 64, 3), (256, 128, 4), (2048, 4096, 5)):
        g = torch.Generator(device="cuda").manual_seed(seed)
        X = torch.randn(M, N, generator=g, device="cuda")
        T = torch.randn(1, N, generator=g, device="cuda")
        RS = torch.full((M, N // 64), float("nan"), device="cuda")
        CS = torch.full((M // 128, N), float("nan"), device="cuda")
        try:
            k(X, T, RS, CS, M, N)
            rc, msg = 0, ""
        except cakelib.CakeError as e:
            rc, msg = e.code, e.message
        torch.cuda.synchronize()
        ref = X.view(M, N // 64, 64).sum(-1)
        err = float(((RS - ref).abs() / (1 + ref.abs())).max())
        cs_bad = int((CS != (2 * T).expand(M // 128, N)).sum())
        good = rc == 0 and err < 1e-5 and cs_bad == 0
        print(f"stores {M}x{N}: rc {rc}{' (' + msg + ')' if rc else ''}, row sums max rel err {err:.2e}, "
              f"{cs_bad} column elements differ: {'ok' if good else 'FAIL'}")
        ok &= good
    return ok


def first_rows(k):
    """first_rows: 8 rows of each 64-row tile in and out."""
    ok = True
    for M, seed in ((8, 6), (72, 7), (4096, 8)):
        g = torch.Generator(device="cuda").manual_seed(seed)
        X = torch.randn(M, 64, generator=g, device="cuda")
        Y = torch.full((M, 64), float("nan"), device="cuda")
        RS = torch.full((M, 1), float("nan"), device="cuda")
        try:
            k(X, Y, RS, M)
            rc, msg = 0, ""
        except cakelib.CakeError as e:
            rc, msg = e.code, e.message
        torch.cuda.synchronize()
        bad = int((Y != 2 * X).sum())
        ref = X.sum(-1, keepdim=True)
        err = float(((RS - ref).abs() / (1 + ref.abs())).max())
        good = rc == 0 and bad == 0 and err < 1e-5
        print(f"first_rows M={M}: rc {rc}{' (' + msg + ')' if rc else ''}, {bad} elements of Y differ, "
              f"row sums max rel err {err:.2e}: {'ok' if good else 'FAIL'}")
        ok &= good
    return ok


if __name__ == "__main__":
    sys.exit(main())
