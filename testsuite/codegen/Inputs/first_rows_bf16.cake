# A bf16 row vector loaded and stored with first_rows=8 (the zero fill of
# the other rows is a bf16 zero; testsuite/codegen/first_rows.test).
@cake.schedule(grid=(M // 8,))
def first_rows_bf16(lm, V: LM.tensor2d, W: LM.tensor2d, M: LM.i32):
    math = lm.role(warps=[0, 1, 2, 3])
    with math:
        r0 = lm.block_id(0) * 8
        v = lm.load_tile(V, coords=(0, r0), shape=(64, 1), dtype=lm.bf16, layout="accumulator", first_rows=8)
        lm.store_tile(W, coords=(0, r0), src=v, first_rows=8)
