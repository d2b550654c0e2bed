# A role of two warpgroups stores a tile into p_s transposed, then each
# warpgroup's wgmma reads its own 64 rows of p_s as the A operand: the
# transposed store gave every warpgroup elements of those rows, so the
# fence alone does not order them before the read; lm.role_sync() does.
# Near miss (a plain store: each warpgroup writes the rows its wgmma reads):
# pass_warpgroup_read.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, V: LM.tma2d, O: LM.tma2d):
    pool = lm.smem(131072)
    p_s = pool.view(offset=0, shape=(128, 128), dtype=lm.bf16, swizzle="128B")
    v_s = pool.view(offset=32768, shape=(64, 128), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=65536, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11])
    s = lm.regs(shape=(128, 128), dtype=lm.bf16, role=math)
    o = lm.regs(shape=(128, 64), dtype=lm.f32, role=math)
    ready = lm.barrier(count=1, prod=[load], cons=[math])
    with load:
        v_s.tma_load(V, coords=(0, 0), barrier=ready)
    with math:
        s = lm.fill(s, 1.0)
        p_s.store(s, transpose=True)  # expected-note {{'p_s' written here}}
        lm.fence_proxy()
        lm.wait(ready, stage=0)
        lm.mma(o, p_s, v_s.T, init=True)  # expected-error {{the MMA of each warpgroup of role 'math' reads its own rows of 'p_s' ('mma') right after the role's threads wrote it, but the transposed store put each warp's elements in other warps' rows; the MMA orders no other warp's stores before its reads: add 'lm.role_sync()' after the fence}}
        lm.mma_commit()
        lm.mma_wait(pending=0)
        o_s.store(lm.cast(o, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()
