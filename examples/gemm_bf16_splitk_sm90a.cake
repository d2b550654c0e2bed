# C[M, N] = A[M, K] . B[N, K]^T, split along K: bf16 in, f32 accumulate, bf16 out, on Hopper.
#
# For products whose tiles do not fill the multiprocessors (few tiles, a long
# K loop), S blocks share each 128x128 tile of C, S = min(SPLIT, k-steps,
# SMS // tiles) and at least 1 (the grid's third dimension): block z takes
# the k-steps z, z + S, z + 2 S, ... Every block stores its f32 partial tile
# into the workspace `part` and counts itself in at the tile's counter
# (`arrived`, an acq_rel atomic). The block that arrives last adds the S
# partials in a fixed order (split 0 first: the same bits on every run,
# whichever block arrives last), resets the counter for the next launch, and
# writes the bf16 tile with TMA. No block waits for another, so the schedule
# cannot hang however the blocks are scheduled. Where S is 1 (a tile per
# block), the block writes its tile directly: no partial, no count.
#
# -DREDUCE=True: every block adds its partial tile into one f32 tile of the
# workspace with TMA (tma_reduce_add: atomic additions in L2, so the sum's
# order, and its last bits, vary between launches), waits until the addition
# is written, and counts itself in; the last block reads the sum, leaving
# zeros behind for the next launch (reset=True), and writes the bf16 tile.
# The last block reads one tile instead of S.
#
# -DSERIAL=True: the S blocks of a tile add their partials into one f32 tile
# of the workspace in turn, split 0 first (the same bits on every run): block
# z waits until the tile's flag `turn` holds z (lm.wait_flag), adds the tile
# the blocks before it left (z > 0), and stores the sum and passes the turn
# on (an exchange of z + 1 that releases it) or, as the last, resets the
# flag and writes the bf16 tile. One f32 tile per tile of C instead of S;
# the launcher makes the blocks resident at once (a cooperative launch).
#
# -DBM=64: 64-row tiles of C and one consumer warpgroup, for decode shapes
# (M <= 64): the ring holds more of B per block (-DSTAGES=8: 128 KB).
#
# -DCM=2: clusters of two blocks along M (the grid's M-tiles rounded up to
# an even count; a block past M reads zeros and stores nothing): the two
# M-tiles of a cluster share each stage of B, each block copying half of it
# to both (multicast), so B is read from L2 once per pair; a stage is free
# when both blocks' consumers have released it.
#
# The launcher takes a workspace of gemm_bf16_splitk_workspace_size(M, N, K)
# bytes, zero-filled before the first launch at these M, N, K (the counters
# come first in it and the kernel leaves them zero).
# target: sm_90a
from stdlib.hopper import WGMMA_M, SWIZZLE_128B_BF16_K

BM = 2 * WGMMA_M            # two consumer warpgroups of 64 rows; -DBM=64: one
BN = 128
BK = SWIZZLE_128B_BF16_K    # one 128-byte swizzled row of bf16 per stage
STAGES = 5
SPLIT = 16                  # at most this many blocks per tile
SMS = 132                   # the H200's multiprocessors
CM = 1                      # blocks per cluster along M: 2, the two M-tiles of a cluster share each B stage (multicast)
REDUCE = False              # add the partials with TMA into one f32 tile (not deterministic)
SERIAL = False              # add the partials in split order through one f32 tile, each block waiting its turn

