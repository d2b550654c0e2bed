# A role of two warpgroups writing O over the rows of Q it read itself as
# wgmma's A operand (issue 34, reproduction r2; ThunderKittens' attention):
# each warpgroup's wgmma reads its own 64 rows of q_s and each warpgroup
# stores its own 64 rows of the fragment, so a warpgroup's write meets only
# its own read, which its own lm.mma_wait orders; no lm.role_sync() needed.
# Broken variants: fail_alias_own_rows.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# RUN: %cakec --target=sm_90a %s -o %t.cu
# expected-no-diagnostics
@cake.schedule()
def k(lm, Q: LM.tma2d, Kt: LM.tma2d, O: LM.tma2d):
    pool = lm.smem(65536)
    q_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, swizzle="128B", alias=True)
    k_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11])
    s = lm.regs(shape=(128, 64), dtype=lm.f32, role=math)
    ready = lm.barrier(count=1, prod=[load], cons=[math])
    with load:
        q_s.tma_load(Q, coords=(0, 0), barrier=ready)
        k_s.tma_load(Kt, coords=(0, 0), barrier=ready)
    with math:
        lm.wait(ready, stage=0)
        lm.mma(s, q_s, k_s.T, init=True)
        lm.mma_commit()
        lm.mma_wait(pending=0)
        out = lm.cast(s, lm.bf16)
        o_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()
