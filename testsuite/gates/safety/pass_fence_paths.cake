# Near misses of fail_fence_paths.cake: a fence, and a role sync after it,
# on every path from each store to the TMA store that reads it.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# RUN: %cakec --target=sm_90a %s -o %t.cu
# expected-no-diagnostics
@cake.schedule(grid=(n,))
def fence_in_branch(lm, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    o_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    with math:
        s = lm.fill(s, 1.0)
        o_s.store(s)
        if lm.block_id(0) == 0:
            lm.fence_proxy()
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()

@cake.schedule(grid=(n,))
def sync_in_branch(lm, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    o_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    with math:
        s = lm.fill(s, 1.0)
        o_s.store(s)
        lm.fence_proxy()
        if lm.block_id(0) == 0:
            lm.role_sync()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()

@cake.schedule(grid=(n,))
def next_iteration(lm, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    o_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    with math:
        s = lm.fill(s, 1.0)
        o_s.store(s)
        lm.fence_proxy()
        lm.role_sync()
        for j in lm.range(0, 4):
            o_s.tma_store(O, coords=(0, j * 64))
            lm.tma_store_wait()
            lm.role_sync()
            o_s.store(s)
            lm.fence_proxy()
            lm.role_sync()
        lm.tma_store_wait()

@cake.schedule(grid=(n,))
def sync_before_fence_next_iteration(lm, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    o_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    with math:
        s = lm.fill(s, 1.0)
        o_s.store(s)
        lm.fence_proxy()
        lm.role_sync()
        for j in lm.range(0, 4):
            lm.fence_proxy()
            lm.role_sync()
            o_s.tma_store(O, coords=(0, j * 64))
            lm.tma_store_wait()
            lm.role_sync()
            o_s.store(s)
            lm.role_sync()
        lm.tma_store_wait()

# The fence after the store in the loop's iteration is on every path out of
# the loop to the TMA store after it (a false positive while the rule was
# written, caught by testsuite/codegen/attention_fp8_lowering.test).
@cake.schedule(grid=(n,))
def fence_in_loop(lm, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    o_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    with math:
        s = lm.fill(s, 1.0)
        for j in lm.range(0, 4):
            o_s.store(s)
            lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()

# The fence after the wait at which the cp_async copies land.
@cake.schedule(grid=(n,))
def cp_async_fence_after_wait(lm, A: LM.tensor2d, B: LM.tensor2d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    b_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=1, prod=[math], cons=[math], init_count=256)
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        a_s.cp_async(A, coords=(0, 0), barrier=got)
        b_s.cp_async(B, coords=(0, 0), barrier=got)
        lm.wait(got, stage=0)
        lm.fence_proxy()
        lm.role_sync()
        lm.mma(o, a_s, b_s.T, init=True)
        lm.mma_commit()
        lm.mma_wait(pending=0)
        o_s.store(lm.cast(o, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()

# A fence in each side of a branch, and a role sync in each side of one,
# close every path (rejected while the rules counted only a fence or sync in
# a statement list around the store or the read).
@cake.schedule(grid=(n,))
def fence_in_each_branch(lm, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    o_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    with math:
        s = lm.fill(s, 1.0)
        o_s.store(s)
        if lm.block_id(0) == 0:
            lm.fence_proxy()
            lm.role_sync()
        elif lm.block_id(0) == 1:
            lm.fence_proxy()
            lm.role_sync()
        else:
            lm.fence_proxy()
            lm.role_sync()
        o_s.tma_store(O, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()

# The fence runs in a loop of two iterations between the store and the read.
@cake.schedule(grid=(n,))
def fence_in_loop_between(lm, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    o_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    with math:
        s = lm.fill(s, 1.0)
        o_s.store(s)
        for j in lm.range(0, 2):
            lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()

# A loop of one iteration has no next iteration: the store at the end of its
# body does not reach the TMA store at its top (rejected before 2026-12-07;
# found by review, helper-44).
@cake.schedule(grid=(n,))
def one_iteration(lm, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    o_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    with math:
        s = lm.fill(s, 1.0)
        o_s.store(s)
        lm.fence_proxy()
        lm.role_sync()
        for j in lm.range(0, 1):
            o_s.tma_store(O, coords=(0, j * 64))
            lm.tma_store_wait()
            lm.role_sync()
            o_s.store(s)
            lm.role_sync()
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
