# The Blackwell GEMM (examples/gemm_bf16_sm100a.cake) with its epilogue
# staged in halves: `c_s.store(res, col=c)` stores columns c .. c + 63 of
# the 128x128 tile, in the tcgen05 lanes layout, into a 128x64 view; the
# TMA store of the first half is waited on before the second overwrites it.
# Input of sm100a_store_parts.test.
# target: sm_100a
from stdlib.hopper import SWIZZLE_128B_BF16_K

BM = 128                    # accumulator rows: the TMEM lanes
BN = 128                    # accumulator columns
BK = SWIZZLE_128B_BF16_K    # one 128-byte swizzled row of bf16 per stage
STAGES = 4

@cake.schedule(grid=((M + BM - 1) // BM, (N + BN - 1) // BN))
def gemm_bf16_sm100a(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK * 2 + BM * BN * 2)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    c_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN // 2), dtype=lm.bf16, swizzle="128B")
    acc = lm.tmem(cols=0, width=BN, shape=(BM, BN), dtype=lm.f32)
    epi = lm.role(warps=[0, 1, 2, 3])
    load = lm.role(warps=[4])
    math = lm.role(warps=[5])
    out = lm.regs(shape=(BM, BN), dtype=lm.f32, role=epi)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=1, pipeline=ring)
    done = lm.barrier(count=1, prod=[math], cons=[epi], init_count=1)
    with load:
        for k in lm.range(0, (K + BK - 1) // BK):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * BK, lm.block_id(0) * BM), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * BK, lm.block_id(1) * BN), stage=k, barrier=full)
    with math:
        for k in lm.range(0, (K + BK - 1) // BK):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.commit(empty, stage=k)
        lm.commit(done, stage=0)
    with epi:
        lm.wait(done, stage=0)
        lm.tmem_load(out, acc)
        res = lm.cast(out, lm.bf16)
        c_s.store(res, col=0)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
        lm.tma_store_wait()
        lm.role_sync()
        c_s.store(res, col=BN // 2)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * BN + BN // 2, lm.block_id(0) * BM))
        lm.tma_store_wait()
