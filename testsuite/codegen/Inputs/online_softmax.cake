# Fragment algebra over a K loop: a running row maximum and row sum carried
# across iterations (assignment updates a fragment in place), broadcasts of
# row vectors, a causal mask from tile coordinates, and a row vector stored
# for a TMA store (one f32 per row).
from stdlib.hopper import WGMMA_M, WGMMA_N_MAX, SWIZZLE_128B_BF16_K

BM = 2 * WGMMA_M
BN = WGMMA_N_MAX
BK = SWIZZLE_128B_BF16_K
STAGES = 3
SCALE_LOG2 = 0.12752                   # log2(e) / sqrt(128)

@cake.schedule(grid=(M // BM, N // BN))
def softmax_gemm(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, LSE: LM.tma2d, M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(213504)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    c_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.bf16, swizzle="128B")
    lse_s = pool.view(offset=212992, shape=(1, BM), dtype=lm.f32)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    o = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    m_run = lm.regs(shape=(BM, 1), dtype=lm.f32, role=math)
    l_run = lm.regs(shape=(BM, 1), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=2, pipeline=ring)
    with load:
        for k in lm.range(0, K // BK):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * BK, lm.block_id(0) * BM), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * BK, lm.block_id(1) * BN), stage=k, barrier=full)
    with math:
        m_run = lm.fill(m_run, -1e30)
        l_run = lm.fill(l_run, 0.0)
        o = lm.fill(o, 0.0)
        for k in lm.range(0, K // BK):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=True)
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
            s = lm.tril(acc, row=lm.block_id(0) * BM, col=k * BN)
            m_new = lm.maximum(m_run, lm.rowmax(s) * SCALE_LOG2)
            p = lm.exp2(s * SCALE_LOG2 - m_new)
            alpha = lm.exp2(m_run - m_new)
            l_run = l_run * alpha + lm.rowsum(p)
            o = o * alpha + p
            m_run = m_new
        out = lm.cast(o / l_run, lm.bf16)
        c_s.store(out)
        lse_s.store(m_run + lm.log2(l_run))
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
        lse_s.tma_store(LSE, coords=(lm.block_id(0) * BM, lm.block_id(1)))  # a row of LSE per column tile
        lm.tma_store_wait()
