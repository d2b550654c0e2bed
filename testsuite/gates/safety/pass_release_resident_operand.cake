# A resident operand (q_s, loaded once before the ring starts) read by every
# wgmma while one group stays in flight: releasing ring stages of b_s does not
# release q_s, which the producer never rewrites after waiting on 'empty'.
# Near-miss: fail_release_in_flight_pending.cake releases the stage in flight.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule()
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):
    pool = lm.smem(65536)
    q_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    qbar = lm.barrier(count=1, prod=[load], cons=[math])
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        q_s.tma_load(A, coords=(0, 0), barrier=qbar)
        for k in lm.range(0, lm.max(1, K // 64)):
            lm.wait(empty, stage=k)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        lm.wait(qbar, stage=0)
        lm.wait(full, stage=0)
        lm.mma(acc, q_s, b_s[0].T, init=True)
        lm.mma_commit()
        for k in lm.range(1, lm.max(1, K // 64)):
            lm.wait(full, stage=k)
            lm.mma(acc, q_s, b_s[k].T)
            lm.mma_commit()
            lm.mma_wait(pending=1)
            lm.arrive(empty, stage=k - 1)
        lm.mma_wait(pending=0)
        lm.arrive(empty, stage=lm.max(1, K // 64) - 1)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, 0))
        lm.tma_store_wait()
