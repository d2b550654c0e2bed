# Trip counts as products of run-time loop counts: the consumer runs range(0, 0 - M) x range(0, 0 - N), whose product of spans equals M * N, but whose loops never run. A product of run-time counts is only compared when each is proven >= 0 (found by review).
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def pp(lm, A: LM.tma2d, M: LM.i32, N: LM.i32):
    pool = lm.smem(196608)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    wg0 = lm.role(warps=[4, 5, 6, 7], regs=232)
    acc0 = lm.regs(shape=(64, 64), dtype=lm.f32, role=wg0)
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[wg0], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[wg0], cons=[load], init_count=1, pipeline=ring)
    P = 0 - M
    Q = 0 - N
    with load:
        for t in lm.range(0, M):
            for k in lm.range(0, N):
                lm.wait(empty, stage=t * N + k)  # expected-error {{cannot prove that barrier 'empty' is signalled as often as it is awaited: role 'wg0' signals it in range(0, P, 1)range(0, Q, 1) and role 'load' waits on it in range(0, M, 1)range(0, N, 1)}}
                a_s.tma_load(A, coords=(k * 64, 0), stage=t * N + k, barrier=full)
    with wg0:
        for t in lm.range(0, P):
            for k in lm.range(0, Q):
                lm.wait(full, stage=t * Q + k)  # expected-error {{cannot prove that barrier 'full' is signalled as often as it is awaited: role 'load' signals it in range(0, M, 1)range(0, N, 1) and role 'wg0' waits on it in range(0, P, 1)range(0, Q, 1)}}
                lm.mma(acc0, a_s[t * Q + k], a_s[t * Q + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=t * Q + k, per="warpgroup")
