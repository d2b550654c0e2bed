# Broken variants of examples/gemm_fp8_blockscaled_sm90a.cake's default
# schedule (PRODUCTS=2: two rings, the tile's first pair peeled, its scales
# read with view.load at the straight-line stage `j * h`, which the gate
# accepts because a wait names the same stage in the same form; the example
# compiles with every gate on in testsuite/codegen/gemm_fp8_lowering.test).
# RUN: %cakec -verify -split-input-file -fsyntax-only -I %srcroot %s
# The first k-step's scales read before the wait for their stage: the copy may not have landed (safety.read-before-wait)
from stdlib.hopper import WGMMA_M, SWIZZLE_128B_FP8_K

BM = 2 * WGMMA_M
BN = 128
BK = SWIZZLE_128B_FP8_K
EVEN = 3   # stages of the ring of even k-steps
ODD = 2    # stages of the ring of odd k-steps
GROUP_M = 8
RING_BYTES = (EVEN + ODD) * (BM + BN) * BK

@cake.schedule(grid=((((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN))
                      + (((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN)) + lm.sm_count() // 2 - 1) // (lm.sm_count() // 2) - 1)
                     // ((((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN)) + lm.sm_count() // 2 - 1) // (lm.sm_count() // 2)) * 2,),
                cluster=(2, 1, 1))
def gemm_fp8_blockscaled(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], SA: LM.tma2d, SB: LM.tma2d,
                         M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(RING_BYTES + BM * BN * 2 + (EVEN + ODD) * (BM + BN) * 4)
    a0_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.e4m3, stage=EVEN, swizzle="128B")
    b0_s = pool.view(offset=EVEN * BM * BK, shape=(BN, BK), dtype=lm.e4m3, stage=EVEN, swizzle="128B")
    a1_s = pool.view(offset=EVEN * (BM + BN) * BK, shape=(BM, BK), dtype=lm.e4m3, stage=ODD, swizzle="128B")
    b1_s = pool.view(offset=EVEN * (BM + BN) * BK + ODD * BM * BK, shape=(BN, BK), dtype=lm.e4m3, stage=ODD,
                     swizzle="128B")
    c_s = pool.view(offset=RING_BYTES, shape=(BM, BN), dtype=lm.bf16, swizzle="128B")  # the tile of C
    SC = RING_BYTES + BM * BN * 2
    sa0_s = pool.view(offset=SC, shape=(1, BM), dtype=lm.f32, stage=EVEN)
    sb0_s = pool.view(offset=SC + EVEN * BM * 4, shape=(1, BN), dtype=lm.f32, stage=EVEN)
    sa1_s = pool.view(offset=SC + EVEN * (BM + BN) * 4, shape=(1, BM), dtype=lm.f32, stage=ODD)
    sb1_s = pool.view(offset=SC + EVEN * (BM + BN) * 4 + ODD * BM * 4, shape=(1, BN), dtype=lm.f32, stage=ODD)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    part0 = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)  # even k-steps' products
    part1 = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)  # odd k-steps' products
    s1 = lm.regs(shape=(BM, 1), dtype=lm.f32, role=math)  # the odd k-step's scales, used an iteration later
    ring0 = lm.pipeline(stages=EVEN)
    ring1 = lm.pipeline(stages=ODD)
    full0 = lm.barrier(count=EVEN, prod=[load], cons=[math], init_count=1, pipeline=ring0)  # expected-note {{barrier 'full0' declared here}}
    empty0 = lm.barrier(count=EVEN, prod=[math], cons=[load], init_count=16, pipeline=ring0)
    full1 = lm.barrier(count=ODD, prod=[load], cons=[math], init_count=1, pipeline=ring1)
    empty1 = lm.barrier(count=ODD, prod=[math], cons=[load], init_count=16, pipeline=ring1)
    m_pairs = (M + 2 * BM - 1) // (2 * BM)
    n_tiles = (N + BN - 1) // BN
    pairs = m_pairs * n_tiles
    group_pairs = GROUP_M * n_tiles
    k_steps = (K + BK - 1) // BK
    h = (k_steps + 1) // 2  # pairs of k-steps (an odd count's last pair reads zeros past K)
    my_tiles = (pairs - lm.cluster_id(0) + lm.num_clusters(0) - 1) // lm.num_clusters(0)
    with load:
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
    with math:
        for j in lm.range(0, my_tiles):
            p = lm.cluster_id(0) + j * lm.num_clusters(0)
            first_m = p // group_pairs * GROUP_M
            rows = lm.min(m_pairs - first_m, GROUP_M)
            tm = lm.min(2 * (first_m + p % group_pairs % rows) + lm.cluster_rank(), 2 * m_pairs - 1)
            tn = lm.min(p % group_pairs // rows, n_tiles - 1)
            acc = lm.fill(acc, 0.0)
            # the tile's first pair, peeled: nothing of the tile is in flight before it, and from
            # here on the odd product is always in flight at the loop's head (no branch on k2)
            sa0 = sa0_s.load(stage=j * h, rows=True)  # expected-error {{role 'math' reads stage j*h of 'sa0_s' but never waits on barrier 'full0' for that stage}}
            lm.wait(full0, stage=j * h)
            lm.mma(part0, a0_s[j * h], b0_s[j * h].T, init=True)
            lm.mma_commit()
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
            lm.mma_wait(pending=0)
            lm.arrive(empty1, stage=j * h + h - 1, per="warp", cluster=True)
            acc = acc + part1 * s1
            out = lm.cast(acc, lm.bf16)
            lm.tma_store_wait()
            lm.role_sync()
            c_s.store(out)
            lm.fence_proxy()
            lm.role_sync()
            c_s.tma_store(C, coords=(tn * BN, tm * BM))
        lm.tma_store_wait()

# -----
# The odd scale read at a stage no wait names (j * h + 1, the next pair's, not yet waited for)
from stdlib.hopper import WGMMA_M, SWIZZLE_128B_FP8_K

BM = 2 * WGMMA_M
BN = 128
BK = SWIZZLE_128B_FP8_K
EVEN = 3   # stages of the ring of even k-steps
ODD = 2    # stages of the ring of odd k-steps
GROUP_M = 8
RING_BYTES = (EVEN + ODD) * (BM + BN) * BK

@cake.schedule(grid=((((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN))
                      + (((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN)) + lm.sm_count() // 2 - 1) // (lm.sm_count() // 2) - 1)
                     // ((((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN)) + lm.sm_count() // 2 - 1) // (lm.sm_count() // 2)) * 2,),
                cluster=(2, 1, 1))
def gemm_fp8_blockscaled(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], SA: LM.tma2d, SB: LM.tma2d,
                         M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(RING_BYTES + BM * BN * 2 + (EVEN + ODD) * (BM + BN) * 4)
    a0_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.e4m3, stage=EVEN, swizzle="128B")
    b0_s = pool.view(offset=EVEN * BM * BK, shape=(BN, BK), dtype=lm.e4m3, stage=EVEN, swizzle="128B")
    a1_s = pool.view(offset=EVEN * (BM + BN) * BK, shape=(BM, BK), dtype=lm.e4m3, stage=ODD, swizzle="128B")
    b1_s = pool.view(offset=EVEN * (BM + BN) * BK + ODD * BM * BK, shape=(BN, BK), dtype=lm.e4m3, stage=ODD,
                     swizzle="128B")
    c_s = pool.view(offset=RING_BYTES, shape=(BM, BN), dtype=lm.bf16, swizzle="128B")  # the tile of C
    SC = RING_BYTES + BM * BN * 2
    sa0_s = pool.view(offset=SC, shape=(1, BM), dtype=lm.f32, stage=EVEN)
    sb0_s = pool.view(offset=SC + EVEN * BM * 4, shape=(1, BN), dtype=lm.f32, stage=EVEN)
    sa1_s = pool.view(offset=SC + EVEN * (BM + BN) * 4, shape=(1, BM), dtype=lm.f32, stage=ODD)
    sb1_s = pool.view(offset=SC + EVEN * (BM + BN) * 4 + ODD * BM * 4, shape=(1, BN), dtype=lm.f32, stage=ODD)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    part0 = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)  # even k-steps' products
    part1 = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)  # odd k-steps' products
    s1 = lm.regs(shape=(BM, 1), dtype=lm.f32, role=math)  # the odd k-step's scales, used an iteration later
    ring0 = lm.pipeline(stages=EVEN)
    ring1 = lm.pipeline(stages=ODD)
    full0 = lm.barrier(count=EVEN, prod=[load], cons=[math], init_count=1, pipeline=ring0)
    empty0 = lm.barrier(count=EVEN, prod=[math], cons=[load], init_count=16, pipeline=ring0)
    full1 = lm.barrier(count=ODD, prod=[load], cons=[math], init_count=1, pipeline=ring1)  # expected-note {{barrier 'full1' declared here}}
    empty1 = lm.barrier(count=ODD, prod=[math], cons=[load], init_count=16, pipeline=ring1)
    m_pairs = (M + 2 * BM - 1) // (2 * BM)
    n_tiles = (N + BN - 1) // BN
    pairs = m_pairs * n_tiles
    group_pairs = GROUP_M * n_tiles
    k_steps = (K + BK - 1) // BK
    h = (k_steps + 1) // 2  # pairs of k-steps (an odd count's last pair reads zeros past K)
    my_tiles = (pairs - lm.cluster_id(0) + lm.num_clusters(0) - 1) // lm.num_clusters(0)
    with load:
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
    with math:
        for j in lm.range(0, my_tiles):
            p = lm.cluster_id(0) + j * lm.num_clusters(0)
            first_m = p // group_pairs * GROUP_M
            rows = lm.min(m_pairs - first_m, GROUP_M)
            tm = lm.min(2 * (first_m + p % group_pairs % rows) + lm.cluster_rank(), 2 * m_pairs - 1)
            tn = lm.min(p % group_pairs // rows, n_tiles - 1)
            acc = lm.fill(acc, 0.0)
            # the tile's first pair, peeled: nothing of the tile is in flight before it, and from
            # here on the odd product is always in flight at the loop's head (no branch on k2)
            lm.wait(full0, stage=j * h)
            lm.mma(part0, a0_s[j * h], b0_s[j * h].T, init=True)
            lm.mma_commit()
            sa0 = sa0_s.load(stage=j * h, rows=True)
            sb0 = sb0_s.load(stage=j * h, shape=(1, 1))
            lm.wait(full1, stage=j * h)
            lm.mma(part1, a1_s[j * h], b1_s[j * h].T, init=True)
            lm.mma_commit()
            sa1 = sa1_s.load(stage=j * h, rows=True)
            sb1 = sb1_s.load(stage=j * h + 1, shape=(1, 1))  # expected-error {{cannot prove which stage 'j * h + 1' names}} expected-error {{role 'math' reads stage j*h+1 of 'sb1_s' but never waits on barrier 'full1' for that stage}}
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
            lm.mma_wait(pending=0)
            lm.arrive(empty1, stage=j * h + h - 1, per="warp", cluster=True)
            acc = acc + part1 * s1
            out = lm.cast(acc, lm.bf16)
            lm.tma_store_wait()
            lm.role_sync()
            c_s.store(out)
            lm.fence_proxy()
            lm.role_sync()
            c_s.tma_store(C, coords=(tn * BN, tm * BM))
        lm.tma_store_wait()

# -----
# The first even scale read again after its stage was released (the producer may be refilling it)
from stdlib.hopper import WGMMA_M, SWIZZLE_128B_FP8_K

BM = 2 * WGMMA_M
BN = 128
BK = SWIZZLE_128B_FP8_K
EVEN = 3   # stages of the ring of even k-steps
ODD = 2    # stages of the ring of odd k-steps
GROUP_M = 8
RING_BYTES = (EVEN + ODD) * (BM + BN) * BK

@cake.schedule(grid=((((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN))
                      + (((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN)) + lm.sm_count() // 2 - 1) // (lm.sm_count() // 2) - 1)
                     // ((((M + 2 * BM - 1) // (2 * BM) * ((N + BN - 1) // BN)) + lm.sm_count() // 2 - 1) // (lm.sm_count() // 2)) * 2,),
                cluster=(2, 1, 1))
def gemm_fp8_blockscaled(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], SA: LM.tma2d, SB: LM.tma2d,
                         M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(RING_BYTES + BM * BN * 2 + (EVEN + ODD) * (BM + BN) * 4)
    a0_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.e4m3, stage=EVEN, swizzle="128B")
    b0_s = pool.view(offset=EVEN * BM * BK, shape=(BN, BK), dtype=lm.e4m3, stage=EVEN, swizzle="128B")
    a1_s = pool.view(offset=EVEN * (BM + BN) * BK, shape=(BM, BK), dtype=lm.e4m3, stage=ODD, swizzle="128B")
    b1_s = pool.view(offset=EVEN * (BM + BN) * BK + ODD * BM * BK, shape=(BN, BK), dtype=lm.e4m3, stage=ODD,
                     swizzle="128B")
    c_s = pool.view(offset=RING_BYTES, shape=(BM, BN), dtype=lm.bf16, swizzle="128B")  # the tile of C
    SC = RING_BYTES + BM * BN * 2
    sa0_s = pool.view(offset=SC, shape=(1, BM), dtype=lm.f32, stage=EVEN)
    sb0_s = pool.view(offset=SC + EVEN * BM * 4, shape=(1, BN), dtype=lm.f32, stage=EVEN)
    sa1_s = pool.view(offset=SC + EVEN * (BM + BN) * 4, shape=(1, BM), dtype=lm.f32, stage=ODD)
    sb1_s = pool.view(offset=SC + EVEN * (BM + BN) * 4 + ODD * BM * 4, shape=(1, BN), dtype=lm.f32, stage=ODD)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    part0 = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)  # even k-steps' products
    part1 = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)  # odd k-steps' products
    s1 = lm.regs(shape=(BM, 1), dtype=lm.f32, role=math)  # the odd k-step's scales, used an iteration later
    ring0 = lm.pipeline(stages=EVEN)
    ring1 = lm.pipeline(stages=ODD)
    full0 = lm.barrier(count=EVEN, prod=[load], cons=[math], init_count=1, pipeline=ring0)
    empty0 = lm.barrier(count=EVEN, prod=[math], cons=[load], init_count=16, pipeline=ring0)
    full1 = lm.barrier(count=ODD, prod=[load], cons=[math], init_count=1, pipeline=ring1)
    empty1 = lm.barrier(count=ODD, prod=[math], cons=[load], init_count=16, pipeline=ring1)
    m_pairs = (M + 2 * BM - 1) // (2 * BM)
    n_tiles = (N + BN - 1) // BN
    pairs = m_pairs * n_tiles
    group_pairs = GROUP_M * n_tiles
    k_steps = (K + BK - 1) // BK
    h = (k_steps + 1) // 2  # pairs of k-steps (an odd count's last pair reads zeros past K)
    my_tiles = (pairs - lm.cluster_id(0) + lm.num_clusters(0) - 1) // lm.num_clusters(0)
    with load:
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
    with math:
        for j in lm.range(0, my_tiles):
            p = lm.cluster_id(0) + j * lm.num_clusters(0)
            first_m = p // group_pairs * GROUP_M
            rows = lm.min(m_pairs - first_m, GROUP_M)
            tm = lm.min(2 * (first_m + p % group_pairs % rows) + lm.cluster_rank(), 2 * m_pairs - 1)
            tn = lm.min(p % group_pairs // rows, n_tiles - 1)
            acc = lm.fill(acc, 0.0)
            # the tile's first pair, peeled: nothing of the tile is in flight before it, and from
            # here on the odd product is always in flight at the loop's head (no branch on k2)
            lm.wait(full0, stage=j * h)
            lm.mma(part0, a0_s[j * h], b0_s[j * h].T, init=True)
            lm.mma_commit()
            sa0 = sa0_s.load(stage=j * h, rows=True)
            sb0 = sb0_s.load(stage=j * h, shape=(1, 1))
            lm.wait(full1, stage=j * h)
            lm.mma(part1, a1_s[j * h], b1_s[j * h].T, init=True)
            lm.mma_commit()
            sa1 = sa1_s.load(stage=j * h, rows=True)
            sb1 = sb1_s.load(stage=j * h, shape=(1, 1))
            s1 = sa1 * sb1
            lm.mma_wait(pending=1)  # the even k-step's product
            lm.arrive(empty0, stage=j * h, per="warp", cluster=True)  # expected-note {{'sa0_s' released here}}
            sa0 = sa0_s.load(stage=j * h, rows=True)  # expected-error {{role 'math' reads stage j*h of 'sa0_s' after releasing it (arrive on 'empty0'): the producer may already be overwriting it}}
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
            lm.mma_wait(pending=0)
            lm.arrive(empty1, stage=j * h + h - 1, per="warp", cluster=True)
            acc = acc + part1 * s1
            out = lm.cast(acc, lm.bf16)
            lm.tma_store_wait()
            lm.role_sync()
            c_s.store(out)
            lm.fence_proxy()
            lm.role_sync()
            c_s.tma_store(C, coords=(tn * BN, tm * BM))
        lm.tma_store_wait()
