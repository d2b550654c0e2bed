# The near misses of fail_accumulator_init_combined.cake: init=(k == 0 or
# i == 0) and init=not (i > 0 and k > 0) hold on the first run of the loop
# whatever k is there (a block that starts inside a tile, as stream-K's do);
# both lower.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# RUN: %cakec --target=sm_90a %s -o %t.cu
# RUN: FileCheck %s < %t.cu
# CHECK: first_or_launch
# CHECK: first_not_launch
# expected-no-diagnostics
@cake.schedule(grid=(4,))
def first_or(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    steps = lm.max(1, K // 64)
    lo = lm.block_id(0) * 3
    with load:
        for i in lm.range(0, steps):
            lm.wait(empty, stage=i)
            a_s.tma_load(A, coords=((lo + i) % steps * 64, 0), stage=i, barrier=full)
            b_s.tma_load(B, coords=((lo + i) % steps * 64, 0), stage=i, barrier=full)
    with math:
        for i in lm.range(0, steps):
            k = (lo + i) % steps
            lm.wait(full, stage=i)
            lm.mma(acc, a_s[i], b_s[i].T, init=(k == 0 or i == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=i)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
@cake.schedule(grid=(4,))
def first_not(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    steps = lm.max(1, K // 64)
    lo = lm.block_id(0) * 3
    with load:
        for i in lm.range(0, steps):
            lm.wait(empty, stage=i)
            a_s.tma_load(A, coords=((lo + i) % steps * 64, 0), stage=i, barrier=full)
            b_s.tma_load(B, coords=((lo + i) % steps * 64, 0), stage=i, barrier=full)
    with math:
        for i in lm.range(0, steps):
            k = (lo + i) % steps
            lm.wait(full, stage=i)
            lm.mma(acc, a_s[i], b_s[i].T, init=not (i > 0 and k > 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=i)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
