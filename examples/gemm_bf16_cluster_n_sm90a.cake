# C[M, N] = A[M, K] . B[N, K]^T on Hopper for mid-size products: 128 x BN
# tiles, one per block, in clusters of two blocks that share one operand.
# By default (CM = 1) the clusters are 1x2, along N: the two blocks compute
# horizontally adjacent tiles, so they need the same 128x64 tile of A at each
# k-step: each copies half of its rows and multicasts them to both
# (multicast=2 along dimension 1), halving A's trips from L2. With few tiles
# (1000^3: 128 tiles of 128x64) the product is bound by those trips, not by
# the tensor cores (bench/results/gemm_cluster_small_2026-12-01). A stage of A
# in either block is written by both producers, so both blocks' consumers
# release it (cluster=True: 2 warpgroups x 2 blocks).
# -DCM=2: 2x1 clusters along M, sharing B the same way (multicast=2 along
# dimension 0). With -DBN=144 -DSTAGES=5 a 1536 x 1536 C is 12 x 11 tiles,
# one full wave of 132 blocks (the family's route there:
# bench/results/issue36_2026-12-06d). A BN whose bf16 rows are not whole
# 128-byte panels (144: 288 bytes) stages C unswizzled.
# Shapes are declared: any M, and N, K multiples of 8; the grid rounds up to
# whole clusters (a tile past M or N reads zeros and its store is dropped).
# target: sm_90a
from stdlib.hopper import WGMMA_M, SWIZZLE_128B_BF16_K

BM = 2 * WGMMA_M
BN = 64
BK = SWIZZLE_128B_BF16_K
STAGES = 4
CM = 1                      # 2: clusters along M sharing B, instead of along N sharing A
CN = 3 - CM                 # the clusters' extent along N

@cake.schedule(grid=((M + CM * BM - 1) // (CM * BM) * CM, (N + CN * BN - 1) // (CN * BN) * CN), cluster=(CM, CN, 1))
def gemm_bf16(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK * 2 + BM * BN * 2)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    if BN % 64 == 0:
        c_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.bf16, swizzle="128B")
    else:
        c_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=4, pipeline=ring)
    with load:
        for k in lm.range(0, (K + BK - 1) // BK):
            lm.wait(empty, stage=k)
            if CM == 2:
                a_s.tma_load(A, coords=(k * BK, lm.block_id(0) * BM), stage=k, barrier=full)
                b_s.tma_load(B, coords=(k * BK, lm.block_id(1) * BN), stage=k, barrier=full, multicast=2, multicast_dim=0)
            else:
                a_s.tma_load(A, coords=(k * BK, lm.block_id(0) * BM), stage=k, barrier=full, multicast=2, multicast_dim=1)
                b_s.tma_load(B, coords=(k * BK, lm.block_id(1) * BN), stage=k, barrier=full)
    with math:
        for k in lm.range(0, (K + BK - 1) // BK):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup", cluster=True)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
        lm.tma_store_wait()
