# blocks_per_sm= on @cake.schedule (hw.blocks-per-sm): the kernel is built for N
# resident blocks per multiprocessor (__launch_bounds__(threads, N)), and N blocks
# must fit one together: the resident-block limit, their shared memory with the
# 1 KB the runtime reserves for each in units of 128 bytes, their threads, their
# TMEM columns (blocks_per_sm_sm100a.cake; sm_89's limits in blocks_per_sm_sm89.cake).
# The register budgets share what N blocks leave a block (hw.register-file), and a
# wgmma accumulator must leave registers over in what its role has
# (hw.accumulator-registers). Failing inputs and their passing near-misses.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# pass: 2 blocks of 115,680 bytes (pool and barriers) fill sm_90a's 233,472 per multiprocessor
# with the runtime's 1 KB per block, in units of 128 bytes: 2 x 116,736 = 233,472.
# expected-no-diagnostics
@cake.schedule(grid=(4,), blocks_per_sm=2)
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):
    pool = lm.smem(115648)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
# -----
# fail: 64 bytes more and the two blocks do not fit.
@cake.schedule(grid=(4,), blocks_per_sm=2)  # expected-error {{kernel 'k' is built for 2 blocks per multiprocessor (blocks_per_sm=), which need 233728 bytes of shared memory (2 x 116864: 115744 and the 1024 the runtime reserves per block, in units of 128); a multiprocessor of sm_90a has 233472 bytes}}
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):
    pool = lm.smem(115712)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
# -----
# fail: 9 blocks of 256 threads are 2304 resident threads; sm_90a has 2048.
@cake.schedule(grid=(4,), blocks_per_sm=9)  # expected-error {{which need 2304 threads (9 x 256); a multiprocessor of sm_90a has 2048 resident threads}}
def k(lm, X: LM.tensor2d, Y: LM.tensor2d):
    w = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    with w:
        x = lm.load_tile(X, coords=(0, lm.block_id(0)), shape=(1, 256), dtype=lm.f32)
        lm.store_tile(Y, coords=(0, lm.block_id(0)), src=x)
# -----
# pass: 8 blocks of 256 threads are sm_90a's 2048 (sm_89 has 1536: blocks_per_sm_sm89.cake).
# expected-no-diagnostics
@cake.schedule(grid=(4,), blocks_per_sm=8)
def k(lm, X: LM.tensor2d, Y: LM.tensor2d):
    w = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    with w:
        x = lm.load_tile(X, coords=(0, lm.block_id(0)), shape=(1, 256), dtype=lm.f32)
        lm.store_tile(Y, coords=(0, lm.block_id(0)), src=x)
# -----
# fail: register budgets of 240 + 24 per thread are 33,792 registers a block; two blocks
# launch with 128 each (65,536 / 2 / 256), a pool of 32,768.
@cake.schedule(grid=(4,), blocks_per_sm=2)
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):  # expected-error {{register budgets need 33792 registers per block (24 x 128 threads for 'load' + 240 x 128 threads for 'math'); the block is launched with 32768 (256 threads x 128 each)}}
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3], regs=24)
    math = lm.role(warps=[4, 5, 6, 7], regs=240)
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
# -----
# pass: 232 + 24 is exactly the pool of two blocks (the decode attention's budgets).
# expected-no-diagnostics
@cake.schedule(grid=(4,), blocks_per_sm=2)
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3], regs=24)
    math = lm.role(warps=[4, 5, 6, 7], regs=232)
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
# -----
# pass: one block (the default) keeps the whole register file: 240 + 24 fit.
# expected-no-diagnostics
@cake.schedule(grid=(4,), blocks_per_sm=1)
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3], regs=24)
    math = lm.role(warps=[4, 5, 6, 7], regs=240)
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
# -----
# fail: blocks_per_sm is a positive compile-time integer.
@cake.schedule(grid=(4,), blocks_per_sm=0)  # expected-error {{blocks_per_sm must be positive, got 0}}
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
# -----
# fail: not a run-time value.
@cake.schedule(grid=(4,), blocks_per_sm=K)  # expected-error {{blocks_per_sm must be a compile-time constant}}
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
# -----
# fail: a multiprocessor holds at most 32 blocks (blocks of one warp: the threads would fit).
@cake.schedule(grid=(4,), blocks_per_sm=33)  # expected-error {{which need 33 resident blocks; a multiprocessor of sm_90a has room for 32 blocks}}
def k(lm, X: LM.tensor2d, Y: LM.tensor2d):
    w = lm.role(warps=[0])
    with w:
        x = lm.load_tile(X, coords=(0, lm.block_id(0)), shape=(1, 256), dtype=lm.f32)
        lm.store_tile(Y, coords=(0, lm.block_id(0)), src=x)
# -----
# pass: 32 blocks of one warp.
# expected-no-diagnostics
@cake.schedule(grid=(4,), blocks_per_sm=32)
def k(lm, X: LM.tensor2d, Y: LM.tensor2d):
    w = lm.role(warps=[0])
    with w:
        x = lm.load_tile(X, coords=(0, lm.block_id(0)), shape=(1, 256), dtype=lm.f32)
        lm.store_tile(Y, coords=(0, lm.block_id(0)), src=x)
