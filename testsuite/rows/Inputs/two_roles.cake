# Two roles reducing rows over 2 warps each at the same time: each its own
# part of the reduction scratch (testsuite/rows/rows_lowering.test).
@cake.schedule(grid=(1,))
def k(lm, X: LM.tensor2d[4, 512], Y: LM.tensor2d[4, 512], Z: LM.tensor2d[4, 512]):
    a = lm.role(warps=[0, 1, 2, 3])
    b = lm.role(warps=[4, 5, 6, 7])
    with a:
        x = lm.load_tile(X, coords=(0, 0), shape=(4, 512), dtype=lm.f32, warps_per_row=2)
        lm.store_tile(Y, coords=(0, 0), src=x * lm.rowsum(x))
    with b:
        z = lm.load_tile(X, coords=(0, 0), shape=(4, 512), dtype=lm.f32, warps_per_row=2)
        lm.store_tile(Z, coords=(0, 0), src=z * lm.rowmax(z))
