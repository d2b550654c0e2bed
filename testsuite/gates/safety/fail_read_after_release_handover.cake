# A view written by generic stores and handed over by an arrival (the
# math role stores c_s, then arrives on cfull; the epilogue waits on cfull,
# TMA-stores c_s, and releases it on cempty) is brought back after its
# release only by a wait on the barrier that hands it over, at a later
# phase. Before, any wait counted, so both parts were accepted:
#  1. the epilogue waits on an unrelated ring (a bias tile's 'aux') between
#     the release and a second store of c_s, which the math role may be
#     rewriting for the next tile;
#  2. it waits on 'other', which the math role signals after the write in
#     the same iteration, so that phase says nothing of the next write.
# Near miss: pass_read_after_release_handover.cake (the next phase of cfull).
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=(lm.sm_count(),))
def k(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], D: LM.tma2d[M, N], E: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(98304)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    d_s = pool.view(offset=65536, shape=(64, 128), dtype=lm.bf16, stage=2)
    load = lm.role(warps=[0, 1, 2])
    epi = lm.role(warps=[3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    cfull = lm.barrier(count=1, prod=[math], cons=[epi])
    cempty = lm.barrier(count=1, prod=[epi], cons=[math], credits=1)
    aux = lm.barrier(count=2, prod=[load], cons=[epi])
    auxe = lm.barrier(count=2, prod=[epi], cons=[load], credits=2)
    T = lm.max(1, ((M + 63) // 64 - lm.block_id(0) + lm.num_blocks(0) - 1) // lm.num_blocks(0))
    KS = (K + 63) // 64
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, KS):
                lm.wait(empty, stage=t * KS + k)
                a_s.tma_load(A, coords=(k * 64, 0), stage=t * KS + k, barrier=full)
                b_s.tma_load(B, coords=(k * 64, 0), stage=t * KS + k, barrier=full)
        for t in lm.range(0, T):
            lm.wait(auxe, stage=t)
            d_s.tma_load(E, coords=(t * 64, 0), stage=t, barrier=aux)
    with math:
        for t in lm.range(0, T):
            for k in lm.range(0, KS):
                lm.wait(full, stage=t * KS + k)
                lm.mma(acc, a_s[t * KS + k], b_s[t * KS + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=t * KS + k)
            out = lm.cast(acc, lm.bf16)
            lm.wait(cempty, stage=t)
            c_s.store(out)
            lm.fence_proxy()
            lm.role_sync()
            lm.arrive(cfull, stage=t)
    with epi:
        for t in lm.range(0, T):
            lm.wait(cfull, stage=t)
            c_s.tma_store(C, coords=(t * 64, 0))
            lm.tma_store_wait()
            lm.arrive(cempty, stage=t)  # expected-note {{'c_s' released here}}
            lm.wait(aux, stage=t)
            c_s.tma_store(C, coords=(t * 64, 0))  # expected-error {{role 'epi' reads 'c_s' after releasing it (arrive on 'cempty'): the producer may already be overwriting it}}
            d_s.tma_store(D, coords=(t * 64, 0), stage=t)
            lm.tma_store_wait()
            lm.arrive(auxe, stage=t)

# -----
@cake.schedule(grid=(lm.sm_count(),))
def k(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], D: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2])
    epi = lm.role(warps=[3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    cfull = lm.barrier(count=1, prod=[math], cons=[epi])
    cempty = lm.barrier(count=1, prod=[epi], cons=[math], credits=1)
    other = lm.barrier(count=1, prod=[math], cons=[epi])
    T = lm.max(1, ((M + 63) // 64 - lm.block_id(0) + lm.num_blocks(0) - 1) // lm.num_blocks(0))
    KS = (K + 63) // 64
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, KS):
                lm.wait(empty, stage=t * KS + k)
                a_s.tma_load(A, coords=(k * 64, 0), stage=t * KS + k, barrier=full)
                b_s.tma_load(B, coords=(k * 64, 0), stage=t * KS + k, barrier=full)
    with math:
        for t in lm.range(0, T):
            for k in lm.range(0, KS):
                lm.wait(full, stage=t * KS + k)
                lm.mma(acc, a_s[t * KS + k], b_s[t * KS + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=t * KS + k)
            out = lm.cast(acc, lm.bf16)
            lm.wait(cempty, stage=t)
            c_s.store(out)
            lm.fence_proxy()
            lm.role_sync()
            lm.arrive(cfull, stage=t)
            lm.arrive(other, stage=t)
    with epi:
        for t in lm.range(0, T):
            lm.wait(cfull, stage=t)
            c_s.tma_store(C, coords=(t * 64, 0))
            lm.tma_store_wait()
            lm.arrive(cempty, stage=t)  # expected-note {{'c_s' released here}}
            lm.wait(other, stage=t)
            c_s.tma_store(D, coords=(t * 64, 0))  # expected-error {{role 'epi' reads 'c_s' after releasing it (arrive on 'cempty'): the producer may already be overwriting it}}
            lm.tma_store_wait()

# -----
# a second wait on cfull at a stage not proven above the first (lm.min(t, T) is t): the release rule counted any stage whose difference from an earlier wait's was not a constant as a later phase; now only one proven above it over the loops' iterations (the other rules report it as unproven too)
@cake.schedule(grid=(lm.sm_count(),))
def k(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], D: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2])
    epi = lm.role(warps=[3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    cfull = lm.barrier(count=1, prod=[math], cons=[epi])
    cempty = lm.barrier(count=1, prod=[epi], cons=[math], credits=1)
    T = lm.max(1, ((M + 63) // 64 - lm.block_id(0) + lm.num_blocks(0) - 1) // lm.num_blocks(0))
    KS = (K + 63) // 64
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, KS):
                lm.wait(empty, stage=t * KS + k)
                a_s.tma_load(A, coords=(k * 64, 0), stage=t * KS + k, barrier=full)
                b_s.tma_load(B, coords=(k * 64, 0), stage=t * KS + k, barrier=full)
    with math:
        for t in lm.range(0, T):
            for k in lm.range(0, KS):
                lm.wait(full, stage=t * KS + k)
                lm.mma(acc, a_s[t * KS + k], b_s[t * KS + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=t * KS + k)
            out = lm.cast(acc, lm.bf16)
            lm.wait(cempty, stage=t)
            c_s.store(out)
            lm.fence_proxy()
            lm.role_sync()
            lm.arrive(cfull, stage=t)
    with epi:
        for t in lm.range(0, T):
            lm.wait(cfull, stage=t)  # expected-error {{cannot prove that barrier 'cfull' is signalled as often as it is awaited}}
            c_s.tma_store(C, coords=(t * 64, 0))
            lm.tma_store_wait()
            lm.arrive(cempty, stage=t)  # expected-note {{'c_s' released here}}
            lm.wait(cfull, stage=lm.min(t, T))  # expected-error {{cannot prove which stage 'lm.min(t, T)' names; stage indices should be a loop variable plus a constant}}
            c_s.tma_store(D, coords=(t * 64, 0))  # expected-error {{role 'epi' reads 'c_s' after releasing it (arrive on 'cempty'): the producer may already be overwriting it}}
            lm.tma_store_wait()
