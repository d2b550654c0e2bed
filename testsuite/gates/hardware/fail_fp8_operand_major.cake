# fp8 wgmma has no transpose immediates: it reads A as an (M, K) tile and B
# as an (N, K) tile used as '.T', both K-major. An MN-major fp8 operand is
# rejected where it is used, with what to do instead; the near-miss is
# pass_fp8_k_major.cake. The same B as bf16 is lowered MN-major (last part).
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# RUN: %expect-exit 1 %cakec -split-input-file -fsyntax-only --target=sm_90a %s 2>&1 | FileCheck %s
# CHECK: fail_fp8_operand_major.cake:[[@LINE+24]]:33: error: fp8 wgmma on sm_90a reads its B operand K-major only, but 'b_s' is a (128, 256) tile read as (K, N) (MN-major); store the weight K-major, as an (N, K) tensor copied into a (256, 128) view used as 'b_s.T', or transpose it in shared memory first [hw.mma-operand-major]
# CHECK: note: 'b_s' declared here
# CHECK: error: fp8 wgmma on sm_90a reads its A operand K-major only, but 'a_t' is a (128, 128) tile read as (K, M) (MN-major); store A K-major, as an (M, K) tensor copied into a (128, 128) view used without '.T', or transpose it in shared memory first [hw.mma-operand-major]
# B (K, N) e4m3, used without '.T'.
@cake.schedule(grid=(M // 128, N // 256))
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(3 * (128 + 256) * 128 + 128 * 256 * 2)
    a_s = pool.view(offset=0, shape=(128, 128), dtype=lm.e4m3, stage=3, swizzle="128B")
    b_s = pool.view(offset=3 * 128 * 128, shape=(128, 256), dtype=lm.e4m3, stage=3, swizzle="128B")  # expected-note {{'b_s' declared here}}
    c_s = pool.view(offset=3 * (128 + 256) * 128, shape=(128, 256), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(128, 256), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=3)
    full = lm.barrier(count=3, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=3, prod=[math], cons=[load], init_count=2, pipeline=ring)
    with load:
        for k in lm.range(0, K // 128):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 128, lm.block_id(0) * 128), stage=k, barrier=full)
            b_s.tma_load(B, coords=(lm.block_id(1) * 256, k * 128), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 128):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k], init=(k == 0))  # expected-error {{fp8 wgmma on sm_90a reads its B operand K-major only, but 'b_s' is a (128, 256) tile read as (K, N) (MN-major)}}
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        c_s.store(lm.cast(acc, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * 256, lm.block_id(0) * 128))
        lm.tma_store_wait()

# -----
# A (K, M) e5m2 used as '.T' (B e4m3 K-major: the types mix).
@cake.schedule(grid=(M // 128, N // 256))
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(3 * (128 + 256) * 128 + 128 * 256 * 2)
    a_t = pool.view(offset=0, shape=(128, 128), dtype=lm.e5m2, stage=3, swizzle="128B")  # expected-note {{'a_t' declared here}}
    b_s = pool.view(offset=3 * 128 * 128, shape=(256, 128), dtype=lm.e4m3, stage=3, swizzle="128B")
    c_s = pool.view(offset=3 * (128 + 256) * 128, shape=(128, 256), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(128, 256), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=3)
    full = lm.barrier(count=3, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=3, prod=[math], cons=[load], init_count=2, pipeline=ring)
    with load:
        for k in lm.range(0, K // 128):
            lm.wait(empty, stage=k)
            a_t.tma_load(A, coords=(lm.block_id(0) * 128, k * 128), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 128, lm.block_id(1) * 256), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 128):
            lm.wait(full, stage=k)
            lm.mma(acc, a_t[k].T, b_s[k].T, init=(k == 0))  # expected-error {{fp8 wgmma on sm_90a reads its A operand K-major only, but 'a_t' is a (128, 128) tile read as (K, M) (MN-major)}}
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        c_s.store(lm.cast(acc, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * 256, lm.block_id(0) * 128))
        lm.tma_store_wait()

# -----
# The first part's B as bf16: wgmma's transpose immediate reads it MN-major.
# expected-no-diagnostics
@cake.schedule(grid=(M // 128, N // 256))
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(3 * (128 + 256) * 128 + 128 * 256 * 2)
    a_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=3, swizzle="128B")
    b_s = pool.view(offset=3 * 128 * 128, shape=(64, 256), dtype=lm.bf16, stage=3, swizzle="128B")
    c_s = pool.view(offset=3 * (128 + 256) * 128, shape=(128, 256), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(128, 256), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=3)
    full = lm.barrier(count=3, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=3, prod=[math], cons=[load], init_count=2, pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, lm.block_id(0) * 128), stage=k, barrier=full)
            b_s.tma_load(B, coords=(lm.block_id(1) * 256, k * 64), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k], init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        c_s.store(lm.cast(acc, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * 256, lm.block_id(0) * 128))
        lm.tma_store_wait()

# -----
# An fp8 B beside a bf16 A read transposed: the types disagree (data.mma-dtype),
# and the fp8 rule, which is about two fp8 operands, says nothing.
@cake.schedule(grid=(M // 128, N // 256))
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(3 * (128 + 256) * 128 + 128 * 256 * 2)
    a_t = pool.view(offset=0, shape=(64, 128), dtype=lm.bf16, stage=3, swizzle="128B")
    b_s = pool.view(offset=3 * 128 * 128, shape=(256, 64), dtype=lm.e4m3, stage=3, swizzle="64B")
    c_s = pool.view(offset=3 * (128 + 256) * 128, shape=(128, 256), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(128, 256), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=3)
    full = lm.barrier(count=3, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=3, prod=[math], cons=[load], init_count=2, pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_t.tma_load(A, coords=(lm.block_id(0) * 128, k * 64), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, lm.block_id(1) * 256), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_t[k].T, b_s[k].T, init=(k == 0))  # expected-error {{'lm.mma' operands disagree: 'a_t' is bf16 but 'b_s' is e4m3}}
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        c_s.store(lm.cast(acc, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * 256, lm.block_id(0) * 128))
        lm.tma_store_wait()
