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

# A read in a loop of K iterations, its range [j, j + 1) from the loop's
# variable: at K = 0 it is never reached (no refusal for its empty range).
@cake.schedule(grid=(1,))
def looped(lm, X: LM.tensor2d[V, 256], IDX: LM.tensor1d[M], Y: LM.tensor2d[M, 256], V: LM.i32, M: LM.i32,
           K: LM.i32):
    w = lm.role(warps=[0])
    with w:
        for j in lm.range(0, K):
            s = lm.load_scalar(IDX, coords=(j,), lo=j, hi=j + 1)
            lm.store_tile(Y, coords=(0, j), src=lm.load_tile(X, coords=(0, s), shape=(1, 256), dtype=lm.bf16))
