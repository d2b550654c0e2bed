# Row softmax: Y[i, :] = softmax(X[i, :]) for X (M x N, bf16), computed in
# f32 and written as bf16. Memory-bound: each element is read once and
# written once, so rows stream straight between global memory and registers
# (lm.load_tile in the rows layout: 16 bytes per lane and access, a warp 512
# consecutive bytes of a row) and never touch shared memory. A block of
# WARPS warps takes ROWS rows, SPLIT warps per row, each warp a contiguous
# N / SPLIT of its row; the maximum and the sum are row reductions over the
# warp's lanes (and, with SPLIT > 1, over the row's warps through a few
# bytes of shared memory). N / SPLIT f32 values per warp must fit the
# registers: up to 4096 (-DN=32768 -DWARPS=8 -DSPLIT=8 for long rows); N a
# multiple of 256 x SPLIT, M of ROWS (the launcher refuses others).
# target: sm_90a
N = 4096
WARPS = 4                     # warps of the block (4, 8 or 16)
SPLIT = 1                     # warps per row: each holds N / SPLIT of it
ROWS = WARPS // SPLIT         # rows per block
LOG2E = 1.4426950408889634

@cake.schedule(grid=((M + ROWS - 1) // ROWS,))
def softmax_rows(lm, X: LM.tensor2d[M, N], Y: LM.tensor2d[M, N], M: LM.i32):
    if WARPS == 16:
        rows = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
    elif WARPS == 8:
        rows = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    else:
        rows = lm.role(warps=[0, 1, 2, 3])
    with rows:
        r0 = lm.block_id(0) * ROWS
        x = lm.cast(lm.load_tile(X, coords=(0, r0), shape=(ROWS, N), dtype=lm.bf16, warps_per_row=SPLIT), lm.f32) * LOG2E
        e = lm.exp2(x - lm.rowmax(x))
        y = lm.cast(e * (1.0 / lm.rowsum(e)), lm.bf16)
        lm.store_tile(Y, coords=(0, r0), src=y)
