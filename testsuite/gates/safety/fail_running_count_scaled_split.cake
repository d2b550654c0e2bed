# A tile's k-steps split at a run-time S: range(0, S) then range(S, KS). With S > KS or S < 0 the stages repeat across tiles; neither span is proven >= 0, so the count is unproven (safety.unproven-span at the producer's first use of each barrier; found by review).
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=(lm.sm_count(),))
def pp(lm, A: LM.tma2d, B: LM.tma2d, M: LM.i32, N: LM.i32, K: LM.i32, S: LM.i32):
    pool = lm.smem(196608)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    b_s = pool.view(offset=32768, shape=(256, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    wg0 = lm.role(warps=[4, 5, 6, 7], regs=232)
    acc0 = lm.regs(shape=(64, 256), dtype=lm.f32, role=wg0)
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[wg0], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[wg0], cons=[load], init_count=1, pipeline=ring)
    T = (M // 64 * (N // 256) - lm.block_id(0) + lm.num_blocks(0) - 1) // lm.num_blocks(0)
    KS = K // 64
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, S):
                lm.wait(empty, stage=t * KS + k)  # expected-error {{cannot prove that barrier 'empty' is signalled as often as it is awaited: role 'wg0' signals it in range(0, T, 1)range(0, KS, 1) and role 'load' waits on it in range(0, T, 1)range(0, S, 1)}} expected-error {{cannot prove that role 'load''s uses of barrier 'empty' in one iteration}}
                a_s.tma_load(A, coords=(k * 64, 0), stage=t * KS + k, barrier=full)  # expected-error {{cannot prove that role 'load''s uses of barrier 'full' in one iteration}}
                b_s.tma_load(B, coords=(k * 64, 0), stage=t * KS + k, barrier=full)
            for k in lm.range(S, KS):
                lm.wait(empty, stage=t * KS + k)
                a_s.tma_load(A, coords=(k * 64, 0), stage=t * KS + k, barrier=full)
                b_s.tma_load(B, coords=(k * 64, 0), stage=t * KS + k, barrier=full)
    with wg0:
        for t in lm.range(0, T):
            for k in lm.range(0, KS):
                lm.wait(full, stage=t * KS + k)  # expected-error {{cannot prove that barrier 'full' is signalled as often as it is awaited: role 'load' signals it in range(0, T, 1)range(0, S, 1) and role 'wg0' waits on it in range(0, T, 1)range(0, KS, 1)}}
                lm.mma(acc0, a_s[t * KS + k], b_s[t * KS + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=t * KS + k, per="warpgroup")
