# Loop bounds at the edge of int64 in the schedule analyses (review of 2026-11-30):
# the stage after a loop ending at INT64_MAX, an inner trip count that overflows.
# Diagnostics, never an internal error (exit 4).
@cake.schedule()
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):
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
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(-1, 9223372036854775807):
            lm.wait(full, stage=k + 1)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=1)
            if k > 0:
                lm.arrive(empty, stage=k - 1)
        lm.mma_wait(pending=0)
        lm.arrive(empty, stage=K // 64 - 1)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, 0))
        lm.tma_store_wait()
@cake.schedule()
def k2(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, T: LM.i32):
    pool = lm.smem(65536)
    q_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    qfull = lm.barrier(count=1, prod=[load], cons=[math])
    qfree = lm.barrier(count=1, prod=[math], cons=[load], credits=1)
    with load:
        for t in lm.range(0, T):
            lm.wait(qfree, stage=t)
            q_s.tma_load(A, coords=(0, t * 64), stage=t, barrier=qfull)
            for k in lm.range(-9223372036854775807, 9223372036854775807):
                lm.wait(empty, stage=t * 4 + k)
                b_s.tma_load(B, coords=(k * 64, 0), stage=t * 4 + k, barrier=full)
    with math:
        for t in lm.range(0, T):
            lm.wait(qfull, stage=t)
            for k in lm.range(0, 4):
                lm.wait(full, stage=t * 4 + k)
                lm.mma(acc, q_s, b_s[t * 4 + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=t * 4 + k)
            lm.arrive(qfree, stage=t)
            out = lm.cast(acc, lm.bf16)
            lm.tma_store_wait()
            lm.role_sync()
            c_s.store(out)
            lm.fence_proxy()
            lm.role_sync()
            c_s.tma_store(C, coords=(0, t * 64))
        lm.tma_store_wait()
