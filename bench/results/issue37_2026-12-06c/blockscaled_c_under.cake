# examples/gemm_fp8_blockscaled_sm90a.cake (PRODUCTS=2) with each tile's C stored under the next tile's first
# wgmmas, from acc before it is reset (an experiment of bench/results/issue37_2026-12-06c).
# D[M, N] = bf16(sum over k-blocks kb of SA[kb, m] * SB[kb, n] * (A[m, kb] . B[n, kb]^T)) on
# Hopper: the fp8 GEMM with fine-grained block scales, as DeepGEMM scales it. A e4m3 (M, K)
# with a scale per row and 128 columns (1 x 128 blocks of activations), B e4m3 (N, K) with a
# scale per 128 x 128 block of the weight; f32 accumulation, bf16 out.
#
# Scales: SA is (ceil(K / 128), M') f32, the activations' scales M-major as DeepGEMM lays them
# (row kb holds every row's scale for k-block kb), M' = M rounded up to 256 (a cluster's pair of
# tiles; pad with anything finite). SB is (ceil(K / 128), N') f32, the weight's scales given per
# column: row kb holds, for every column n, the scale of the 128 x 128 block (n // 128, kb)
# (each block's scale repeated over its 128 columns: a one-time expansion of a static weight's
# (N / 128, K / 128) scales), N' = N rounded up to 128.
#
# The schedule is examples/gemm_fp8_sm90a.cake's with -DPROMOTE=True (persistent, 128x128
# tiles of two consumer warpgroups, 2-block clusters sharing B). Each stage's k-block of SA and
# SB travels with the stage's A and B tiles (the same barrier), and the math warpgroups take
# each stage's product from the tensor core into the f32 accumulator scaled by both (the tensor
# core's fp8 accumulation keeps fewer bits than f32: DeepGEMM promotes the same way, once per
# 128 of K).
#
# PRODUCTS=2 (the default): two product accumulators, the even k-steps on one ring (EVEN
# stages) and the odd ones on another (ODD stages), each ring's stage `j * h + k2` for the
# tile's h pairs; each k-step's product is added after a wgmma wait that leaves the next
# k-step's wgmmas running (`lm.mma_wait(pending=1)`), so the tensor core does not idle while
# the additions run. The tile's first pair is peeled out of the loop (no branch on k2 in it),
# and the last odd product is added in a branch on the parity of K's steps (for an odd count
# that k-step reads zeros past K): both keep ptxas from serializing the wgmmas (C7514). C goes
# through one shared-memory tile, stored by one TMA store that the next tile's wgmmas hide.
# 6-11% faster than PRODUCTS=1 on an H100 (bench/results/issue37_2026-12-06c/).
# PRODUCTS=1: one ring of STAGES stages, each product added after its own wgmma wait, C stored
# in quarters under the next tile's first wgmmas (the `out` registers).
# Shapes are declared: any M, and N, K that are multiples of 16.
# target: sm_90a
from stdlib.hopper import WGMMA_M, SWIZZLE_128B_FP8_K

BM = 2 * WGMMA_M
BN = 128
BK = SWIZZLE_128B_FP8_K      # one k-block of the scales per stage
PRODUCTS = 2  # product accumulators (see above)
STAGES = 6    # PRODUCTS=1: the ring's stages
EVEN = 3      # PRODUCTS=2: stages of the ring of even k-steps
ODD = 2       # PRODUCTS=2: stages of the ring of odd k-steps
GROUP_M = 8   # pairs of tile rows per group, walked column by column
# The weight's scale is one value per tile and k-block (BN = 128 columns, one weight block): with
# B_SCALE_ONE=True each thread reads it once, the first element of the stage's row of SB
# (view.load(shape=(1, 1))), and multiplies it into the rows' scales before the product (one
# multiply per element); False (PRODUCTS=1 only) reads SB's row as BN columns (32 values per
# thread) and multiplies twice per element.
B_SCALE_ONE = True
RING_BYTES = (EVEN + ODD) * (BM + BN) * BK  # PRODUCTS=2
SC = RING_BYTES + BM * BN * 2               # PRODUCTS=2: the scales' offset

