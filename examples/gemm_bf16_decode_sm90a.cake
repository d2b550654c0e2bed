# A decode GEMM on Hopper: C[M, N] = A[M, K] . B[N, K]^T for small M (the
# tokens of a batch) and a large weight B, bf16 in, f32 accumulate, bf16 out.
#
# With M at most BM the product is bound by reading B once (N x K x 2 bytes),
# not by the tensor cores, so the schedule is shaped for the copy engine:
# tiles of BN = 56 weight rows make N = 7168 exactly 128 blocks, one per SM
# and each streaming its own slice of B through a 14-stage ring. The A tile
# is BM rows of the few real ones: TMA reads zeros past row M and drops the
# stores past it, so any M works (the shapes are declared) and the wasted
# tensor-core work is free here. BM = 64 (one consumer warpgroup) serves M
# up to 64; -DBM=128 -DSTAGES=8 (two, and a ring that fits) up to 128.
# Larger M is the 128x256 schedule's (examples/gemm_bf16_sm90a.cake).
# target: sm_90a
from stdlib.hopper import WGMMA_M, SWIZZLE_128B_BF16_K

BM = WGMMA_M                # rows of A per block: 64 or 128
BN = 56                     # weight rows per block: N = 7168 is 128 blocks
BK = SWIZZLE_128B_BF16_K    # one 128-byte swizzled row of bf16 per stage
STAGES = 14                 # 14 x 15 KB of copies in flight per SM
OVERLAP = BM == WGMMA_M      # one wgmma group in flight (a stage freed a step later): 1-3% faster at BM = 64, 2-6% slower at 128

@cake.schedule(grid=((N + BN - 1) // BN, (M + BM - 1) // BM))
def gemm_bf16_decode(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK * 2 + BM * BN * 2)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    c_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    if BM == 128:
        math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    else:
        math = lm.role(warps=[4, 5, 6, 7], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=BM // WGMMA_M, pipeline=ring)
    with load:
        for k in lm.range(0, (K + BK - 1) // BK):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * BK, lm.block_id(1) * BM), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * BK, lm.block_id(0) * BN), stage=k, barrier=full)
    with math:
        for k in lm.range(0, (K + BK - 1) // BK):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            if OVERLAP:
                lm.mma_wait(pending=1)                   # the previous step's wgmma is done: free its stage
                if k > 0:
                    lm.arrive(empty, stage=k - 1, per="warpgroup")
            else:
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=k, per="warpgroup")
        if OVERLAP:
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=(K + BK - 1) // BK - 1, per="warpgroup")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(0) * BN, lm.block_id(1) * BM))
        lm.tma_store_wait()
