# C[M, N] = A[M, K] . B[N, K]^T on Hopper: the ping-pong GEMM
# (examples/gemm_bf16_pingpong_sm90a.cake) with 2-block clusters. The two
# blocks of a cluster walk the same pairs of vertically adjacent tiles, rank
# r taking the pair's row r, so at each k-step they need the same BN x BK
# tile of B: each copies half of its rows and multicasts them to both
# (multicast=2), halving B's reads from L2. The walk is indexed by
# lm.cluster_id(0), the same in both blocks, which is what lets the gate
# prove the multicast coordinates equal (data.multicast-coords). A stage of
# B is then overwritten by both producers, so the consumer whose turn it is
# releases it in both blocks (cluster=True: 2 arrivals per phase).
# Shapes are declared: any M, and N, K that are multiples of 8.
# target: sm_90a
from stdlib.hopper import WGMMA_M, SWIZZLE_128B_BF16_K

BM = 2 * WGMMA_M            # 128 rows per consumer tile (two m64 wgmmas)
BN = 128
BK = SWIZZLE_128B_BF16_K
STAGES = 5
GROUP_M = 8                 # tiles run in groups of GROUP_M tile rows, column by column, for L2 reuse

@cake.schedule(grid=(lm.sm_count() // 2 * 2,), cluster=(2, 1, 1))  # persistent: a block per multiprocessor, in pairs
def gemm_bf16(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK * 2 + 2 * BM * BN * 2)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    # The two consumers: a role family (members wg[0], wg[1]), each with its
    # own accumulator and epilogue staging tile (c[1] right after c[0]).
    wg = lm.roles(warps=[[4, 5, 6, 7], [8, 9, 10, 11]], regs=232)
    c = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.bf16, swizzle="128B", role=wg)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=wg)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[wg], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[wg], cons=[load], init_count=2, pipeline=ring)
    # The consumers' main loops in tile order: each waits for the previous
    # tile's main loop to be done (the first passes: credits=1).
    order = lm.barrier(count=1, prod=[wg], cons=[wg], credits=1)
    m_pairs = (M + 2 * BM - 1) // (2 * BM)   # pairs of tile rows, one per cluster rank
    n_tiles = (N + BN - 1) // BN
    pairs = m_pairs * n_tiles
    group_pairs = GROUP_M * n_tiles
    k_steps = (K + BK - 1) // BK
    my_tiles = (pairs - lm.cluster_id(0) + lm.num_clusters(0) - 1) // lm.num_clusters(0)
    with load:
        for j in lm.range(0, my_tiles):
            p = lm.cluster_id(0) + j * lm.num_clusters(0)
            first_m = p // group_pairs * GROUP_M
            rows = lm.min(m_pairs - first_m, GROUP_M)
            tm = 2 * (first_m + p % group_pairs % rows) + lm.cluster_rank()
            tn = p % group_pairs // rows
            for k in lm.range(0, k_steps):
                lm.wait(empty, stage=j * k_steps + k)
                a_s.tma_load(A, coords=(k * BK, tm * BM), stage=j * k_steps + k, barrier=full)
                b_s.tma_load(B, coords=(k * BK, tn * BN), stage=j * k_steps + k, barrier=full, multicast=2)
    with wg as i:  # member i takes the block's tiles i, i + 2, ...
        for j in lm.range(i, my_tiles, 2):
            lm.wait(order, stage=j)
            for k in lm.range(0, k_steps):
                lm.wait(full, stage=j * k_steps + k)
                lm.mma(acc, a_s[j * k_steps + k], b_s[j * k_steps + k].T, init=(k == 0))
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
            tm = 2 * (first_m + p % group_pairs % rows) + lm.cluster_rank()
            tn = p % group_pairs // rows
            out = lm.cast(acc, lm.bf16)
            lm.tma_store_wait()
            lm.role_sync()
            c.store(out)
            lm.fence_proxy()
            lm.role_sync()
            c.tma_store(C, coords=(tn * BN, tm * BM))
        lm.tma_store_wait()