# grid: pairs P = ceil(M / 2BM) * ceil(N / BN), rounds R = ceil(P / (sm_count // 2)),
# clusters ceil(P / R), two blocks each
@cake.schedule(grid=((((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN))
                      + (((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN)) + lm.sm_count() // 2 - 1) // (lm.sm_count() // 2) - 1)
                     // ((((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN)) + lm.sm_count() // 2 - 1) // (lm.sm_count() // 2)) * 2,),
                cluster=(2, 1, 1))
def gemm_fp8_blockscaled(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], SA: LM.tma2d, SB: LM.tma2d,
                         M: LM.i32, N: LM.i32, K: LM.i32):
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    if PRODUCTS == 2:
        pool = lm.smem(RING_BYTES + BM * BN * 2 + (EVEN + ODD) * (BM + BN) * 4)
        a0_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.e4m3, stage=EVEN, swizzle="128B")
        b0_s = pool.view(offset=EVEN * BM * BK, shape=(BN, BK), dtype=lm.e4m3, stage=EVEN, swizzle="128B")
        a1_s = pool.view(offset=EVEN * (BM + BN) * BK, shape=(BM, BK), dtype=lm.e4m3, stage=ODD, swizzle="128B")
        b1_s = pool.view(offset=EVEN * (BM + BN) * BK + ODD * BM * BK, shape=(BN, BK), dtype=lm.e4m3, stage=ODD,
                         swizzle="128B")
        c_s = pool.view(offset=RING_BYTES, shape=(BM, BN), dtype=lm.bf16, swizzle="128B")  # the tile of C
        sa0_s = pool.view(offset=SC, shape=(1, BM), dtype=lm.f32, stage=EVEN)
        sb0_s = pool.view(offset=SC + EVEN * BM * 4, shape=(1, BN), dtype=lm.f32, stage=EVEN)
        sa1_s = pool.view(offset=SC + EVEN * (BM + BN) * 4, shape=(1, BM), dtype=lm.f32, stage=ODD)
        sb1_s = pool.view(offset=SC + EVEN * (BM + BN) * 4 + ODD * BM * 4, shape=(1, BN), dtype=lm.f32, stage=ODD)
        part0 = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)  # even k-steps' products
        part1 = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)  # odd k-steps' products
        s1 = lm.regs(shape=(BM, 1), dtype=lm.f32, role=math)  # the odd k-step's scales, used an iteration later
        ring0 = lm.pipeline(stages=EVEN)
        ring1 = lm.pipeline(stages=ODD)
        full0 = lm.barrier(count=EVEN, prod=[load], cons=[math], init_count=1, pipeline=ring0)
        empty0 = lm.barrier(count=EVEN, prod=[math], cons=[load], init_count=16, pipeline=ring0)
        full1 = lm.barrier(count=ODD, prod=[load], cons=[math], init_count=1, pipeline=ring1)
        empty1 = lm.barrier(count=ODD, prod=[math], cons=[load], init_count=16, pipeline=ring1)
    else:
        pool = lm.smem(STAGES * (BM + BN) * BK + BM * BN // 2 + STAGES * (BM + BN) * 4)
        a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.e4m3, stage=STAGES, swizzle="128B")
        b_s = pool.view(offset=STAGES * BM * BK, shape=(BN, BK), dtype=lm.e4m3, stage=STAGES, swizzle="128B")
        c_q = pool.view(offset=STAGES * (BM + BN) * BK, shape=(BM, BN // 4), dtype=lm.bf16, swizzle="64B")  # a quarter of C
        sa_s = pool.view(offset=STAGES * (BM + BN) * BK + BM * BN // 2, shape=(1, BM), dtype=lm.f32, stage=STAGES)
        sb_s = pool.view(offset=STAGES * (BM + BN) * BK + BM * BN // 2 + STAGES * BM * 4, shape=(1, BN), dtype=lm.f32,
                         stage=STAGES)
        part = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)  # one stage's product
        out = lm.regs(shape=(BM, BN), dtype=lm.bf16, role=math)  # the last tile's C, stored under the next tile's wgmmas
        ring = lm.pipeline(stages=STAGES)
        full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
        empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=16, pipeline=ring)  # a warp of 8, 2 blocks
    m_pairs = (M + 2 * BM - 1) // (2 * BM)
    n_tiles = (N + BN - 1) // BN
    pairs = m_pairs * n_tiles
    group_pairs = GROUP_M * n_tiles
    k_steps = (K + BK - 1) // BK
    h = (k_steps + 1) // 2  # PRODUCTS=2: pairs of k-steps (an odd count's last pair reads zeros past K)
    my_tiles = (pairs - lm.cluster_id(0) + lm.num_clusters(0) - 1) // lm.num_clusters(0)
    with load:
        if PRODUCTS == 2:
            for j in lm.range(0, my_tiles):
                p = lm.cluster_id(0) + j * lm.num_clusters(0)
                first_m = p // group_pairs * GROUP_M
                rows = lm.min(m_pairs - first_m, GROUP_M)
                tm = lm.min(2 * (first_m + p % group_pairs % rows) + lm.cluster_rank(), 2 * m_pairs - 1)
                tn = lm.min(p % group_pairs // rows, n_tiles - 1)
                for k2 in lm.range(0, h):
                    lm.wait(empty0, stage=j * h + k2)
                    a0_s.tma_load(A, coords=(2 * k2 * BK, tm * BM), stage=j * h + k2, barrier=full0)
                    b0_s.tma_load(B, coords=(2 * k2 * BK, tn * BN), stage=j * h + k2, barrier=full0, multicast=2)
                    sa0_s.tma_load(SA, coords=(tm * BM, 2 * k2), stage=j * h + k2, barrier=full0)
                    sb0_s.tma_load(SB, coords=(tn * BN, 2 * k2), stage=j * h + k2, barrier=full0)
                    lm.wait(empty1, stage=j * h + k2)
                    a1_s.tma_load(A, coords=(2 * k2 * BK + BK, tm * BM), stage=j * h + k2, barrier=full1)
                    b1_s.tma_load(B, coords=(2 * k2 * BK + BK, tn * BN), stage=j * h + k2, barrier=full1, multicast=2)
                    # past K (an odd count's last pair): the scales' last row again, times a zero product
                    sa1_s.tma_load(SA, coords=(tm * BM, lm.min(2 * k2 + 1, k_steps - 1)), stage=j * h + k2, barrier=full1)
                    sb1_s.tma_load(SB, coords=(tn * BN, lm.min(2 * k2 + 1, k_steps - 1)), stage=j * h + k2, barrier=full1)
        else:
            for j in lm.range(0, my_tiles):
                p = lm.cluster_id(0) + j * lm.num_clusters(0)
                first_m = p // group_pairs * GROUP_M
                rows = lm.min(m_pairs - first_m, GROUP_M)
                tm = 2 * (first_m + p % group_pairs % rows) + lm.cluster_rank()
                tn = p % group_pairs // rows
                for k in lm.range(0, k_steps):
                    lm.wait(empty, stage=j * k_steps + k)
                    a_s.tma_load(A, coords=(k * BK, tm * BM), stage=j * k_steps + k, barrier=full)
                    b_s.tma_load(B, coords=(k * BK, tn * BN), stage=j * k_steps + k, barrier=full, multicast=2)
                    sa_s.tma_load(SA, coords=(tm * BM, k), stage=j * k_steps + k, barrier=full)
                    sb_s.tma_load(SB, coords=(tn * BN, k), stage=j * k_steps + k, barrier=full)
    with math:
        if PRODUCTS == 2:
            for j in lm.range(0, my_tiles):
                # the previous tile's place in C: it is stored under this tile's first wgmmas
                p = lm.cluster_id(0) + (j - 1) * lm.num_clusters(0)
                first_m = p // group_pairs * GROUP_M
                rows = lm.min(m_pairs - first_m, GROUP_M)
                tm = lm.min(2 * (first_m + p % group_pairs % rows) + lm.cluster_rank(), 2 * m_pairs - 1)
                tn = lm.min(p % group_pairs // rows, n_tiles - 1)
                # the tile's first pair, peeled: nothing of the tile is in flight before it, and from
                # here on the odd product is always in flight at the loop's head (no branch on k2)
                lm.wait(full0, stage=j * h)
                lm.mma(part0, a0_s[j * h], b0_s[j * h].T, init=True)
                lm.mma_commit()
                if j > 0:  # the previous tile's C (still in acc) while the first wgmmas run
                    out = lm.cast(acc, lm.bf16)
                    lm.tma_store_wait()
                    lm.role_sync()
                    c_s.store(out)
                    lm.fence_proxy()
                    lm.role_sync()
                    c_s.tma_store(C, coords=(tn * BN, tm * BM))
                acc = lm.fill(acc, 0.0)
                sa0 = sa0_s.load(stage=j * h, rows=True)
                sb0 = sb0_s.load(stage=j * h, shape=(1, 1))
                lm.wait(full1, stage=j * h)
                lm.mma(part1, a1_s[j * h], b1_s[j * h].T, init=True)
                lm.mma_commit()
                sa1 = sa1_s.load(stage=j * h, rows=True)
                sb1 = sb1_s.load(stage=j * h, shape=(1, 1))
                s1 = sa1 * sb1
                lm.mma_wait(pending=1)  # the even k-step's product
                lm.arrive(empty0, stage=j * h, per="warp", cluster=True)
                acc = acc + part0 * (sa0 * sb0)
                for k2 in lm.range(1, h):
                    lm.wait(full0, stage=j * h + k2)
                    lm.mma(part0, a0_s[j * h + k2], b0_s[j * h + k2].T, init=True)
                    lm.mma_commit()
                    sa0 = sa0_s.load(stage=j * h + k2, rows=True)
                    sb0 = sb0_s.load(stage=j * h + k2, shape=(1, 1))
                    lm.mma_wait(pending=1)  # the previous odd k-step's product, while this one's wgmmas run
                    lm.arrive(empty1, stage=j * h + k2 - 1, per="warp", cluster=True)
                    acc = acc + part1 * s1
                    lm.wait(full1, stage=j * h + k2)
                    lm.mma(part1, a1_s[j * h + k2], b1_s[j * h + k2].T, init=True)
                    lm.mma_commit()
                    sa1 = sa1_s.load(stage=j * h + k2, rows=True)
                    sb1 = sb1_s.load(stage=j * h + k2, shape=(1, 1))
                    s1 = sa1 * sb1
                    lm.mma_wait(pending=1)  # the even k-step's product
                    lm.arrive(empty0, stage=j * h + k2, per="warp", cluster=True)
                    acc = acc + part0 * (sa0 * sb0)
                if k_steps % 2 == 0:
                    lm.mma_wait(pending=0)
                    lm.arrive(empty1, stage=j * h + h - 1, per="warp", cluster=True)
                    acc = acc + part1 * s1
                else:  # an odd count's last odd k-step read past K: its product is zero
                    lm.mma_wait(pending=0)
                    lm.arrive(empty1, stage=j * h + h - 1, per="warp", cluster=True)
            if my_tiles > 0:  # the last tile's C
                p = lm.cluster_id(0) + (my_tiles - 1) * lm.num_clusters(0)
                first_m = p // group_pairs * GROUP_M
                rows = lm.min(m_pairs - first_m, GROUP_M)
                tm = lm.min(2 * (first_m + p % group_pairs % rows) + lm.cluster_rank(), 2 * m_pairs - 1)
                tn = lm.min(p % group_pairs // rows, n_tiles - 1)
                out = lm.cast(acc, lm.bf16)
                lm.tma_store_wait()
                lm.role_sync()
                c_s.store(out)
                lm.fence_proxy()
                lm.role_sync()
                c_s.tma_store(C, coords=(tn * BN, tm * BM))
            lm.tma_store_wait()
        else:
            for j in lm.range(0, my_tiles):
                # the previous tile's place in C: its quarters are stored under this tile's first k-steps
                p = lm.cluster_id(0) + (j - 1) * lm.num_clusters(0)
                first_m = p // group_pairs * GROUP_M
                rows = lm.min(m_pairs - first_m, GROUP_M)
                tm = 2 * (first_m + p % group_pairs % rows) + lm.cluster_rank()
                tn = p % group_pairs // rows
                acc = lm.fill(acc, 0.0)
                for k in lm.range(0, k_steps):
                    lm.wait(full, stage=j * k_steps + k)
                    lm.mma(part, a_s[j * k_steps + k], b_s[j * k_steps + k].T, init=True)
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
                    # this k-block's scale of each row of A, read while the wgmmas run
                    sa = sa_s.load(stage=j * k_steps + k, rows=True)
                    if B_SCALE_ONE:
                        sb = sb_s.load(stage=j * k_steps + k, shape=(1, 1))  # the weight block's scale, once
                        lm.mma_wait(pending=0)
                        lm.arrive(empty, stage=j * k_steps + k, per="warp", cluster=True)  # each warp read its scales
                        acc = acc + part * (sa * sb)
                    else:
                        lm.mma_wait(pending=0)
                        sb = sb_s.load(stage=j * k_steps + k)             # and of each column of B
                        lm.arrive(empty, stage=j * k_steps + k, per="warp", cluster=True)  # each warp read its scales
                        acc = acc + part * sa * sb
                out = lm.cast(acc, lm.bf16)
            # the last tile's quarters
            if my_tiles > 0:
                p = lm.cluster_id(0) + (my_tiles - 1) * lm.num_clusters(0)
                first_m = p // group_pairs * GROUP_M
                rows = lm.min(m_pairs - first_m, GROUP_M)
                tm = 2 * (first_m + p % group_pairs % rows) + lm.cluster_rank()
                tn = p % group_pairs // rows
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
