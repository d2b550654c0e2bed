# Two roles that read the same element of a table the kernel does not
# write, at coordinates and with a range the same in every role of a block,
# read one value (docs/language.md 9.8): in the first input both loop
# n = LEN[b] times over a ring, which the safety gate proves (lowered and
# built with nvcc by testsuite/crossblock/load_scalar.test). The broken
# variants read different elements, with different ranges, or at a role's
# second read of an element: their loops' trip counts are not proven
# (safety.unproven-trip-count). (A table the kernel writes is refused:
# fail_value_read_written.cake.) In a cluster whose blocks meet at each
# other's barriers, a read at the block's own index (lm.cluster_rank(),
# lm.block_id) is not shared: the two blocks would loop different counts
# against each other's arrivals, which the gates do not compare; a read at
# lm.cluster_id is the same in the cluster's blocks and is shared.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule(grid=(B,))
def two(lm, X: LM.tma2d[R, 64], LEN: LM.tensor1d[B], Y: LM.tensor2d[M, 64], B: LM.i32, R: LM.i32, M: LM.i32):
    pool = lm.smem(2 * 64 * 64 * 2)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], init_count=4, pipeline=ring)
    b = lm.block_id(0)
    with load:
        n = lm.load_scalar(LEN, coords=(b,), lo=0, hi=R // 64 + 1)
        for j in lm.range(0, n):
            lm.wait(empty, stage=j)
            x_s.tma_load(X, coords=(0, j * 64), stage=j, barrier=full)
    with math:
        n = lm.load_scalar(LEN, coords=(b,), lo=0, hi=R // 64 + 1, order="acquire")
        acc = lm.fill(acc, 0.0)
        for j in lm.range(0, n):
            lm.wait(full, stage=j)
            acc = acc + lm.cast(x_s.load(stage=j), lm.f32)
            lm.arrive(empty, stage=j, per="warp")
        lm.store_tile(Y, coords=(0, b * 64), src=lm.cast(acc, lm.bf16))

# -----
# Another element: LEN[b + 1] is not LEN[b].
@cake.schedule(grid=(B,))
def two(lm, X: LM.tma2d[R, 64], LEN: LM.tensor1d[B], Y: LM.tensor2d[M, 64], B: LM.i32, R: LM.i32, M: LM.i32):
    pool = lm.smem(2 * 64 * 64 * 2)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], init_count=4, pipeline=ring)
    b = lm.block_id(0)
    with load:
        n = lm.load_scalar(LEN, coords=(b,), lo=0, hi=R // 64 + 1)
        for j in lm.range(0, n):
            lm.wait(empty, stage=j)  # expected-error {{cannot prove that barrier 'empty' is signalled as often as it is awaited}}
            x_s.tma_load(X, coords=(0, j * 64), stage=j, barrier=full)
    with math:
        n = lm.load_scalar(LEN, coords=(b + 1,), lo=0, hi=R // 64 + 1)
        acc = lm.fill(acc, 0.0)
        for j in lm.range(0, n):
            lm.wait(full, stage=j)  # expected-error {{cannot prove that barrier 'full' is signalled as often as it is awaited}}
            acc = acc + lm.cast(x_s.load(stage=j), lm.f32)
            lm.arrive(empty, stage=j, per="warp")
        lm.store_tile(Y, coords=(0, b * 64), src=lm.cast(acc, lm.bf16))

# -----
# Another range: the reads could stop the kernel at different values, and
# one role use its value before the other's check stops it.
@cake.schedule(grid=(B,))
def two(lm, X: LM.tma2d[R, 64], LEN: LM.tensor1d[B], Y: LM.tensor2d[M, 64], B: LM.i32, R: LM.i32, M: LM.i32):
    pool = lm.smem(2 * 64 * 64 * 2)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], init_count=4, pipeline=ring)
    b = lm.block_id(0)
    with load:
        n = lm.load_scalar(LEN, coords=(b,), lo=0, hi=R // 64 + 1)
        for j in lm.range(0, n):
            lm.wait(empty, stage=j)  # expected-error {{cannot prove that barrier 'empty' is signalled as often as it is awaited}}
            x_s.tma_load(X, coords=(0, j * 64), stage=j, barrier=full)
    with math:
        n = lm.load_scalar(LEN, coords=(b,), lo=0, hi=R // 64)
        acc = lm.fill(acc, 0.0)
        for j in lm.range(0, n):
            lm.wait(full, stage=j)  # expected-error {{cannot prove that barrier 'full' is signalled as often as it is awaited}}
            acc = acc + lm.cast(x_s.load(stage=j), lm.f32)
            lm.arrive(empty, stage=j, per="warp")
        lm.store_tile(Y, coords=(0, b * 64), src=lm.cast(acc, lm.bf16))

# -----
# At a value read alike in both roles (a shared read, LEN[b]): LEN[LEN[b]]
# is one value too.
# expected-no-diagnostics
@cake.schedule(grid=(B,))
def two(lm, X: LM.tma2d[R, 64], LEN: LM.tensor1d[B], Y: LM.tensor2d[M, 64], B: LM.i32, R: LM.i32, M: LM.i32):
    pool = lm.smem(2 * 64 * 64 * 2)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], init_count=4, pipeline=ring)
    b = lm.block_id(0)
    with load:
        at = lm.load_scalar(LEN, coords=(b,), lo=0, hi=B)
        n = lm.load_scalar(LEN, coords=(at,), lo=0, hi=R // 64 + 1)
        for j in lm.range(0, n):
            lm.wait(empty, stage=j)
            x_s.tma_load(X, coords=(0, j * 64), stage=j, barrier=full)
    with math:
        at = lm.load_scalar(LEN, coords=(b,), lo=0, hi=B)
        n = lm.load_scalar(LEN, coords=(at,), lo=0, hi=R // 64 + 1)
        acc = lm.fill(acc, 0.0)
        for j in lm.range(0, n):
            lm.wait(full, stage=j)
            acc = acc + lm.cast(x_s.load(stage=j), lm.f32)
            lm.arrive(empty, stage=j, per="warp")
        lm.store_tile(Y, coords=(0, b * 64), src=lm.cast(acc, lm.bf16))

# -----
# At a role's second read of an element (its own value: a role reading
# LEN[b] twice holds two variables), against the other role's first.
@cake.schedule(grid=(B,))
def two(lm, X: LM.tma2d[R, 64], LEN: LM.tensor1d[B], Y: LM.tensor2d[M, 64], B: LM.i32, R: LM.i32, M: LM.i32):
    pool = lm.smem(2 * 64 * 64 * 2)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], init_count=4, pipeline=ring)
    b = lm.block_id(0)
    with load:
        first = lm.load_scalar(LEN, coords=(b,), lo=0, hi=B)
        at = lm.load_scalar(LEN, coords=(b,), lo=0, hi=B)
        n = lm.load_scalar(LEN, coords=(at,), lo=0, hi=R // 64 + 1)
        for j in lm.range(0, n):
            lm.wait(empty, stage=j)  # expected-error {{cannot prove that barrier 'empty' is signalled as often as it is awaited}}
            x_s.tma_load(X, coords=(0, j * 64), stage=j, barrier=full)
    with math:
        at = lm.load_scalar(LEN, coords=(b,), lo=0, hi=B)
        n = lm.load_scalar(LEN, coords=(at,), lo=0, hi=R // 64 + 1)
        acc = lm.fill(acc, 0.0)
        for j in lm.range(0, n):
            lm.wait(full, stage=j)  # expected-error {{cannot prove that barrier 'full' is signalled as often as it is awaited}}
            acc = acc + lm.cast(x_s.load(stage=j), lm.f32)
            lm.arrive(empty, stage=j, per="warp")
        lm.store_tile(Y, coords=(0, b * 64), src=lm.cast(acc, lm.bf16))

# -----
# A cluster of two blocks sharing B by multicast, each reading its count at
# its rank: not one value (the other block may read another).
from stdlib.hopper import WGMMA_M, WGMMA_N_MAX, SWIZZLE_128B_BF16_K

BM = 2 * WGMMA_M            # two consumer warpgroups of 64 rows
BN = WGMMA_N_MAX            # one 64x256 wgmma per warpgroup and k-step
BK = SWIZZLE_128B_BF16_K    # one 128-byte swizzled row of bf16 per stage
STAGES = 3

@cake.schedule(grid=(M // BM, N // BN), cluster=(2, 1, 1))
def gemm_bf16(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, LEN: LM.tensor1d[G], M: LM.i32, N: LM.i32, K: LM.i32, G: LM.i32):
    pool = lm.smem(212992)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    c_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=4, pipeline=ring)
    with load:
        n = lm.load_scalar(LEN, coords=(lm.cluster_rank(),), lo=0, hi=K // BK + 1)
        for k in lm.range(0, n):  # expected-error {{cannot prove that every block of the cluster runs role 'load''s multicast copy}}
            lm.wait(empty, stage=k)  # expected-error {{cannot prove that barrier 'empty' is signalled as often as it is awaited}}
            a_s.tma_load(A, coords=(k * BK, lm.block_id(0) * BM), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * BK, lm.block_id(1) * BN), stage=k, barrier=full, multicast=2)
    with math:
        n = lm.load_scalar(LEN, coords=(lm.cluster_rank(),), lo=0, hi=K // BK + 1)
        for k in lm.range(0, n):  # expected-error {{cannot prove that every block of the cluster runs role 'math''s arrival in every block}}
            lm.wait(full, stage=k)  # expected-error {{cannot prove that barrier 'full' is signalled as often as it is awaited}}
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup", cluster=True)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
        lm.tma_store_wait()

# -----
# The same at the cluster's index: one value in both blocks and all roles.
# expected-no-diagnostics
from stdlib.hopper import WGMMA_M, WGMMA_N_MAX, SWIZZLE_128B_BF16_K

BM = 2 * WGMMA_M            # two consumer warpgroups of 64 rows
BN = WGMMA_N_MAX            # one 64x256 wgmma per warpgroup and k-step
BK = SWIZZLE_128B_BF16_K    # one 128-byte swizzled row of bf16 per stage
STAGES = 3

@cake.schedule(grid=(M // BM, N // BN), cluster=(2, 1, 1))
def gemm_bf16(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, LEN: LM.tensor1d[G], M: LM.i32, N: LM.i32, K: LM.i32, G: LM.i32):
    pool = lm.smem(212992)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    c_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=4, pipeline=ring)
    with load:
        n = lm.load_scalar(LEN, coords=(lm.cluster_id(0),), lo=0, hi=K // BK + 1)
        for k in lm.range(0, n):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * BK, lm.block_id(0) * BM), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * BK, lm.block_id(1) * BN), stage=k, barrier=full, multicast=2)
    with math:
        n = lm.load_scalar(LEN, coords=(lm.cluster_id(0),), lo=0, hi=K // BK + 1)
        for k in lm.range(0, n):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup", cluster=True)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))
        lm.tma_store_wait()
