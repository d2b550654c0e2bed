# A decode-shaped GEMM whose boxes the launcher may cut to a shorter tensor
# (box_cut.test). VARIANT selects a near-miss that must not be cut:
#   0: A, B and C cut (block coordinates, views of their own);
#   1: A's outer coordinate may be negative (block_id(1) * BM - 8);
#   2: the C staging tile reuses the first stage of a_s (alias=True);
#   3: B is copied into a view that a second load from A also writes;
#   4: cut, but two roles read the views (each computes the product): the
#      rows past the cut are zeroed before the roles start, not by one role;
#   5: cut: A's outer coordinate adds min(k, 0), not negative because k
#      steps up from 0;
#   6: not cut: it adds min(k - 1, 0), which is -1 when k = 0;
#   7: C's store may start above row 0 (block_id(1) * BM - 8): C not cut;
#   8: a_s unswizzled, so laid out as core-matrix panels for wgmma: A not cut.
# -DBK=128 makes a row of a_s and b_s two swizzle spans: neither is cut.
# target: sm_90a
VARIANT = 0
BM = 64
BN = 64
BK = 64
STAGES = 4

@cake.schedule(grid=((N + BN - 1) // BN, (M + BM - 1) // BM))
def g(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(STAGES * (BM + BN) * BK * 2 + BM * BN * 2)
    if VARIANT == 8:
        a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES)
    else:
        a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    if VARIANT == 2:
        c_s = pool.view(offset=0, shape=(BM, BN), dtype=lm.bf16, alias=True)
    else:
        c_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    if VARIANT == 4:
        twin = lm.role(warps=[8, 9, 10, 11], regs=232)
        acc2 = lm.regs(shape=(BM, BN), dtype=lm.f32, role=twin)
        full = lm.barrier(count=STAGES, prod=[load], cons=[math, twin], init_count=1, pipeline=ring)
        empty = lm.barrier(count=STAGES, prod=[math, twin], cons=[load], init_count=2, pipeline=ring)
    else:
        full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
        empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=1, pipeline=ring)
    with load:
        for k in lm.range(0, (K + BK - 1) // BK):
            lm.wait(empty, stage=k)
            if VARIANT == 1:
                a_s.tma_load(A, coords=(k * BK, lm.block_id(1) * BM - 8), stage=k, barrier=full)
            elif VARIANT == 5:
                a_s.tma_load(A, coords=(k * BK, lm.block_id(1) * BM + lm.min(k, 0)), stage=k, barrier=full)
            elif VARIANT == 6:
                a_s.tma_load(A, coords=(k * BK, lm.block_id(1) * BM + lm.min(k - 1, 0)), stage=k, barrier=full)
            else:
                a_s.tma_load(A, coords=(k * BK, lm.block_id(1) * BM), stage=k, barrier=full)
            if VARIANT == 3:
                b_s.tma_load(A, coords=(k * BK, lm.block_id(1) * BM), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * BK, lm.block_id(0) * BN), stage=k, barrier=full)
    with math:
        for k in lm.range(0, (K + BK - 1) // BK):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        c_s.store(lm.cast(acc, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        if VARIANT == 7:
            c_s.tma_store(C, coords=(lm.block_id(0) * BN, lm.block_id(1) * BM - 8))
        else:
            c_s.tma_store(C, coords=(lm.block_id(0) * BN, lm.block_id(1) * BM))
        lm.tma_store_wait()
    if VARIANT == 4:
        with twin:
            for k in lm.range(0, (K + BK - 1) // BK):
                lm.wait(full, stage=k)
                lm.mma(acc2, a_s[k], b_s[k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=k, per="warpgroup")
