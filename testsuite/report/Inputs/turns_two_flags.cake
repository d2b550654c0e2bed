# Two phases of turns: each block of a tile takes its turn on flag ta, then
# on tb (pass_flag_wait.cake's two-phase case), for report.test.
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    ta = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    tb = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    pa = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    pb = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    acc2 = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        acc2 = lm.fill(acc2, 2.0)
        lm.wait_flag(ta, coords=(lm.block_id(0),), value=lm.block_id(1))
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(pa, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(ta, coords=(lm.block_id(0),), value=0, op="exch")
        else:
            lm.store_tile(pa, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(ta, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
        lm.wait_flag(tb, coords=(lm.block_id(0),), value=lm.block_id(1))
        if lm.block_id(1) > 0:
            acc2 = acc2 + lm.load_tile(pb, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(tb, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc + acc2)
        else:
            lm.store_tile(pb, coords=(0, lm.block_id(0) * 64), src=acc2)
            lm.atomic(tb, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")

