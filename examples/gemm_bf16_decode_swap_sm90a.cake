# A decode GEMM on Hopper with the operands swapped: C[M, N] = A[M, K] . B[N, K]^T
# for a few tokens M and a large weight B, computed as C^T = B . A^T so that
# the weight fills the wgmma's 64 rows and the tokens its N columns.
#
# With M at most a few dozen the product is bound by reading B once. The
# schedule of examples/gemm_bf16_decode_sm90a.cake gives A the wgmma's 64
# rows, so each stage of its ring holds a 64-row A tile (8 KB) of which M
# rows are real, beside 7 KB of B. Here a stage is a 64 x 64 tile of B
# (8 KB) and NT rows of A (NT x 128 bytes), so the ring holds about twice
# the weight bytes per block: BW = 64 weight rows per block, N / 64 blocks
# (and (M + NT - 1) / NT of them down M, each reading B again: NT is the
# most tokens one pass serves). TMA reads zeros past row M of A and drops
# the stores past it. The accumulator is C^T's tile, 64 weight rows by NT
# tokens; it goes into shared memory transposed (token-major, as C is laid
# out) and out with one TMA store. On the H200 (bench/results/issue36_2026-12-05d,
# h200/) NT = 64 is 2-32% faster than the decode schedule where that one has
# fewer than 128 blocks (N = 4096, 8192), 2% slower at N = 7168, K = 4096;
# NT = 16 and 32 are slower than NT = 64. On an H100 the memory bounds both.
# target: sm_90a
from stdlib.hopper import WGMMA_M, SWIZZLE_128B_BF16_K

BW = WGMMA_M                # weight rows per block: the wgmma's M
NT = 16                     # tokens per block: the wgmma's N (8 .. 256, a multiple of 8)
BK = SWIZZLE_128B_BF16_K    # one 128-byte swizzled row of bf16 per stage
STAGES = 20                 # 20 x (8 + 2) KB: 160 KB of B in flight per block
OVERLAP = True              # one wgmma group in flight: a stage is freed a step later

@cake.schedule(grid=((N + BW - 1) // BW, (M + NT - 1) // NT))
def gemm_bf16_decode_swap(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32,
                          K: LM.i32):
    pool = lm.smem(STAGES * (BW + NT) * BK * 2 + NT * BW * 2)
    w_s = pool.view(offset=0, shape=(BW, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    x_s = pool.view(offset=STAGES * BW * BK * 2, shape=(NT, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    c_s = pool.view(offset=STAGES * (BW + NT) * BK * 2, shape=(NT, BW), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7], regs=232)
    acc = lm.regs(shape=(BW, NT), dtype=lm.f32, role=math)   # C^T's tile
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=1, pipeline=ring)
    steps = (K + BK - 1) // BK
    with load:
        for k in lm.range(0, steps):
            lm.wait(empty, stage=k)
            w_s.tma_load(B, coords=(k * BK, lm.block_id(0) * BW), stage=k, barrier=full)
            x_s.tma_load(A, coords=(k * BK, lm.block_id(1) * NT), stage=k, barrier=full)
    with math:
        for k in lm.range(0, steps):
            lm.wait(full, stage=k)
            lm.mma(acc, w_s[k], x_s[k].T, init=(k == 0))
            lm.mma_commit()
            if OVERLAP:
                lm.mma_wait(pending=1)
                if k > 0:
                    lm.arrive(empty, stage=k - 1, per="warpgroup")
            else:
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=k, per="warpgroup")
        if OVERLAP:
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=steps - 1, per="warpgroup")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out, transpose=True)                       # (c, r): token-major, as C is
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(0) * BW, lm.block_id(1) * NT))
        lm.tma_store_wait()
