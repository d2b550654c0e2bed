# The first rows of an accumulator tile between registers and global memory
# (first_rows=R on lm.load_tile and lm.store_tile; testsuite/codegen/
# first_rows.test; run on the GPU by harness/fp8/vectors_check.py): each
# block reads the 8 rows at 8 b of X into the first 8 rows of a 64-row tile
# (the other rows read as zero), and stores 2 X and the rows' sums back for
# those 8 rows only, so blocks 8 rows apart write disjoint rows.
@cake.schedule(grid=(M // 8,))
def first_rows(lm, X: LM.tensor2d, Y: LM.tensor2d, RS: LM.tensor2d, M: LM.i32):
    math = lm.role(warps=[0, 1, 2, 3])
    with math:
        r0 = lm.block_id(0) * 8
        x = lm.load_tile(X, coords=(0, r0), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
        lm.store_tile(Y, coords=(0, r0), src=x * 2.0, first_rows=8)
        lm.store_tile(RS, coords=(0, r0), src=lm.rowsum(x), first_rows=8)
