# The k loop may run no iteration (n == 0): init=(k == 0) then never runs
# and acc is stored uninitialised. The launcher checks that loop before it
# launches (cake_check_trips), so the gate accepts the schedule.
@cake.schedule()
def zero_trip(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, n: LM.i32):
    pool = lm.smem(2 * 8192 + 2 * 16384 + 16384)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, n):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, n):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k)
        c_s.store(lm.cast(acc, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, 0))
        lm.tma_store_wait()
