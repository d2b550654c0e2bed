# An i8 GEMM for sm_80: the sm_80 example's schedule with 8-bit integer
# operands, mma.sync m16n8k32 into an i32 accumulator, stored as i32. Input
# of testsuite/codegen/gemm_mma_sync_fp8.test.
BM = 256
BN = 128
BK = 64                     # one 64-byte swizzled row of e4m3 per stage
STAGES = 4

@cake.schedule(grid=(M // BM, N // BN))
def gemm_i8_sm80(lm, A: LM.tensor2d, B: LM.tensor2d, C: LM.tensor2d, M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK + BM * BN * 4)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.i8, stage=STAGES, swizzle="64B")
    b_s = pool.view(offset=STAGES * BM * BK, shape=(BN, BK), dtype=lm.i8, stage=STAGES, swizzle="64B")
    c_s = pool.view(offset=STAGES * (BM + BN) * BK, shape=(BM, BN), dtype=lm.i32, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11])
    acc = lm.regs(shape=(BM, BN), dtype=lm.i32, role=math)
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

        c_s.store(acc)
        lm.role_sync()
        c_s.copy_to(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
