# Near-misses of fail_split_count_copy_deleted.cake: a split running count
# whose halves both load a_s and b_s onto 'full'; and a ring that 'full'
# carries at some stages only, read only after the waits on those stages
# (the second loop's waits are followed by reads of a_s alone).
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule()
def k1(lm, A: LM.tma2d, B: LM.tma2d):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for t in lm.range(0, 4):
            for k in lm.range(0, 3):
                lm.wait(empty, stage=t * 8 + k)
                a_s.tma_load(A, coords=(k * 64, t * 64), stage=t * 8 + k, barrier=full)
                b_s.tma_load(B, coords=(k * 64, t * 64), stage=t * 8 + k, barrier=full)
            for k in lm.range(3, 8):
                lm.wait(empty, stage=t * 8 + k)
                b_s.tma_load(B, coords=(k * 64, t * 64), stage=t * 8 + k, barrier=full)
                a_s.tma_load(A, coords=(k * 64, t * 64), stage=t * 8 + k, barrier=full)
    with math:
        for t in lm.range(0, 4):
            for k in lm.range(0, 8):
                lm.wait(full, stage=t * 8 + k)
                lm.mma(acc, a_s[t * 8 + k], b_s[t * 8 + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=t * 8 + k)
# -----
@cake.schedule()
def k2(lm, A: LM.tma2d, B: LM.tma2d):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, 3):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
        for k in lm.range(3, 8):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, 3):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k)
        for k in lm.range(3, 8):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], a_s[k].T, init=False)
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k)
