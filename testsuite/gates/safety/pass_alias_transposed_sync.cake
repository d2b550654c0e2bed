# The near miss of fail_alias_own_rows_transposed.cake: O's fragment stored
# transposed over Q, which both warpgroups read as wgmma's A, after an
# lm.role_sync() that follows every warpgroup's mma_wait. It lowers.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# RUN: %cakec --target=sm_90a %s -o %t.cu
# expected-no-diagnostics
@cake.schedule()
def k(lm, Q: LM.tma2d, Kt: LM.tma2d, O: LM.tma2d):
    pool = lm.smem(65536)
    q_s = pool.view(offset=0, shape=(128, 128), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=0, shape=(128, 128), dtype=lm.bf16, swizzle="128B", alias=True)
    k_s = pool.view(offset=32768, shape=(128, 128), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11])
    s = lm.regs(shape=(128, 128), dtype=lm.f32, role=math)
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
        lm.role_sync()                    # every warpgroup's wgmma is done with q_s
        o_s.store(out, transpose=True)
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()
