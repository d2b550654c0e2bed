# A persistent k-means consumer over tiles of points: the resident points'
# buffer x_s has its own release barrier (xempty, arrived once per tile per
# warpgroup), the centroid ring its own (empty, arrived per warp after the
# generic loads of the norms). The producer writes the ring's stages after
# waiting on `empty`, the nearer wait, so the per-warpgroup arrival on
# xempty releases x_s only, not the norms (this was reported as a partial
# release of cn_s). Broken variant: fail_release_nearest_wait_partial.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
D = 128                       # point dimension
BM = 128                      # points per block
BN = 128                      # centroids per tile
STAGES = 4
KC = 1024                     # centroids (compile-time: the stage forms need a constant trip count)
X_STAGES = 2                  # the next tile's points load during this one's
X_BYTES = BM * D * 2
C_BYTES = BN * D * 2

@cake.schedule(grid=(lm.sm_count(),))  # persistent: one block per multiprocessor
def kmeans_assign_persistent(lm, X: LM.tma3d, C: LM.tma3d, CN: LM.tma2d, IDX: LM.tma2d, N: LM.i32, K: LM.i32, B: LM.i32):
    pool = lm.smem(X_STAGES * X_BYTES + STAGES * (C_BYTES + BN * 4) + BM * 4)
    x_s = pool.view(offset=0, shape=(BM, D), dtype=lm.bf16, stage=X_STAGES, swizzle="128B")
    c_s = pool.view(offset=X_STAGES * X_BYTES, shape=(BN, D), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    cn_s = pool.view(offset=X_STAGES * X_BYTES + STAGES * C_BYTES, shape=(1, BN), dtype=lm.f32, stage=STAGES)
    idx_s = pool.view(offset=X_STAGES * X_BYTES + STAGES * (C_BYTES + BN * 4), shape=(1, BM), dtype=lm.i32)
    load = lm.role(warps=[0, 1, 2, 3], regs=24)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=240)
    dot = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    best_v = lm.regs(shape=(BM, 1), dtype=lm.f32, role=math)
    best_i = lm.regs(shape=(BM, 1), dtype=lm.i32, role=math)
    xring = lm.pipeline(stages=X_STAGES)
    ring = lm.pipeline(stages=STAGES)
    xfull = lm.barrier(count=X_STAGES, prod=[load], cons=[math], pipeline=xring)
    xempty = lm.barrier(count=X_STAGES, prod=[math], cons=[load], init_count=2, pipeline=xring)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=8, pipeline=ring)  # one arrival per warp
    n_tiles = N // BM
    k_steps = KC // BN
    my_tiles = (B * n_tiles - lm.block_id(0) + lm.num_blocks(0) - 1) // lm.num_blocks(0)
    with load:
        for u in lm.range(0, my_tiles):
            t = lm.block_id(0) + u * lm.num_blocks(0)
            lm.wait(xempty, stage=u)
            x_s.tma_load(X, coords=(0, t % n_tiles * BM, t // n_tiles), stage=u, barrier=xfull)
            for k in lm.range(0, k_steps):
                lm.wait(empty, stage=u * k_steps + k)
                c_s.tma_load(C, coords=(0, k * BN, t // n_tiles), stage=u * k_steps + k, barrier=full)
                cn_s.tma_load(CN, coords=(k * BN, t // n_tiles), stage=u * k_steps + k, barrier=full)
    with math:
        for u in lm.range(0, my_tiles):
            t = lm.block_id(0) + u * lm.num_blocks(0)
            best_v = lm.fill(best_v, 3.0e38)
            best_i = lm.fill(best_i, 0)
            lm.wait(xfull, stage=u)
            for k in lm.range(0, k_steps):
                lm.wait(full, stage=u * k_steps + k)
                lm.mma(dot, x_s[u], c_s[u * k_steps + k].T, init=True)
                lm.mma_commit()
                lm.mma_wait(pending=0)
                cn = cn_s.load(stage=u * k_steps + k)
                lm.arrive(empty, stage=u * k_steps + k, per="warp")
                tile_v, tile_i = lm.rowargmin(cn - 2.0 * dot, offset=k * BN)
                better = tile_v < best_v
                best_i = lm.where(better, tile_i, best_i)
                best_v = lm.minimum(best_v, tile_v)
            lm.arrive(xempty, stage=u, per="warpgroup")
            lm.tma_store_wait()
            lm.role_sync()
            idx_s.store(best_i)
            lm.fence_proxy()
            lm.role_sync()
            idx_s.tma_store(IDX, coords=(t % n_tiles * BM, t // n_tiles))
        lm.tma_store_wait()
