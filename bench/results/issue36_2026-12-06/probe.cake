# A probe, not an example (issue 36, 2026-12-06): the split-K schedule of
# examples/gemm_bf16_splitk_sm90a.cake with parts of its fix-up left out, to
# time what the serial fix-up costs. PROBE=1: the last block adds no other
# block's partial (C is wrong); PROBE=2: no block stores or reads a partial;
# PROBE=3: the fix-up reads two partials per step (C is right).
# target: sm_90a
from stdlib.hopper import WGMMA_M, SWIZZLE_128B_BF16_K

BM = 2 * WGMMA_M            # two consumer warpgroups of 64 rows; -DBM=64: one
BN = 128
BK = SWIZZLE_128B_BF16_K    # one 128-byte swizzled row of bf16 per stage
STAGES = 5
SPLIT = 16                  # at most this many blocks per tile
SMS = 132                   # the H200's multiprocessors
PROBE = 0                   # 0: as the example; 1: the fix-up adds no other partial; 2: no partial stored or read
REDUCE = False              # add the partials with TMA into one f32 tile (not deterministic)

@cake.schedule(grid=((M + BM - 1) // BM, (N + BN - 1) // BN,
                     lm.max(1, lm.min(lm.min(SPLIT, (K + BK - 1) // BK), SMS // (((M + BM - 1) // BM) * ((N + BN - 1) // BN))))))
def gemm_bf16_splitk(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    if REDUCE:  # the partial tile in f32 for the addition; C's bf16 tile over it
        pool = lm.smem(STAGES * (BM + BN) * BK * 2 + BM * BN * 4)
        sum_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.f32, swizzle="128B", alias=True)
    else:
        pool = lm.smem(STAGES * (BM + BN) * BK * 2 + BM * BN * 2)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    c_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.bf16, swizzle="128B", alias=REDUCE)
    arrived = lm.workspace(shape=((M + BM - 1) // BM, (N + BN - 1) // BN), dtype=lm.i32)
    if REDUCE:  # one f32 tile per tile of C, zero between launches
        part = lm.workspace(shape=(((M + BM - 1) // BM) * BM, ((N + BN - 1) // BN) * BN), dtype=lm.f32, tma=True)
    else:
        part = lm.workspace(shape=(lm.max(1, lm.min(lm.min(SPLIT, (K + BK - 1) // BK), SMS // (((M + BM - 1) // BM) * ((N + BN - 1) // BN)))) * ((M + BM - 1) // BM) * BM, ((N + BN - 1) // BN) * BN), dtype=lm.f32)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    if BM == 2 * WGMMA_M:
        math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    else:
        math = lm.role(warps=[4, 5, 6, 7], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=BM // WGMMA_M, pipeline=ring)
    steps = (K + BK - 1) // BK
    S = lm.num_blocks(2)
    mine = (steps + S - 1 - lm.block_id(2)) // S   # this block's k-steps: block_id(2) + i * S
    with load:
        for i in lm.range(0, mine):
            lm.wait(empty, stage=i)
            a_s.tma_load(A, coords=((lm.block_id(2) + i * S) * BK, lm.block_id(0) * BM), stage=i, barrier=full)
            b_s.tma_load(B, coords=((lm.block_id(2) + i * S) * BK, lm.block_id(1) * BN), stage=i, barrier=full)
    with math:
        for i in lm.range(0, mine):
            lm.wait(full, stage=i)
            lm.mma(acc, a_s[i], b_s[i].T, init=(i == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=i, per="warpgroup")
        rows = ((M + BM - 1) // BM) * BM                # the rows of one split's partials
        if REDUCE:
            sum_s.store(acc)
            lm.fence_proxy()
            lm.role_sync()
            sum_s.tma_reduce_add(part, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
            lm.tma_store_wait(visible=True)         # added in L2 before the count says so
        elif PROBE != 2:
            lm.store_tile(part, coords=(lm.block_id(1) * BN, lm.block_id(2) * rows + lm.block_id(0) * BM), src=acc)
        before = lm.atomic(arrived, coords=(lm.block_id(1), lm.block_id(0)), value=1, op="add", order="acq_rel")
        if before == S - 1:                         # the last block of the tile: the fix-up
            if REDUCE:
                acc = lm.load_tile(part, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM), shape=(BM, BN), dtype=lm.f32, layout="accumulator", reset=True)
            elif PROBE != 2:
                acc = lm.load_tile(part, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM), shape=(BM, BN), dtype=lm.f32, layout="accumulator")
                if PROBE == 0:
                    for s in lm.range(1, S):
                        acc = acc + lm.load_tile(part, coords=(lm.block_id(1) * BN, s * rows + lm.block_id(0) * BM), shape=(BM, BN), dtype=lm.f32, layout="accumulator")
                if PROBE == 3:
                    for s in lm.range(1, S - 1, 2):
                        acc = acc + (lm.load_tile(part, coords=(lm.block_id(1) * BN, s * rows + lm.block_id(0) * BM), shape=(BM, BN), dtype=lm.f32, layout="accumulator")
                                     + lm.load_tile(part, coords=(lm.block_id(1) * BN, (s + 1) * rows + lm.block_id(0) * BM), shape=(BM, BN), dtype=lm.f32, layout="accumulator"))
                    for s in lm.range(1 + (S - 1) // 2 * 2, S):   # the last partial where S - 1 is odd
                        acc = acc + lm.load_tile(part, coords=(lm.block_id(1) * BN, s * rows + lm.block_id(0) * BM), shape=(BM, BN), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(1), lm.block_id(0)), value=0, op="exch")
            out = lm.cast(acc, lm.bf16)
            c_s.store(out)
            lm.fence_proxy()
            lm.role_sync()
            c_s.tma_store(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
            lm.tma_store_wait()
