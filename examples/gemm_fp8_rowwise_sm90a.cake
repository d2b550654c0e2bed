# D[M, N] = bf16(SA[M] * SB[N] * (A[M, K] . B[N, K]^T)) on Hopper: the fp8
# GEMM with row-wise scales (a dequantization scale per row of A and per row
# of B, as torch._scaled_mm takes them: SA an (M, 1) f32 tensor, SB a (1, N)
# one). A e4m3, B e4m3 (e5m2 with -DB_E5M2=True), f32 accumulation, bf16 out.
#
# One producer warpgroup streams 128x128 tiles of A and 256x128 tiles of B
# (fp8: one 128-byte swizzled row of K per stage) through a 3-stage ring;
# two consumer warpgroups issue k32 wgmmas into a 128x256 accumulator. Each
# consumer thread reads its rows of SA and its columns of SB straight from
# global memory into the accumulator layout before the K loop (2 and 64
# values: lm.load_tile with layout="accumulator", one element per access),
# so their latency hides under the loop; the epilogue scales, converts,
# stages the tile in shared memory and stores it with TMA.
# Any M and N (the grid rounds up; TMA zero-fills and drops past the end),
# K a multiple of 16; the scale vectors are read in whole tiles, so SA has
# M rounded up to 128 rows and SB N rounded up to 256 columns (the launcher
# checks every tile lies inside them).
# target: sm_90a
from stdlib.hopper import WGMMA_M, WGMMA_N_MAX, SWIZZLE_128B_FP8_K

BM = 2 * WGMMA_M
BN = WGMMA_N_MAX
BK = SWIZZLE_128B_FP8_K
STAGES = 3
B_E5M2 = False
INFLIGHT = False  # keep one stage's wgmmas in flight, releasing the stage before

@cake.schedule(grid=((M + BM - 1) // BM, (N + BN - 1) // BN))
def gemm_fp8_rowwise(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], SA: LM.tensor2d, SB: LM.tensor2d,
                     M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK + BM * BN * 2)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.e4m3, stage=STAGES, swizzle="128B")
    if B_E5M2:
        b_s = pool.view(offset=STAGES * BM * BK, shape=(BN, BK), dtype=lm.e5m2, stage=STAGES, swizzle="128B")
    else:
        b_s = pool.view(offset=STAGES * BM * BK, shape=(BN, BK), dtype=lm.e4m3, stage=STAGES, swizzle="128B")
    c_s = pool.view(offset=STAGES * (BM + BN) * BK, shape=(BM, BN), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=2, pipeline=ring)
    with load:
        for k in lm.range(0, (K + BK - 1) // BK):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * BK, lm.block_id(0) * BM), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * BK, lm.block_id(1) * BN), stage=k, barrier=full)
    with math:
        sa = lm.load_tile(SA, coords=(0, lm.block_id(0) * BM), shape=(BM, 1), dtype=lm.f32, layout="accumulator")
        sb = lm.load_tile(SB, coords=(lm.block_id(1) * BN, 0), shape=(1, BN), dtype=lm.f32, layout="accumulator")
        for k in lm.range(0, (K + BK - 1) // BK):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            if INFLIGHT:
                lm.mma_wait(pending=1)
                if k > 0:
                    lm.arrive(empty, stage=k - 1, per="warpgroup")
            else:
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=k, per="warpgroup")
        if INFLIGHT:
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=(K + BK - 1) // BK - 1, per="warpgroup")
        c_s.store(lm.cast(acc * sa * sb, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
        lm.tma_store_wait()
