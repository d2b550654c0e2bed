# A value read from memory with a range of its own scalars (lo=LO, hi=HI):
# the launcher bounds the rows of X read at it by [LO, HI) and refuses an
# empty range (testsuite/crossblock/load_scalar.test runs the launcher).
@cake.schedule(grid=((M + 3) // 4,))
def ranges(lm, X: LM.tensor2d[V, 256], IDX: LM.tensor1d[M], Y: LM.tensor2d[M, 256], V: LM.i32, M: LM.i32,
           LO: LM.i32, HI: LM.i32):
    w = lm.roles(warps=[[0], [1], [2], [3]])
    with w as i:
        r = lm.block_id(0) * 4 + i
        src = lm.load_scalar(IDX, coords=(r,), lo=LO, hi=HI, order="acquire")
        lm.store_tile(Y, coords=(0, r), src=lm.load_tile(X, coords=(0, src), shape=(1, 256), dtype=lm.bf16))
