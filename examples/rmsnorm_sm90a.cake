# RMSNorm with a residual add, as transformer blocks run it (vLLM's
# fused_add_rms_norm): for each row of X and R (M x N, bf16),
#   H = X + R                               (bf16: the new residual stream)
#   Y = H * rsqrt(mean(H^2) + EPS) * W      (W: N weights, bf16; f32 statistics)
# Y and H are written out. Memory-bound: each element is read twice and
# written twice, so the kernel streams rows straight between global memory
# and registers (lm.load_tile in the rows layout: every lane moves 16 bytes
# per access, a warp 512 consecutive bytes of a row) and never stages them
# in shared memory. A block of WARPS warps takes ROWS rows, SPLIT warps per
# row, each warp a contiguous N / SPLIT of its row; the sum of squares is a
# row reduction over the warp's lanes (and the row's warps). N / SPLIT up to
# 4096 fits the registers (-DN=8192 -DSPLIT=2 for rows of 8192); N a
# multiple of 256 x SPLIT, M of ROWS (the launcher refuses others).
# target: sm_90a
N = 4096
WARPS = 4                     # warps of the block (4 or 8)
SPLIT = 1                     # warps per row: each holds N / SPLIT of it
ROWS = WARPS // SPLIT         # rows per block
EPS = 1.0e-6

@cake.schedule(grid=((M + ROWS - 1) // ROWS,))
def rmsnorm_residual(lm, X: LM.tensor2d[M, N], R: LM.tensor2d[M, N], W: LM.tensor2d[1, N], Y: LM.tensor2d[M, N],
                     H: LM.tensor2d[M, N], M: LM.i32):
    if WARPS == 8:
        rows = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    else:
        rows = lm.role(warps=[0, 1, 2, 3])
    with rows:
        r0 = lm.block_id(0) * ROWS
        x = lm.load_tile(X, coords=(0, r0), shape=(ROWS, N), dtype=lm.bf16, warps_per_row=SPLIT)
        r = lm.load_tile(R, coords=(0, r0), shape=(ROWS, N), dtype=lm.bf16, warps_per_row=SPLIT)
        h = lm.cast(lm.cast(x, lm.f32) + lm.cast(r, lm.f32), lm.bf16)
        lm.store_tile(H, coords=(0, r0), src=h)
        hf = lm.cast(h, lm.f32)
        inv = lm.exp2(lm.log2(lm.rowsum(hf * hf) * (1.0 / N) + EPS) * -0.5)
        w = lm.load_tile(W, coords=(0, 0), shape=(1, N), dtype=lm.bf16, warps_per_row=SPLIT)
        y = lm.cast(hf * inv * lm.cast(w, lm.f32), lm.bf16)
        lm.store_tile(Y, coords=(0, r0), src=y)
