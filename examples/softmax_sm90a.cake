# Row softmax: Y[i, :] = softmax(X[i, :]) for X (M x N, bf16), computed in
# f32 and written as bf16. Memory-bound: each element is read once and
# written once, so rows stream straight between global memory and registers
# (lm.load_tile in the rows layout: 16 bytes per lane and access, a warp 512
# consecutive bytes of a row) with one warp per row and WARPS rows per
# block; the maximum and the sum are row reductions over the warp's lanes.
# N is a constant (-DN=2048); it must be a multiple of 256, and a row of N /
# 32 f32 values per lane must fit the registers (N up to 4096 or so); M a
# multiple of WARPS (the launcher refuses others).
# target: sm_90a
N = 4096
WARPS = 4
LOG2E = 1.4426950408889634

@cake.schedule(grid=((M + WARPS - 1) // WARPS,))
def softmax_rows(lm, X: LM.tensor2d[M, N], Y: LM.tensor2d[M, N], M: LM.i32):
    rows = lm.role(warps=[0, 1, 2, 3])
    with rows:
        r0 = lm.block_id(0) * WARPS
        x = lm.cast(lm.load_tile(X, coords=(0, r0), shape=(WARPS, N), dtype=lm.bf16), lm.f32) * LOG2E
        e = lm.exp2(x - lm.rowmax(x))
        y = lm.cast(e * (1.0 / lm.rowsum(e)), lm.bf16)
        lm.store_tile(Y, coords=(0, r0), src=y)
