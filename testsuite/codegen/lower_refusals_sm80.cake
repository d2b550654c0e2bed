# Forms the sm_80 lowering refuses after the gates accept them: each is an
# error with its lower.* id at its line under -fsyntax-only (which runs the
# lowering), one case per part.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_80 %s
# RUN: %expect-exit 1 %cakec -split-input-file -fsyntax-only --target=sm_80 %s 2>&1 | FileCheck %s --check-prefix=IDS
# IDS: [lower.mma-dtype]
# IDS: [lower.fragment-math]
# IDS: [lower.tensor-dtype]
# IDS-NOT: [lower.tensor-dtype]
# f16 operands into an f16 accumulator: the hardware takes it, the lowering
# accumulates in f32 only; sm_80 has no fp8 conversions.
BM = 256
BN = 128
BK = 32                     # one 64-byte swizzled row of bf16 per stage
STAGES = 4

@cake.schedule(grid=(M // BM, N // BN))
def gemm_bf16_sm80(lm, A: LM.tensor2d, B: LM.tensor2d, C: LM.tensor2d, M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK * 2 + BM * BN * 2)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.f16, stage=STAGES, swizzle="64B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.f16, stage=STAGES, swizzle="64B")
    c_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.f16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11])
    acc = lm.regs(shape=(BM, BN), dtype=lm.f16, role=math)
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
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))  # expected-error {{mma.sync is lowered for A and B of one type among bf16, f16, i8, e4m3, e5m2, with f32 accumulators (i32 for i8) (here f16 and f16 into f16)}}
            lm.arrive(empty, stage=k, per="thread")
        out = lm.cast(acc, lm.f16)
        q8 = lm.cast(acc, lm.e4m3)  # expected-error {{'lm.cast' on fp8 fragments has no sm_80 lowering: fp8 conversions (cvt e4m3x2 / e5m2x2) need sm_89 or later}}
        c_s.store(out)
        lm.role_sync()
        c_s.copy_to(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))

# -----
# One tensor copied as two element types: reported once.
@cake.schedule()
def k(lm, T: LM.tensor2d, n: LM.i32):
    pool = lm.smem(32768)
    x = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16)
    y = pool.view(offset=8192, shape=(64, 64), dtype=lm.f16)
    load = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=1, prod=[load], cons=[load], init_count=256)
    with load:
        x.cp_async(T, coords=(0, 0), barrier=got)
        y.cp_async(T, coords=(64, 0), barrier=got)  # expected-error {{a copy of 'T' as f16 has no sm_80 lowering: an earlier copy reads it as bf16; a tensor has one element type}}
        lm.wait(got, stage=0)
