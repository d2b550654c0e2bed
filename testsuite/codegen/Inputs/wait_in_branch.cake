# A producer that runs on all its warps (it meets at a named barrier) and
# waits only from its third tile on, under an `if`: its copies after the
# `if` come after a wait on one path (derived_role_meeting.test).
@cake.schedule(grid=(lm.sm_count(),))
def looped(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=32768, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring, credits=0)
    staged = lm.named_barrier(roles=[load, math])
    T = (M + 63) // 64
    with load:
        for t in lm.range(0, T):
            if t >= 2:
                lm.wait(empty, stage=t - 2)
            a_s.tma_load(A, coords=(0, t * 64), stage=t, barrier=full)
            b_s.tma_load(B, coords=(0, 0), stage=t, barrier=full)
            lm.sync(staged)
            c_s.tma_store(C, coords=(0, t * 64))
            lm.tma_store_wait()
    with math:
        for t in lm.range(0, T):
            lm.wait(full, stage=t)
            lm.mma(acc, a_s[t], b_s[t].T, init=True)
            lm.mma_commit()
            lm.mma_wait(pending=0)
            if t < T - 2:
                lm.arrive(empty, stage=t)
            out = lm.cast(acc, lm.bf16)
            c_s.store(out)
            lm.fence_proxy()
            lm.sync(staged)
