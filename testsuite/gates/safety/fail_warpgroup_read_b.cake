# A role of two warpgroups stores a tile into b_s and reads it as wgmma's B
# operand after a fence but no lm.role_sync(): each warpgroup's wgmma reads
# all of b_s, and the MMA orders no other warp's stores (the other
# warpgroup's rows may not be written yet). Found by review (helper-30,
# 2026-12-05); the near miss is pass_warpgroup_read.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, Q: LM.tma2d, O: LM.tma2d):
    pool = lm.smem(131072)
    q_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=65536, shape=(128, 128), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11])
    s = lm.regs(shape=(128, 64), dtype=lm.bf16, role=math)
    o = lm.regs(shape=(128, 128), dtype=lm.f32, role=math)
    ready = lm.barrier(count=1, prod=[load], cons=[math])
    with load:
        q_s.tma_load(Q, coords=(0, 0), barrier=ready)
    with math:
        s = lm.fill(s, 1.0)
        b_s.store(s)  # expected-note {{'b_s' written here}}
        lm.fence_proxy()
        lm.wait(ready, stage=0)
        lm.mma(o, q_s, b_s.T, init=True)  # expected-error {{the MMA of each warpgroup of role 'math' reads all of 'b_s' ('mma') right after the role's threads wrote it, but every warp of the role wrote part of it; the MMA orders no other warp's stores before its reads: add 'lm.role_sync()' after the fence}}
        lm.mma_commit()
        lm.mma_wait(pending=0)
        o_s.store(lm.cast(o, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()
