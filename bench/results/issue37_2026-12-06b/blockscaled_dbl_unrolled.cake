# D[M, N] = bf16(sum over k-blocks kb of SA[kb, m] * SB[kb, n] * (A[m, kb] . B[n, kb]^T)) on
# Hopper: the fp8 GEMM with fine-grained block scales, as DeepGEMM scales it. A e4m3 (M, K)
# with a scale per row and 128 columns (1 x 128 blocks of activations), B e4m3 (N, K) with a
# scale per 128 x 128 block of the weight; f32 accumulation, bf16 out.
#
# Scales: SA is (ceil(K / 128), M') f32, the activations' scales M-major as DeepGEMM lays them
# (row kb holds every row's scale for k-block kb), M' = M rounded up to 256 (a cluster's pair of
# tiles; pad with anything finite). SB is (ceil(K / 128), N') f32, the weight's scales given per
# column: row kb holds, for every column n, the scale of the 128 x 128 block (n // 128, kb)
# (each block's scale repeated over its 128 columns: a one-time expansion of a static weight's
# (N / 128, K / 128) scales), N' = N rounded up to 128.
#
# The schedule is examples/gemm_fp8_sm90a.cake's with -DPROMOTE=True (persistent, 128x128
# tiles of two consumer warpgroups, 2-block clusters sharing B, C stored in quarters under the
# next tile's first wgmmas). Each stage's k-block of SA and SB travels with the stage's A and B
# tiles (the same barrier), and the math warpgroups take each stage's product from the tensor
# core into the f32 accumulator scaled by both (the tensor core's fp8 accumulation keeps fewer
# bits than f32: DeepGEMM promotes the same way, once per 128 of K).
# Shapes are declared: any M, and N, K that are multiples of 16.
# target: sm_90a
from stdlib.hopper import WGMMA_M, SWIZZLE_128B_FP8_K

BM = 2 * WGMMA_M
BN = 128
BK = SWIZZLE_128B_FP8_K      # one k-block of the scales per stage
STAGES = 5
GROUP_M = 8   # pairs of tile rows per group, walked column by column
# The weight's scale is one value per tile and k-block (BN = 128 columns, one weight block): with
# B_SCALE_ONE=True each thread reads it once, the first element of the stage's row of SB
# (view.load(shape=(1, 1))), and multiplies it into the rows' scales before the product (one
# multiply per element); False reads SB's row as BN columns (32 values per thread) and multiplies
# twice per element.
B_SCALE_ONE = True

