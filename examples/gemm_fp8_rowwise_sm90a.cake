# D[M, N] = bf16(SA[M] * SB[N] * (A[M, K] . B[N, K]^T)) on Hopper: the fp8
# GEMM with row-wise scales, a dequantization scale per row of A and per row
# of B as torch._scaled_mm takes them (SA the (M, 1) f32 tensor viewed as
# (1, M), SB a (1, N) one). A e4m3, B e4m3 (e5m2 with -DB_E5M2=True), f32 accumulation, bf16 out.
#
# The schedule is examples/gemm_fp8_sm90a.cake's (persistent, 128x256 tiles,
# 2-block clusters sharing B, C stored in quarters under the next tile's
# first wgmmas; -DPROMOTE=True -DBN=128 promotes each stage's product to
# f32, -DINFLIGHT=True keeps a stage's wgmmas in flight). The producer also
# copies each tile's BM rows of SA and BN columns of SB into shared memory
# with TMA, through a 2-stage ring of their own (sfull / sempty), before the
# tile's operands. After a tile's K loop each consumer thread reads its 2
# rows of SA (a row vector: `rows=True`) and its 64 columns of SB (a column
# vector) from there into the accumulator layout, releases the stage per
# warp, and scales the accumulator by both before the cast. SA is given as
# a (1, M) tensor (the bytes of torch's (M, 1) scale_a), so TMA copies it.
# Any M and N (TMA zero-fills and drops past the end), K a multiple of 16;
# the scales are read in whole tiles, so SA has M rounded up to 256 (a
# cluster's pair of tiles) and SB N rounded up to BN: the launcher checks
# every tile lies inside them.
# target: sm_90a
from stdlib.hopper import WGMMA_M, WGMMA_N_MAX, SWIZZLE_128B_FP8_K

BM = 2 * WGMMA_M
BN = WGMMA_N_MAX
BK = SWIZZLE_128B_FP8_K
STAGES = 4
GROUP_M = 8   # pairs of tile rows per group, walked column by column
B_E5M2 = False
PROMOTE = False  # add each stage's product (4 k32 wgmmas) into an f32 accumulator
INFLIGHT = False  # keep one stage's wgmmas in flight (not with PROMOTE, which adds each stage's product)

# grid: pairs P = ceil(M / 2BM) * ceil(N / BN), rounds R = ceil(P / (sm_count // 2)),
# clusters ceil(P / R), two blocks each
@cake.schedule(grid=((((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN))
                      + (((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN)) + lm.sm_count() // 2 - 1) // (lm.sm_count() // 2) - 1)
                     // ((((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN)) + lm.sm_count() // 2 - 1) // (lm.sm_count() // 2)) * 2,),
                cluster=(2, 1, 1))
def gemm_fp8_rowwise(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], SA: LM.tma2d, SB: LM.tma2d,
                     M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK + BM * BN // 2 + 2 * (BM + BN) * 4)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.e4m3, stage=STAGES, swizzle="128B")
    if B_E5M2:
        b_s = pool.view(offset=STAGES * BM * BK, shape=(BN, BK), dtype=lm.e5m2, stage=STAGES, swizzle="128B")
    else:
        b_s = pool.view(offset=STAGES * BM * BK, shape=(BN, BK), dtype=lm.e4m3, stage=STAGES, swizzle="128B")
    if BN == 256:
        c_q = pool.view(offset=STAGES * (BM + BN) * BK, shape=(BM, BN // 4), dtype=lm.bf16, swizzle="128B")  # a quarter of C
    else:  # 128-column tiles: a quarter's rows are 64 bytes
        c_q = pool.view(offset=STAGES * (BM + BN) * BK, shape=(BM, BN // 4), dtype=lm.bf16, swizzle="64B")
    sb_s = pool.view(offset=STAGES * (BM + BN) * BK + BM * BN // 2, shape=(1, BN), dtype=lm.f32, stage=2)
    sa_s = pool.view(offset=STAGES * (BM + BN) * BK + BM * BN // 2 + 2 * BN * 4, shape=(1, BM), dtype=lm.f32,
                     stage=2)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    if PROMOTE:
        part = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)  # one stage's product
    out = lm.regs(shape=(BM, BN), dtype=lm.bf16, role=math)  # the last tile's C, stored under the next tile's wgmmas
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=4, pipeline=ring)
    scales = lm.pipeline(stages=2)  # each tile's rows of SA and columns of SB
    sfull = lm.barrier(count=2, prod=[load], cons=[math], init_count=1, pipeline=scales)
    sempty = lm.barrier(count=2, prod=[math], cons=[load], init_count=8, pipeline=scales)  # one arrival per warp
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
            lm.wait(sempty, stage=j)
            sb_s.tma_load(SB, coords=(tn * BN, 0), stage=j, barrier=sfull)
            sa_s.tma_load(SA, coords=(tm * BM, 0), stage=j, barrier=sfull)
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
            if PROMOTE:
                acc = lm.fill(acc, 0.0)
            for k in lm.range(0, k_steps):
                lm.wait(full, stage=j * k_steps + k)
                if PROMOTE:
                    lm.mma(part, a_s[j * k_steps + k], b_s[j * k_steps + k].T, init=True)
                else:
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
                if INFLIGHT:
                    # keep this stage's wgmmas in flight; release the previous stage
                    lm.mma_wait(pending=1)
                    if k > 0:
                        lm.arrive(empty, stage=j * k_steps + k - 1, per="warpgroup", cluster=True)
                else:
                    lm.mma_wait(pending=0)
                    lm.arrive(empty, stage=j * k_steps + k, per="warpgroup", cluster=True)
                if PROMOTE:
                    acc = acc + part
            if INFLIGHT:
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=j * k_steps + k_steps - 1, per="warpgroup", cluster=True)
            lm.wait(sfull, stage=j)
            sb = sb_s.load(stage=j)
            sa = sa_s.load(stage=j, rows=True)
            lm.arrive(sempty, stage=j, per="warp")
            out = lm.cast(acc * sa * sb, lm.bf16)
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
