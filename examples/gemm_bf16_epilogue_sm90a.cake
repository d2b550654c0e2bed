# D[M, N] = act(alpha * A[M, K] . B[N, K]^T + bias[N]) + beta * R[M, N] on
# Hopper: the bf16 GEMM of gemm_bf16_sm90a.cake with the epilogue users ask
# for, fused: a bias of one value per column (bf16, or f32 with
# -DBIAS_F32=True), an activation (ACT: 0 none, 1 ReLU, 2 GELU in its tanh
# form, 3 SiLU), a residual R read back from global memory into the
# accumulator layout (RESIDUAL=False leaves it out) and two scales.
#
# The producer warpgroup fetches the block's bias and residual tiles first,
# on a barrier of their own (`epi`), into the bias view and the output
# staging tile, which the main loop does not touch; then it streams A and B
# through the 3-stage ring. After the last k-step each consumer warpgroup
# loads its rows of the residual and the bias columns into registers
# (view.load: the accumulator layout, a column vector), computes the
# epilogue in f32 and writes bf16 back over the residual it read: each
# thread writes exactly the elements it loaded, so no other thread's load
# is overtaken. Any M and N, and K, N multiples of 8, as the plain GEMM.
# target: sm_90a
from stdlib.hopper import WGMMA_M, WGMMA_N_MAX, SWIZZLE_128B_BF16_K

BM = 2 * WGMMA_M
BN = WGMMA_N_MAX
BK = SWIZZLE_128B_BF16_K
STAGES = 3
ACT = 3
BIAS_F32 = False
RESIDUAL = True
LOG2E = 1.4426950408889634
GELU_C = 0.7978845608028654   # sqrt(2 / pi)
RING_BYTES = STAGES * (BM + BN) * BK * 2
C_BYTES = BM * BN * 2

@cake.schedule(grid=((M + BM - 1) // BM, (N + BN - 1) // BN))
def gemm_bf16_epilogue(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], BIAS: LM.tma2d[1, N], R: LM.tma2d[M, N],
                       D: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32, alpha: LM.f32, beta: LM.f32):
    pool = lm.smem(RING_BYTES + C_BYTES + BN * 4)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    c_s = pool.view(offset=RING_BYTES, shape=(BM, BN), dtype=lm.bf16, swizzle="128B")
    if BIAS_F32:
        bias_s = pool.view(offset=RING_BYTES + C_BYTES, shape=(1, BN), dtype=lm.f32)
    else:
        bias_s = pool.view(offset=RING_BYTES + C_BYTES, shape=(1, BN), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=2, pipeline=ring)
    epi = lm.barrier(count=1, prod=[load], cons=[math])
    with load:
        bias_s.tma_load(BIAS, coords=(lm.block_id(1) * BN, 0), barrier=epi)
        if RESIDUAL:
            c_s.tma_load(R, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM), barrier=epi)
        for k in lm.range(0, (K + BK - 1) // BK):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * BK, lm.block_id(0) * BM), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * BK, lm.block_id(1) * BN), stage=k, barrier=full)
    with math:
        for k in lm.range(0, (K + BK - 1) // BK):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        lm.wait(epi, stage=0)
        v = acc * alpha + lm.cast(bias_s.load(), lm.f32)
        if ACT == 1:
            v = lm.maximum(v, 0.0)
        if ACT == 2:
            v = 0.5 * v * (1.0 + lm.tanh(GELU_C * (v + 0.044715 * v * v * v)))
        if ACT == 3:
            v = v / (1.0 + lm.exp2(v * -LOG2E))
        if RESIDUAL:
            v = v + beta * lm.cast(c_s.load(), lm.f32)
        out = lm.cast(v, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(D, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
        lm.tma_store_wait()
