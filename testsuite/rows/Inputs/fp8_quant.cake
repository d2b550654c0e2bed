# Rows quantized to fp8 and back (testsuite/rows/fp8_lowering.test; run on
# the H200 by harness/rows/fp8_check.py): Q = fp8(X / s) (e4m3, or e5m2
# with -DE5M2=True; saturating), Y = bf16(Q * s), s a per-tensor scale.
N = 1024
E5M2 = False

@cake.schedule(grid=((M + 3) // 4,))
def fp8_quant(lm, X: LM.tensor2d[M, N], Q: LM.tensor2d[M, N], Y: LM.tensor2d[M, N], M: LM.i32, s: LM.f32):
    rows = lm.role(warps=[0, 1, 2, 3])
    with rows:
        r0 = lm.block_id(0) * 4
        x = lm.cast(lm.load_tile(X, coords=(0, r0), shape=(4, N), dtype=lm.bf16), lm.f32)
        if E5M2:
            q = lm.cast(x / s, lm.e5m2)
            lm.store_tile(Q, coords=(0, r0), src=q)
            lm.store_tile(Y, coords=(0, r0), src=lm.cast(lm.cast(q, lm.f32) * s, lm.bf16))
        else:
            q = lm.cast(x / s, lm.e4m3)
            lm.store_tile(Q, coords=(0, r0), src=q)
            lm.store_tile(Y, coords=(0, r0), src=lm.cast(lm.cast(q, lm.f32) * s, lm.bf16))
