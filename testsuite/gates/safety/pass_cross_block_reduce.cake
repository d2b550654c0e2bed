# Blocks adding their partial tiles into one workspace tile with TMA
# (tma_reduce_add, the split-K reduction of examples/gemm_bf16_splitk_sm90a.cake
# with -DREDUCE=True): each block adds its part, waits until the addition is
# written (lm.tma_store_wait(visible=True)), counts itself in with an acq_rel
# atomic, and the block that sees the last count reads the sum back to zero
# (load_tile(reset=True)). Accepted, with the near miss of a TMA store of
# each block's own part (a fixed order) waited for the same way, and of a
# visible wait that leaves one group pending, a later copy's (the addition's
# group is complete: pending=1 after the addition and one more TMA store).
# Broken variants: fail_cross_block_reduce.cake.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait(visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_store(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64))
        lm.tma_store_wait(visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# pending=1: the addition's group is older than the copy after it, so the
# wait that leaves one group pending has completed it
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], Z: LM.tma2d, M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))
        t_s.tma_store(Z, coords=(lm.block_id(1) * 64, lm.block_id(0) * 64))
        lm.tma_store_wait(pending=1, visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
