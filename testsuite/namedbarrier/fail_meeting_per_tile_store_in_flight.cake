# pass_meeting_per_tile.cake with the store wait moved after the tile
# loop: the next tile's copies on 'full' are issued, and release c_s to the
# math role, while the TMA store of the last tile may still be reading it
# (safety.release-in-flight, at the first copy signalling 'full').
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
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
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    staged = lm.named_barrier(roles=[load, math])
    T = (M + 63) // 64
    with load:
        for t in lm.range(0, T):
            lm.wait(empty, stage=t)
            a_s.tma_load(A, coords=(0, t * 64), stage=t, barrier=full)  # expected-error {{role 'load' releases 'c_s' (arrive on 'full') while the asynchronous 'tma_store' that reads it may still be running; wait for it first: lm.tma_store_wait() before the arrive}}
            b_s.tma_load(B, coords=(0, 0), stage=t, barrier=full)
            lm.sync(staged)
            c_s.tma_store(C, coords=(0, t * 64))  # expected-note {{'c_s' read here; the read runs on after the operation is issued}}
        lm.tma_store_wait()
    with math:
        for t in lm.range(0, T):
            lm.wait(full, stage=t)
            lm.mma(acc, a_s[t], b_s[t].T, init=True)
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=t)
            out = lm.cast(acc, lm.bf16)
            c_s.store(out)
            lm.fence_proxy()
            lm.sync(staged)
