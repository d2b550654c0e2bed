# K-means assignment on Hopper: for each of N points, the nearest of K
# centroids, batched: idx[b, n] = argmin_k ||c_k||^2 - 2 x_n . c_k (the
# point's own ||x_n||^2 does not change the argmin). bf16 in, f32 distances,
# i32 out; of equal distances the lower centroid index wins.
#
# X is (B, N, D) bf16, C (B, K, D) bf16, CN (B, K) f32 the centroids'
# squared norms, IDX (B, N) i32. One block per 128 points of one batch
# (grid: N // 128 x B). A producer warpgroup loads the block's points once
# and streams 128-centroid tiles of C with their norms through a 4-stage TMA
# ring; two consumer warpgroups (64 points each) compute x . c by wgmma and
# keep a running minimum and its index per point in registers. The distance
# matrix never leaves the registers.
# target: sm_90a
D = 128                       # point dimension
BM = 128                      # points per block
BN = 128                      # centroids per tile
STAGES = 4
X_BYTES = BM * D * 2
C_BYTES = BN * D * 2

@cake.schedule(grid=(N // BM, B))
def kmeans_assign(lm, X: LM.tma3d, C: LM.tma3d, CN: LM.tma2d, IDX: LM.tma2d, N: LM.i32, K: LM.i32, B: LM.i32):
    pool = lm.smem(X_BYTES + STAGES * (C_BYTES + BN * 4) + BM * 4)
    x_s = pool.view(offset=0, shape=(BM, D), dtype=lm.bf16, swizzle="128B")
    c_s = pool.view(offset=X_BYTES, shape=(BN, D), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    cn_s = pool.view(offset=X_BYTES + STAGES * C_BYTES, shape=(1, BN), dtype=lm.f32, stage=STAGES)
    idx_s = pool.view(offset=X_BYTES + STAGES * (C_BYTES + BN * 4), shape=(1, BM), dtype=lm.i32)
    load = lm.role(warps=[0, 1, 2, 3], regs=24)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=240)
    dot = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    best_v = lm.regs(shape=(BM, 1), dtype=lm.f32, role=math)
    best_i = lm.regs(shape=(BM, 1), dtype=lm.i32, role=math)
    ring = lm.pipeline(stages=STAGES)
    xfull = lm.barrier(count=1, prod=[load], cons=[math])
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=8, pipeline=ring)  # one arrival per warp
    with load:
        x_s.tma_load(X, coords=(0, lm.block_id(0) * BM, lm.block_id(1)), stage=0, barrier=xfull)
        for j in lm.range(0, K // BN):
            lm.wait(empty, stage=j)
            c_s.tma_load(C, coords=(0, j * BN, lm.block_id(1)), stage=j, barrier=full)
            cn_s.tma_load(CN, coords=(j * BN, lm.block_id(1)), stage=j, barrier=full)
    with math:
        best_v = lm.fill(best_v, 3.0e38)
        best_i = lm.fill(best_i, 0)
        lm.wait(xfull, stage=0)
        for j in lm.range(0, K // BN):
            lm.wait(full, stage=j)
            lm.mma(dot, x_s, c_s[j].T, init=True)
            lm.mma_commit()
            lm.mma_wait(pending=0)
            cn = cn_s.load(stage=j)
            lm.arrive(empty, stage=j, per="warp")  # every warp read its norms from the stage
            tile_v, tile_i = lm.rowargmin(cn - 2.0 * dot, offset=j * BN)
            better = tile_v < best_v
            best_i = lm.where(better, tile_i, best_i)
            best_v = lm.minimum(best_v, tile_v)
        idx_s.store(best_i)
        lm.fence_proxy()
        lm.role_sync()
        idx_s.tma_store(IDX, coords=(lm.block_id(0) * BM, lm.block_id(1)))
        lm.tma_store_wait()
