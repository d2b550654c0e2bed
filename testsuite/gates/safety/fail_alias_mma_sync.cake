# safety.alias-race within a role of mma.sync (sm_80, sm_89, sm_120a): each
# warp's MMA reads its own tiles of A and the B tiles its columns need, and
# is over for that warp only, so a store through an alias of bytes the MMA
# read, in a role of several warps, needs a role sync between (accepted
# before 2026-12-07: the rule asked for it only in roles of more than one
# warpgroup, as wgmma needs; a GPU verdict in bench/results/device_2026-12-07).
# Near miss: pass_alias_mma_sync.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_80 %s
# RUN: %cakec -verify -fsyntax-only --target=sm_120a %s
@cake.schedule()
def write_over_b(lm, Q: LM.tensor2d, Kt: LM.tensor2d, O: LM.tensor2d):
    pool = lm.smem(65536)
    q_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, swizzle="128B", alias=True)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    s = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ready = lm.barrier(count=1, prod=[load], cons=[math], init_count=256)
    with load:
        q_s.cp_async(Q, coords=(0, 0), barrier=ready)
        k_s.cp_async(Kt, coords=(0, 0), barrier=ready)
    with math:
        lm.wait(ready, stage=0)
        lm.mma(s, q_s, k_s.T, init=True)  # expected-note {{'k_s' read here}}
        out = lm.cast(s, lm.bf16)
        o_s.store(out)  # expected-error {{role 'math' writes 'o_s' while role 'math' may still be reading, in another of its warps, 'k_s', which shares those bytes: each warp's mma.sync reads its own tiles and is over for that warp only; an lm.role_sync() after the MMA and before the write makes every warp's reads come first}}
        lm.role_sync()
        o_s.copy_to(O, coords=(0, 0))
