# The plain trip-count mismatches under run-time bounds (issue 34 item 2),
# decided as errors where they were unproven: counts with no common normal
# form, read from the two loop nests level by level. Near-misses:
# pass_trip_count_plain.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# Part 1: the release moved after its loop: one arrive per tile against a
# wait per k-step (a hang once the k loop runs more than the ring's depth
# plus one).
@cake.schedule()
def k1(lm, A: LM.tma2d, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)  # expected-error {{barrier 'empty': role 'math' signals it once and role 'load' waits on it in range(0, K//64, 1): role 'load' uses it once per iteration of the loop over 'k', which role 'math' uses it outside of, so the counts agree only when it runs once}}
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], a_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
        lm.arrive(empty, stage=K // 64 - 1)  # expected-note {{role 'math' signals 'empty' here}} expected-error {{cannot prove that stage 'K // 64 - 1' continues role 'math''s uses of barrier 'empty' (the next stage of the sequence is 0)}}
# -----
# Part 2: the producer's tile loop one longer than the consumer's, with a
# run-time k loop inside: k-steps more signals on 'full' and waits on
# 'empty', whenever the loops run.
@cake.schedule(grid=(lm.sm_count(),))
def k2(lm, A: LM.tma2d, T: LM.i32, K: LM.i32):
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
        for j in lm.range(0, my + 1):
            for k in lm.range(0, ks):
                lm.wait(empty, stage=j * ks + k)  # expected-error {{barrier 'empty': role 'math' signals it in range(0, my, 1)range(0, ks, 1) and role 'load' waits on it in range(0, my+1, 1)range(0, ks, 1): the loop over 'j' runs 1 iteration(s) fewer in role 'math', each with the same uses, so the counts differ whenever the loops run}}
                a_s.tma_load(A, coords=(k * 64, j * 64), stage=j * ks + k, barrier=full)  # expected-note {{role 'load' signals 'full' here}}
    with math:
        for j in lm.range(0, my):
            for k in lm.range(0, ks):
                lm.wait(full, stage=j * ks + k)  # expected-error {{barrier 'full': role 'load' signals it in range(0, my+1, 1)range(0, ks, 1) and role 'math' waits on it in range(0, my, 1)range(0, ks, 1): the loop over 'j' runs 1 iteration(s) more in role 'load', each with the same uses, so the counts differ whenever the loops run}}
                lm.mma(acc, a_s[j * ks + k], a_s[j * ks + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=j * ks + k)  # expected-note {{role 'math' signals 'empty' here}}
