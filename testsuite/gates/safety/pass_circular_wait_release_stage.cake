# Near misses of fail_circular_wait_release_stage.cake: 'tok' with one
# credit paces the loader one tile ahead, its wait guarded to the tile's
# first k-step (stage t: tile 0's is the free phase), or hoisted above the
# k loop. Neither can hang; the first was refused while waits were counted
# instead of their stages (an independent review).
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule()
def k(lm, B: LM.tma2d):
    pool = lm.smem(131072)
    b_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], init_count=4, pipeline=ring)
    tok = lm.barrier(count=1, prod=[math], cons=[load], init_count=4, credits=1)
    done = lm.barrier(count=1, prod=[load], cons=[math], init_count=1)
    with load:
        for t in lm.range(0, 4):
            for k in lm.range(0, 2):
                if k == 0:
                    lm.wait(tok, stage=t)
                lm.wait(empty, stage=t * 2 + k)
                b_s.tma_load(B, coords=(k * 64, t * 128), stage=t * 2 + k, barrier=full)
            lm.arrive(done, stage=t)
    with math:
        for t in lm.range(0, 4):
            for k in lm.range(0, 2):
                lm.wait(full, stage=t * 2 + k)
                x = b_s.load(stage=t * 2 + k)
                lm.arrive(empty, stage=t * 2 + k, per="warp")
            lm.wait(done, stage=t)
            lm.arrive(tok, stage=t, per="warp")

# -----
# expected-no-diagnostics
@cake.schedule()
def k(lm, B: LM.tma2d):
    pool = lm.smem(131072)
    b_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], init_count=4, pipeline=ring)
    tok = lm.barrier(count=1, prod=[math], cons=[load], init_count=4, credits=1)
    done = lm.barrier(count=1, prod=[load], cons=[math], init_count=1)
    with load:
        for t in lm.range(0, 4):
            lm.wait(tok, stage=t)
            for k in lm.range(0, 2):
                lm.wait(empty, stage=t * 2 + k)
                b_s.tma_load(B, coords=(k * 64, t * 128), stage=t * 2 + k, barrier=full)
            lm.arrive(done, stage=t)
    with math:
        for t in lm.range(0, 4):
            for k in lm.range(0, 2):
                lm.wait(full, stage=t * 2 + k)
                x = b_s.load(stage=t * 2 + k)
                lm.arrive(empty, stage=t * 2 + k, per="warp")
            lm.wait(done, stage=t)
            lm.arrive(tok, stage=t, per="warp")
