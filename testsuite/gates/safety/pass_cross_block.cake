# Blocks handing partial tiles to the last of them through the workspace
# (the split-K fix-up's protocol): every block stores its part, counts itself
# in with an acq_rel atomic, and the block that sees the last count reads the
# parts, resets the counter and writes the result. The cross-block rules
# (safety.cross-block-*, safety.counter-not-reset) accept it and these near
# misses: a constant number of blocks per element, an add of 2, blocks that
# share an element over two grid dimensions one of which is constant, a
# fix-up in the else-branch of 'n != last', the protocol under a branch
# that every block sharing the counter takes alike (a launch's scalar, the
# grid's extent, a block index the counter's coordinates name: split-K's
# `if S == 1:` storing C directly). Broken variants: fail_cross_block.cake.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, 4))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(4 * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == 3:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), value=2, order="acq_rel")
        if n == 2 * lm.num_blocks(1) - 2:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, S, 2))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(2 * S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, (lm.block_id(2) * S + lm.block_id(1)) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == 2 * lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, 2 * lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n != lm.num_blocks(1) - 1:
            lm.fence_proxy()
        else:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# under a branch on the launch's values: one block per tile writes Y directly
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        if lm.num_blocks(1) == 1:
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
            n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
            if n == lm.num_blocks(1) - 1:
                acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
                for s in lm.range(1, lm.num_blocks(1)):
                    acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
                lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
                lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# under a branch on a block index the counter's coordinates name
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        if lm.block_id(0) >= M // 64:
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
            n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
            if n == lm.num_blocks(1) - 1:
                acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
                for s in lm.range(1, lm.num_blocks(1)):
                    acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
                lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
                lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
