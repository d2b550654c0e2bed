# fail_alias_own_rows_transposed.cake without the alias: the transposed store
# goes into q_s itself, which the other warpgroup's wgmma may still read.
# Found by review (helper-30, 2026-12-05).
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, Q: LM.tma2d, Kt: LM.tma2d, O: LM.tma2d):
    pool = lm.smem(65536)
    q_s = pool.view(offset=0, shape=(128, 128), dtype=lm.bf16, swizzle="128B")
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
        lm.mma(s, q_s, k_s.T, init=True)  # expected-note {{'q_s' read here}}
        lm.mma_commit()
        lm.mma_wait(pending=0)
        out = lm.cast(s, lm.bf16)
        q_s.store(out, transpose=True)  # expected-error {{role 'math' writes 'q_s' while role 'math' may still be reading, in another of its warpgroups, 'q_s', which shares those bytes: each warpgroup waits for its own MMA only; an lm.role_sync() after that wait and before the write makes every warpgroup's wait come first}}
        lm.fence_proxy()
        lm.role_sync()
        q_s.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()
