# Two arrivals per iteration at different stages (t * KS + k and t * KS + k + 1) of a count with a run-time coefficient: one iteration, one stage, as with a constant coefficient (found by review).
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=(lm.sm_count(),))
def pp(lm, A: LM.tma2d, B: LM.tma2d, M: LM.i32, N: LM.i32, K: LM.i32):  # expected-warning {{tensor 'B' is declared but never used}}
    pool = lm.smem(196608)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    wg0 = lm.role(warps=[4, 5, 6, 7], regs=232)
    acc0 = lm.regs(shape=(64, 64), dtype=lm.f32, role=wg0)
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[wg0], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[wg0], cons=[load], init_count=1, pipeline=ring)
    T = M // 64
    KS = K // 64
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, KS):
                lm.wait(empty, stage=t * KS + k)  # expected-error {{cannot prove that barrier 'empty' is signalled as often as it is awaited: role 'wg0' signals it in range(0, T, 1)range(0, KS, 1) and role 'load' waits on it in range(0, T, 1)range(0, KS, 1)}}
                a_s.tma_load(A, coords=(k * 64, 0), stage=t * KS + k, barrier=full)
    with wg0:
        for t in lm.range(0, T):
            for k in lm.range(0, KS):
                lm.wait(full, stage=t * KS + k)
                lm.mma(acc0, a_s[t * KS + k], a_s[t * KS + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=t * KS + k, per="warpgroup")  # expected-note {{role 'wg0' signals 'empty' here}}
                lm.arrive(empty, stage=t * KS + k + 1, per="warpgroup")  # expected-error {{role 'wg0' uses barrier 'empty' at stage 't * KS + k + 1', which is not its running count of uses (0, 1, 2, ...): another use in the same iteration names stage 't*KS+k', so two uses land in different phases of one iteration (one iteration, one stage)}}
