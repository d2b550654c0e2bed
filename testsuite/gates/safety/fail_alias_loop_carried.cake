# safety.alias-race within a role, around a loop's back edge: a store at
# the top of an iteration over bytes the previous iteration's MMA read, by
# another warp (mma.sync) or warpgroup (wgmma), with no role sync after that
# MMA (or its wait) on the way (found by review, helper-44, 2026-12-07: the
# rule paired only reads before the write in program order).
# Near misses: pass_alias_loop_carried.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def loop_carried_wgmma(lm, O: LM.tensor2d):
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
            o_s.store(out)  # expected-error {{role 'math' writes 'o_s' while role 'math' may still be reading, in another of its warpgroups, 'k_s', which shares those bytes: each warpgroup waits for its own MMA only; an lm.role_sync() after that wait and before the write makes every warpgroup's wait come first}}
            lm.fence_proxy()
            lm.role_sync()
            lm.mma(s, q_s, k_s.T, init=True)  # expected-note {{'k_s' read here}}
            lm.mma_commit()
            lm.mma_wait(pending=0)
        lm.role_sync()
        o_s.copy_to(O, coords=(0, 0))

# The wait at the top of the loop comes before any commit (the group is
# committed only after the loop): it retires nothing, so the store races
# the previous iteration's wgmma (found by review, helper-46).
@cake.schedule()
def wait_before_commit(lm, O: LM.tensor2d, n: LM.i32):
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
            lm.mma_wait(pending=0)
            lm.role_sync()
            o_s.store(out)  # expected-error {{role 'math' writes 'o_s' while role 'math' may still be reading, in another of its warpgroups, 'k_s', which shares those bytes: each warpgroup waits for its own MMA only; an lm.role_sync() after that wait and before the write makes every warpgroup's wait come first}}
            lm.fence_proxy()
            lm.role_sync()
            lm.mma(s, q_s, k_s.T, init=True)  # expected-note {{'k_s' read here}}
        lm.mma_commit()
        lm.mma_wait(pending=0)
        lm.role_sync()
        o_s.copy_to(O, coords=(0, 0))
