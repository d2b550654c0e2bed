# RMSNorm with a residual add, as transformer blocks run it (vLLM's
# fused_add_rms_norm): for each row of X and R (M x N, bf16),
#   H = X + R                               (bf16: the new residual stream)
#   Y = H * rsqrt(mean(H^2) + EPS) * W      (W: N weights, bf16; f32 statistics)
# Y and H are written out. Memory-bound: each element is read twice and
# written twice, so the kernel streams rows straight between global memory
# and registers (lm.load_tile in the rows layout: every lane moves 16 bytes
# per access, a warp 512 consecutive bytes of a row) and never stages them
# in shared memory. One warp per row, WARPS rows per block; the sum of
# squares is a row reduction over the warp's lanes. N is a constant (-DN=8192);
# M a multiple of WARPS (the launcher refuses others).
# target: sm_90a
N = 4096
WARPS = 4
EPS = 1.0e-6

@cake.schedule(grid=((M + WARPS - 1) // WARPS,))
def rmsnorm_residual(lm, X: LM.tensor2d[M, N], R: LM.tensor2d[M, N], W: LM.tensor2d[1, N], Y: LM.tensor2d[M, N],
                     H: LM.tensor2d[M, N], M: LM.i32):
    rows = lm.role(warps=[0, 1, 2, 3])
    with rows:
        r0 = lm.block_id(0) * WARPS
        x = lm.load_tile(X, coords=(0, r0), shape=(WARPS, N), dtype=lm.bf16)
        r = lm.load_tile(R, coords=(0, r0), shape=(WARPS, N), dtype=lm.bf16)
        h = lm.cast(lm.cast(x, lm.f32) + lm.cast(r, lm.f32), lm.bf16)
        lm.store_tile(H, coords=(0, r0), src=h)
        hf = lm.cast(h, lm.f32)
        inv = lm.exp2(lm.log2(lm.rowsum(hf * hf) * (1.0 / N) + EPS) * -0.5)
        w = lm.load_tile(W, coords=(0, 0), shape=(1, N), dtype=lm.bf16)
        y = lm.cast(hf * inv * lm.cast(w, lm.f32), lm.bf16)
        lm.store_tile(Y, coords=(0, r0), src=y)
