# Rows-layout broadcasts and reductions the review of the first version got
# wrong (testsuite/rows/rows_lowering.test): one warp holding 4 rows and a
# 1 x 256 vector (a column vector broadcast by column, not element by
# element); row sums of both combined as row vectors.
@cake.schedule(grid=(1,))
def k(lm, X: LM.tensor2d[4, 256], W: LM.tensor2d[1, 256], Y: LM.tensor2d[4, 256]):
    rows = lm.role(warps=[0])
    with rows:
        x = lm.load_tile(X, coords=(0, 0), shape=(4, 256), dtype=lm.f32)
        w = lm.load_tile(W, coords=(0, 0), shape=(1, 256), dtype=lm.f32)
        m = lm.rowsum(w)
        s = lm.rowsum(x)
        t = s * m
        lm.store_tile(Y, coords=(0, 0), src=x * m + x * t)
