# A loop-carried accumulator first written in the loop's first iteration
# (report_edges.test): live through the loop beside each iteration's tile.
# target: sm_90a
@cake.schedule(grid=((M + 63) // 64,))
def carry(lm, X: LM.tensor2d[M, 256], Y: LM.tensor2d[M, 256], M: LM.i32, T: LM.i32):
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 256), dtype=lm.f32, role=math)
    with math:
        for i in lm.range(0, T):
            a = lm.load_tile(X, coords=(0, lm.block_id(0) * 64), shape=(64, 256), dtype=lm.f32, layout="accumulator")
            m = lm.rowmax(a)
            if i == 0:
                acc = lm.fill(acc, 0.0)
            acc = acc + m
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
