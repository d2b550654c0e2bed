# A scalar named as the C library names a function (`size`): the generated
# C renames it, and the interface names it so in the declared shapes too
# (testsuite/driver/emit_interface.test).
@cake.schedule(grid=((size + 3) // 4,))
def copy_rows(lm, X: LM.tensor2d[size, 256], Y: LM.tensor2d[size, 256], size: LM.i32):
    rows = lm.role(warps=[0, 1, 2, 3])
    with rows:
        r0 = lm.block_id(0) * 4
        lm.store_tile(Y, coords=(0, r0), src=lm.load_tile(X, coords=(0, r0), shape=(4, 256), dtype=lm.bf16))
