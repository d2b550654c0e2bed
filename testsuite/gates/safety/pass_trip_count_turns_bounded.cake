# Near miss of fail_trip_count_turns_unbounded.cake: the tile count is
# bounded (lm.max(1, ...)), so the warpgroups taking turns arrive at least
# once between them and the loader's peeled first wait is always answered.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule(grid=(lm.sm_count(),))
def k(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], M: LM.i32, N: LM.i32, K: LM.i32, T0: LM.i32):
    T = lm.max(1, T0)
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    b_s = pool.view(offset=8192, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    wg0 = lm.role(warps=[4, 5, 6, 7])
    wg1 = lm.role(warps=[8, 9, 10, 11])
    acc0 = lm.regs(shape=(64, 128), dtype=lm.f32, role=wg0)
    acc1 = lm.regs(shape=(64, 128), dtype=lm.f32, role=wg1)
    ready = lm.barrier(count=1, prod=[load], cons=[wg0, wg1])
    done = lm.barrier(count=1, prod=[wg0, wg1], cons=[load], init_count=1)
    with load:
        a_s.tma_load(A, coords=(0, 0), barrier=ready)
        b_s.tma_load(B, coords=(0, 0), barrier=ready)
        lm.wait(done, stage=0)
        for t in lm.range(1, T):
            lm.wait(done, stage=t)
    with wg0:
        lm.wait(ready, stage=0)
        for t in lm.range(0, T, 2):
            lm.mma(acc0, a_s, b_s.T, init=True)
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(done, stage=t, per="warpgroup")
    with wg1:
        lm.wait(ready, stage=0)
        for t in lm.range(1, T, 2):
            lm.mma(acc1, a_s, b_s.T, init=True)
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(done, stage=t, per="warpgroup")
