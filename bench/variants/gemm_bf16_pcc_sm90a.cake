# C[M, N] = A[M, K] . B[N, K]^T on Hopper: the persistent cooperative GEMM
# (examples/gemm_bf16_persistent_sm90a.cake as of d5e5fed, 128x256 tiles, both consumer
# warpgroups on one tile) in 2-block clusters. The two blocks of a cluster
# walk the same pairs of vertically adjacent tiles, rank r taking the pair's
# row r, so at each k-step they need the same BN x BK tile of B: each copies
# half of its rows and multicasts them to both (multicast=2). A stage of B is
# then overwritten by both producers, so each consumer warpgroup releases it
# in both blocks (cluster=True: 2 warpgroups x 2 blocks per phase).
# The run: bench/results/gemm_pcc_2026-12-01.
# target: sm_90a
from stdlib.hopper import WGMMA_M, WGMMA_N_MAX, SWIZZLE_128B_BF16_K

BM = 2 * WGMMA_M
BN = WGMMA_N_MAX
BK = SWIZZLE_128B_BF16_K
STAGES = 3
GROUP_M = 8   # pairs of tile rows per group, walked column by column

@cake.schedule(grid=(lm.sm_count() // 2 * 2,), cluster=(2, 1, 1))
def gemm_bf16(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK * 2 + BM * BN * 2)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    c_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=4, pipeline=ring)
    m_pairs = (M + 2 * BM - 1) // (2 * BM)
    n_tiles = (N + BN - 1) // BN
    pairs = m_pairs * n_tiles
    group_pairs = GROUP_M * n_tiles
    k_steps = (K + BK - 1) // BK
    my_steps = (pairs - lm.cluster_id(0) + lm.num_clusters(0) - 1) // lm.num_clusters(0) * k_steps
    with load:
        for s in lm.range(0, my_steps):
            p = lm.cluster_id(0) + s // k_steps * lm.num_clusters(0)
            first_m = p // group_pairs * GROUP_M
            rows = lm.min(m_pairs - first_m, GROUP_M)
            tm = 2 * (first_m + p % group_pairs % rows) + lm.cluster_rank()
            tn = p % group_pairs // rows
            k = s % k_steps
            lm.wait(empty, stage=s)
            a_s.tma_load(A, coords=(k * BK, tm * BM), stage=s, barrier=full)
            b_s.tma_load(B, coords=(k * BK, tn * BN), stage=s, barrier=full, multicast=2)
    with math:
        for s in lm.range(0, my_steps):
            lm.wait(full, stage=s)
            lm.mma(acc, a_s[s], b_s[s].T, init=(s % k_steps == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=s, per="warpgroup", cluster=True)
            if s % k_steps == k_steps - 1:
                p = lm.cluster_id(0) + s // k_steps * lm.num_clusters(0)
                first_m = p // group_pairs * GROUP_M
                rows = lm.min(m_pairs - first_m, GROUP_M)
                tm = 2 * (first_m + p % group_pairs % rows) + lm.cluster_rank()
                tn = p % group_pairs // rows
                out = lm.cast(acc, lm.bf16)
                lm.tma_store_wait()
                lm.role_sync()
                c_s.store(out)
                lm.fence_proxy()
                lm.role_sync()
                c_s.tma_store(C, coords=(tn * BN, tm * BM))
        lm.tma_store_wait()
