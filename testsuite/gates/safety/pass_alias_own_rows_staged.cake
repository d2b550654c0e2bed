# pass_alias_own_rows.cake with Q in a two-stage view and O written back
# into the stage of that view Q's wgmma read: each warpgroup still writes
# only its own rows (refused before 2026-12-05 for the stages alone; the
# shared fact analysis::warpgroupRowsMismatch asks for one stage only of two
# views, not of one); lowered and assembled.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# RUN: %cakec --target=sm_90a %s -o %t.cu
# expected-no-diagnostics
@cake.schedule()
def k(lm, Q: LM.tma2d, Kt: LM.tma2d, O: LM.tma2d):
    pool = lm.smem(65536)
    q_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, swizzle="128B", stage=2)
    k_s = pool.view(offset=32768, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11])
    s = lm.regs(shape=(128, 64), dtype=lm.f32, role=math)
    ready = lm.barrier(count=2, prod=[load], cons=[math])
    with load:
        q_s.tma_load(Q, coords=(0, 0), stage=0, barrier=ready)
        k_s.tma_load(Kt, coords=(0, 0), barrier=ready)
    with math:
        lm.wait(ready, stage=0)
        lm.mma(s, q_s[0], k_s.T, init=True)
        lm.mma_commit()
        lm.mma_wait(pending=0)
        out = lm.cast(s, lm.bf16)
        q_s.store(out, stage=0)
        lm.fence_proxy()
        lm.role_sync()
        q_s.tma_store(O, coords=(0, 0), stage=0)
        lm.tma_store_wait()
