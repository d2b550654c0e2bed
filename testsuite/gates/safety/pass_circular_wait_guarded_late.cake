# Near miss of fail_circular_wait_guarded.cake: the producer's guarded wait
# on 'fin' first runs at k = 4, and the consumer signals fin after waiting
# on stages 0..3 only, which the producer loaded before its wait: no cycle
# (an independent review found it refused by the first version of the rule).
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule()
def k(lm, B: LM.tma2d):
    pool = lm.smem(98304)
    b_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11])
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], init_count=8, pipeline=ring)
    fin = lm.barrier(count=1, prod=[math], cons=[load], init_count=8)
    with load:
        for k in lm.range(0, 8):
            lm.wait(empty, stage=k)
            if k == 4:
                lm.wait(fin, stage=0)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, 4):
            lm.wait(full, stage=k)
            x = b_s.load(stage=k)
            lm.arrive(empty, stage=k, per="warp")
        lm.arrive(fin, stage=0, per="warp")
        for k in lm.range(4, 8):
            lm.wait(full, stage=k)
            x = b_s.load(stage=k)
            lm.arrive(empty, stage=k, per="warp")
