# The split-K fix-up of docs/language.md 9.7 with its loads inside a branch
# on a value read from memory (lm.load_scalar), itself inside the branch on
# the counter's old value (testsuite/crossblock/load_scalar.test).
@cake.schedule(grid=((M + 63) // 64, S))
def sum_parts(lm, Y: LM.tensor2d[M, 64], MODE: LM.tensor1d[1], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            mode = lm.load_scalar(MODE, coords=(0,), lo=0, hi=2)
            if mode == 1:
                acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32,
                                   layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
