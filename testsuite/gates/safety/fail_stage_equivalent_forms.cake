# Near-misses of pass_stage_equivalent_forms.cake: stage forms that differ
# (`k + 1 - 0` is not `k`; `2 * k` skips stages) are still errors.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
BK = 64

@cake.schedule()
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)  # expected-note {{barrier 'full' declared here}}
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)  # expected-note {{barrier 'empty' declared here}}
    n_steps = K // BK
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=0 + k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k + 0, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=(k + 1) - 1, barrier=full)
    with math:
        for k in lm.range(0, n_steps):
            j = k
            lm.wait(full, stage=k + 0)
            lm.mma(acc, a_s[j + 1 - 0], b_s[2 * k - k].T, init=(k == 0))  # expected-error {{role 'math' reads stage j+1-0 of 'a_s' but never waits on barrier 'full' for that stage}}
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=2 * j)  # expected-error {{it advances by 2 per iteration of the loop over 'k', so stages are skipped}}
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, 0))
        lm.tma_store_wait()
