# Roles taking turns are grouped by the loops not proven to run like any
# other (fail_trip_count_peeled_unbounded.cake): two math warpgroups take
# turns over the tiles (range(0, T, 2) and range(1, T, 2)) and each arrives
# on 'done' once per tile; the loader waits on it once and then in
# range(1, T). The counts agree as forms (T each way), but at T = 0 the
# warpgroups arrive never and the loader waits forever. Before, roles taking
# turns skipped the grouping and this hang was accepted. Near miss (T bounded
# by lm.max(1, ...)): pass_trip_count_turns_bounded.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=(lm.sm_count(),))
def k(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], M: LM.i32, N: LM.i32, K: LM.i32, T: LM.i32):
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
        lm.wait(done, stage=0)  # expected-error {{cannot prove that barrier 'done' is signalled as often as it is awaited: role 'wg0' (taking turns with 'wg1') signals it in range(0, T, 2) and role 'load' waits on it once and in range(1, T, 1), which agree only where no loop's stop lies below its start, and a loop whose stop is not bounded by its start may run none; bound the stop by the start (lm.max(start, ...)) or make the count a grid dimension, which the launcher keeps at least 1}}
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
