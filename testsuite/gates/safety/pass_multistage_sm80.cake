# Near miss of fail_multistage_sm80.cake (the example itself,
# examples/gemm_bf16_multistage_sm80.cake, is checked in
# testsuite/sema/examples_ir.test): the role sync before the wait still
# orders every warp's reads of the previous k-step's slot before the copy
# over it, and the wait orders every thread's chunks before the reads.
# copy_wait_mma: no role sync between a role's cp_async copies and its
# mma.sync reads of them: each thread's wait on the copies' barrier (every
# copying thread arrives once its chunks land) orders all of them first.
# RUN: %cakec -verify -fsyntax-only --target=sm_80 %s
# RUN: %cakec --target=sm_80 %s -o %t.cu
# expected-no-diagnostics
BM = 256
BN = 128
BK = 32                     # one 64-byte swizzled row of bf16 per stage
STAGES = 4

@cake.schedule(grid=(M // BM, N // BN))
def sync_before_wait(lm, A: LM.tensor2d, B: LM.tensor2d, C: LM.tensor2d, M: LM.i32, N: LM.i32, K: LM.i32):
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
            lm.role_sync()
            lm.wait(got, stage=k)
            if k + STAGES - 1 < steps:
                a_s.cp_async(A, coords=((k + STAGES - 1) * BK, lm.block_id(0) * BM), stage=k + STAGES - 1, barrier=got)
                b_s.cp_async(B, coords=((k + STAGES - 1) * BK, lm.block_id(1) * BN), stage=k + STAGES - 1, barrier=got)
            lm.mma(acc, a_s[k], b_s[k].T)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.role_sync()
        c_s.copy_to(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))

@cake.schedule(grid=(1,))
def copy_wait_mma(lm, A: LM.tensor2d, B: LM.tensor2d, C: LM.tensor2d):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 32), dtype=lm.bf16, swizzle="64B")
    b_s = pool.view(offset=4096, shape=(64, 32), dtype=lm.bf16, swizzle="64B")
    c_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    got = lm.barrier(count=1, prod=[math], cons=[math], init_count=256)
    with math:
        a_s.cp_async(A, coords=(0, 0), barrier=got)
        b_s.cp_async(B, coords=(0, 0), barrier=got)
        lm.wait(got, stage=0)
        lm.mma(acc, a_s, b_s.T, init=True)
        c_s.store(lm.cast(acc, lm.bf16))
        lm.role_sync()
        c_s.copy_to(C, coords=(0, 0))

# sync_after_first (found by review, helper-47: rejected before): the role
# sync from the second k-step on; at k = 0 the copy goes into a slot no
# k-step has read, and a path round the loop's back edge is past k = 0.
@cake.schedule(grid=(M // BM, N // BN))
def sync_after_first(lm, A: LM.tensor2d, B: LM.tensor2d, C: LM.tensor2d, M: LM.i32, N: LM.i32, K: LM.i32):
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
            if k > 0:
                lm.role_sync()
            if k + STAGES - 1 < steps:
                a_s.cp_async(A, coords=((k + STAGES - 1) * BK, lm.block_id(0) * BM), stage=k + STAGES - 1, barrier=got)
                b_s.cp_async(B, coords=((k + STAGES - 1) * BK, lm.block_id(1) * BN), stage=k + STAGES - 1, barrier=got)
            lm.mma(acc, a_s[k], b_s[k].T)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.role_sync()
        c_s.copy_to(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
