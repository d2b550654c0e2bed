# C[M, N] = A[M, K] . B[N, K]^T: bf16 in, f32 accumulate, bf16 out, on
# Ampere and Ada (sm_80, sm_89) with mma.sync; runs on Hopper too.
# target: sm_80
#
# A producer warpgroup streams 256x32 tiles of A and 128x32 tiles of B
# through a 4-stage ring with cp.async; each of its 128 threads arrives on
# `full` once its chunks of a copy land (two copies: 256 arrivals a phase).
# (One producer warp could not issue the copies fast enough: 1.7x slower.)
# Two consumer warpgroups multiply with mma.sync into a 256x128 register
# accumulator (each warp 2 x 16 rows by 128 columns: 128 f32 registers of
# the 168 that 12 warps leave a thread), operands from ldmatrix, and every
# thread hands a stage back itself (mma.sync is synchronous, but a thread
# only knows that its own reads are done; per="warp" is also correct, its
# lanes ordered by __syncwarp, but compute-sanitizer's racecheck does not
# credit that ordering and reports the ring's reuse). The epilogue stages the bf16 tile
# in shared memory and copies it out. M, N and K must be multiples of 256,
# 128 and 32. BM, BN and STAGES can be set with -D (BM a multiple of 128):
# sm_89's 99 KB of shared memory takes -DBM=128 -DSTAGES=3.
BM = 256
BN = 128
BK = 32                     # one 64-byte swizzled row of bf16 per stage
STAGES = 4

@cake.schedule(grid=(M // BM, N // BN))
def gemm_bf16_sm80(lm, A: LM.tensor2d, B: LM.tensor2d, C: LM.tensor2d, M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK * 2 + BM * BN * 2)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="64B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="64B")
    c_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11])
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=256, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=256, pipeline=ring)
    with load:
        for k in lm.range(0, K // BK):
            lm.wait(empty, stage=k)
            a_s.cp_async(A, coords=(k * BK, lm.block_id(0) * BM), stage=k, barrier=full)
            b_s.cp_async(B, coords=(k * BK, lm.block_id(1) * BN), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // BK):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.arrive(empty, stage=k, per="thread")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.role_sync()
        c_s.copy_to(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
