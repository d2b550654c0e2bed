# The parts of a last-block reduction (safety.cross-block-parts): every
# block stores its part whenever it counts itself in, at coordinates that
# name every grid dimension of more than one block, and the last block
# reads parts at coordinates that name the counter's block indices. Each
# part below was accepted before (an independent review's reproducers).
# Near miss: pass_cross_block.cake. Still a hole: parts one split of M rows
# apart overlapping at ragged M (xfail_cross_block_split_stride_overlap.cake).
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# the last block reads split s's part at (0, s * M), tile 0's rows, not its own tile's: it reads rows that blocks of another count may not have written yet
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * M, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * M + lm.block_id(0) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * M), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part' at coordinates that do not name lm.block_id(0), which tells the blocks of different counts apart: it may read parts of another count's blocks; the block that sees the last count may read a part no block of its count wrote}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# parts stored at (0, block_id(1) * M): the blocks of every tile with one split index write the same rows at once
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * M, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * M), src=acc)  # expected-error {{role 'math' stores 'part' at coordinates that do not name lm.block_id(0): blocks that differ only there store the same tile}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * M + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# a part stored under 'if block_id(1) > 0': split 0's part is never written, so the last block reads what the previous launch left
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * M, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        if lm.block_id(1) > 0:
            lm.store_tile(part, coords=(0, lm.block_id(1) * M + lm.block_id(0) * 64), src=acc)  # expected-error {{role 'math' stores 'part' under a condition the atomic that counts the block in does not share}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * M + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
