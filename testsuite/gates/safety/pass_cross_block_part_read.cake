# Near misses of fail_cross_block_part_read.cake: the last block reads inside
# the parts its count's blocks store (8 rows of a 64-row tile each): 4 rows
# 4 down in its first part; every part from a loop over [0, S); a constant
# number of splits, its loop's stop the grid's constant extent; part s + 1
# read over range(0, S - 1), the first read before the loop; a part read in
# two 64-column halves by an outer loop over the halves; the parts read in
# reverse (S - 1 - s); two parts a step over range(1, S - 1, 2), the last
# where S - 1 is odd by a loop from 1 + (S - 1) // 2 * 2 (a run-time start
# whose lower bound, 1, is at least 0).
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
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 8 + 4), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=4)
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, (s * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 8), src=acc, first_rows=8)

# -----
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
            acc = lm.fill(acc, 0.0)
            for s in lm.range(0, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, (s * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 8), src=acc, first_rows=8)

# -----
@cake.schedule(grid=(G, 4))
def k(lm, Y: LM.tensor2d, G: LM.i32):
    arrived = lm.workspace(shape=(G,), dtype=lm.i32)
    part = lm.workspace(shape=(4 * G * 8, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, (lm.block_id(1) * lm.num_blocks(0) + lm.block_id(0)) * 8), src=acc, first_rows=8)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == 3:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
            for s in lm.range(1, 4):
                acc = acc + lm.load_tile(part, coords=(0, (s * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 8), src=acc, first_rows=8)

# -----
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
            acc = lm.load_tile(part, coords=(0, (lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
            for s in lm.range(0, lm.num_blocks(1) - 1):
                acc = acc + lm.load_tile(part, coords=(0, ((s + 1) * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 8), src=acc, first_rows=8)

# -----
@cake.schedule(grid=(G, S))
def k(lm, Y: LM.tensor2d, G: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(G,), dtype=lm.i32)
    part = lm.workspace(shape=(S * G * 64, 128), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    h = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, (lm.block_id(1) * lm.num_blocks(0) + lm.block_id(0)) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            for c in lm.range(0, 2):
                h = lm.fill(h, 0.0)
                for s in lm.range(0, lm.num_blocks(1)):
                    h = h + lm.load_tile(part, coords=(c * 64, (s * lm.num_blocks(0) + lm.block_id(0)) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
                lm.store_tile(Y, coords=(c * 64, lm.block_id(0) * 64), src=h)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")

# -----
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
            acc = lm.fill(acc, 0.0)
            for s in lm.range(0, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, ((lm.num_blocks(1) - 1 - s) * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 8), src=acc, first_rows=8)

# -----
# two parts a step, the odd one left by a loop that starts at run time
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
            for s in lm.range(1, lm.num_blocks(1) - 1, 2):
                acc = acc + (lm.load_tile(part, coords=(0, (s * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
                             + lm.load_tile(part, coords=(0, ((s + 1) * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8))
            for s in lm.range(1 + (lm.num_blocks(1) - 1) // 2 * 2, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, (s * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 8), src=acc, first_rows=8)
