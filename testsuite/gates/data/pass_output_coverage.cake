# data.output-gap's near misses: writes that cover their tiles, and what the
# rule does not judge (docs/language.md 17.3). The failing inputs are
# fail_output_gap.cake; two roles that each write half of every tile, with
# loop variables of their own: gates/safety/pass_pingpong_epilogue.cake.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# The two halves of each tile.
# expected-no-diagnostics
@cake.schedule(grid=(4, 4))
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, lm.block_id(0) * 64), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, lm.block_id(1) * 128), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out, col=0)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * 128, lm.block_id(0) * 64))
        lm.tma_store_wait()
        lm.role_sync()
        c_s.store(out, col=64)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * 128 + 64, lm.block_id(0) * 64))
        lm.tma_store_wait()
        lm.role_sync()
# -----
# The halves in the other order, the second under a guard (guards only
# write less: not a gap the rule can see).
# expected-no-diagnostics
@cake.schedule(grid=(4, 4))
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, lm.block_id(0) * 64), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, lm.block_id(1) * 128), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out, col=64)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * 128 + 64, lm.block_id(0) * 64))
        lm.tma_store_wait()
        lm.role_sync()
        if K > 64:
            c_s.store(out, col=0)
            lm.fence_proxy()
            lm.role_sync()
            c_s.tma_store(C, coords=(lm.block_id(1) * 128, lm.block_id(0) * 64))
            lm.tma_store_wait()
            lm.role_sync()
# -----
# Constant coordinates: past the last store the tensor may end (not judged).
# expected-no-diagnostics
@cake.schedule()
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, lm.block_id(0) * 64), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, lm.block_id(1) * 128), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out, col=0)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, 0))
        lm.tma_store_wait()
        lm.role_sync()
        c_s.store(out, col=64)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(64, 0))
        lm.tma_store_wait()
        lm.role_sync()
# -----
# The loop over tiles writes whole tiles, as the last tile after it does.
# expected-no-diagnostics
@cake.schedule()
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32, T: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, lm.block_id(0) * 64), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, lm.block_id(1) * 128), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k)
        out = lm.cast(acc, lm.bf16)
        for t in lm.range(0, T):
            c_s.store(out, col=0)
            lm.fence_proxy()
            lm.role_sync()
            c_s.tma_store(C, coords=(t * 128, 0))
            lm.tma_store_wait()
            lm.role_sync()
            c_s.store(out, col=64)
            lm.fence_proxy()
            lm.role_sync()
            c_s.tma_store(C, coords=(t * 128 + 64, 0))
            lm.tma_store_wait()
            lm.role_sync()
        c_s.store(out, col=0)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(T * 128, 0))
        lm.tma_store_wait()
        lm.role_sync()
        c_s.store(out, col=64)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(T * 128 + 64, 0))
        lm.tma_store_wait()
        lm.role_sync()