@cake.schedule(grid=((M + CM * BM - 1) // (CM * BM) * CM, (N + BN - 1) // BN,
                     lm.max(1, lm.min(lm.min(SPLIT, (K + BK - 1) // BK), SMS // (((M + CM * BM - 1) // (CM * BM) * CM) * ((N + BN - 1) // BN))))),
               cluster=(CM, 1, 1))
def gemm_bf16_splitk(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    if REDUCE:  # the partial tile in f32 for the addition; C's bf16 tile over it
        pool = lm.smem(STAGES * (BM + BN) * BK * 2 + BM * BN * 4)
        sum_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.f32, swizzle="128B", alias=True)
    else:
        pool = lm.smem(STAGES * (BM + BN) * BK * 2 + BM * BN * 2)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    c_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.bf16, swizzle="128B", alias=REDUCE)
    if SERIAL:  # the tile's turn: the split whose partial goes next (0 between launches)
        turn = lm.workspace(shape=((M + CM * BM - 1) // (CM * BM) * CM, (N + BN - 1) // BN), dtype=lm.i32)
    else:       # the tile's count of blocks that have stored their partial
        arrived = lm.workspace(shape=((M + CM * BM - 1) // (CM * BM) * CM, (N + BN - 1) // BN), dtype=lm.i32)
    if REDUCE or SERIAL:  # one f32 tile per tile of C, zero between launches
        part = lm.workspace(shape=(((M + CM * BM - 1) // (CM * BM) * CM) * BM, ((N + BN - 1) // BN) * BN), dtype=lm.f32, tma=True)
    else:
        part = lm.workspace(shape=(lm.max(1, lm.min(lm.min(SPLIT, (K + BK - 1) // BK), SMS // (((M + CM * BM - 1) // (CM * BM) * CM) * ((N + BN - 1) // BN)))) * ((M + CM * BM - 1) // (CM * BM) * CM) * BM, ((N + BN - 1) // BN) * BN), dtype=lm.f32)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    if BM == 2 * WGMMA_M:
        math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    else:
        math = lm.role(warps=[4, 5, 6, 7], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=BM // WGMMA_M * CM, pipeline=ring)
    steps = (K + BK - 1) // BK
    S = lm.num_blocks(2)
    mine = (steps + S - 1 - lm.block_id(2)) // S   # this block's k-steps: block_id(2) + i * S
    with load:
        for i in lm.range(0, mine):
            lm.wait(empty, stage=i)
            a_s.tma_load(A, coords=((lm.block_id(2) + i * S) * BK, lm.block_id(0) * BM), stage=i, barrier=full)
            if CM == 2:
                b_s.tma_load(B, coords=((lm.block_id(2) + i * S) * BK, lm.block_id(1) * BN), stage=i, barrier=full,
                             multicast=2, multicast_dim=0)
            else:
                b_s.tma_load(B, coords=((lm.block_id(2) + i * S) * BK, lm.block_id(1) * BN), stage=i, barrier=full)
    with math:
        for i in lm.range(0, mine):
            lm.wait(full, stage=i)
            lm.mma(acc, a_s[i], b_s[i].T, init=(i == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=i, per="warpgroup", cluster=CM == 2)
        rows = ((M + CM * BM - 1) // (CM * BM) * CM) * BM                # the rows of one split's partials
        if SERIAL:
            # Split z waits until splits 0 .. z-1 have added theirs into the tile,
            # adds it to its own and passes the sum on; the last stores C.
            lm.wait_flag(turn, coords=(lm.block_id(1), lm.block_id(0)), value=lm.block_id(2))
            if lm.block_id(2) > 0:
                acc = acc + lm.load_tile(part, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM), shape=(BM, BN), dtype=lm.f32, layout="accumulator")
            if lm.block_id(2) == S - 1:
                lm.atomic(turn, coords=(lm.block_id(1), lm.block_id(0)), value=0, op="exch")   # the next launch starts at 0
                out = lm.cast(acc, lm.bf16)
                c_s.store(out)
                lm.fence_proxy()
                lm.role_sync()
                c_s.tma_store(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
                lm.tma_store_wait()
            else:
                lm.store_tile(part, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM), src=acc)
                lm.atomic(turn, coords=(lm.block_id(1), lm.block_id(0)), value=lm.block_id(2) + 1, op="exch", order="release")
        elif S == 1:   # one block owns the tile: C directly
            out = lm.cast(acc, lm.bf16)
            c_s.store(out)
            lm.fence_proxy()
            lm.role_sync()
            c_s.tma_store(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
            lm.tma_store_wait()
        else:
            if REDUCE:
                sum_s.store(acc)
                lm.fence_proxy()
                lm.role_sync()
                sum_s.tma_reduce_add(part, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
                lm.tma_store_wait(visible=True)         # added in L2 before the count says so
            else:
                lm.store_tile(part, coords=(lm.block_id(1) * BN, lm.block_id(2) * rows + lm.block_id(0) * BM), src=acc)
            before = lm.atomic(arrived, coords=(lm.block_id(1), lm.block_id(0)), value=1, op="add", order="acq_rel")
            if before == S - 1:                         # the last block of the tile: the fix-up
                if REDUCE:
                    acc = lm.load_tile(part, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM), shape=(BM, BN), dtype=lm.f32, layout="accumulator", reset=True)
                else:
                    acc = lm.load_tile(part, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM), shape=(BM, BN), dtype=lm.f32, layout="accumulator")
                    for s in lm.range(1, S):
                        acc = acc + lm.load_tile(part, coords=(lm.block_id(1) * BN, s * rows + lm.block_id(0) * BM), shape=(BM, BN), dtype=lm.f32, layout="accumulator")
                lm.atomic(arrived, coords=(lm.block_id(1), lm.block_id(0)), value=0, op="exch")
                out = lm.cast(acc, lm.bf16)
                c_s.store(out)
                lm.fence_proxy()
                lm.role_sync()
                c_s.tma_store(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
                lm.tma_store_wait()
