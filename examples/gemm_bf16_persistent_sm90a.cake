# C[M, N] = A[M, K] . B[N, K]^T on Hopper, as a persistent kernel: each block
# walks output tiles (block_id, block_id + num_blocks, ...) in groups of
# GROUP_M tile rows, column by column, for L2 reuse. Two consumer warpgroups
# share each 128x256 tile (one m64 block each); one producer thread streams
# A and B through a 4-stage ring.
#
# The grid is balanced: the fewest blocks that need as many rounds of tiles
# as one block per multiprocessor would, so every block gets as many tiles
# (512 tiles at 4096^3: 128 blocks of 4, not 132 of 3 or 4).
#
# The epilogue runs under the next tile's wgmmas. At the end of a tile the
# accumulator is converted into `out`, a bf16 fragment declared at kernel
# scope so that it outlives the iteration; the next tile's first k-steps
# store it a quarter at a time (quarter q at k-step min(q, k_steps - 1))
# through one 128x64 buffer, each quarter's TMA store left running until the
# next quarter needs the buffer (a k-step later, so the wait costs nothing).
# C staged in quarters is what leaves room for the fourth stage. The last
# tile's quarters are stored after the loop.
#
# The loops are nested, tile j then k-step k: the ring's stage j * k_steps + k
# divides by the constant STAGES only (one loop over all k-steps would
# divide by the run-time k_steps on every k-step, ahead of its wgmmas).
#
# Shapes are declared: any M, and N, K that are multiples of 8 (16-byte rows
# for TMA); the tile counts and the K loop round up, TMA reads zeros past
# the end and drops stores there.
# target: sm_90a
from stdlib.hopper import WGMMA_M, WGMMA_N_MAX, SWIZZLE_128B_BF16_K

BM = 2 * WGMMA_M
BN = WGMMA_N_MAX
BK = SWIZZLE_128B_BF16_K
STAGES = 4
GROUP_M = 8   # tiles run in groups of GROUP_M rows of tiles, column by column, for L2 reuse

# grid: tiles T = ceil(M / BM) * ceil(N / BN), rounds R = ceil(T / sm_count),
# blocks ceil(T / R)
@cake.schedule(grid=((((M + BM - 1) // BM * ((N + BN - 1) // BN))
                      + (((M + BM - 1) // BM * ((N + BN - 1) // BN)) + lm.sm_count() - 1) // lm.sm_count() - 1)
                     // ((((M + BM - 1) // BM * ((N + BN - 1) // BN)) + lm.sm_count() - 1) // lm.sm_count()),))
def gemm_bf16(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK * 2 + BM * BN // 2)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    c_q = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN // 4), dtype=lm.bf16, swizzle="128B")  # a quarter of C
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    out = lm.regs(shape=(BM, BN), dtype=lm.bf16, role=math)  # the last tile's C, stored under the next tile's wgmmas
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=2, pipeline=ring)
    m_tiles = (M + BM - 1) // BM
    n_tiles = (N + BN - 1) // BN
    tiles = m_tiles * n_tiles
    group_tiles = GROUP_M * n_tiles
    k_steps = (K + BK - 1) // BK
    # This block's tiles are block_id, block_id + num_blocks, ...
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
    with math:
        for j in lm.range(0, my_tiles):
            # the previous tile's place in C: its quarters are stored under this tile's first k-steps
            t = lm.block_id(0) + (j - 1) * lm.num_blocks(0)
            first_m = t // group_tiles * GROUP_M
            rows = lm.min(m_tiles - first_m, GROUP_M)
            tm = first_m + t % group_tiles % rows
            tn = t % group_tiles // rows
            for k in lm.range(0, k_steps):
                lm.wait(full, stage=j * k_steps + k)
                lm.mma(acc, a_s[j * k_steps + k], b_s[j * k_steps + k].T, init=(k == 0))
                lm.mma_commit()
                if j > 0 and k == lm.min(0, k_steps - 1):
                    lm.tma_store_wait()
                    lm.role_sync()
                    c_q.store(out, col=0)
                    lm.fence_proxy()
                    lm.role_sync()
                    c_q.tma_store(C, coords=(tn * BN, tm * BM))
                if j > 0 and k == lm.min(1, k_steps - 1):
                    lm.tma_store_wait()
                    lm.role_sync()
                    c_q.store(out, col=BN // 4)
                    lm.fence_proxy()
                    lm.role_sync()
                    c_q.tma_store(C, coords=(tn * BN + BN // 4, tm * BM))
                if j > 0 and k == lm.min(2, k_steps - 1):
                    lm.tma_store_wait()
                    lm.role_sync()
                    c_q.store(out, col=BN // 2)
                    lm.fence_proxy()
                    lm.role_sync()
                    c_q.tma_store(C, coords=(tn * BN + BN // 2, tm * BM))
                if j > 0 and k == lm.min(3, k_steps - 1):
                    lm.tma_store_wait()
                    lm.role_sync()
                    c_q.store(out, col=3 * BN // 4)
                    lm.fence_proxy()
                    lm.role_sync()
                    c_q.tma_store(C, coords=(tn * BN + 3 * BN // 4, tm * BM))
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=j * k_steps + k, per="warpgroup")
            out = lm.cast(acc, lm.bf16)
        # the last tile's quarters
        if my_tiles > 0:
            t = lm.block_id(0) + (my_tiles - 1) * lm.num_blocks(0)
            first_m = t // group_tiles * GROUP_M
            rows = lm.min(m_tiles - first_m, GROUP_M)
            tm = first_m + t % group_tiles % rows
            tn = t % group_tiles // rows
            lm.tma_store_wait()
            lm.role_sync()
            c_q.store(out, col=0)
            lm.fence_proxy()
            lm.role_sync()
            c_q.tma_store(C, coords=(tn * BN, tm * BM))
            lm.tma_store_wait()
            lm.role_sync()
            c_q.store(out, col=BN // 4)
            lm.fence_proxy()
            lm.role_sync()
            c_q.tma_store(C, coords=(tn * BN + BN // 4, tm * BM))
            lm.tma_store_wait()
            lm.role_sync()
            c_q.store(out, col=BN // 2)
            lm.fence_proxy()
            lm.role_sync()
            c_q.tma_store(C, coords=(tn * BN + BN // 2, tm * BM))
            lm.tma_store_wait()
            lm.role_sync()
            c_q.store(out, col=3 * BN // 4)
            lm.fence_proxy()
            lm.role_sync()
            c_q.tma_store(C, coords=(tn * BN + 3 * BN // 4, tm * BM))
        lm.tma_store_wait()
