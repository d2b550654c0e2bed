# safety.alias-race within a role, around a loop's back edge: a store at
# the top of an iteration over bytes the previous iteration's MMA read, by
# another warp (mma.sync) or warpgroup (wgmma), with no role sync after that
# MMA (or its wait) on the way (found by review, helper-44, 2026-12-07: the
# rule paired only reads before the write in program order).
# Near misses: pass_alias_loop_carried.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_80 %s
@cake.schedule()
def loop_carried_mma_sync(lm, O: LM.tensor2d):
    pool = lm.smem(65536)
    q_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, swizzle="128B", alias=True)
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    out = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    with math:
        out = lm.fill(out, 1.0)
        q_s.store(out)
        k_s.store(out)
        for i in lm.range(0, 2):
            o_s.store(out)  # expected-error {{role 'math' writes 'o_s' while role 'math' may still be reading, in another of its warps, 'k_s', which shares those bytes: each warp's mma.sync reads its own tiles and is over for that warp only; an lm.role_sync() after the MMA and before the write makes every warp's reads come first}}
            lm.role_sync()
            lm.mma(s, q_s, k_s.T, init=True)  # expected-note {{'k_s' read here}}
            out = lm.cast(s, lm.bf16)
        lm.role_sync()
        o_s.copy_to(O, coords=(0, 0))
