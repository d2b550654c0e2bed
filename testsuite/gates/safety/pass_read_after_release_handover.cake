# Near miss of fail_read_after_release_handover.cake: the epilogue peels
# its first tile, then in each iteration releases the previous tile's c_s
# (cempty at t - 1) and waits on cfull at the next phase (t) before it
# TMA-stores c_s again: that phase is signalled after the math role's next
# write, which waited for the release, so the read is of the new tile.
# Its broken variant (cfull at t - 1, a phase already consumed) is refused
# as safety.stage-sequence.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule(grid=(lm.sm_count(),))
def k(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2])
    epi = lm.role(warps=[3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    cfull = lm.barrier(count=1, prod=[math], cons=[epi])
    cempty = lm.barrier(count=1, prod=[epi], cons=[math], credits=1)
    T = lm.max(1, ((M + 63) // 64 - lm.block_id(0) + lm.num_blocks(0) - 1) // lm.num_blocks(0))
    KS = (K + 63) // 64
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, KS):
                lm.wait(empty, stage=t * KS + k)
                a_s.tma_load(A, coords=(k * 64, 0), stage=t * KS + k, barrier=full)
                b_s.tma_load(B, coords=(k * 64, 0), stage=t * KS + k, barrier=full)
    with math:
        for t in lm.range(0, T):
            for k in lm.range(0, KS):
                lm.wait(full, stage=t * KS + k)
                lm.mma(acc, a_s[t * KS + k], b_s[t * KS + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=t * KS + k)
            out = lm.cast(acc, lm.bf16)
            lm.wait(cempty, stage=t)
            c_s.store(out)
            lm.fence_proxy()
            lm.role_sync()
            lm.arrive(cfull, stage=t)
    with epi:
        lm.wait(cfull, stage=0)
        c_s.tma_store(C, coords=(0, 0))
        lm.tma_store_wait()
        for t in lm.range(1, T):
            lm.arrive(cempty, stage=t - 1)
            lm.wait(cfull, stage=t)
            c_s.tma_store(C, coords=(t * 64, 0))
            lm.tma_store_wait()
        lm.arrive(cempty, stage=T - 1)
