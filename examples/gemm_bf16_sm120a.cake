# C[M, N] = A[M, K] . B[N, K]^T: bf16 in, f32 accumulate, bf16 out, on
# consumer Blackwell (sm_120a, sm_121a): sm_80's tensor-core path (mma.sync
# with ldmatrix) fed by sm_90's TMA and mbarrier transaction bytes.
# target: sm_120a
#
# One producer warp streams 128x32 tiles of A and B through a 3-stage ring
# with TMA (one elected thread, the bytes counted on `full`); two consumer
# warpgroups multiply with mma.sync into a 128x128 register accumulator and
# each warp hands a stage back on its own. The epilogue stages the bf16 tile
# in shared memory and writes it with a TMA store. The whole schedule fits
# the 99 KB of shared memory of this family. M, N and K must be multiples of
# 128, 128 and 32.
BM = 128
BN = 128
BK = 32                     # one 64-byte swizzled row of bf16 per stage
STAGES = 3

@cake.schedule(grid=(M // BM, N // BN))
def gemm_bf16_sm120a(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK * 2 + BM * BN * 2)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="64B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="64B")
    c_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0])
    math = lm.role(warps=[1, 2, 3, 4, 5, 6, 7, 8])
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=8, pipeline=ring)
    with load:
        for k in lm.range(0, K // BK):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * BK, lm.block_id(0) * BM), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * BK, lm.block_id(1) * BN), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // BK):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.arrive(empty, stage=k, per="warp")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
        lm.tma_store_wait()
