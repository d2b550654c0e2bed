# Interface facts (testsuite/driver/emit_interface.test): X read, Y written
# whole, Z updated in place (read and written), U never moved, s a bf16
# scalar passed as its bits (U unused: a warning).
@cake.schedule(grid=((M + 3) // 4,))
def parts(lm, X: LM.tensor2d[M, 256], Y: LM.tensor2d[M, 256], Z: LM.tensor2d[M, 256], U: LM.tensor2d, s: LM.bf16,
          M: LM.i32):
    rows = lm.role(warps=[0, 1, 2, 3])
    with rows:
        r0 = lm.block_id(0) * 4
        x = lm.load_tile(X, coords=(0, r0), shape=(4, 256), dtype=lm.bf16)
        lm.store_tile(Y, coords=(0, r0), src=lm.cast(lm.cast(x, lm.f32) * s, lm.bf16))
        z = lm.load_tile(Z, coords=(0, r0), shape=(4, 256), dtype=lm.bf16)
        lm.store_tile(Z, coords=(0, r0), src=lm.cast(lm.cast(z, lm.f32) + lm.cast(x, lm.f32), lm.bf16))
