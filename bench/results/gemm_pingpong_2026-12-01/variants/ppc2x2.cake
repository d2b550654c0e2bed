# Variant of examples/gemm_bf16_pingpong_cluster_sm90a.cake (issue 19): 2x2
# clusters. The four blocks of a cluster walk the same quads of tiles, block
# (x, y) of the cluster taking tile row 2 * qm + x and column 2 * qn + y, so
# blocks with the same x share A's tile (multicast along cluster dimension 1)
# and blocks with the same y share B's (along dimension 0): each copies half
# of each, and a block reads 16 KB from L2 per 128x128x64 k-step, not 24 KB.
# target: sm_90a
from stdlib.hopper import WGMMA_M, SWIZZLE_128B_BF16_K

BM = 2 * WGMMA_M            # 128 rows per consumer tile (two m64 wgmmas)
BN = 128
BK = SWIZZLE_128B_BF16_K
STAGES = 5
GROUP_M = 8                 # tiles run in groups of GROUP_M tile rows, column by column, for L2 reuse

@cake.schedule(grid=(lm.sm_count() // 4 * 2, 2), cluster=(2, 2, 1))  # persistent: a block per multiprocessor, in quads
def gemm_bf16(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK * 2 + 2 * BM * BN * 2)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    c0 = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.bf16, swizzle="128B")
    c1 = pool.view(offset=STAGES * (BM + BN) * BK * 2 + BM * BN * 2, shape=(BM, BN), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    wg0 = lm.role(warps=[4, 5, 6, 7], regs=232)
    wg1 = lm.role(warps=[8, 9, 10, 11], regs=232)
    acc0 = lm.regs(shape=(BM, BN), dtype=lm.f32, role=wg0)
    acc1 = lm.regs(shape=(BM, BN), dtype=lm.f32, role=wg1)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[wg0, wg1], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[wg0, wg1], cons=[load], init_count=4, pipeline=ring)
    # The consumers' main loops in tile order: each waits for the previous
    # tile's main loop to be done (the first passes: credits=1).
    order = lm.barrier(count=1, prod=[wg0, wg1], cons=[wg0, wg1], credits=1)
    m_pairs = (M + 2 * BM - 1) // (2 * BM)   # pairs of tile rows and of tile columns: quads
    n_pairs = (N + 2 * BN - 1) // (2 * BN)
    pairs = m_pairs * n_pairs
    group_pairs = GROUP_M * n_pairs
    k_steps = (K + BK - 1) // BK
    my_tiles = (pairs - lm.cluster_id(0) + lm.num_clusters(0) - 1) // lm.num_clusters(0)
    with load:
        for j in lm.range(0, my_tiles):
            p = lm.cluster_id(0) + j * lm.num_clusters(0)
            first_m = p // group_pairs * GROUP_M
            rows = lm.min(m_pairs - first_m, GROUP_M)
            tm = 2 * (first_m + p % group_pairs % rows) + lm.cluster_block(0)
            tn = 2 * (p % group_pairs // rows) + lm.cluster_block(1)
            for k in lm.range(0, k_steps):
                lm.wait(empty, stage=j * k_steps + k)
                a_s.tma_load(A, coords=(k * BK, tm * BM), stage=j * k_steps + k, barrier=full, multicast=2, multicast_dim=1)
                b_s.tma_load(B, coords=(k * BK, tn * BN), stage=j * k_steps + k, barrier=full, multicast=2, multicast_dim=0)
    with wg0:
        for j in lm.range(0, my_tiles, 2):
            lm.wait(order, stage=j)
            for k in lm.range(0, k_steps):
                lm.wait(full, stage=j * k_steps + k)
                lm.mma(acc0, a_s[j * k_steps + k], b_s[j * k_steps + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=1)
                if k > 0:
                    lm.arrive(empty, stage=j * k_steps + k - 1, per="warpgroup", cluster=True)
            lm.arrive(order, stage=j, per="warpgroup")
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=j * k_steps + k_steps - 1, per="warpgroup", cluster=True)
            p = lm.cluster_id(0) + j * lm.num_clusters(0)
            first_m = p // group_pairs * GROUP_M
            rows = lm.min(m_pairs - first_m, GROUP_M)
            tm = 2 * (first_m + p % group_pairs % rows) + lm.cluster_block(0)
            tn = 2 * (p % group_pairs // rows) + lm.cluster_block(1)
            out0 = lm.cast(acc0, lm.bf16)
            lm.tma_store_wait()
            lm.role_sync()
            c0.store(out0)
            lm.fence_proxy()
            lm.role_sync()
            c0.tma_store(C, coords=(tn * BN, tm * BM))
        lm.tma_store_wait()
    with wg1:
        for j in lm.range(1, my_tiles, 2):
            lm.wait(order, stage=j)
            for k in lm.range(0, k_steps):
                lm.wait(full, stage=j * k_steps + k)
                lm.mma(acc1, a_s[j * k_steps + k], b_s[j * k_steps + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=1)
                if k > 0:
                    lm.arrive(empty, stage=j * k_steps + k - 1, per="warpgroup", cluster=True)
            lm.arrive(order, stage=j, per="warpgroup")
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=j * k_steps + k_steps - 1, per="warpgroup", cluster=True)
            p = lm.cluster_id(0) + j * lm.num_clusters(0)
            first_m = p // group_pairs * GROUP_M
            rows = lm.min(m_pairs - first_m, GROUP_M)
            tm = 2 * (first_m + p % group_pairs % rows) + lm.cluster_block(0)
            tn = 2 * (p % group_pairs // rows) + lm.cluster_block(1)
            out1 = lm.cast(acc1, lm.bf16)
            lm.tma_store_wait()
            lm.role_sync()
            c1.store(out1)
            lm.fence_proxy()
            lm.role_sync()
            c1.tma_store(C, coords=(tn * BN, tm * BM))
        lm.tma_store_wait()
