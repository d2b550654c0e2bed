# Near misses of fail_cp_async_next_stage.cake: one role copies a later
# stage of its ring with cp_async after this stage's wait and before the
# fence that precedes this stage's wgmma (the refill issued as early as
# its slot is free). In one iteration the copy names another stage than
# the read, so its bytes reach a read only around the loop, after that
# read's own stage's wait and the fence after it.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# RUN: %cakec --target=sm_90a %s -o %t.cu
# expected-no-diagnostics
@cake.schedule(grid=(1,))
def next_stage(lm, A: LM.tensor2d, B: LM.tensor2d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=3, swizzle="128B")
    b_s = pool.view(offset=24576, shape=(64, 64), dtype=lm.bf16, stage=3, swizzle="128B")
    o_s = pool.view(offset=49152, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    ring = lm.pipeline(stages=3)
    got = lm.barrier(count=3, prod=[math], cons=[math], init_count=256, pipeline=ring)
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    steps = lm.max(n, 2)
    with math:
        for p in lm.range(0, 2):
            a_s.cp_async(A, coords=(p * 64, 0), stage=p, barrier=got)
            b_s.cp_async(B, coords=(p * 64, 0), stage=p, barrier=got)
        o = lm.fill(o, 0.0)
        for i in lm.range(0, steps):
            lm.wait(got, stage=i)
            if i + 2 < steps:
                a_s.cp_async(A, coords=((i + 2) * 64, 0), stage=i + 2, barrier=got)
                b_s.cp_async(B, coords=((i + 2) * 64, 0), stage=i + 2, barrier=got)
            lm.fence_proxy()
            lm.role_sync()
            lm.mma(o, a_s[i], b_s[i].T)
            lm.mma_commit()
            lm.mma_wait(pending=0)
        o_s.store(lm.cast(o, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()

# -----
# Two stages: the copy of stage i + 1 lands in the slot the wgmma of the
# iteration before read (waited for by mma_wait before the loop goes on).
@cake.schedule(grid=(1,))
def next_stage_two(lm, A: LM.tensor2d, B: LM.tensor2d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    o_s = pool.view(offset=32768, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    ring = lm.pipeline(stages=2)
    got = lm.barrier(count=2, prod=[math], cons=[math], init_count=256, pipeline=ring)
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    steps = lm.max(n, 1)
    with math:
        a_s.cp_async(A, coords=(0, 0), stage=0, barrier=got)
        b_s.cp_async(B, coords=(0, 0), stage=0, barrier=got)
        o = lm.fill(o, 0.0)
        for i in lm.range(0, steps):
            lm.wait(got, stage=i)
            if i + 1 < steps:
                a_s.cp_async(A, coords=((i + 1) * 64, 0), stage=i + 1, barrier=got)
                b_s.cp_async(B, coords=((i + 1) * 64, 0), stage=i + 1, barrier=got)
            lm.fence_proxy()
            lm.role_sync()
            lm.mma(o, a_s[i], b_s[i].T)
            lm.mma_commit()
            lm.mma_wait(pending=0)
        o_s.store(lm.cast(o, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()

# -----
# The next stage's copy after the fence and the role sync, right before
# the wgmma: the sync that the wgmma's reads of other warps' copies need
# is in the pass that reads them, after the fence after their wait.
@cake.schedule(grid=(1,))
def copy_after_sync(lm, A: LM.tensor2d, B: LM.tensor2d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=3, swizzle="128B")
    b_s = pool.view(offset=24576, shape=(64, 64), dtype=lm.bf16, stage=3, swizzle="128B")
    o_s = pool.view(offset=49152, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    ring = lm.pipeline(stages=3)
    got = lm.barrier(count=3, prod=[math], cons=[math], init_count=256, pipeline=ring)
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    steps = lm.max(n, 2)
    with math:
        for p in lm.range(0, 2):
            a_s.cp_async(A, coords=(p * 64, 0), stage=p, barrier=got)
            b_s.cp_async(B, coords=(p * 64, 0), stage=p, barrier=got)
        o = lm.fill(o, 0.0)
        for i in lm.range(0, steps):
            lm.wait(got, stage=i)
            lm.fence_proxy()
            lm.role_sync()
            if i + 2 < steps:
                a_s.cp_async(A, coords=((i + 2) * 64, 0), stage=i + 2, barrier=got)
                b_s.cp_async(B, coords=((i + 2) * 64, 0), stage=i + 2, barrier=got)
            lm.mma(o, a_s[i], b_s[i].T)
            lm.mma_commit()
            lm.mma_wait(pending=0)
        o_s.store(lm.cast(o, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()

