# Two roles that read the same element of a table the kernel does not
# write, at coordinates and with a range the same in every role of a block,
# read one value (docs/language.md 9.8): in the first input both loop
# n = LEN[b] times over a ring, which the safety gate proves (lowered and
# built with nvcc by testsuite/crossblock/load_scalar.test). The broken
# variants read different elements, with different ranges, or at a role's
# second read of an element: their loops' trip counts are not proven
# (safety.unproven-trip-count). (A table the kernel writes is refused:
# fail_value_read_written.cake.)
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
