# An experiment, not an example (issue 36, 2026-12-06): split-K with a
# two-level fix-up, compiled with -fno-gates=safety (the safety gate does not
# model a count inside a branch on another count yet: below). The S = G1 x G2
# blocks of a 128x128 tile of C are G2 groups of G1 (grid: tiles, G2, G1).
# Each stores its f32 partial and counts itself in at its group's counter;
# the last of a group adds the group's G1 partials in order, stores the sum,
# resets the group's counter and counts the group in at the tile's counter;
# the last group's adder adds the G2 sums in order, resets that counter and
# stores C. Deterministic: the order of every addition is fixed. The last
# block of a tile reads G1 - 1 + G2 - 1 partials where the one-level
# schedule's reads S - 1 (15 at S = 16): the probe of 2026-12-06 measured
# that serial read as 40% of the time at 128x1024x16384.
#
# What the gate says today: the tile counter's atomic runs "under a
# condition, not once per block" (unproven-cross-block), and the sums'
# reads and stores are judged against the group counter
# (cross-block-parts). A proof: the atomic runs once in each group's last
# block (the group counter's proven count branch), so the blocks that update
# the tile counter are one per group, differing in the grid dimension (1)
# that the group counter names and the tile counter does not.
# target: sm_90a
from stdlib.hopper import WGMMA_M, SWIZZLE_128B_BF16_K

BM = 2 * WGMMA_M
BN = 128
BK = SWIZZLE_128B_BF16_K
STAGES = 5
S1 = 4                      # at most this many blocks per group: the last of a group adds the group's partials
S2 = 4                      # at most this many groups per tile: the last group's adder adds the groups' sums
SMS = 132

@cake.schedule(grid=(((M + BM - 1) // BM) * ((N + BN - 1) // BN),
                     lm.max(1, lm.min(S2, lm.min((K + BK - 1) // BK, SMS // (((M + BM - 1) // BM) * ((N + BN - 1) // BN))) // S1)),
                     lm.max(1, lm.min(S1, lm.min((K + BK - 1) // BK, SMS // (((M + BM - 1) // BM) * ((N + BN - 1) // BN)))))))
def gemm_bf16_splitk2(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK * 2 + BM * BN * 2)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    c_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.bf16, swizzle="128B")
    m_tiles = (M + BM - 1) // BM
    tiles = m_tiles * ((N + BN - 1) // BN)
    G1 = lm.num_blocks(2)
    G2 = lm.num_blocks(1)
    arrived = lm.workspace(shape=(tiles, S2), dtype=lm.i32)
    summed = lm.workspace(shape=(tiles,), dtype=lm.i32)
    part = lm.workspace(shape=(S1 * S2 * tiles * BM, BN), dtype=lm.f32)
    gsum = lm.workspace(shape=(S2 * tiles * BM, BN), dtype=lm.f32)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=2, pipeline=ring)
    steps = (K + BK - 1) // BK
    S = G1 * G2
    z = lm.block_id(1) * G1 + lm.block_id(2)
    mine = (steps + S - 1 - z) // S
    t = lm.block_id(0)
    tm = t % m_tiles
    tn = t // m_tiles
    with load:
        for i in lm.range(0, mine):
            lm.wait(empty, stage=i)
            a_s.tma_load(A, coords=((z + i * S) * BK, tm * BM), stage=i, barrier=full)
            b_s.tma_load(B, coords=((z + i * S) * BK, tn * BN), stage=i, barrier=full)
    with math:
        for i in lm.range(0, mine):
            lm.wait(full, stage=i)
            lm.mma(acc, a_s[i], b_s[i].T, init=(i == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=i, per="warpgroup")
        lm.store_tile(part, coords=(0, ((t * G2 + lm.block_id(1)) * G1 + lm.block_id(2)) * BM), src=acc)
        before = lm.atomic(arrived, coords=(lm.block_id(1), t), value=1, op="add", order="acq_rel")
        if before == G1 - 1:
            acc = lm.load_tile(part, coords=(0, (t * G2 + lm.block_id(1)) * G1 * BM), shape=(BM, BN), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, G1):
                acc = acc + lm.load_tile(part, coords=(0, ((t * G2 + lm.block_id(1)) * G1 + s) * BM), shape=(BM, BN), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(1), t), value=0, op="exch")
            lm.store_tile(gsum, coords=(0, (t * G2 + lm.block_id(1)) * BM), src=acc)
            done = lm.atomic(summed, coords=(t,), value=1, op="add", order="acq_rel")
            if done == G2 - 1:
                acc = lm.load_tile(gsum, coords=(0, t * G2 * BM), shape=(BM, BN), dtype=lm.f32, layout="accumulator")
                for g in lm.range(1, G2):
                    acc = acc + lm.load_tile(gsum, coords=(0, (t * G2 + g) * BM), shape=(BM, BN), dtype=lm.f32, layout="accumulator")
                lm.atomic(summed, coords=(t,), value=0, op="exch")
                out = lm.cast(acc, lm.bf16)
                c_s.store(out)
                lm.fence_proxy()
                lm.role_sync()
                c_s.tma_store(C, coords=(tn * BN, tm * BM))
                lm.tma_store_wait()
