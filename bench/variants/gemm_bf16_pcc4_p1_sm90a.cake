# pcc4 (gemm_bf16_pcc4_sm90a.cake) keeping one wgmma group in flight: each
# k-step releases the previous stage, the last after the loop.
# Shapes are declared: any M, and N, K that are multiples of 8. The run:
# bench/results/gemm_pcc_2026-12-01.
# target: sm_90a
from stdlib.hopper import WGMMA_M, WGMMA_N_MAX, SWIZZLE_128B_BF16_K

BM = 2 * WGMMA_M
BN = WGMMA_N_MAX
BK = SWIZZLE_128B_BF16_K
STAGES = 4
GROUP_M = 8   # pairs of tile rows per group, walked column by column

@cake.schedule(grid=((((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN)) + ((((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN)) + (lm.sm_count() // 2) - 1) // (lm.sm_count() // 2)) - 1) // ((((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN)) + (lm.sm_count() // 2) - 1) // (lm.sm_count() // 2)) * 2,), cluster=(2, 1, 1))
def gemm_bf16(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK * 2 + BM * BN)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    c_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN // 2), dtype=lm.bf16, swizzle="128B")  # half of C
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
    with math:
        for j in lm.range(0, my_tiles):
            for k in lm.range(0, k_steps):
                lm.wait(full, stage=j * k_steps + k)
                lm.mma(acc, a_s[j * k_steps + k], b_s[j * k_steps + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=1)
                if k > 0:
                    lm.arrive(empty, stage=j * k_steps + k - 1, per="warpgroup", cluster=True)
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
            c_s.store(out, col=0)
            lm.fence_proxy()
            lm.role_sync()
            c_s.tma_store(C, coords=(tn * BN, tm * BM))
            lm.tma_store_wait()
            lm.role_sync()
            c_s.store(out, col=BN // 2)
            lm.fence_proxy()
            lm.role_sync()
            c_s.tma_store(C, coords=(tn * BN + BN // 2, tm * BM))
        lm.tma_store_wait()
