# Near misses of fail_cross_block_parts.cake's overlapping parts: the parts
# of different blocks laid out so that no two meet, each proven by the
# coordinates' steps (analysis/TileSpread.cpp): splits a whole number of
# tiles apart written with lm.num_blocks, splits inner (a tile's parts next
# to each other), splits side by side in columns, and three grid dimensions
# in one coordinate; and a block storing its part as two halves of 64 rows,
# stepped by the 128 they span.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * lm.num_blocks(0) * 64 + lm.block_id(0) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * lm.num_blocks(0) * 64 + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# expected-no-diagnostics
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(0) * S * 64 + lm.block_id(1) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * S * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * S * 64 + s * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# expected-no-diagnostics
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, S * 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(lm.block_id(1) * 64, lm.block_id(0) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(s * 64, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# expected-no-diagnostics
@cake.schedule(grid=((M + 63) // 64, S, 2))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(2, (M + 63) // 64), dtype=lm.i32)
    part = lm.workspace(shape=(2 * S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, (lm.block_id(2) * S + lm.block_id(1)) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0), lm.block_id(2)), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(2) * S * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, (lm.block_id(2) * S + s) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0), lm.block_id(2)), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# expected-no-diagnostics
@cake.schedule(grid=((M + 127) // 128, S))
def k(lm, Y: LM.tensor2d[H, 64], M: LM.i32, S: LM.i32, H: LM.i32):
    arrived = lm.workspace(shape=((M + 127) // 128,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 127) // 128 * 128), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    acc2 = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        acc2 = lm.fill(acc2, 2.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 127) // 128 * 128) + lm.block_id(0) * 128), src=acc)
        lm.role_sync()
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 127) // 128 * 128) + lm.block_id(0) * 128 + 64), src=acc2)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 128), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            acc2 = lm.load_tile(part, coords=(0, lm.block_id(0) * 128 + 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 127) // 128 * 128) + lm.block_id(0) * 128), shape=(64, 64), dtype=lm.f32, layout="accumulator")
                acc2 = acc2 + lm.load_tile(part, coords=(0, s * ((M + 127) // 128 * 128) + lm.block_id(0) * 128 + 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc + acc2)
