# Near miss of fail_circular_wait_guarded_relay.cake: 'fin' has a credit, so
# load's first guarded wait passes, and each later one needs only the
# previous tile's k-steps, which load has already loaded.
# Second part: a relay through a barrier with credits for all its waits in
# the first lap ('rel', credits=8, waited 8 times per tile), which does not
# block (an independent review found it refused).
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule()
def k(lm, B: LM.tma2d, T: LM.i32):
    pool = lm.smem(98304)
    b_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11])
    epi = lm.role(warps=[12, 13, 14, 15])
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], init_count=8, pipeline=ring)
    mid = lm.barrier(count=1, prod=[math], cons=[epi], init_count=8)
    mide = lm.barrier(count=1, prod=[epi], cons=[math], init_count=4, credits=1)
    fin = lm.barrier(count=1, prod=[epi], cons=[load], init_count=4, credits=1)
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(empty, stage=t * 8 + k)
                if k == 3:
                    lm.wait(fin, stage=t)
                b_s.tma_load(B, coords=(k * 64, 0), stage=t * 8 + k, barrier=full)
    with math:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(full, stage=t * 8 + k)
                x = b_s.load(stage=t * 8 + k)
                lm.arrive(empty, stage=t * 8 + k, per="warp")
                lm.wait(mide, stage=t * 8 + k)
                lm.arrive(mid, stage=t * 8 + k, per="warp")
    with epi:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(mid, stage=t * 8 + k)
                lm.arrive(mide, stage=t * 8 + k, per="warp")
            lm.arrive(fin, stage=t, per="warp")

# -----
# expected-no-diagnostics
@cake.schedule()
def k(lm, B: LM.tma2d, T: LM.i32):
    pool = lm.smem(98304)
    b_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    epi = lm.role(warps=[8, 9, 10, 11])
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], init_count=4, pipeline=ring)
    mid = lm.barrier(count=1, prod=[math], cons=[epi], init_count=4)
    rfull = lm.barrier(count=8, prod=[epi], cons=[math], init_count=4)
    rel = lm.barrier(count=8, prod=[math], cons=[epi], init_count=4, credits=8)
    fin = lm.barrier(count=1, prod=[epi], cons=[load], init_count=4)
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(empty, stage=t * 8 + k)
                if k == 3:
                    lm.wait(fin, stage=t)
                b_s.tma_load(B, coords=(k * 64, 0), stage=t * 8 + k, barrier=full)
    with math:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(full, stage=t * 8 + k)
                x = b_s.load(stage=t * 8 + k)
                lm.arrive(empty, stage=t * 8 + k, per="warp")
                if k == 0:
                    lm.arrive(mid, stage=t, per="warp")
                lm.wait(rfull, stage=t * 8 + k)
                lm.arrive(rel, stage=t * 8 + k, per="warp")
    with epi:
        for t in lm.range(0, T):
            lm.wait(mid, stage=t)
            for k in lm.range(0, 8):
                lm.wait(rel, stage=t * 8 + k)
                lm.arrive(rfull, stage=t * 8 + k, per="warp")
            lm.arrive(fin, stage=t, per="warp")
