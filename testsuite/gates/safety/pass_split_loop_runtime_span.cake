# Near-miss of fail_split_loop_runtime_span.cake: with ks = lm.max((K + 63) // 64, 3)
# the second loop's span ks - 3 is proven not negative, and the two loops
# are one running count.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule()
def k(lm, A: LM.tma2d[T, K], T: LM.i32, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], pipeline=ring)
    ks = lm.max((K + 63) // 64, 3)
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, 3):
                lm.wait(empty, stage=t * ks + k)
                a_s.tma_load(A, coords=(k * 64, 0), stage=t * ks + k, barrier=full)
            for k in lm.range(3, ks):
                lm.wait(empty, stage=t * ks + k)
                a_s.tma_load(A, coords=(k * 64, 0), stage=t * ks + k, barrier=full)
    with math:
        for t in lm.range(0, T):
            for k in lm.range(0, ks):
                lm.wait(full, stage=t * ks + k)
                lm.mma(acc, a_s[t * ks + k], a_s[t * ks + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=t * ks + k)
