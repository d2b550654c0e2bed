# Two barriers whose arrivals do not match init_count: one without it (the
# fix-it adds it after the last argument), one with it (the fix-it rewrites
# the value).
@cake.schedule()
def k(lm, A: LM.tma2d, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load],
                       pipeline=ring)
    done = lm.barrier(count=1, prod=[math], cons=[load], init_count=3)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
        lm.wait(done, stage=0)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.arrive(empty, stage=k, per="warp")
        lm.arrive(done, stage=0, per="warpgroup")
