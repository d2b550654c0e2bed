# A consumer that peels its first use of a ring out of its loop (waits once,
# then in range(1, n)) against a producer's range(0, n): the counts agree only
# when n >= 1; at n = 0 (K < 64 here, or n = 0 below) the producer fills no
# stage and the consumer waits for one forever. Unless the loop is bounded
# (lm.max(1, ...), as pass_trip_count_peeled.cake is) or the count is a grid
# dimension (which the launcher keeps at least 1), the gate cannot prove it:
# safety.unproven-trip-count, an error by default.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
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
    with load:
        for k in lm.range(0, K // BK):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        lm.wait(full, stage=0)  # expected-error {{cannot prove that barrier 'full' is signalled as often as it is awaited: role 'load' signals it in range(0, K//BK, 1) and role 'math' waits on it once and in range(1, K//64, 1), which agree only where no loop's stop lies below its start, and a loop whose stop is not bounded by its start may run none; bound the stop by the start (lm.max(start, ...)) or make the count a grid dimension, which the launcher keeps at least 1}}
        lm.mma(acc, a_s[0], b_s[0].T, init=True)
        lm.mma_commit()
        lm.mma_wait(pending=0)
        lm.arrive(empty, stage=0)
        for k in lm.range(1, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T)
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, 0))
        lm.tma_store_wait()

# -----
@cake.schedule(grid=(G,))
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, n: LM.i32, G: LM.i32):
    pool = lm.smem(2 * 8192 + 2 * 16384 + 16384)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16, swizzle="128B")
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
        lm.wait(full, stage=0)  # expected-error {{cannot prove that barrier 'full' is signalled as often as it is awaited: role 'load' signals it in range(0, n, 1) and role 'math' waits on it once and in range(1, n, 1), which agree only where no loop's stop lies below its start, and a loop whose stop is not bounded by its start may run none; bound the stop by the start (lm.max(start, ...)) or make the count a grid dimension, which the launcher keeps at least 1}}
        lm.mma(acc, a_s[0], b_s[0].T, init=True)
        lm.mma_commit()
        lm.mma_wait(pending=0)
        lm.arrive(empty, stage=0)
        for k in lm.range(1, n):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T)
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k)
        c_s.store(lm.cast(acc, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