# -----
# fail: shared memory goes to blocks in units of 128 bytes: 5 x (45,608 + 1,024) is
# 233,160, within 233,472, but each block takes 46,720, five 233,600.
@cake.schedule(grid=(4,), blocks_per_sm=5)  # expected-error {{which need 233600 bytes of shared memory (5 x 46720: 45608 and the 1024 the runtime reserves per block, in units of 128); a multiprocessor of sm_90a has 233472 bytes}}
def k(lm, A: LM.tma2d, C: LM.tma2d):
    pool = lm.smem(45600)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16)
    w = lm.role(warps=[0])
    full = lm.barrier(count=1, prod=[w], cons=[w])
    with w:
        a_s.tma_load(A, coords=(0, 0), stage=0, barrier=full)
        lm.wait(full, stage=0)
        lm.fence_proxy()
        a_s.tma_store(C, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
# -----
# pass: 64 bytes less: 46,592 a block, five 232,960.
# expected-no-diagnostics
@cake.schedule(grid=(4,), blocks_per_sm=5)
def k(lm, A: LM.tma2d, C: LM.tma2d):
    pool = lm.smem(45536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16)
    w = lm.role(warps=[0])
    full = lm.barrier(count=1, prod=[w], cons=[w])
    with w:
        a_s.tma_load(A, coords=(0, 0), stage=0, barrier=full)
        lm.wait(full, stage=0)
        lm.fence_proxy()
        a_s.tma_store(C, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
# -----
# fail: registers go to warps by quarters of the file: 2 blocks of 9 warps are 18 warps,
# 5 to a quarter of 16,384 registers, so each thread has 96 (not 65,536 / 2 / 288 = 113):
# a pool of 27,648 that budgets of 24 and 176 with a 96-register warp exceed.
@cake.schedule(grid=(4,), blocks_per_sm=2)
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, X: LM.tensor2d, Y: LM.tensor2d, K: LM.i32):  # expected-error {{register budgets need 28672 registers per block (24 x 128 threads for 'load' + 176 x 128 threads for 'math' + 96 x 32 threads for 'extra'); the block is launched with 27648 (288 threads x 96 each)}}
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3], regs=24)
    math = lm.role(warps=[4, 5, 6, 7], regs=176)
    extra = lm.role(warps=[8])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
    with extra:
        x = lm.load_tile(X, coords=(0, lm.block_id(0)), shape=(1, 256), dtype=lm.f32)
        lm.store_tile(Y, coords=(0, lm.block_id(0)), src=x)
# -----
# pass: a budget of 168 fills the pool.
# expected-no-diagnostics
@cake.schedule(grid=(4,), blocks_per_sm=2)
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, X: LM.tensor2d, Y: LM.tensor2d, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3], regs=24)
    math = lm.role(warps=[4, 5, 6, 7], regs=168)
    extra = lm.role(warps=[8])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
    with extra:
        x = lm.load_tile(X, coords=(0, lm.block_id(0)), shape=(1, 256), dtype=lm.f32)
        lm.store_tile(Y, coords=(0, lm.block_id(0)), src=x)
# -----
# fail: a 64 x 256 f32 wgmma accumulator is 128 registers a thread of its warpgroup; two
# blocks of 256 threads launch with 128 (hw.accumulator-registers: ptxas cannot compile it).
@cake.schedule(grid=(4,), blocks_per_sm=2)
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):
    pool = lm.smem(114688)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(256, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=81920, shape=(64, 256), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 256), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))  # expected-error {{the wgmma accumulator 'acc' takes 128 registers in each thread of role 'math', which has 128 (what 256 threads are launched with at 2 block(s) per SM)}}
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
# -----
# pass: one block per SM launches with 256 (ptxas: 154 used).
# expected-no-diagnostics
@cake.schedule(grid=(4,), blocks_per_sm=1)
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):
    pool = lm.smem(114688)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(256, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=81920, shape=(64, 256), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 256), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
# -----
# fail: a budget of 128 for the same accumulator, one block per SM.
@cake.schedule(grid=(4,), blocks_per_sm=1)
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):
    pool = lm.smem(114688)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(256, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=81920, shape=(64, 256), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3], regs=24)
    math = lm.role(warps=[4, 5, 6, 7], regs=128)
    acc = lm.regs(shape=(64, 256), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))  # expected-error {{the wgmma accumulator 'acc' takes 128 registers in each thread of role 'math', which has 128 (its regs= budget)}}
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
# -----
# pass: the usual 232.
# expected-no-diagnostics
@cake.schedule(grid=(4,), blocks_per_sm=1)
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):
    pool = lm.smem(114688)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(256, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=81920, shape=(64, 256), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3], regs=24)
    math = lm.role(warps=[4, 5, 6, 7], regs=232)
    acc = lm.regs(shape=(64, 256), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
