# D[M, N] = bf16(alpha * A[M, K] . B[N, K]^T) on Hopper, A and B fp8: e4m3
# (B e5m2 with -DB_E5M2=True), f32 accumulation, a per-tensor scale alpha
# (the product of A's and B's dequantization scales, as torch._scaled_mm
# takes them) applied in the epilogue, bf16 out.
#
# The schedule is the bf16 persistent cluster GEMM's
# (examples/gemm_bf16_persistent_cluster_sm90a.cake): 128x256 tiles shared by
# two consumer warpgroups, a 4-stage ring, 2-block clusters that multicast
# B, each tile's C stored in quarters under the next tile's first wgmmas.
# fp8 wgmma takes 32 elements of K per instruction, so a 128-byte swizzled
# row holds BK = 128 of them and a stage moves the same bytes as the bf16
# one for twice the multiply-adds. fp8 wgmma reads both operands K-major:
# A as (M, K) and B as (N, K) used as '.T' (the gate rejects an MN-major
# fp8 operand, hw.mma-operand-major).
#
# Accumulation is the tensor core's own over the whole K loop (what
# torch._scaled_mm calls use_fast_accum=True), or with -DPROMOTE=True the
# product of every PROMOTE_EVERY stages (K = 128 each) is taken from the
# tensor core into an f32 accumulator by the math warpgroups, as DeepGEMM
# does (the tensor core's fp8 accumulation keeps fewer bits than f32); that
# needs a second accumulator, so -DBN=128. bench/results/ has the error of each beside cuBLASLt's.
# Shapes are declared: any M, and N, K that are multiples of 16 (16-byte
# rows of fp8 and of the bf16 output for TMA).
# target: sm_90a
from stdlib.hopper import WGMMA_M, WGMMA_N_MAX, SWIZZLE_128B_FP8_K

BM = 2 * WGMMA_M
BN = WGMMA_N_MAX
BK = SWIZZLE_128B_FP8_K
STAGES = 4
GROUP_M = 8   # pairs of tile rows per group, walked column by column
B_E5M2 = False
PROMOTE = False  # add the tensor core's product into an f32 accumulator every PROMOTE_EVERY stages
PROMOTE_EVERY = 1  # stages (of 4 k32 wgmmas, K = 128) per promotion
INFLIGHT = False  # keep one stage's wgmmas in flight (not with PROMOTE, which adds each stage's product)

# grid: pairs P = ceil(M / 2BM) * ceil(N / BN), rounds R = ceil(P / (sm_count // 2)),
# clusters ceil(P / R), two blocks each
@cake.schedule(grid=((((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN))
                      + (((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN)) + lm.sm_count() // 2 - 1) // (lm.sm_count() // 2) - 1)
                     // ((((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN)) + lm.sm_count() // 2 - 1) // (lm.sm_count() // 2)) * 2,),
                cluster=(2, 1, 1))
def gemm_fp8(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32,
             alpha: LM.f32):
    pool = lm.smem(STAGES * (BM + BN) * BK + BM * BN // 2)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.e4m3, stage=STAGES, swizzle="128B")
    if B_E5M2:
        b_s = pool.view(offset=STAGES * BM * BK, shape=(BN, BK), dtype=lm.e5m2, stage=STAGES, swizzle="128B")
    else:
        b_s = pool.view(offset=STAGES * BM * BK, shape=(BN, BK), dtype=lm.e4m3, stage=STAGES, swizzle="128B")
    if BN == 256:
        c_q = pool.view(offset=STAGES * (BM + BN) * BK, shape=(BM, BN // 4), dtype=lm.bf16, swizzle="128B")  # a quarter of C
    else:  # 128-column tiles: a quarter's rows are 64 bytes
        c_q = pool.view(offset=STAGES * (BM + BN) * BK, shape=(BM, BN // 4), dtype=lm.bf16, swizzle="64B")
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    if PROMOTE:
        part = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)  # one stage's product
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
            if PROMOTE:
                acc = lm.fill(acc, 0.0)
            for k in lm.range(0, k_steps):
                lm.wait(full, stage=j * k_steps + k)
                if PROMOTE:
                    lm.mma(part, a_s[j * k_steps + k], b_s[j * k_steps + k].T, init=(k % PROMOTE_EVERY == 0))
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
                    if k % PROMOTE_EVERY == PROMOTE_EVERY - 1 or k == k_steps - 1:
                        acc = acc + part
            if INFLIGHT:
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=j * k_steps + k_steps - 1, per="warpgroup", cluster=True)
            out = lm.cast(acc * alpha, lm.bf16)
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
