# C[M, N] = A[M, K] . B[N, K]^T on Hopper: the persistent GEMM
# (examples/gemm_bf16_persistent_sm90a.cake: 128x256 tiles shared by two
# consumer warpgroups, a 4-stage ring, each tile's C stored in quarters under
# the next tile's first wgmmas) in 2-block clusters. The two blocks of a
# cluster walk the same pairs of vertically adjacent tiles, rank r taking the
# pair's row r, so at each k-step they need the same BN x BK tile of B: each
# copies half of its rows and multicasts them to both (multicast=2), which
# cuts a block's reads from L2 per k-step from 48 KB to 32 KB. A stage of B
# is then written by both producers, so each consumer warpgroup releases it
# in both blocks (cluster=True: 2 warpgroups x 2 blocks per phase). The walk
# is indexed by lm.cluster_id(0), the same in both blocks, which is what lets
# the gate prove the multicast coordinates equal (data.multicast-coords).
#
# The grid is balanced as the persistent example's, in clusters: the fewest
# clusters that need as many rounds of tile pairs as one cluster per two
# multiprocessors would.
# Shapes are declared: any M, and N, K that are multiples of 8.
# target: sm_90a
from stdlib.hopper import WGMMA_M, WGMMA_N_MAX, SWIZZLE_128B_BF16_K

BM = 2 * WGMMA_M
BN = WGMMA_N_MAX
BK = SWIZZLE_128B_BF16_K
STAGES = 4
GROUP_M = 8   # pairs of tile rows per group, walked column by column

# grid: pairs P = ceil(M / 2BM) * ceil(N / BN), rounds R = ceil(P / (sm_count // 2)),
# clusters ceil(P / R), two blocks each
@cake.schedule(grid=((((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN))
                      + (((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN)) + lm.sm_count() // 2 - 1) // (lm.sm_count() // 2) - 1)
                     // ((((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN)) + lm.sm_count() // 2 - 1) // (lm.sm_count() // 2)) * 2,),
                cluster=(2, 1, 1))
def gemm_bf16(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK * 2 + BM * BN // 2)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    c_q = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN // 4), dtype=lm.bf16, swizzle="128B")  # a quarter of C
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    out = lm.regs(shape=(BM, BN), dtype=lm.bf16, role=math)  # the last tile's C, stored under the next tile's wgmmas
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
            # the previous tile's place in C: its quarters are stored under this tile's first k-steps
            p = lm.cluster_id(0) + (j - 1) * lm.num_clusters(0)
            first_m = p // group_pairs * GROUP_M
            rows = lm.min(m_pairs - first_m, GROUP_M)
            tm = 2 * (first_m + p % group_pairs % rows) + lm.cluster_rank()
            tn = p % group_pairs // rows
            for k in lm.range(0, k_steps):
                lm.wait(full, stage=j * k_steps + k)
                lm.mma(acc, a_s[j * k_steps + k], b_s[j * k_steps + k].T, init=(k == 0))
                lm.mma_commit()
                if j > 0 and k == lm.min(0, k_steps - 1):
                    lm.tma_store_wait()
                    lm.role_sync()
                    c_q.store(out, col=0)
                    lm.fence_proxy()
                    lm.role_sync()
                    c_q.tma_store(C, coords=(tn * BN, tm * BM))
                if j > 0 and k == lm.min(1, k_steps - 1):
                    lm.tma_store_wait()
                    lm.role_sync()
                    c_q.store(out, col=BN // 4)
                    lm.fence_proxy()
                    lm.role_sync()
                    c_q.tma_store(C, coords=(tn * BN + BN // 4, tm * BM))
                if j > 0 and k == lm.min(2, k_steps - 1):
                    lm.tma_store_wait()
                    lm.role_sync()
                    c_q.store(out, col=BN // 2)
                    lm.fence_proxy()
                    lm.role_sync()
                    c_q.tma_store(C, coords=(tn * BN + BN // 2, tm * BM))
                if j > 0 and k == lm.min(3, k_steps - 1):
                    lm.tma_store_wait()
                    lm.role_sync()
                    c_q.store(out, col=3 * BN // 4)
                    lm.fence_proxy()
                    lm.role_sync()
                    c_q.tma_store(C, coords=(tn * BN + 3 * BN // 4, tm * BM))
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=j * k_steps + k, per="warpgroup", cluster=True)
            out = lm.cast(acc, lm.bf16)
        # the last tile's quarters
        if my_tiles > 0:
            p = lm.cluster_id(0) + (my_tiles - 1) * lm.num_clusters(0)
            first_m = p // group_pairs * GROUP_M
            rows = lm.min(m_pairs - first_m, GROUP_M)
            tm = 2 * (first_m + p % group_pairs % rows) + lm.cluster_rank()
            tn = p % group_pairs // rows
            lm.tma_store_wait()
            lm.role_sync()
            c_q.store(out, col=0)
            lm.fence_proxy()
            lm.role_sync()
            c_q.tma_store(C, coords=(tn * BN, tm * BM))
            lm.tma_store_wait()
            lm.role_sync()
            c_q.store(out, col=BN // 4)
            lm.fence_proxy()
            lm.role_sync()
            c_q.tma_store(C, coords=(tn * BN + BN // 4, tm * BM))
            lm.tma_store_wait()
            lm.role_sync()
            c_q.store(out, col=BN // 2)
            lm.fence_proxy()
            lm.role_sync()
            c_q.tma_store(C, coords=(tn * BN + BN // 2, tm * BM))
            lm.tma_store_wait()
            lm.role_sync()
            c_q.store(out, col=3 * BN // 4)
            lm.fence_proxy()
            lm.role_sync()
            c_q.tma_store(C, coords=(tn * BN + 3 * BN // 4, tm * BM))
        lm.tma_store_wait()
