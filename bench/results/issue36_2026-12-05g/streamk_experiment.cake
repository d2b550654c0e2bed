# An experiment, not an example: stream-K for the GEMM family's under-filled
# shapes (issue 36), compiled with -fno-gates=safety because the safety gate
# cannot prove its protocol yet. Every block (grid = the SMs) takes the
# global k-steps [b * T / G, (b + 1) * T / G) of all tiles' k-steps T, in
# tile order: a segment that covers a whole tile is stored as C directly;
# one that covers part of a tile stores its f32 partial in the block's slot
# (its first or its last segment) and adds its k-step count to the tile's
# counter; the block whose add completes the tile's count adds the partials
# of the tile's blocks in block order (deterministic), resets the counter
# and stores C. No block waits for another.
#
# What the gate says, and what a proof needs (see the stop's closing note):
# the counter adds a run-time count in a loop (unproven-cross-block: the
# proof would be that the blocks' ranges telescope, lo(b + 1) = hi(b), so
# each tile's k-steps are counted once); the fix-up's loads after a role
# sync inside the last block's branch (fragment-cross-thread: the rule does
# not count a sync in a branch as ordering accesses in that branch).
# part is sized for at most 132 SMs. The grid is at most one block per
# k-step, so every block has at least one (lm.max(1, ...) says so to the
# launcher, whose interval checks cannot see it; so does the clamp of t).
# target: sm_90a
from stdlib.hopper import WGMMA_M, SWIZZLE_128B_BF16_K

BM = 2 * WGMMA_M
BN = 128
BK = SWIZZLE_128B_BF16_K
STAGES = 5

@cake.schedule(grid=(lm.min(lm.sm_count(), ((M + BM - 1) // BM) * ((N + BN - 1) // BN) * ((K + BK - 1) // BK)),))
def gemm_bf16_streamk(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK * 2 + BM * BN * 2)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    c_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.bf16, swizzle="128B")
    m_tiles = (M + BM - 1) // BM
    n_tiles = (N + BN - 1) // BN
    arrived = lm.workspace(shape=(n_tiles, m_tiles), dtype=lm.i32)
    part = lm.workspace(shape=(2 * 132 * BM, BN), dtype=lm.f32)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=2, pipeline=ring)
    steps = (K + BK - 1) // BK
    total = m_tiles * n_tiles * steps
    lo = lm.block_id(0) * total // lm.num_blocks(0)
    hi = (lm.block_id(0) + 1) * total // lm.num_blocks(0)
    with load:
        for i in lm.range(0, lm.max(1, hi - lo)):
            t = lm.min((lo + i) // steps, m_tiles * n_tiles - 1)
            lm.wait(empty, stage=i)
            a_s.tma_load(A, coords=((lo + i) % steps * BK, t % m_tiles * BM), stage=i, barrier=full)
            b_s.tma_load(B, coords=((lo + i) % steps * BK, t // m_tiles * BN), stage=i, barrier=full)
    with math:
        for i in lm.range(0, lm.max(1, hi - lo)):
            t = lm.min((lo + i) // steps, m_tiles * n_tiles - 1)
            k = (lo + i) % steps
            lm.wait(full, stage=i)
            lm.mma(acc, a_s[i], b_s[i].T, init=(k == 0 or i == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=i, per="warpgroup")
            if k == steps - 1 or i == lm.max(1, hi - lo) - 1:
                n = lm.min(k + 1, i + 1)
                if n == steps:
                    out = lm.cast(acc, lm.bf16)
                    lm.tma_store_wait()
                    lm.role_sync()
                    c_s.store(out)
                    lm.fence_proxy()
                    lm.role_sync()
                    c_s.tma_store(C, coords=(t // m_tiles * BN, t % m_tiles * BM))
                else:
                    lm.store_tile(part, coords=(0, (2 * lm.block_id(0) + lm.min(lm.max(i - k, 0), 1)) * BM), src=acc)
                    before = lm.atomic(arrived, coords=(t % m_tiles, t // m_tiles), value=n, op="add", order="acq_rel")
                    if before == steps - n:
                        first = lm.max(0, ((t * steps + 1) * lm.num_blocks(0) - 1) // total)
                        last = lm.min(lm.num_blocks(0) - 1, (((t + 1) * steps) * lm.num_blocks(0) - 1) // total)
                        lm.role_sync()
                        acc = lm.load_tile(part, coords=(0, (2 * first + lm.max(0, lm.min(t - first * total // lm.num_blocks(0) // steps, 1))) * BM), shape=(BM, BN), dtype=lm.f32, layout="accumulator")
                        for c in lm.range(first + 1, last + 1):
                            acc = acc + lm.load_tile(part, coords=(0, (2 * c + lm.max(0, lm.min(t - c * total // lm.num_blocks(0) // steps, 1))) * BM), shape=(BM, BN), dtype=lm.f32, layout="accumulator")
                        lm.atomic(arrived, coords=(t % m_tiles, t // m_tiles), value=0, op="exch")
                        out = lm.cast(acc, lm.bf16)
                        lm.tma_store_wait()
                        lm.role_sync()
                        c_s.store(out)
                        lm.fence_proxy()
                        lm.role_sync()
                        c_s.tma_store(C, coords=(t // m_tiles * BN, t % m_tiles * BM))
        lm.tma_store_wait()
