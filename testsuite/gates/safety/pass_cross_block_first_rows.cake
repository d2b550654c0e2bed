# The last-block protocol with parts of 8 rows of a 64-row accumulator tile
# (first_rows=8: split-KV decode's partials, the GROUP query heads of a
# wgmma tile): blocks' parts 8 rows apart are disjoint, and the last block
# reads exactly the rows the blocks of its count wrote. Broken variants:
# fail_cross_block_first_rows.cake.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule(grid=(G, S))
def k(lm, Y: LM.tensor2d, G: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(G,), dtype=lm.i32)
    part = lm.workspace(shape=(S * G * 8, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, (lm.block_id(1) * lm.num_blocks(0) + lm.block_id(0)) * 8), src=acc, first_rows=8)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, (s * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 8), src=acc, first_rows=8)
