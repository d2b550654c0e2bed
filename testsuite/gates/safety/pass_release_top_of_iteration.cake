# The consumer releases the previous stage at the top of each iteration
# (`if k > 0: arrive(empty, stage=k - 1)` before the MMA reading stage k):
# the arrival follows the previous iteration's read of stage k - 1, so the
# producer's wait on 'empty' protects the refill on its own, with no
# release after the loop (the last stage is never refilled). Broken
# variant: fail_release_top_of_iteration.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule()
def k(lm, A: LM.tma2d):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, 16):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, 16):
            lm.wait(full, stage=k)
            if k > 0:
                lm.arrive(empty, stage=k - 1)
            lm.mma(acc, a_s[k], a_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
