# Near misses of fail_alias_loop_carried.cake: a role sync after the
# MMA (its wait), before the loop's next store over its bytes.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# RUN: %cakec --target=sm_90a %s -o %t.cu
# expected-no-diagnostics
@cake.schedule()
def loop_carried(lm, O: LM.tensor2d):
    pool = lm.smem(65536)
    q_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, swizzle="128B", alias=True)
    math = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    s = lm.regs(shape=(128, 128), dtype=lm.f32, role=math)
    out = lm.regs(shape=(128, 64), dtype=lm.bf16, role=math)
    with math:
        out = lm.fill(out, 1.0)
        q_s.store(out)
        k_s.store(out)
        lm.role_sync()
        for i in lm.range(0, 2):
            o_s.store(out)
            lm.fence_proxy()
            lm.role_sync()
            lm.mma(s, q_s, k_s.T, init=True)
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.role_sync()
        lm.role_sync()
        o_s.copy_to(O, coords=(0, 0))

# The previous iteration's wgmma retired at the top of the next, then a
# role sync, then the store over its bytes (rejected for a while on
# 2026-12-07: only the first wait after the MMA in program order counted;
# found by review, helper-45).
@cake.schedule()
def wait_top(lm, O: LM.tensor2d, n: LM.i32):
    pool = lm.smem(65536)
    q_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, swizzle="128B", alias=True)
    math = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    s = lm.regs(shape=(128, 128), dtype=lm.f32, role=math)
    out = lm.regs(shape=(128, 64), dtype=lm.bf16, role=math)
    with math:
        out = lm.fill(out, 1.0)
        q_s.store(out)
        k_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        for i in lm.range(0, 2):
            lm.mma_wait(pending=0)
            lm.role_sync()
            o_s.store(out)
            lm.fence_proxy()
            lm.role_sync()
            lm.mma(s, q_s, k_s.T, init=True)
            lm.mma_commit()
        lm.mma_wait(pending=0)
        lm.role_sync()
        o_s.copy_to(O, coords=(0, 0))

# The group committed at the top of the next iteration, then waited for,
# then a role sync before the store.
@cake.schedule()
def commit_then_wait_at_top(lm, O: LM.tensor2d, n: LM.i32):
    pool = lm.smem(65536)
    q_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, swizzle="128B", alias=True)
    math = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    s = lm.regs(shape=(128, 128), dtype=lm.f32, role=math)
    out = lm.regs(shape=(128, 64), dtype=lm.bf16, role=math)
    with math:
        out = lm.fill(out, 1.0)
        q_s.store(out)
        k_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        for k in lm.range(0, 4):
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.role_sync()
            o_s.store(out)
            lm.fence_proxy()
            lm.role_sync()
            lm.mma(s, q_s, k_s.T, init=True)
        lm.mma_commit()
        lm.mma_wait(pending=0)
        lm.role_sync()
        o_s.copy_to(O, coords=(0, 0))
