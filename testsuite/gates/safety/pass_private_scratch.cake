# Each block stores into its own workspace tile (block_id(0) * 64) and reads
# that tile back: no other block writes it, so no atomic need order it (an
# independent review found it refused, 2026-12-05; an XFAIL until the
# cross-block rules compared the tiles). Broken variants:
# fail_private_scratch.cake.
# The other parts: tiles in reverse order (a step of -64), a skewed layout
# whose columns overlap but whose rows are 64 apart (an independent review
# found both refused), and a TMA store read back after its writes are done.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule(grid=((M + 63) // 64,))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32):
    scratch = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(scratch, coords=(0, lm.block_id(0) * 64), src=acc)
        acc = lm.load_tile(scratch, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# expected-no-diagnostics
@cake.schedule(grid=((M + 63) // 64,))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32):
    scratch = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(scratch, coords=(0, (lm.num_blocks(0) - 1 - lm.block_id(0)) * 64), src=acc)
        acc = lm.load_tile(scratch, coords=(0, (lm.num_blocks(0) - 1 - lm.block_id(0)) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# expected-no-diagnostics
@cake.schedule(grid=((M + 63) // 64,))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32):
    scratch = lm.workspace(shape=(((M + 63) // 64) * 64, ((M + 63) // 64) * 32 + 32), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(scratch, coords=(lm.block_id(0) * 32, lm.block_id(0) * 64), src=acc)
        acc = lm.load_tile(scratch, coords=(lm.block_id(0) * 32, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# expected-no-diagnostics
@cake.schedule(grid=((M + 63) // 64,))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32):
    scratch = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_store(scratch, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait(visible=True)
        lm.role_sync()
        acc = lm.load_tile(scratch, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# two disjoint tiles of the block's own rows stored, the first read back (a second independent review found it refused)
# expected-no-diagnostics
@cake.schedule(grid=((M + 127) // 128,))
def k(lm, Y: LM.tensor2d[H, 64], M: LM.i32, H: LM.i32):
    scratch = lm.workspace(shape=(((M + 127) // 128) * 128, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    acc2 = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        acc2 = lm.fill(acc2, 2.0)
        lm.store_tile(scratch, coords=(0, lm.block_id(0) * 128), src=acc)
        lm.role_sync()
        lm.store_tile(scratch, coords=(0, lm.block_id(0) * 128 + 64), src=acc2)
        lm.role_sync()
        acc = lm.load_tile(scratch, coords=(0, lm.block_id(0) * 128), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc + acc2)

# -----
# a role family: member i stores and reads back rows b * 128 + i * 64 (refused before)
# expected-no-diagnostics
@cake.schedule(grid=((M + 127) // 128,))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32):
    scratch = lm.workspace(shape=(((M + 127) // 128) * 128, 64), dtype=lm.f32)
    wg = lm.roles(warps=[[0, 1, 2, 3], [4, 5, 6, 7]])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=wg)
    with wg as i:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(scratch, coords=(0, lm.block_id(0) * 128 + i * 64), src=acc)
        acc = lm.load_tile(scratch, coords=(0, lm.block_id(0) * 128 + i * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 128 + i * 64), src=acc)
