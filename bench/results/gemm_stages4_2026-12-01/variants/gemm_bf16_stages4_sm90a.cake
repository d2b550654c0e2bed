# Variant of examples/gemm_bf16_sm90a.cake (2026-12-01): 4 stages, the C staging
# tile over the ring's first stages; PENDING=1 keeps one wgmma group in flight.
# C[M, N] = A[M, K] . B[N, K]^T: bf16 in, f32 accumulate, bf16 out, on Hopper.
#
# One producer warpgroup streams 128x64 tiles of A and 256x64 tiles of B
# through a 3-stage ring with TMA; two consumer warpgroups issue wgmma into a
# 128x256 register accumulator and hand each stage back through `empty`.
# The epilogue converts to bf16, stages the tile in shared memory and writes
# it with a TMA store. Any M and N, and any K, N that are multiples of 8
# (16-byte rows for TMA): the shapes are declared, so the last tile of each
# dimension may be partial (TMA reads zeros past the end and drops stores
# there), and the grid and the K loop round up.
# target: sm_90a
from stdlib.hopper import WGMMA_M, WGMMA_N_MAX, SWIZZLE_128B_BF16_K

BM = 2 * WGMMA_M            # two consumer warpgroups of 64 rows
BN = WGMMA_N_MAX            # one 64x256 wgmma per warpgroup and k-step
BK = SWIZZLE_128B_BF16_K    # one 128-byte swizzled row of bf16 per stage
STAGES = 4
PENDING = 0

@cake.schedule(grid=((M + BM - 1) // BM, (N + BN - 1) // BN))
def gemm_bf16(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK * 2)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    # The staging tile reuses the ring's first stages: the last k-step's
    # wgmma has finished reading them when the epilogue writes it.
    c_s = pool.view(offset=0, shape=(BM, BN), dtype=lm.bf16, swizzle="128B", alias=True)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=2, pipeline=ring)
    with load:
        for k in lm.range(0, (K + BK - 1) // BK):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * BK, lm.block_id(0) * BM), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * BK, lm.block_id(1) * BN), stage=k, barrier=full)
    with math:
        for k in lm.range(0, (K + BK - 1) // BK):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            if PENDING == 1:
                lm.mma_wait(pending=1)
                if k > 0:
                    lm.arrive(empty, stage=k - 1, per="warpgroup")
            else:
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=k, per="warpgroup")
        if PENDING == 1:
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=(K + BK - 1) // BK - 1, per="warpgroup")
        out = lm.cast(acc, lm.bf16)
        lm.role_sync()  # both warpgroups' last wgmma are done with the ring before C overwrites it
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
        lm.tma_store_wait()
