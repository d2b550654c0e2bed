# Near-misses of fail_trip_count_plain.cake: loop nests whose bounds are
# written differently but run the same trips level by level (the producer's
# tile loop over range(1, my + 1), the consumer's over range(0, my)) are
# equal counts, decided, where they were unproven.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule(grid=(lm.sm_count(),))
def k(lm, A: LM.tma2d, T: LM.i32, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], pipeline=ring)
    ks = K // 64
    my = (T - lm.block_id(0) + lm.num_blocks(0) - 1) // lm.num_blocks(0)
    with load:
        for j in lm.range(1, my + 1):
            for k in lm.range(0, ks):
                lm.wait(empty, stage=(j - 1) * ks + k)
                a_s.tma_load(A, coords=(k * 64, j * 64), stage=(j - 1) * ks + k, barrier=full)
    with math:
        for j in lm.range(0, my):
            for k in lm.range(0, ks):
                lm.wait(full, stage=j * ks + k)
                lm.mma(acc, a_s[j * ks + k], a_s[j * ks + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=j * ks + k)
