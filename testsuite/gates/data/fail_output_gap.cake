# data.output-gap: part of a tensor that no write covers, in any block and at
# any shape (docs/language.md 17.3). One failing input per part; the passing
# near-misses are pass_output_coverage.cake, the broken variants of the
# examples output_gap_examples.test.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# The second half of each 128-column tile stored 32 columns early.
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
        c_s.tma_store(C, coords=(lm.block_id(1) * 128, lm.block_id(0) * 64))  # expected-error {{the writes of tensor 'C' leave part of it unwritten: no write covers elements [0, 64) x [96, 128) (outermost first), nor the same elements of any other 64 x 128 step of its coordinates, in any block}} expected-note {{'C' is written here: elements [0, 64) x [0, 64)}}
        lm.tma_store_wait()
        lm.role_sync()
        c_s.store(out, col=64)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * 128 + 32, lm.block_id(0) * 64))  # expected-note {{'C' is written here: elements [0, 64) x [32, 96)}}
        lm.tma_store_wait()
        lm.role_sync()
# -----
# Constant coordinates: the columns between two stores are never written.
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
        c_s.tma_store(C, coords=(0, 0))  # expected-error {{the writes of tensor 'C' leave part of it unwritten: no write covers elements [0, 64) x [64, 128) (outermost first), in any block}} expected-note {{'C' is written here: elements [0, 64) x [0, 64)}}
        lm.tma_store_wait()
        lm.role_sync()
        c_s.store(out, col=64)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(128, 0))  # expected-note {{'C' is written here: elements [0, 64) x [128, 192)}}
        lm.tma_store_wait()
        lm.role_sync()
# -----
# A loop over tiles whose epilogue lost its second half: the last tile's,
# after the loop, is whole, but it is another tile (another variable part).
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
            c_s.tma_store(C, coords=(t * 128, 0))  # expected-error {{the writes of tensor 'C' leave part of it unwritten: no write covers elements [0, 64) x [64, 128) (outermost first), nor the same elements of any other * x 128 step of its coordinates, in any block}} expected-note {{'C' is written here: elements [0, 64) x [0, 64)}}
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
