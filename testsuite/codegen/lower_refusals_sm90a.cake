# Every form the sm_90a lowering refuses after the gates accept the schedule
# is an error with its own lower.* id at the operation's line, saying what is
# lowered instead, and -fsyntax-only reports it (it runs the lowering): what a
# check accepts lowers. One case per part (-split-input-file).
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# RUN: %expect-exit 1 %cakec -split-input-file -fsyntax-only --target=sm_90a %s 2>&1 | FileCheck %s --check-prefix=IDS
# IDS: [lower.mma-dtype]
# IDS: [lower.mma-placement]
# IDS: [lower.operand-view]
# IDS: [lower.fragment-math]
# IDS: [lower.fragment-load]
# IDS: [lower.fragment-layout]
# IDS-NOT: [lower.fragment-layout]
# IDS: [lower.fragment-store]
# An i8 wgmma: --list-ops says sm_90a lowers lm.mma for bf16, f16, e4m3 and e5m2 operands.
BM = 128
BN = 256
BK = 128
STAGES = 3

@cake.schedule(grid=(M // BM, N // BN))
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(212992)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.i8, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * 128, shape=(BN, BK), dtype=lm.i8, stage=STAGES, swizzle="128B")
    c_s = pool.view(offset=STAGES * (BM + BN) * 128, shape=(BM, BN), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.i32, role=math)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=2, pipeline=ring)
    with load:
        for k in lm.range(0, K // BK):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * BK, lm.block_id(0) * BM), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * BK, lm.block_id(1) * BN), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // BK):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))  # expected-error {{wgmma is lowered for A and B of one type among bf16, f16, e4m3, e5m2 (e4m3 and e5m2 mix), with f32 accumulators (here i8 and i8 into i32)}}
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
        lm.tma_store_wait()

# -----
# A read MN-major (a (K, M) view used as .T).
BM = 128
BN = 256
BK = 64
STAGES = 3

@cake.schedule(grid=(M // BM, N // BN))
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(212992)
    a_s = pool.view(offset=0, shape=(BK, BM), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * 128, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    c_s = pool.view(offset=STAGES * (BM + BN) * 128, shape=(BM, BN), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=2, pipeline=ring)
    with load:
        for k in lm.range(0, K // BK):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(lm.block_id(0) * BM, k * BK), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * BK, lm.block_id(1) * BN), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // BK):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k].T, b_s[k].T, init=(k == 0))  # expected-error {{A is lowered K-major only}}
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
        lm.tma_store_wait()

# -----
# An MN-major B (used without .T) swizzled 64B: wgmma reads it with 128B only.
BM = 128
BN = 256
BK = 64
STAGES = 3

@cake.schedule(grid=(M // BM, N // BN))
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(212992)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * 128, shape=(BK, BN), dtype=lm.bf16, stage=STAGES, swizzle="64B")
    c_s = pool.view(offset=STAGES * (BM + BN) * 128, shape=(BM, BN), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=2, pipeline=ring)
    with load:
        for k in lm.range(0, K // BK):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * BK, lm.block_id(0) * BM), stage=k, barrier=full)
            b_s.tma_load(B, coords=(lm.block_id(1) * BN, k * BK), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // BK):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k], init=(k == 0))  # expected-error {{a swizzled MN-major B (used without '.T') needs swizzle="128B"}}
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
        lm.tma_store_wait()

# -----
# An fp8 view loaded into registers (fp8 fragments move through global
# memory only), and a row vector cast to bf16 (16-bit results are tiles).
@cake.schedule()
def k(lm, X: LM.tma2d, n: LM.i32):
    pool = lm.smem(32768)
    row = pool.view(offset=0, shape=(1, 64), dtype=lm.e4m3)
    math = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=1, prod=[math], cons=[math], init_count=1)
    f = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        row.tma_load(X, coords=(0, 0), barrier=got)
        lm.wait(got, stage=0)
        f = lm.fill(f, 1.0)
        h = lm.cast(lm.rowmax(f), lm.bf16)  # expected-error {{'lm.cast' to a 64x1 bf16 fragment has no sm_90a lowering: fragment math yields f32; lm.cast converts tiles to bf16, f16, e4m3 or e5m2}}
        r = row.load()  # expected-error {{a load of the fp8 view 'row' has no sm_90a lowering: fp8 views are loaded as tiles in the wgmma accumulator layout (two elements per load), not as vectors, 1 x 1 values, the rows layout or the tcgen05 lanes layout}}

# -----
# A fragment no warpgroup layout holds: reported once, where it is declared.
@cake.schedule()
def k(lm, n: LM.i32):
    pool = lm.smem(32768)
    out = pool.view(offset=0, shape=(48, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    f = lm.regs(shape=(48, 64), dtype=lm.f32, role=math)  # expected-error {{the register fragment 'f' (48x64) has no sm_90a lowering: fragments lower to the accumulator layout of the target's tensor-core path (a tile, an M x 1 row vector or a 1 x N column vector of one): the accumulator has 48 rows, not a multiple of 64 per warpgroup of role 'math' (1 warpgroup(s))}}
    with math:
        f = lm.fill(f, 1.0)
        out.store(f)

# -----
# A store into a swizzled view whose rows (96 bytes) are neither one 64B span nor whole panels.
@cake.schedule()
def k(lm, n: LM.i32):
    pool = lm.smem(32768)
    out = pool.view(offset=0, shape=(64, 48), dtype=lm.bf16, swizzle="64B")
    math = lm.role(warps=[0, 1, 2, 3])
    f = lm.regs(shape=(64, 48), dtype=lm.f32, role=math)
    with math:
        f = lm.fill(f, 1.0)
        h = lm.cast(f, lm.bf16)
        out.store(h)  # expected-error {{a store into the swizzled view 'out' has no sm_90a lowering: a swizzled destination's rows must be one swizzle span or whole panels of it}}
