# Row (M x 1) and column (1 x N) vectors stored from the accumulator layout
# straight into global tensors (lm.store_tile), one element per access and
# one writer per element (testsuite/codegen/vector_stores.test; run on the
# GPU by harness/fp8/vectors_check.py): each block's row sums of its
# 128 x 64 tile of X into column block_id(1) of RS, and twice the column
# vector T's 64 columns into row block_id(0) of CS.
@cake.schedule(grid=(M // 128, N // 64))
def vector_stores(lm, X: LM.tensor2d, T: LM.tensor2d, RS: LM.tensor2d, CS: LM.tensor2d, M: LM.i32, N: LM.i32):
    math = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    with math:
        r0 = lm.block_id(0) * 128
        c0 = lm.block_id(1) * 64
        x = lm.load_tile(X, coords=(c0, r0), shape=(128, 64), dtype=lm.f32, layout="accumulator")
        t = lm.load_tile(T, coords=(c0, 0), shape=(1, 64), dtype=lm.f32, layout="accumulator")
        lm.store_tile(RS, coords=(lm.block_id(1), r0), src=lm.rowsum(x))
        lm.store_tile(CS, coords=(c0, lm.block_id(0)), src=t * 2.0)
