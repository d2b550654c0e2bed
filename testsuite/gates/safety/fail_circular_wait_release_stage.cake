# A wait on a release barrier blocks nothing on the first lap only at the
# stages its credits free (0 .. count - 1): past them it needs the signal
# count stages earlier. Before, every wait on a release barrier passed the
# first-lap graph, so these hangs were accepted (an independent review,
# 2026-12-05): a guarded first signal after several k-steps of waits, a
# look-ahead wait one stage ahead, and the second member of a ping-pong
# waiting on its turn before it signals what the first member waits for.
# Near misses: pass_circular_wait_release_stage.cake.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# load waits on 'empty' (ring of 2) at k = 0..3 before its guarded first signal
# of 'go' at k == 3; math waits on 'go' before it releases anything: k = 2's
# wait needs math's release of stage 0, math needs 'go': a hang.
@cake.schedule()
def k(lm, B: LM.tma2d):
    pool = lm.smem(65536)
    b_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], init_count=4, pipeline=ring)
    go = lm.barrier(count=1, prod=[load], cons=[math], init_count=1)
    with load:
        for k in lm.range(0, 8):
            lm.wait(empty, stage=k)  # expected-error {{roles wait for each other before either arrives: role 'load' waits on 'empty', which role 'math' signals only later; role 'math' waits on 'go', which role 'load' signals only later}}
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
            if k == 3:
                lm.arrive(go, stage=0)
    with math:
        lm.wait(go, stage=0)  # expected-note {{role 'math' waits on 'go' here}}
        for k in lm.range(0, 8):
            lm.wait(full, stage=k)
            x = b_s.load(stage=k)
            lm.arrive(empty, stage=k, per="warp")

# -----
# Persistent producer announces each tile ('info', consumed by math before it
# starts the tile) from the last k-step: 'if k == KS - 1'. For KS > 4 the
# producer's wait on 'empty' at k = 4 needs math's release of stage 0, and
# math waits on 'info' first: a hang at any T >= 1 (8 k-steps per tile).
@cake.schedule(grid=(lm.sm_count(),))
def k(lm, A: LM.tma2d[M, K], M: LM.i32, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7], regs=232)
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], init_count=4, pipeline=ring)
    info = lm.barrier(count=1, prod=[load], cons=[math], init_count=1)
    T = ((M + 63) // 64 - lm.block_id(0) + lm.num_blocks(0) - 1) // lm.num_blocks(0)
    KS = 8
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(empty, stage=t * 8 + k)  # expected-error {{roles wait for each other before either arrives: role 'load' waits on 'empty', which role 'math' signals only later; role 'math' waits on 'info', which role 'load' signals only later}}
                a_s.tma_load(A, coords=(k * 64, t * 64), stage=t * 8 + k, barrier=full)
                if k == 7:
                    lm.arrive(info, stage=t)
    with math:
        for t in lm.range(0, T):
            lm.wait(info, stage=t)  # expected-note {{role 'math' waits on 'info' here}}
            for k in lm.range(0, 8):
                lm.wait(full, stage=t * 8 + k)
                x = a_s.load(stage=t * 8 + k)
                lm.arrive(empty, stage=t * 8 + k, per="warp")

# -----
# load's waits on 'empty' (ring of 2) run one stage ahead (stage k + 1, a
# "stricter wait" the stage rule allows). Two distinct waits before its
# signal of 'go' (after the loop) fit the ring's 2 free phases by count, but
# the second names stage 2, which needs math's release of stage 0; math
# waits on 'go' before it releases anything: a hang.
@cake.schedule()
def k(lm, B: LM.tma2d):
    pool = lm.smem(65536)
    b_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], init_count=4, pipeline=ring)
    go = lm.barrier(count=1, prod=[load], cons=[math], init_count=1)
    with load:
        for k in lm.range(0, 2):
            lm.wait(empty, stage=k + 1)  # expected-error {{roles wait for each other before either arrives: role 'load' waits on 'empty', which role 'math' signals only later; role 'math' waits on 'go', which role 'load' signals only later}}
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
        lm.arrive(go, stage=0)
    with math:
        lm.wait(go, stage=0)  # expected-note {{role 'math' waits on 'go' here}}
        for k in lm.range(0, 2):
            lm.wait(full, stage=k)
            x = b_s.load(stage=k)
            lm.arrive(empty, stage=k, per="warp")

# -----
# Ping-pong on 'order' (credits=1): wg0 takes turn 0, wg1 turn 1. wg0 waits
# on 'x' before its turn; wg1 signals 'x' only after its turn, whose wait
# (stage 1 of 'order', the second phase) needs wg0's arrive at the end of
# turn 0. wg0 waits for wg1, wg1 for wg0: a hang. The gate counts wg1's
# single wait on 'order' before its signal of 'x' as within the one free
# phase of 'order', though its stage is 1.
@cake.schedule()
def pp(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(196608)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    b_s = pool.view(offset=32768, shape=(256, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    wg0 = lm.role(warps=[4, 5, 6, 7], regs=232)
    wg1 = lm.role(warps=[8, 9, 10, 11], regs=232)
    acc0 = lm.regs(shape=(64, 256), dtype=lm.f32, role=wg0)
    acc1 = lm.regs(shape=(64, 256), dtype=lm.f32, role=wg1)
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[wg0, wg1], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[wg0, wg1], cons=[load], init_count=1, pipeline=ring)
    order = lm.barrier(count=1, prod=[wg0, wg1], cons=[wg0, wg1], credits=1)
    x = lm.barrier(count=1, prod=[wg1], cons=[wg0], init_count=1)
    T = 2
    KS = (K + 63) // 64
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, KS):
                lm.wait(empty, stage=t * KS + k)
                a_s.tma_load(A, coords=(k * 64, 0), stage=t * KS + k, barrier=full)
                b_s.tma_load(B, coords=(k * 64, 0), stage=t * KS + k, barrier=full)
    with wg0:
        lm.wait(x, stage=0)  # expected-error {{roles wait for each other before either arrives: role 'wg0' waits on 'x', which role 'wg1' signals only later; role 'wg1' waits on 'order', which role 'wg0' signals only later}}
        for t in lm.range(0, T, 2):
            lm.wait(order, stage=t)
            for k in lm.range(0, KS):
                lm.wait(full, stage=t * KS + k)
                lm.mma(acc0, a_s[t * KS + k], b_s[t * KS + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=t * KS + k, per="warpgroup")
            lm.arrive(order, stage=t, per="warpgroup")
    with wg1:
        for t in lm.range(1, T, 2):
            lm.wait(order, stage=t)  # expected-note {{role 'wg1' waits on 'order' here}}
            for k in lm.range(0, KS):
                lm.wait(full, stage=t * KS + k)
                lm.mma(acc1, a_s[t * KS + k], b_s[t * KS + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=t * KS + k, per="warpgroup")
            lm.arrive(order, stage=t, per="warpgroup")
        lm.arrive(x, stage=0, per="warpgroup")
