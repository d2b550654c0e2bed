# Stage indices written differently but equal on every input are the same
# stage: `k + 0`, `0 + k`, `(k + 1) - 1` and a named alias of `k`; loop bounds
# `K // BK` (BK = 64), `K // 64` and a named `n_steps = K // BK` are the same
# trip count.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
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
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
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
            lm.mma(acc, a_s[j], b_s[2 * k - k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=j + 1 - 1)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, 0))
        lm.tma_store_wait()
