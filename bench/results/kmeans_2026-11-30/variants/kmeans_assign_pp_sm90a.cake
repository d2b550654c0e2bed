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
D = 128                       # point dimension
BM = 128                      # points per block
BN = 128                      # centroids per tile
STAGES = 4
X_BYTES = BM * D * 2
C_BYTES = BN * D * 2

@cake.schedule(grid=(N // BM, B))
def kmeans_assign_pp(lm, X: LM.tma3d, C: LM.tma3d, CN: LM.tma2d, IDX: LM.tma2d, N: LM.i32, K: LM.i32, B: LM.i32):
    pool = lm.smem(X_BYTES + STAGES * (C_BYTES + BN * 4) + BM * 4)
    x_s0 = pool.view(offset=0, shape=(BM // 2, D), dtype=lm.bf16, swizzle="128B")
    x_s1 = pool.view(offset=X_BYTES // 2, shape=(BM // 2, D), dtype=lm.bf16, swizzle="128B")
    c_s = pool.view(offset=X_BYTES, shape=(BN, D), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    cn_s = pool.view(offset=X_BYTES + STAGES * C_BYTES, shape=(1, BN), dtype=lm.f32, stage=STAGES)
    idx_s0 = pool.view(offset=X_BYTES + STAGES * (C_BYTES + BN * 4), shape=(1, BM // 2), dtype=lm.i32)
    idx_s1 = pool.view(offset=X_BYTES + STAGES * (C_BYTES + BN * 4) + BM * 2, shape=(1, BM // 2), dtype=lm.i32)
    load = lm.role(warps=[0, 1, 2, 3], regs=24)
    wg0 = lm.role(warps=[4, 5, 6, 7], regs=240)
    wg1 = lm.role(warps=[8, 9, 10, 11], regs=240)
    dot0 = lm.regs(shape=(BM // 2, BN), dtype=lm.f32, role=wg0)
    best_v0 = lm.regs(shape=(BM // 2, 1), dtype=lm.f32, role=wg0)
    best_i0 = lm.regs(shape=(BM // 2, 1), dtype=lm.i32, role=wg0)
    dot1 = lm.regs(shape=(BM // 2, BN), dtype=lm.f32, role=wg1)
    best_v1 = lm.regs(shape=(BM // 2, 1), dtype=lm.f32, role=wg1)
    best_i1 = lm.regs(shape=(BM // 2, 1), dtype=lm.i32, role=wg1)
    ring = lm.pipeline(stages=STAGES)
    xfull = lm.barrier(count=1, prod=[load], cons=[wg0, wg1])
    full = lm.barrier(count=STAGES, prod=[load], cons=[wg0, wg1], pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[wg0, wg1], cons=[load], init_count=8, pipeline=ring)  # one arrival per warp
    # Ping-pong: the warpgroups take turns issuing their products, so one's
    # argmin runs while the other's wgmma occupies the tensor cores.
    turn0 = lm.barrier(count=1, prod=[wg1], cons=[wg0], credits=1)
    turn1 = lm.barrier(count=1, prod=[wg0], cons=[wg1], credits=0)
    with load:
        x_s0.tma_load(X, coords=(0, lm.block_id(0) * BM, lm.block_id(1)), stage=0, barrier=xfull)
        x_s1.tma_load(X, coords=(0, lm.block_id(0) * BM + BM // 2, lm.block_id(1)), stage=0, barrier=xfull)
        for j in lm.range(0, K // BN):
            lm.wait(empty, stage=j)
            c_s.tma_load(C, coords=(0, j * BN, lm.block_id(1)), stage=j, barrier=full)
            cn_s.tma_load(CN, coords=(j * BN, lm.block_id(1)), stage=j, barrier=full)
    with wg0:
        best_v0 = lm.fill(best_v0, 3.0e38)
        best_i0 = lm.fill(best_i0, 0)
        lm.wait(xfull, stage=0)
        for j in lm.range(0, K // BN):
            lm.wait(full, stage=j)
            lm.wait(turn0, stage=j)
            lm.mma(dot0, x_s0, c_s[j].T, init=True)
            lm.mma_commit()
            lm.arrive(turn1, stage=j)
            lm.mma_wait(pending=0)
            cn = cn_s.load(stage=j)
            lm.arrive(empty, stage=j, per="warp")
            tile_v, tile_i = lm.rowargmin(cn - 2.0 * dot0, offset=j * BN)
            better = tile_v < best_v0
            best_i0 = lm.where(better, tile_i, best_i0)
            best_v0 = lm.minimum(best_v0, tile_v)
        idx_s0.store(best_i0)
        lm.fence_proxy()
        lm.role_sync()
        idx_s0.tma_store(IDX, coords=(lm.block_id(0) * BM, lm.block_id(1)))
        lm.tma_store_wait()
    with wg1:
        best_v1 = lm.fill(best_v1, 3.0e38)
        best_i1 = lm.fill(best_i1, 0)
        lm.wait(xfull, stage=0)
        for j in lm.range(0, K // BN):
            lm.wait(full, stage=j)
            lm.wait(turn1, stage=j)
            lm.mma(dot1, x_s1, c_s[j].T, init=True)
            lm.mma_commit()
            lm.arrive(turn0, stage=j)
            lm.mma_wait(pending=0)
            cn = cn_s.load(stage=j)
            lm.arrive(empty, stage=j, per="warp")
            tile_v, tile_i = lm.rowargmin(cn - 2.0 * dot1, offset=j * BN)
            better = tile_v < best_v1
            best_i1 = lm.where(better, tile_i, best_i1)
            best_v1 = lm.minimum(best_v1, tile_v)
        idx_s1.store(best_i1)
        lm.fence_proxy()
        lm.role_sync()
        idx_s1.tma_store(IDX, coords=(lm.block_id(0) * BM + BM // 2, lm.block_id(1)))
        lm.tma_store_wait()
