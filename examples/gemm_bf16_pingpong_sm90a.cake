# C[M, N] = A[M, K] . B[N, K]^T on Hopper with ping-pong consumers: a
# persistent kernel (one block per multiprocessor) whose two consumer
# warpgroups each own a whole BM x BN tile and take the block's tiles in
# turns, wg[0] the even ones and wg[1] the odd ones. The producer fills one
# ring in tile order, so a consumer's main loop starts as the other's ends
# and its epilogue (convert, stage, TMA store) runs while the other keeps
# the tensor cores busy.
#
# The ring's stage is the running count over the block's tiles and their
# k-steps, `j * k_steps + k`, with k_steps a run-time count: the safety gate
# reads it as one sequence because k runs over range(0, k_steps), and the
# consumers as roles taking turns on it (loops of step 2 from 0 and 1), so
# `empty` gets one warpgroup's release per phase. Each consumer keeps one
# wgmma group in flight and releases the previous stage (`if k > 0`), the
# last after its loop: with the stage before, one running count per tile.
# The turns are ordered by `order` (CUTLASS's ordered sequence barrier):
# a consumer starts its tile's waits on `full` only after the other has
# made its last wait of the previous tile, so no wait runs a lap ahead of
# the ring (safety.turns-unordered); it is signalled before the last
# wgmma group drains, so the next main loop starts issuing at once.
# Shapes are declared: any M, and N, K that are multiples of 8.
# target: sm_90a
from stdlib.hopper import WGMMA_M, SWIZZLE_128B_BF16_K

BM = 2 * WGMMA_M            # 128 rows per consumer tile (two m64 wgmmas)
BN = 128
BK = SWIZZLE_128B_BF16_K
STAGES = 5
GROUP_M = 8                 # tiles run in groups of GROUP_M tile rows, column by column, for L2 reuse

@cake.schedule(grid=(lm.sm_count(),))  # a persistent grid: one block per multiprocessor
def gemm_bf16(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK * 2 + 2 * BM * BN * 2)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    # The two consumers: one role family, members wg[0] and wg[1], each
    # with its own accumulator and epilogue staging tile (c[1] right after c[0]).
    wg = lm.roles(warps=[[4, 5, 6, 7], [8, 9, 10, 11]], regs=232)
    c = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.bf16, swizzle="128B", role=wg)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=wg)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[wg], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[wg], cons=[load], init_count=1, pipeline=ring)
    # The consumers' main loops in tile order: each waits for the previous
    # tile's main loop to be done (the first passes: credits=1).
    order = lm.barrier(count=1, prod=[wg], cons=[wg], credits=1)
    m_tiles = (M + BM - 1) // BM
    n_tiles = (N + BN - 1) // BN
    tiles = m_tiles * n_tiles
    group_tiles = GROUP_M * n_tiles
    k_steps = (K + BK - 1) // BK
    my_tiles = (tiles - lm.block_id(0) + lm.num_blocks(0) - 1) // lm.num_blocks(0)
    with load:
        for j in lm.range(0, my_tiles):
            t = lm.block_id(0) + j * lm.num_blocks(0)
            first_m = t // group_tiles * GROUP_M
            rows = lm.min(m_tiles - first_m, GROUP_M)
            tm = first_m + t % group_tiles % rows
            tn = t % group_tiles // rows
            for k in lm.range(0, k_steps):
                lm.wait(empty, stage=j * k_steps + k)
                a_s.tma_load(A, coords=(k * BK, tm * BM), stage=j * k_steps + k, barrier=full)
                b_s.tma_load(B, coords=(k * BK, tn * BN), stage=j * k_steps + k, barrier=full)
    with wg as i:  # member i takes tiles i, i + 2, ...
        for j in lm.range(i, my_tiles, 2):
            lm.wait(order, stage=j)
            for k in lm.range(0, k_steps):
                lm.wait(full, stage=j * k_steps + k)
                lm.mma(acc, a_s[j * k_steps + k], b_s[j * k_steps + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=1)
                if k > 0:
                    lm.arrive(empty, stage=j * k_steps + k - 1, per="warpgroup")
            lm.arrive(order, stage=j, per="warpgroup")
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=j * k_steps + k_steps - 1, per="warpgroup")
            t = lm.block_id(0) + j * lm.num_blocks(0)
            first_m = t // group_tiles * GROUP_M
            rows = lm.min(m_tiles - first_m, GROUP_M)
            tm = first_m + t % group_tiles % rows
            tn = t % group_tiles // rows
            out = lm.cast(acc, lm.bf16)
            lm.tma_store_wait()
            lm.role_sync()
            c.store(out)
            lm.fence_proxy()
            lm.role_sync()
            c.tma_store(C, coords=(tn * BN, tm * BM))
        lm.tma_store_wait()
