# KNOWN HOLE (XFAIL): a schedule the safety gate accepts that races, found
# by an independent review (2026-12-05) and not yet fixed: the cross-block
# facts do not compare the tiles blocks store with the tiles the last block
# reads. The expected error is the one the gate should give; lit reports
# XPASS when a fix makes it pass, and then the XFAIL line goes.
# a part stored under 'if block_id(1) > 0': split 0's part is never
# written, so the last block reads what the previous launch left;
# XFAIL: *
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * M, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        if lm.block_id(1) > 0:
            lm.store_tile(part, coords=(0, lm.block_id(1) * M + lm.block_id(0) * 64), src=acc)  # expected-error {{'part' is stored and read at tiles that do not match the blocks that share the count}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * M + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
