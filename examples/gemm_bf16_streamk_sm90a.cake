# C[M, N] = A[M, K] . B[N, K]^T as stream-K: bf16 in, f32 accumulate, bf16 out, on Hopper.
#
# For products whose 128x256 tiles are a fraction of a wave (1536x1536: 72
# tiles on 132 multiprocessors) the work is cut by k-steps, not by tiles:
# the tiles' k-steps, tile after tile, make one sequence of
# total = m_tiles * n_tiles * k_steps, and block b takes the
# W = ceil(total / SMS) consecutive k-steps from b * W on (ceil(total / W)
# blocks, at most one per multiprocessor, the last one's share cut at
# total), so every block does the same work whatever the tile count. A block's range
# covers the end of one tile, whole tiles, the start of another: a tile
# whose k-steps are all the block's own it stores to C directly; a tile
# blocks first .. last share (first = t * k_steps // W, last =
# ((t + 1) * k_steps - 1) // W) each stores its partial f32 tile into
# slot b % slots of the workspace `part` (the blocks sharing a tile are
# consecutive and at most `slots`) and counts itself in at the tile's
# counter; the last to arrive adds the slots in block order (the
# same bits whichever block arrives last), resets the counter and stores C.
# No block waits for another. The producer runs ahead into the next tile
# while the consumers fix one up.
#
# The gate does not prove this counter protocol: the counting atomic runs
# in the block's k-step loop, once per tile the block shares, and the
# number of blocks sharing a tile depends on the tile
# (`safety.unproven-cross-block`, an error by default). It lowers with
# -Wno-error=unproven, at the user's risk.
#
# Correct, deterministic (10 launches bitwise equal) and clean under
# compute-sanitizer, but slow: on an H100 0.57 of cuBLAS at 1536x1536x12288
# (the family's routes: 0.77), 0.54 at 4096^3 (bench/results/
# issue36_2026-12-06b). Its k-step loop runs at half the rate of the
# persistent schedule's even where each block owns whole tiles. Not
# profiled; the likely cause: the blocks running together are at unrelated
# k-steps of unrelated tiles, so the stages of A and B one block reads are
# not what its neighbours read at that time and L2 does not share them
# (CUTLASS runs stream-K only over the last partial wave, after
# data-parallel waves). Not routed by the family.
#
# The launcher takes a workspace of gemm_bf16_streamk_workspace_size(M, N, K)
# bytes, zero-filled before the first launch at these M, N, K.
# target: sm_90a
from stdlib.hopper import WGMMA_M, WGMMA_N_MAX, SWIZZLE_128B_BF16_K

BM = 2 * WGMMA_M
BN = WGMMA_N_MAX
BK = SWIZZLE_128B_BF16_K
STAGES = 4
SMS = 132

# grid: total = tiles * k-steps, W = ceil(total / SMS) k-steps a block, ceil(total / W) blocks (each has work)
@cake.schedule(grid=((((M + BM - 1) // BM) * ((N + BN - 1) // BN) * ((K + BK - 1) // BK)
                      + (((M + BM - 1) // BM) * ((N + BN - 1) // BN) * ((K + BK - 1) // BK) + SMS - 1) // SMS - 1)
                     // ((((M + BM - 1) // BM) * ((N + BN - 1) // BN) * ((K + BK - 1) // BK) + SMS - 1) // SMS),))
def gemm_bf16_streamk(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK * 2 + BM * BN)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    c_h = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN // 2), dtype=lm.bf16, swizzle="128B")
    m_tiles = (M + BM - 1) // BM
    n_tiles = (N + BN - 1) // BN
    k_steps = (K + BK - 1) // BK
    total = m_tiles * n_tiles * k_steps
    W = (total + SMS - 1) // SMS
    arrived = lm.workspace(shape=(m_tiles, n_tiles), dtype=lm.i32)
    slots = (k_steps - 1) // W + 2   # at most this many blocks share a tile
    part = lm.workspace(shape=(slots * m_tiles * BM, n_tiles * BN), dtype=lm.f32)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=2, pipeline=ring)
    g0 = lm.block_id(0) * W
    mine = lm.max(1, lm.min(W, total - g0))   # at least 1: the grid leaves no block without work
    with load:
        for i in lm.range(0, mine):
            t = (g0 + i) // k_steps
            k = (g0 + i) % k_steps
            lm.wait(empty, stage=i)
            a_s.tma_load(A, coords=(k * BK, lm.min(t // n_tiles, m_tiles - 1) * BM), stage=i, barrier=full)
            b_s.tma_load(B, coords=(k * BK, t % n_tiles * BN), stage=i, barrier=full)
    with math:
        for i in lm.range(0, mine):
            t = (g0 + i) // k_steps
            k = (g0 + i) % k_steps
            tm = lm.min(t // n_tiles, m_tiles - 1)   # t < m_tiles * n_tiles; the min tells the launcher's range checks
            tn = t % n_tiles
            lm.wait(full, stage=i)
            lm.mma(acc, a_s[i], b_s[i].T, init=(k == 0 or i == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=i, per="warpgroup")
            if k == k_steps - 1 or i == mine - 1:
                first = t * k_steps // W
                last = ((t + 1) * k_steps - 1) // W
                rows = m_tiles * BM
                if first == last:
                    out = lm.cast(acc, lm.bf16)
                    lm.tma_store_wait()
                    lm.role_sync()
                    c_h.store(out, col=0)
                    lm.fence_proxy()
                    lm.role_sync()
                    c_h.tma_store(C, coords=(tn * BN, tm * BM))
                    lm.tma_store_wait()
                    lm.role_sync()
                    c_h.store(out, col=BN // 2)
                    lm.fence_proxy()
                    lm.role_sync()
                    c_h.tma_store(C, coords=(tn * BN + BN // 2, tm * BM))
                else:
                    lm.store_tile(part, coords=(tn * BN, lm.block_id(0) % slots * rows + tm * BM), src=acc)
                    before = lm.atomic(arrived, coords=(tn, tm), value=1, op="add", order="acq_rel")
                    if before == last - first:
                        acc = lm.load_tile(part, coords=(tn * BN, first % slots * rows + tm * BM), shape=(BM, BN), dtype=lm.f32, layout="accumulator")
                        for s in lm.range(1, last - first + 1):
                            acc = acc + lm.load_tile(part, coords=(tn * BN, (first + s) % slots * rows + tm * BM), shape=(BM, BN), dtype=lm.f32, layout="accumulator")
                        lm.atomic(arrived, coords=(tn, tm), value=0, op="exch")
                        out = lm.cast(acc, lm.bf16)
                        lm.tma_store_wait()
                        lm.role_sync()
                        c_h.store(out, col=0)
                        lm.fence_proxy()
                        lm.role_sync()
                        c_h.tma_store(C, coords=(tn * BN, tm * BM))
                        lm.tma_store_wait()
                        lm.role_sync()
                        c_h.store(out, col=BN // 2)
                        lm.fence_proxy()
                        lm.role_sync()
                        c_h.tma_store(C, coords=(tn * BN + BN // 2, tm * BM))
        lm.tma_store_wait()
