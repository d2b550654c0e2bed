# The MMA warp waits for the epilogue's release of the TMEM accumulator
# from the second tile on (`if c > 0: wait(acc_free, stage=c - 1)`): the
# first tile writes it for the first time (issue 34, reproduction r1; the
# same guarded first wait is accepted for a ring view, pass_skip_first_lap).
# Broken variants: fail_guarded_tmem_release.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_100a %s
# expected-no-diagnostics
@cake.schedule(grid=(1,))
def kmeans_assign(lm, tokens: LM.tma2d, centroids: LM.tma2d, dist: LM.tma2d):
    smem = lm.smem(98304 + 131072)
    token_stage = smem.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    centroid_stage = smem.view(offset=32768, shape=(256, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    dist_s = smem.view(offset=98304, shape=(128, 256), dtype=lm.f32)
    accumulator = lm.tmem(cols=0, width=256, shape=(128, 256), dtype=lm.f32)
    epilogue = lm.role(warps=[0, 1, 2, 3])
    mma = lm.role(warps=[4])
    tma = lm.role(warps=[5])
    reduce = lm.role(warps=[6])
    d = lm.regs(shape=(128, 256), dtype=lm.f32, role=epilogue)
    main = lm.pipeline(stages=2)
    tiles_ready = lm.barrier(count=2, prod=[tma], cons=[mma], pipeline=main)
    tiles_free = lm.barrier(count=2, prod=[mma], cons=[tma], pipeline=main)
    accumulator_ready = lm.barrier(count=1, prod=[mma], cons=[epilogue])
    acc_free = lm.barrier(count=1, prod=[epilogue], cons=[mma], init_count=128)
    distance_ready = lm.barrier(count=1, prod=[epilogue], cons=[reduce])
    with tma:
        for c in lm.range(0, 4):
            for k in lm.range(0, 2):
                lm.wait(tiles_free, stage=c * 2 + k)
                token_stage.tma_load(tokens, coords=(k * 64, 0), stage=c * 2 + k, barrier=tiles_ready)
                centroid_stage.tma_load(centroids, coords=(k * 64, c * 256), stage=c * 2 + k, barrier=tiles_ready)
    with mma:
        for c in lm.range(0, 4):
            if c > 0:
                lm.wait(acc_free, stage=c - 1)
            for k in lm.range(0, 2):
                lm.wait(tiles_ready, stage=c * 2 + k)
                lm.mma(accumulator, token_stage[c * 2 + k], centroid_stage[c * 2 + k].T, init=(k == 0))
                lm.commit(tiles_free, stage=c * 2 + k)
            lm.commit(accumulator_ready, stage=c)
    with epilogue:
        for c in lm.range(0, 4):
            lm.wait(accumulator_ready, stage=c)
            lm.tmem_load(d, accumulator)
            if c < 3:
                lm.arrive(acc_free, stage=c, per="thread")
            dd = lm.scale(d, -2.0)
            dist_s.store(dd)
            lm.fence_proxy()
            lm.role_sync()
            dist_s.tma_store(dist, coords=(c * 256, 0))
            lm.tma_store_wait()
            lm.role_sync()
            lm.arrive(distance_ready, stage=c)
    with reduce:
        for c in lm.range(0, 4):
            lm.wait(distance_ready, stage=c)