# grid: pairs P = ceil(M / 2BM) * ceil(N / BN), rounds R = ceil(P / (sm_count // 2)),
# clusters ceil(P / R), two blocks each
@cake.schedule(grid=((((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN))
                      + (((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN)) + lm.sm_count() // 2 - 1) // (lm.sm_count() // 2) - 1)
                     // ((((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN)) + lm.sm_count() // 2 - 1) // (lm.sm_count() // 2)) * 2,),
                cluster=(2, 1, 1))
def gemm_fp8_blockscaled(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], SA: LM.tma2d, SB: LM.tma2d,
                         M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK + BM * BN * 2 + STAGES * (BM + BN) * 4)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.e4m3, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK, shape=(BN, BK), dtype=lm.e4m3, stage=STAGES, swizzle="128B")
    c_s = pool.view(offset=STAGES * (BM + BN) * BK, shape=(BM, BN), dtype=lm.bf16, swizzle="128B")  # the tile of C
    sa_s = pool.view(offset=STAGES * (BM + BN) * BK + BM * BN * 2, shape=(1, BM), dtype=lm.f32, stage=STAGES)
    sb_s = pool.view(offset=STAGES * (BM + BN) * BK + BM * BN * 2 + STAGES * BM * 4, shape=(1, BN), dtype=lm.f32,
                     stage=STAGES)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    part0 = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)  # even stages' products
    part1 = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)  # odd stages' products
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=16, pipeline=ring)  # a warp of 8, 2 blocks
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
                sa_s.tma_load(SA, coords=(tm * BM, k), stage=j * k_steps + k, barrier=full)
                sb_s.tma_load(SB, coords=(tn * BN, k), stage=j * k_steps + k, barrier=full)
    with math:
        for j in lm.range(0, my_tiles):
            p = lm.cluster_id(0) + j * lm.num_clusters(0)
            first_m = p // group_pairs * GROUP_M
            rows = lm.min(m_pairs - first_m, GROUP_M)
            tm = 2 * (first_m + p % group_pairs % rows) + lm.cluster_rank()
            tn = p % group_pairs // rows
            acc = lm.fill(acc, 0.0)
            # stage 0 of the tile into part0; then two stages an iteration, each stage's product
            # added while the next stage's wgmmas run (a wgmma wait that leaves one group in flight)
            lm.wait(full, stage=j * k_steps)
            lm.mma(part0, a_s[j * k_steps], b_s[j * k_steps].T, init=True)
            lm.mma_commit()
            for k2 in lm.range(0, (k_steps - 1) // 2):
                lm.wait(full, stage=j * k_steps + 2 * k2 + 1)
                lm.mma(part1, a_s[j * k_steps + 2 * k2 + 1], b_s[j * k_steps + 2 * k2 + 1].T, init=True)
                lm.mma_commit()
                sa = sa_s.load(stage=j * k_steps + 2 * k2, rows=True)
                sb = sb_s.load(stage=j * k_steps + 2 * k2, shape=(1, 1))
                lm.mma_wait(pending=1)
                lm.arrive(empty, stage=j * k_steps + 2 * k2, per="warp", cluster=True)
                acc = acc + part0 * (sa * sb)
                lm.wait(full, stage=j * k_steps + 2 * k2 + 2)
                lm.mma(part0, a_s[j * k_steps + 2 * k2 + 2], b_s[j * k_steps + 2 * k2 + 2].T, init=True)
                lm.mma_commit()
                sa = sa_s.load(stage=j * k_steps + 2 * k2 + 1, rows=True)
                sb = sb_s.load(stage=j * k_steps + 2 * k2 + 1, shape=(1, 1))
                lm.mma_wait(pending=1)
                lm.arrive(empty, stage=j * k_steps + 2 * k2 + 1, per="warp", cluster=True)
                acc = acc + part1 * (sa * sb)
            if k_steps % 2 == 0:  # one more (odd) stage
                lm.wait(full, stage=j * k_steps + k_steps - 1)
                lm.mma(part1, a_s[j * k_steps + k_steps - 1], b_s[j * k_steps + k_steps - 1].T, init=True)
                lm.mma_commit()
                sa = sa_s.load(stage=j * k_steps + k_steps - 2, rows=True)
                sb = sb_s.load(stage=j * k_steps + k_steps - 2, shape=(1, 1))
                lm.mma_wait(pending=1)
                lm.arrive(empty, stage=j * k_steps + k_steps - 2, per="warp", cluster=True)
                acc = acc + part0 * (sa * sb)
                sa = sa_s.load(stage=j * k_steps + k_steps - 1, rows=True)
                sb = sb_s.load(stage=j * k_steps + k_steps - 1, shape=(1, 1))
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=j * k_steps + k_steps - 1, per="warp", cluster=True)
                acc = acc + part1 * (sa * sb)
            else:
                sa = sa_s.load(stage=j * k_steps + k_steps - 1, rows=True)
                sb = sb_s.load(stage=j * k_steps + k_steps - 1, shape=(1, 1))
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=j * k_steps + k_steps - 1, per="warp", cluster=True)
                acc = acc + part0 * (sa * sb)
            out = lm.cast(acc, lm.bf16)
            lm.tma_store_wait()
            lm.role_sync()
            c_s.store(out)
            lm.fence_proxy()
            lm.role_sync()
            c_s.tma_store(C, coords=(tn * BN, tm * BM))
        lm.tma_store_wait()
