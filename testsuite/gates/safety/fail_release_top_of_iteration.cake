# Broken variant of pass_release_top_of_iteration.cake: the top of each
# iteration releases the stage it is about to read (stage k), not the
# previous one: the producer may refill the slot under the MMA.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, A: LM.tma2d):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4, swizzle="128B")  # expected-note {{'a_s' declared here}}
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, 16):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)  # expected-error {{role 'load' overwrites stage k of 'a_s' when the ring wraps but never waits for role 'math' to release it}}
    with math:
        for k in lm.range(0, 16):
            lm.wait(full, stage=k)
            lm.arrive(empty, stage=k)  # expected-note {{'a_s' released here}}
            lm.mma(acc, a_s[k], a_s[k].T, init=(k == 0))  # expected-error {{role 'math' reads stage k of 'a_s' after releasing it (arrive on 'empty'): the producer may already be overwriting it}}
            lm.mma_commit()
            lm.mma_wait(pending=0)
