# A wait guarded to a later iteration of its loop (`if k == 3: wait(fin)`)
# does not run before the loop's first signals, but it does block the
# role's later signals: here the producer, at k = 3 of tile 0, waits for
# 'fin', which the consumer signals only after it has waited on all 8 of the
# tile's stages of 'full', and the producer loads stages 3..7 only after its
# wait: a hang at any T >= 1. Both were accepted (the guarded wait was
# skipped as not running before the first signal). Near miss:
# pass_tk_one_loop_finish_wait.cake (fin with credits=1: the wait at tile t
# needs tile t - 1's signal). Found by an independent review.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, B: LM.tma2d, T: LM.i32):
    pool = lm.smem(98304)
    b_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11])
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], init_count=8, pipeline=ring)
    fin = lm.barrier(count=1, prod=[math], cons=[load], init_count=8)
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(empty, stage=t * 8 + k)
                if k == 3:
                    lm.wait(fin, stage=t)  # expected-error {{roles wait for each other before either arrives: role 'load' waits on 'fin', which role 'math' signals only later; role 'math' waits on 'full', which role 'load' signals only later}}
                b_s.tma_load(B, coords=(k * 64, 0), stage=t * 8 + k, barrier=full)
    with math:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(full, stage=t * 8 + k)  # expected-note {{role 'math' waits on 'full' here}}
                x = b_s.load(stage=t * 8 + k)
                lm.arrive(empty, stage=t * 8 + k, per="warp")
            lm.arrive(fin, stage=t, per="warp")

# -----
# pass_tk_one_loop_finish_wait.cake with fin declared credits=0
@cake.schedule(grid=(lm.sm_count(),))
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, M: LM.i32, N: LM.i32):
    pool = lm.smem(163840)
    b_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    a_s = pool.view(offset=65536, shape=(128, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    c_s = pool.view(offset=131072, shape=(128, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(128, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], init_count=8, pipeline=ring)
    fin = lm.barrier(count=1, prod=[math], cons=[load], init_count=8, credits=0)
    tiles = M // 128 * (N // 128)
    my_tiles = (tiles - lm.block_id(0) + lm.num_blocks(0) - 1) // lm.num_blocks(0)
    with load:
        for t in lm.range(0, my_tiles):
            tile = lm.block_id(0) + t * lm.num_blocks(0)
            for k in lm.range(0, 8):
                lm.wait(empty, stage=t * 8 + k)
                if k == 3:
                    lm.wait(fin, stage=t)  # expected-error {{roles wait for each other before either arrives: role 'load' waits on 'fin', which role 'math' signals only later; role 'math' waits on 'full', which role 'load' signals only later}}
                a_s.tma_load(A, coords=(k * 64, tile // (N // 128) * 128), stage=t * 8 + k, barrier=full)
                b_s.tma_load(B, coords=(k * 64, tile % (N // 128) * 128), stage=t * 8 + k, barrier=full)
    with math:
        for t in lm.range(0, my_tiles):
            tile = lm.block_id(0) + t * lm.num_blocks(0)
            for k in lm.range(0, 8):
                lm.wait(full, stage=t * 8 + k)  # expected-note {{role 'math' waits on 'full' here}}
                lm.mma(acc, a_s[t * 8 + k], b_s[t * 8 + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=t * 8 + k, per="warp")
            out = lm.cast(acc, lm.bf16)
            lm.role_sync()
            c_s.store(out)
            lm.fence_proxy()
            lm.role_sync()
            c_s.tma_store(C, coords=(tile % (N // 128) * 128, tile // (N // 128) * 128))
            lm.tma_store_wait()
            lm.role_sync()
            lm.arrive(fin, stage=t, per="warp")
