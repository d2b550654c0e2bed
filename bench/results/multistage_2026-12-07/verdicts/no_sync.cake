# target: sm_80
# no role sync (rejected: safety.alias-race; lowered with -fno-gates=all)
BM = 256
BN = 128
BK = 32                     # one 64-byte swizzled row of bf16 per stage
STAGES = 4

@cake.schedule(grid=(M // BM, N // BN))
def gemm_bf16_multistage_sm80(lm, A: LM.tensor2d, B: LM.tensor2d, C: LM.tensor2d, M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK * 2 + BM * BN * 2)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="64B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="64B")
    c_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    got = lm.barrier(count=STAGES, prod=[math], cons=[math], init_count=512, pipeline=ring)
    steps = lm.max(K // BK, STAGES - 1)
    with math:
        for p in lm.range(0, STAGES - 1):
            a_s.cp_async(A, coords=(p * BK, lm.block_id(0) * BM), stage=p, barrier=got)
            b_s.cp_async(B, coords=(p * BK, lm.block_id(1) * BN), stage=p, barrier=got)
        acc = lm.fill(acc, 0.0)
        for k in lm.range(0, steps):
            lm.wait(got, stage=k)
            if k + STAGES - 1 < steps:
                a_s.cp_async(A, coords=((k + STAGES - 1) * BK, lm.block_id(0) * BM), stage=k + STAGES - 1, barrier=got)
                b_s.cp_async(B, coords=((k + STAGES - 1) * BK, lm.block_id(1) * BN), stage=k + STAGES - 1, barrier=got)
            lm.mma(acc, a_s[k], b_s[k].T)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.role_sync()
        c_s.copy_to(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
