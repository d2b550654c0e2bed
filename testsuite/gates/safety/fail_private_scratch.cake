# Broken variants of pass_private_scratch.cake (a block reading back the
# workspace tile it stored): each reads a tile another block may write, or
# one its own store does not always write first, and is refused as a read of
# other blocks' data without an acquire.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# the next block's tile
@cake.schedule(grid=((M + 63) // 64,))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32):
    scratch = lm.workspace(shape=(((M + 63) // 64) * 64 + 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(scratch, coords=(0, lm.block_id(0) * 64), src=acc)  # expected-note {{'scratch' written here}}
        acc = lm.load_tile(scratch, coords=(0, lm.block_id(0) * 64 + 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'scratch', which other blocks of the launch write, outside a branch on the old value of an atomic that acquires their writes}}
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# tiles 32 rows apart: the next block's store overlaps this block's tile
@cake.schedule(grid=((M + 31) // 32,))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32):
    scratch = lm.workspace(shape=(((M + 31) // 32) * 32 + 32, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(scratch, coords=(0, lm.block_id(0) * 32), src=acc)  # expected-note {{'scratch' written here}}
        acc = lm.load_tile(scratch, coords=(0, lm.block_id(0) * 32), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'scratch', which other blocks of the launch write}}
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# stored only under a condition: the read may see what the last launch left
@cake.schedule(grid=((M + 63) // 64,))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, F: LM.i32):
    scratch = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        if F > 0:
            lm.store_tile(scratch, coords=(0, lm.block_id(0) * 64), src=acc)  # expected-note {{'scratch' written here}}
        acc = lm.load_tile(scratch, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'scratch', which other blocks of the launch write}}
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# stored after it is read (the previous launch's tile)
@cake.schedule(grid=((M + 63) // 64,))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32):
    scratch = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.load_tile(scratch, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'scratch', which other blocks of the launch write}}
        lm.store_tile(scratch, coords=(0, lm.block_id(0) * 64), src=acc)  # expected-note {{'scratch' written here}}
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# a TMA store of the own tile read back with no wait for its writes (an independent review)
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
        t_s.tma_store(scratch, coords=(0, lm.block_id(0) * 64))  # expected-note {{'scratch' written here}}
        acc = lm.load_tile(scratch, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'scratch', which other blocks of the launch write, outside a branch on the old value of an atomic that acquires their writes (order="acquire" or "acq_rel"); it may read the data before they have written it}}
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# a TMA store of the own tile read back after a wait for its reads only (visible=False): its global writes may not be done
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
        t_s.tma_store(scratch, coords=(0, lm.block_id(0) * 64))  # expected-note {{'scratch' written here}}
        lm.tma_store_wait()
        acc = lm.load_tile(scratch, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'scratch', which other blocks of the launch write, outside a branch on the old value of an atomic that acquires their writes (order="acquire" or "acq_rel"); it may read the data before they have written it}}
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# the own tile stored by every thread, then read by a TMA load one thread issues, with no meeting of the role or proxy fence
@cake.schedule(grid=((M + 63) // 64,))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32):
    scratch = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    full = lm.barrier(count=1, prod=[math], cons=[math], init_count=1)
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(scratch, coords=(0, lm.block_id(0) * 64), src=acc)  # expected-note {{'scratch' written here}}
        t_s.tma_load(scratch, coords=(0, lm.block_id(0) * 64), barrier=full)  # expected-error {{role 'math' reads 'scratch', which other blocks of the launch write, outside a branch on the old value of an atomic that acquires their writes (order="acquire" or "acq_rel"); it may read the data before they have written it}}
        lm.wait(full, stage=0)
        acc = t_s.load()
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# each block reads its own part back after counting in, while the last block reads every part with reset=True, writing zeros: a load that resets is a write
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], Z: LM.tensor2d[R, 64], M: LM.i32, S: LM.i32, R: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    own = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)  # expected-note {{'part' written here}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        own = lm.load_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part', which other blocks of the launch write, outside a branch on the old value of an atomic that acquires their writes (order="acquire" or "acq_rel"); it may read the data before they have written it}}
        lm.store_tile(Z, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=own)
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# a TMA store of the own tile, its writes waited for (visible=True) by the issuing thread only, then read by every thread with no meeting of the role (a second independent review)
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
        t_s.tma_store(scratch, coords=(0, lm.block_id(0) * 64))  # expected-note {{'scratch' written here}}
        lm.tma_store_wait(visible=True)
        acc = lm.load_tile(scratch, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'scratch', which other blocks of the launch write, outside a branch on the old value of an atomic that acquires their writes (order="acquire" or "acq_rel"); it may read the data before they have written it}}
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# each block zeros the next block's tile with a load that resets it (a whole
# tile away from its own within the block, but the next block's own tile)
@cake.schedule(grid=((M + 63) // 64,))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32):
    scratch = lm.workspace(shape=(((M + 63) // 64) * 64 + 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(scratch, coords=(0, lm.block_id(0) * 64), src=acc)  # expected-note 2 {{'scratch' written here}}
        z = lm.load_tile(scratch, coords=(0, lm.block_id(0) * 64 + 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)  # expected-error {{role 'math' reads 'scratch', which other blocks of the launch write}}
        acc = lm.load_tile(scratch, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'scratch', which other blocks of the launch write}}
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc + z)
